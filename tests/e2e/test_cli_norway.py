"""End-to-end tests of the `warroom` command line with Firestorm: Norway, whose turns start with the Strategic
Actions on the naval/air map (digest section 6). Each command runs as a process of its own, like in
tests/e2e/test_cli.py (forked from the warm command line, or with `script=True` as the installed console script):
exit codes, output, saves on disk, and every refused input leaves the save byte-for-byte unchanged."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli_process import console_script, warm
from depth import deep

import warroom

CHECKOUT = str(Path(warroom.__file__).resolve().parents[1])  # the command runs the code under test
OUTCOME = re.compile(r"(Victory by \d+ VP|Draw \(VP difference -?\d+, within \d+\))")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def run(*args: str | Path, stdin: str = "", script: bool = False) -> Run:
    """`warroom ARGS` on an 80x50 terminal, `stdin` closed at its end: forked from the warm command line, or with
    `script` as the installed console script in a new interpreter."""
    path = os.pathsep.join(p for p in (CHECKOUT, os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, COLUMNS="80", LINES="50", PYTHONIOENCODING="utf-8", NO_COLOR="1", PYTHONPATH=path)
    env.pop("FORCE_COLOR", None)
    ran = (console_script if script else warm)(args, env, stdin.encode("utf-8"), None, 300)
    return Run(ran.code, ran.out_bytes.decode("utf-8"), " ".join(ran.err_bytes.decode("utf-8").split()))


def log_of(path: Path) -> list[dict[str, Any]]:
    log = json.loads(path.read_text(encoding="utf-8"))["log"]
    assert isinstance(log, list)
    return log


def refusals(out: str) -> list[str]:
    """The 'Not allowed' messages, with Rich's wrapping at 80 columns undone."""
    text = " ".join(out.split())
    return [m.split(" > ")[0].split(" ╭")[0].strip() for m in text.split("Not allowed: ")[1:]]


def test_scenarios_lists_norway() -> None:
    r = run("scenarios")
    assert r.code == 0, r.err
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in r.out.splitlines() if line.count("│") >= 7]
    assert any(row[0] == "norway" and "Norway" in row[1] and row[2] == "4" for row in rows), r.out


def test_autoplay_is_byte_identical_for_a_seed_and_ends_with_an_outcome() -> None:
    first, second = run("autoplay", "norway", "--seed", "5"), run("autoplay", "norway", "--seed", "5", script=True)
    assert first.code == 0 and second.code == 0, first.err + second.err
    assert first.out == second.out
    lines = first.out.splitlines()
    assert lines[0].startswith("Firestorm: Norway 1940: autoplay, seed 5")
    assert any(line.startswith("--- Strategic Actions: ") for line in lines)
    assert lines[-1].startswith("Outcome: ") and OUTCOME.search(lines[-1]), lines[-1]
    assert run("autoplay", "norway", "--seed", "6").out.splitlines()[1:] != lines[1:]


SIMULATED = deep(6)
"""Games in the simulation played by one process and by two: enough for each worker to play several and for the
aggregates (outcome counts, rates, percentiles) to be merged from both; their number is not what is tested."""


def test_simulate_aggregates_do_not_depend_on_jobs() -> None:
    games = str(SIMULATED)
    one = run("simulate", "norway", "--games", games, "--seed", "1", "--json", "--jobs", "1")
    two = run("simulate", "norway", "--games", games, "--seed", "1", "--json", "--jobs", "2", script=True)
    assert one.code == 0 and two.code == 0, one.err + two.err
    report = json.loads(one.out)
    assert json.loads(two.out) == report
    assert report["games"] == SIMULATED and report["scenario"] == "norway"
    assert sum(row["count"] for row in report["outcomes"].values()) == SIMULATED


ORDERS = ["activate A2 ships", "take renown", "take repulse", "launch", "sail B2", "aim renown ships",
          "allocate gneisenau 2"]
"""Seed 2: HMS Renown and HMS Repulse sail into B2; a U-boat sinks Repulse, Renown aims at the German battleships
rather than the U-boat (6.8 mixed defence), and they fight."""


