"""End-to-end tests of the `warroom` command line with Narvik, each command a process of its own
(`test_cli_norway.run`: forked from the warm command line, or the installed console script): the game is listed and
validates with its assumptions counted; autoplay is the same for the same seed and ends with the outcome;
simulate gives the same aggregates with one or two processes; a person plays the Germans against the bot,
bad input is refused with its reason, and the save resumes."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_norway import refusals, run

from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.rulesets.narvik import new_game
from warroom.rulesets.narvik.state import NarvikState


def test_narvik_is_listed_and_validates_with_its_assumptions_counted() -> None:
    r = run("scenarios")
    assert r.code == 0 and "narvik" in r.out, r.err
    v = run("validate", "narvik")
    text = " ".join(v.out.split())
    assert v.code == 0 and "215 units" in text and "15 turns" in text, v.err
    assert int(text.split(" recorded assumptions")[0].split()[-1]) >= 100


def test_autoplay_is_the_same_for_the_same_seed_and_ends_with_the_outcome() -> None:
    first = run("autoplay", "narvik", "--seed", "5", "--allies-bot", "random", "--axis-bot", "random")
    second = run("autoplay", "narvik", "--seed", "5", "--allies-bot", "random", "--axis-bot", "random", script=True)
    assert first.code == 0, first.err
    assert first.out == second.out
    assert "Outcome: " in first.out and "ports German" in " ".join(first.out.split())


def test_simulate_aggregates_do_not_depend_on_jobs() -> None:
    args = ("simulate", "narvik", "--games", "2", "--seed", "3", "--json", "--allies-bot", "random", "--axis-bot",
            "random")
    one, two = run(*args), run(*args, "--jobs", "2", script=True)
    assert one.code == 0 and two.code == 0, one.err + two.err
    a, b = json.loads(one.out), json.loads(two.out)
    assert a == b and a["games"] == 2 and a["scenario"] == "narvik"


def test_a_person_plays_the_germans_bad_input_is_refused_and_the_save_resumes(tmp_path: Path) -> None:
    save = tmp_path / "narvik.json"
    r = run("play", "narvik", "--axis", "human", "--allies", "bot", "--seed", "2", "--save", save,
            stdin="move nosuch 0101\nmove ger_139_1 0101\nmove ger_139_1 9999\nfly away\n" + "9" * 5000 + "\n1\nquit\n")
    assert r.code == 0, r.err
    said = refusals(r.out)
    assert said[0] == "there is no unit 'nosuch'"
    assert said[1].startswith("0101 is sea: no ground unit enters it")
    assert said[2].startswith("9999 is not a hex of the map")
    assert said[3].startswith("cannot read 'fly away'")
    assert said[4].startswith("choose a number from 1 to")  # 5,000 digits: no number of a choice, and no crash
    first = new_game().legal_actions()[0].to_str()  # choice 1 at the start, e.g. 'move ger_138_1 1128'
    record = GameRecord.load(save)
    assert [e.action for e in record.log] == [first]  # the first choice, and nothing refused
    st = replay(record, lambda: new_game(None, dict(record.params)))
    _, unit, hid = first.split()
    assert isinstance(st, NarvikState) and st.pos[unit] == hid
    again = run("resume", save, stdin="end\nquit\n")
    assert again.code == 0, again.err
    assert [e.action for e in GameRecord.load(save).log][:2] == [first, "end"]
    old = tmp_path / "old.json"  # a game of version 1, before the landing craft and the ridges: refused, unchanged
    text = save.read_text(encoding="utf-8").replace('"scenario_version": "2"', '"scenario_version": "1"')
    old.write_text(text, encoding="utf-8")
    refused = run("resume", old, stdin="quit\n")
    assert refused.code != 0 and "saved with scenario narvik version 1, but version 2 is installed" in \
        " ".join(refused.err.split())
    assert old.read_text(encoding="utf-8") == text


def test_kampen_options_are_refused_for_narvik() -> None:
    r = run("play", "narvik", "--germany", "bot", script=True)
    assert r.code != 0 and "Kampen om Norge options" in r.err
