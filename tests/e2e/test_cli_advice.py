"""End to end: `warroom advise`, `warroom forecast`, `warroom analyse` and the `advise` command at the prompt, each
run as a process of its own on real saves (`test_cli.warroom`: forked from the warm command line, or the installed
console script), with every bad input refused by name and the save left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import Run, load_save, warroom

QUICK = ("--candidates", "3", "--most", "32", "--target", "20")
"""Small enough for the pure-Python engine the tests run on."""

pytestmark = pytest.mark.xdist_group("cli-advice")  # one worker, so that the saves and the first advice are made once


@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A campaign stopped at the Allies' first decision, and a finished one."""
    folder = tmp_path_factory.mktemp("advice")
    mid, done = folder / "mid.json", folder / "done.json"
    r = warroom("play", "lorraine", "--allies", "human", "--axis", "bot", "--seed", "4", "--save", mid, stdin="quit\n")
    assert r.code == 0, r.err
    r = warroom("play", "lorraine", "--allies", "bot", "--axis", "bot", "--seed", "4", "--save", done)
    assert r.code == 0, r.err
    return mid, done


@pytest.fixture(scope="module")
def first_advice(saves: tuple[Path, Path]) -> tuple[bytes, Run]:
    """The save stopped at the Allies' first decision as it was written, and `advise` on it (`QUICK`, as JSON): the
    tests that need a plan the rules allow there take it from this advice."""
    before = saves[0].read_bytes()
    return before, warroom("advise", saves[0], *QUICK, "--json")


def test_advise_ranks_plans_and_the_same_seed_gives_the_same_advice(saves: tuple[Path, Path],
                                                                     first_advice: tuple[bytes, Run]) -> None:
    mid, _done = saves
    before, first = first_advice
    runs = [first, warroom("advise", mid, *QUICK, "--json", script=True)]
    assert all(r.code == 0 for r in runs), runs[0].err
    assert runs[0].out == runs[1].out
    advice = json.loads(runs[0].out)
    assert advice["side"] == "allies" and len(advice["candidates"]) == 3
    assert advice["candidates"][0]["source"] == "the heuristic's plan" or any(
        c["source"] == "the heuristic's plan" for c in advice["candidates"])
    for c in advice["candidates"]:
        assert c["win"]["low"] <= c["win"]["value"] <= c["win"]["high"]
        assert c["words"] and len(c["words"]) == len(c["plan"])
    other = json.loads(warroom("advise", mid, *QUICK, "--json", "--seed", "2").out)
    assert other != advice
    shown = warroom("advise", mid, *QUICK)
    assert shown.code == 0 and "Advice for Allies" in shown.out and "To play the best plan" in shown.out
    assert mid.read_bytes() == before


def test_a_plan_the_player_writes_is_judged_and_a_bad_one_is_named(saves: tuple[Path, Path],
                                                                   first_advice: tuple[bytes, Run]) -> None:
    mid, _done = saves
    legal_first = json.loads(first_advice[1].out)["candidates"][-1]["plan"][0]
    r = warroom("advise", mid, *QUICK, "--json", "--plan", legal_first)
    assert r.code == 0, r.err
    assert any(c["source"].startswith("your plan") and c["plan"][0] == legal_first
               for c in json.loads(r.out)["candidates"])
    r = warroom("advise", mid, *QUICK, "--plan", "arrow Z9 Z8")
    assert r.code == 2 and "action 1 of the plan, 'arrow Z9 Z8', cannot be played" in r.err
    r = warroom("advise", mid, *QUICK, "--plan", "commit bogus")  # an unknown troop: refused, not a crash
    assert r.code == 2 and "action 1 of the plan, 'commit bogus', cannot be played" in r.err, r.err


@pytest.mark.parametrize(("args", "says", "script"), [
    (("--bot", "martian"), "--bot: unknown bot 'martian'", False),
    (("--target", "0"), "Invalid value for '--target'", True),  # the console script's own exit on a usage error
    (("--candidates", "0"), "Invalid value for '--candidates'", False),
])
def test_bad_options_are_refused_by_name(saves: tuple[Path, Path], args: tuple[str, ...], says: str,
                                         script: bool) -> None:
    r = warroom("advise", saves[0], *args, script=script)
    assert r.code == 2 and says in r.err


def test_a_missing_or_broken_save_and_a_finished_game_are_refused(saves: tuple[Path, Path], tmp_path: Path) -> None:
    _mid, done = saves
    r = warroom("advise", tmp_path / "none.json")
    assert r.code == 2 and "none.json" in r.err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    for command in ("advise", "forecast", "analyse"):
        r = warroom(command, broken)
        assert r.code == 2 and "broken.json" in r.err, (command, r.err)
    assert broken.read_text(encoding="utf-8") == "{not json"
    r = warroom("advise", done)
    assert r.code == 2 and "the campaign is over" in r.err
    r = warroom("forecast", done)
    assert r.code == 2 and "the campaign is over" in r.err