def test_play_naval_orders_then_quit_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "norway.json"
    r = run("play", "norway", "--seed", "2", "--save", path, stdin="\n".join([*ORDERS, "quit"]) + "\n")
    assert r.code == 0, r.err
    assert refusals(r.out) == []
    flat = " ".join(r.out.split())
    assert "Strategic Map: 9 actions left; Allies: choose an action" in flat
    assert "Location (* activated)" in flat and "renown* repulse*" in flat
    assert "Germans allocation hidden until the roll" in flat  # the Allies do not see the German dice
    assert f"Game saved to {path}. Continue with: warroom resume {path}" in flat
    log = log_of(path)
    assert [e["action"] for e in log if e["side"] == "allies"] == ORDERS
    assert any(e["side"] == "axis" for e in log) and any(e["side"] == "chance" for e in log)

    r = run("resume", path, stdin="1\n1\n1\nquit\n")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == f"Resumed Firestorm: Norway 1940 at turn 1 ({len(log)} actions replayed)"
    longer = log_of(path)
    assert longer[:len(log)] == log
    assert sum(e["side"] == "allies" for e in longer) == len(ORDERS) + 3


def test_help_lists_the_naval_verbs(tmp_path: Path) -> None:
    r = run("play", "norway", "--seed", "2", stdin="help\nquit\n", script=True)
    assert r.code == 0, r.err
    for verb in ("activate LOC ships|subs|air", "take COUNTER / launch", "sail LOC / halt", "dive LOC / attack",
                 "fly LOC / bomb HARBOUR", "allocate TARGET N", "fight / evade", "withdraw LOC", "stand / press",
                 "sortie COUNTER", "move COUNTER LOC"):
        assert verb in r.out, verb


def test_bad_input_during_strategic_actions_is_named_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "norway.json"
    assert run("play", "norway", "--seed", "2", "--save", path, stdin="activate A2 ships\nquit\n").code == 0
    before = path.read_bytes()
    bad = ["sail Q9", "take nelson", "allocate rodney x", "sail B3", "take gneisenau", "launch", "99"]
    r = run("resume", path, stdin="\n".join([*bad, "quit"]) + "\n")
    assert r.code == 0, r.err
    said = refusals(r.out)
    assert len(said) == len(bad), said
    assert said[0].startswith("unknown location 'Q9': 'sail' takes a Strategic Map location")
    assert said[1].startswith("illegal action 'take nelson' in step 'sa_form'")
    assert "unknown counter 'nelson'" in said[1]
    assert said[2] == "the number of dice must be a whole number, got 'x'"
    assert said[3].endswith("the group has not set off yet: take units (take COUNTER), then launch (6.1)")
    assert said[4].endswith("Gneisenau (gneisenau) belongs to the Germans: you command only your own counters")
    assert said[5].endswith("take at least one unit into the group before it sets off (6.1)")
    assert re.fullmatch(r"choose a number from 1 to \d+", said[6])
    assert "Traceback" not in r.out + r.err
    assert path.read_bytes() == before
    assert [e["action"] for e in log_of(path) if e["side"] == "allies"] == ["activate A2 ships"]


def test_a_human_plays_norway_to_the_end_hot_seat(tmp_path: Path) -> None:
    """Always the first choice, for both sides: every Strategic Actions step, strategic moves and land battles."""
    path = tmp_path / "hotseat.json"
    r = run("play", "norway", "--allies", "human", "--axis", "human", "--seed", "4", "--save", path,
            stdin="1\n" * 3000)
    assert r.code == 0, r.err
    assert OUTCOME.search(r.out.splitlines()[-1]), r.out[-400:]
    steps = " ".join(r.out.split())
    assert "Strategic Map: strategic moves of ships, submarines and aircraft" in steps
    assert "('options' lists all" in steps
    sides = {e["side"] for e in log_of(path)}
    assert sides == {"allies", "axis", "chance"}
