"""End-to-end tests of the `warroom` command line with Kampen om Norge, each command a process of its own
(`test_cli_norway.run`: forked from the warm command line, or the installed console script): the game is
listed and validates; autoplay is the same for the same seed; simulate gives the same aggregates with one or
two processes; a 3-player game of bots and a 2-player game with a person holding Norway and the Allies play to
the end through `play` and replay from their saves; bad options and bad input are refused with a reason.
The advanced game (--advanced: ships and the 9 April round) is played, autoplayed, simulated and resumed the
same way, and refused for a Firestorm campaign."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_norway import Run, log_of, run

from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.rulesets.kampen import KampenState, new_game

pytestmark = pytest.mark.xdist_group("cli-kampen")  # one worker, so that the runs two tests share are made once


@pytest.fixture(scope="module")
def basic_autoplay() -> Run:
    """`autoplay kampen --seed 5`: the basic game, played again by the first test and unlike the advanced game of
    the same seed in the other."""
    return run("autoplay", "kampen", "--seed", "5")


@pytest.fixture(scope="module")
def basic_simulation() -> Run:
    """The basic game simulated by two worker processes (as JSON): the same as by one, and unlike the advanced game
    simulated with the same seed."""
    return run("simulate", "kampen", "--games", "4", "--seed", "2", "--jobs", "2", "--json", script=True)


def test_kampen_is_listed_and_validates() -> None:
    r = run("scenarios")
    assert r.code == 0 and "kampen" in r.out and "Kampen om" in r.out, r.err
    data = Path(__file__).parents[2] / "warroom" / "scenarios" / "data" / "kampen"
    v = run("validate", data, script=True)
    assert v.code == 0 and "44 land areas" in " ".join(v.out.split()) and "112 play cards" in " ".join(v.out.split())


def test_autoplay_is_the_same_for_the_same_seed_and_ends_with_the_outcome(basic_autoplay: Run) -> None:
    first, second, other = basic_autoplay, run("autoplay", "kampen", "--seed", "5", script=True), \
        run("autoplay", "kampen", "--seed", "6")
    assert first.code == 0, first.err
    assert first.out == second.out and first.out != other.out
    assert "Outcome: " in first.out and "victory" in first.out.splitlines()[-1]


def test_simulate_aggregates_do_not_depend_on_jobs(basic_simulation: Run) -> None:
    one, two = run("simulate", "kampen", "--games", "4", "--seed", "2", "--json"), basic_simulation
    assert one.code == 0 and two.code == 0, one.err + two.err
    a, b = json.loads(one.out), json.loads(two.out)
    assert a == b and a["games"] == 4 and a["scenario"] == "kampen"


def replays(path: Path) -> KampenState:
    record = GameRecord.load(path)
    st = replay(record, lambda: new_game(None, dict(record.params)))
    assert isinstance(st, KampenState)
    return st


def test_a_three_player_game_of_bots_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "three.json"
    r = run("play", "kampen", "--players", "3", "--germany", "bot", "--norway", "bot", "--kampen-allies", "bot",
            "--seed", "4", "--save", save, script=True)
    assert r.code == 0, r.err
    assert "victory after" in " ".join(r.out.split())
    st = replays(save)
    assert st.is_terminal() and st.params["players"] == {"germany": "bot", "norway": "bot", "allies": "bot"}


def test_a_person_holding_norway_and_the_allies_plays_a_whole_game(tmp_path: Path) -> None:
    save = tmp_path / "two.json"
    r = run("play", "kampen", "--players", "2", "--germany", "bot", "--norway", "human", "--seed", "8",
            "--save", save, stdin="1\n" * 6000)
    assert r.code == 0, r.err
    log = log_of(save)
    assert {e["side"] for e in log} >= {"germany", "norway", "allies", "chance"}
    st = replays(save)
    assert st.is_terminal(), "the scripted person answered every decision to the end"


def test_bad_options_and_input_are_refused_with_a_reason(tmp_path: Path) -> None:
    assert "same value" in run("play", "kampen", "--norway", "human", "--kampen-allies", "bot").err
    assert "Kampen om Norge options" in run("play", "caen", "--germany", "bot").err
    save = tmp_path / "bad.json"
    r = run("play", "kampen", "--seed", "2", "--save", save, stdin="move oslo tromso 9\nfly away\n")
    out = " ".join(r.out.split())
    assert r.code == 0 and "Not allowed:" in out and "unknown action 'fly'" in out
    before = save.read_bytes()
    again = run("resume", save, stdin="move oslo tromso 9\n")
    assert again.code == 0 and save.read_bytes() == before, "a refused action changes nothing"


# ----- the advanced game ---------------------------------------------------------------------------------------------
def test_an_advanced_three_player_game_of_bots_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "three.json"
    r = run("play", "kampen", "--advanced", "--players", "3", "--germany", "bot", "--norway", "bot",
            "--kampen-allies", "bot", "--bot", "random", "--seed", "4", "--save", save)
    assert r.code == 0, r.err
    out = " ".join(r.out.split())
    assert "--- The 9 April round ---" in out and "victory after" in out
    st = replays(save)
    assert st.is_terminal() and st.advanced and not st.april
    assert st.params["advanced"] is True and st.params["seats"] == 3
    verbs = {e["action"].split()[0] for e in log_of(save)}
    assert {"choose", "ship", "sail"} <= verbs, "the 9 April round and the ordinary rounds at sea were played"


def test_a_person_holding_norway_and_the_allies_plays_the_9_april_round_and_resumes_the_advanced_game(
        tmp_path: Path) -> None:
    save = tmp_path / "two.json"
    r = run("play", "kampen", "--advanced", "--players", "2", "--germany", "bot", "--norway", "human",
            "--seed", "8", "--save", save, stdin="1\n" * 80)
    assert r.code == 0, r.err
    out = " ".join(r.out.split())
    assert "Kampen om Norge (advanced game) - the 9 April round" in out and "Ship cards at sea" in out
    assert "German card" in out, "Germany's face-down ship cards show only as cards of Germany"
    assert "Input closed." in out and f"Game saved to {save}" in out
    st = replays(save)
    assert st.advanced and not st.april and st.round >= 1, "the person played through the 9 April round"
    assert {e["side"] for e in log_of(save)} >= {"germany", "norway", "allies", "chance"}
    before = save.read_bytes()
    refused = run("resume", save, stdin="sail I IX\n")
    assert refused.code == 0 and "unknown sea area 'IX'" in " ".join(refused.out.split())
    assert save.read_bytes() == before, "a refused action changes nothing"
    again = run("resume", save, stdin="help\n" + "1\n" * 30)
    assert again.code == 0, again.err
    text = " ".join(again.out.split())
    assert "Resumed Kampen om Norge (advanced game)" in text and "intercept" in text and "withdraw SHIP" in text
    assert "Kampen om Norge (advanced game) - round" in text
    resumed = replays(save)
    assert len(resumed.log) > len(st.log) and resumed.params == st.params


def test_advanced_autoplay_is_the_same_for_the_same_seed_ends_with_the_outcome_and_saves(
        tmp_path: Path, basic_autoplay: Run) -> None:
    save = tmp_path / "auto.json"
    first = run("autoplay", "kampen", "--advanced", "--seed", "5", "--save", save)
    second = run("autoplay", "kampen", "--advanced", "--seed", "5", script=True)
    assert first.code == 0 and second.code == 0, first.err + second.err
    assert first.out == second.out and first.out != basic_autoplay.out
    lines = first.out.splitlines()
    assert lines[0].startswith("Kampen om Norge (advanced game): autoplay, seed 5")
    assert "R0 --- The 9 April round ---" in lines
    assert lines[-1].startswith("Outcome: ") and "victory after" in lines[-1]
    st = replays(save)
    assert st.is_terminal() and st.advanced
    resumed = run("resume", save)
    assert resumed.code == 0 and "Resumed Kampen om Norge (advanced game)" in resumed.out, resumed.err


def test_advanced_simulate_reports_and_passes_the_game_to_every_worker(basic_simulation: Run) -> None:
    shown = run("simulate", "kampen", "--advanced", "--games", "2", "--seed", "2")  # the report as a table
    assert shown.code == 0, shown.err
    assert "Kampen om Norge (advanced game), 2 players: 2 games" in shown.out
    assert "Point cities held at the end" in shown.out
    one = run("simulate", "kampen", "--advanced", "--games", "4", "--seed", "2", "--json")
    two = run("simulate", "kampen", "--advanced", "--games", "4", "--seed", "2", "--jobs", "2", "--json", script=True)
    basic = basic_simulation  # the same seed and number of games, but the basic game
    assert one.code == 0 and two.code == 0 and basic.code == 0, one.err + two.err + basic.err
    a, b, c = json.loads(one.out), json.loads(two.out), json.loads(basic.out)
    assert a == b and a["games"] == 4 and a["advanced"] is True and c["advanced"] is False
    assert a["held_at_end"] != c["held_at_end"], "the workers played the advanced game, not the basic one"
    # --players 3 reaches the games and the report: one game of three seats shows it as well as two
    three = run("simulate", "kampen", "--players", "3", "--games", "1", "--seed", "2", "--json")
    assert three.code == 0 and json.loads(three.out)["players"] == 3 and c["players"] == 2, three.err
    assert "Kampen om Norge option" in run("simulate", "caen", "--players", "3", "--games", "1").err


def test_advanced_is_refused_for_a_firestorm_campaign() -> None:
    for args in (("play", "caen", "--advanced"), ("autoplay", "caen", "--advanced"),
                 ("simulate", "lorraine", "--advanced", "--games", "2")):
        r = run(*args)
        assert r.code == 2 and "Kampen om Norge option" in r.err, (args, r.err)


def test_a_sealed_save_keeps_no_seed_and_resumes_with_fresh_dice(tmp_path: Path) -> None:
    """Hot-seat play: `--sealed` writes seed 0 (none), the log alone replays the game, and each resume rolls dice
    that the save could not foretell: two resumes of one sealed save part ways at their first roll."""
    assert "give --save FILE" in run("play", "kampen", "--sealed").err
    assert "marks a save without its seed" in run("play", "kampen", "--seed", "0", "--save", tmp_path / "z.json").err
    refused = run("autoplay", "kampen", "--seed", "0", "--save", tmp_path / "z.json")
    assert "marks a save without its seed" in refused.err
    assert not (tmp_path / "z.json").exists()
    save = tmp_path / "sealed.json"
    r = run("play", "kampen", "--players", "2", "--germany", "bot", "--norway", "human", "--sealed",
            "--save", save, stdin="1\n" * 40)
    assert r.code == 0, r.err
    assert json.loads(save.read_text(encoding="utf-8"))["seed"] == 0
    start = replays(save)
    copies = [tmp_path / "a.json", tmp_path / "b.json"]
    for copy in copies:
        copy.write_bytes(save.read_bytes())
        again = run("resume", copy, stdin="1\n" * 60)  # in a whole game no round asked the person 25 things
        assert again.code == 0 and "the dice from here on are fresh" in " ".join(again.out.split()), again.err
        assert json.loads(copy.read_text(encoding="utf-8"))["seed"] == 0, "the save stays sealed"
    logs = [log_of(copy)[len(start.log):] for copy in copies]
    rolls = [[e["action"] for e in log if e["side"] == "chance"] for log in logs]
    assert rolls[0] and rolls[1] and rolls[0] != rolls[1]
    assert all(replays(copy).round > start.round for copy in copies)


def test_firestorm_options_are_refused_for_kampen() -> None:
    for args, option in ((("--mode", "tabletop"), "--mode"), (("--parallel",), "--parallel"),
                         (("--allotment", "2"), "--allotment")):
        r = run("play", "kampen", *args)
        assert r.code == 2 and f"{option} is a Firestorm campaign system option" in " ".join(r.err.split()), r.err
