"""End-to-end tests of the `warroom` command line with Kampen om Norge, run as real subprocesses: the game is
listed and validates; autoplay is the same for the same seed; simulate gives the same aggregates with one or
two processes; a 3-player game of bots and a 2-player game with a person holding Norway and the Allies play to
the end through `play` and replay from their saves; bad options and bad input are refused with a reason."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_norway import log_of, run

from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.rulesets.kampen import KampenState, new_game


def test_kampen_is_listed_and_validates() -> None:
    r = run("scenarios")
    assert r.code == 0 and "kampen" in r.out and "Kampen om" in r.out, r.err
    data = Path(__file__).parents[2] / "warroom" / "scenarios" / "data" / "kampen"
    v = run("validate", data)
    assert v.code == 0 and "44 land areas" in " ".join(v.out.split()) and "112 play cards" in " ".join(v.out.split())


def test_autoplay_is_the_same_for_the_same_seed_and_ends_with_the_outcome() -> None:
    first, second, other = run("autoplay", "kampen", "--seed", "5"), run("autoplay", "kampen", "--seed", "5"), \
        run("autoplay", "kampen", "--seed", "6")
    assert first.code == 0, first.err
    assert first.out == second.out and first.out != other.out
    assert "Outcome: " in first.out and "victory" in first.out.splitlines()[-1]


def test_simulate_aggregates_do_not_depend_on_jobs() -> None:
    one = run("simulate", "kampen", "--games", "12", "--seed", "3", "--json")
    two = run("simulate", "kampen", "--games", "12", "--seed", "3", "--jobs", "2", "--json")
    assert one.code == 0 and two.code == 0, one.err + two.err
    a, b = json.loads(one.out), json.loads(two.out)
    assert a == b and a["games"] == 12 and a["scenario"] == "kampen"


def replays(path: Path) -> KampenState:
    record = GameRecord.load(path)
    st = replay(record, lambda: new_game(None, dict(record.params)))
    assert isinstance(st, KampenState)
    return st


def test_a_three_player_game_of_bots_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "three.json"
    r = run("play", "kampen", "--players", "3", "--germany", "bot", "--norway", "bot", "--kampen-allies", "bot",
            "--seed", "4", "--save", save)
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
    assert "not built yet" in run("play", "kampen", "--advanced").err
    assert "Kampen om Norge options" in run("play", "caen", "--germany", "bot").err
    save = tmp_path / "bad.json"
    r = run("play", "kampen", "--seed", "2", "--save", save, stdin="move oslo tromso 9\nfly away\n")
    out = " ".join(r.out.split())
    assert r.code == 0 and "Not allowed:" in out and "unknown action 'fly'" in out
    before = save.read_bytes()
    again = run("resume", save, stdin="move oslo tromso 9\n")
    assert again.code == 0 and save.read_bytes() == before, "a refused action changes nothing"