def test_forecast_and_analyse(saves: tuple[Path, Path], tmp_path: Path) -> None:
    mid, done = saves
    r = warroom("forecast", mid, "--rollouts", "16", "--json")
    assert r.code == 0, r.err
    fc = json.loads(r.out)
    assert fc["now"]["rollouts"] == 16 and abs(sum(e["value"] for e in fc["now"]["levels"].values()) - 1) < 1e-3
    r = warroom("analyse", mid)
    assert r.code == 2 and "not over yet" in r.err
    svg = tmp_path / "graph.svg"
    r = warroom("analyse", done, "--rollouts", "2", "--json", "--svg", svg)
    assert r.code == 0, r.err
    an = json.loads(r.out)
    assert len(an["points"]) == len(load_save(done)["log"]) + 1
    assert svg.read_text(encoding="utf-8").startswith("<svg") and "win-graph" in svg.read_text(encoding="utf-8")
    before = done.read_bytes()
    r = warroom("analyse", done, "--rollouts", "2", "--svg", done)
    assert r.code == 2 and "the file exists; it is not overwritten" in r.err and done.read_bytes() == before
    r = warroom("analyse", done, "--rollouts", "2", "--svg", tmp_path / "no" / "such" / "g.svg")
    assert r.code == 2 and "there is no folder" in r.err
    r = warroom("analyse", done, "--rollouts", "2", "--svg", tmp_path)
    assert r.code == 2 and "that is a folder; name the SVG file to write" in r.err
    # The report as text, with random bots in the rollouts (its analysis about 40% less CPU than with the
    # heuristic's): what the text shows and how it is laid out do not depend on who plays the rollouts, and the
    # default bot's analysis is read above, as JSON and as the graph.
    shown = warroom("analyse", done, "--rollouts", "2", "--bot", "random")
    assert shown.code == 0 and "The accounts, as Allies count them: expected result" in shown.out
    assert "expected result through the game" in shown.out
    assert all(f"{side}: the decisions that cost the most" in shown.out or
               f"{side}: no decision cost anything measurable" in shown.out for side in ("Allies", "Germans"))


def test_advise_at_the_prompt(saves: tuple[Path, Path], tmp_path: Path) -> None:
    """`advise` at the prompt ranks the plans for the decision at hand by playing the game on from it many times:
    at the Allies' first decision that takes half a minute of CPU, so the finished game is taken back to its last
    Allied decision, with a person holding the Allies, where every rollout is short."""
    data = load_save(saves[1])
    log = data["log"]
    cut = max(i for i, entry in enumerate(log) if entry["side"] == "allies")
    data["log"] = log[:cut]
    data["params"]["players"] = {"allies": "human", "axis": "bot"}
    game = tmp_path / "game.json"
    game.write_text(json.dumps(data, indent=1), encoding="utf-8")
    before = game.read_bytes()
    r = warroom("resume", game, stdin="help\nadvise\nquit\n")
    assert r.code == 0, r.err
    assert f"({cut} actions replayed)" in r.out.splitlines()[0]
    assert "advise [SECONDS] (rank" in r.out and "Advice for Allies" in r.out
    assert game.read_bytes() == before  # asking changes nothing
    r = warroom("resume", game, stdin="advise soon\nadvise 0.01\nadvise 1 2\nquit\n")
    assert r.code == 0 and r.out.count("advise takes one limit in CPU seconds") == 3, r.out


def test_advise_at_a_prompt_that_waits_for_the_table_says_so(tmp_path: Path) -> None:
    r = warroom("play", "caen", "--allies", "human", "--axis", "human", "--mode", "tabletop", "--save",
                tmp_path / "t.json", stdin="advise\nquit\n")
    assert r.code == 0 and "No advice: nobody decides now: the position waits for a result from the table" in r.out


def test_a_long_or_second_plan_is_named_briefly(saves: tuple[Path, Path], first_advice: tuple[bytes, Run]) -> None:
    r = warroom("advise", saves[0], *QUICK, "--plan", "x" * 5000)
    assert r.code == 2 and "action 1 of the plan, 'xxxx" in r.err and len(r.err) < 1000, len(r.err)
    legal = json.loads(first_advice[1].out)["candidates"][0]["plan"][0]
    r = warroom("advise", saves[0], *QUICK, "--plan", legal, "--plan", "arrow Z9 Z8")
    assert r.code == 2 and "action 1 of plan 2, 'arrow Z9 Z8', cannot be played" in r.err, r.err


def test_a_save_that_is_a_device_or_a_folder_is_refused_not_read(tmp_path: Path) -> None:
    for command in ("advise", "forecast", "analyse"):
        r = warroom(command, "/dev/zero", script=command == "advise")
        assert r.code == 2 and "it is a device, not a file" in r.err, r.err
    r = warroom("advise", tmp_path)
    assert r.code == 2 and "cannot read save file" in r.err, r.err
