"""End-to-end test of `bench/strength.py`, the strength bar's runner, at a toy size: its cells, its table, its
resume from the cells already written, and its refusal of a bad bot before any game is played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "strength.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def test_strength_cells_table_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "cells.jsonl"
    args = ("--bot", "mcts:3", "--games", "2", "--baseline-games", "6", "--scenario", "lorraine", "--seed", "5",
            "--out", str(out))
    first = run(*args)
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(r["seat"], r["bot"], r["games"]) for r in rows} == {
        ("allies", "heuristic", 6), ("allies", "mcts:3", 2), ("axis", "heuristic", 6), ("axis", "mcts:3", 2)}
    for r in rows:
        assert 0 <= r["wins"] <= r["games"] and r["rate"] == r["wins"] / r["games"]
        lo, hi = r["ci95"]
        assert 0 <= lo <= r["rate"] <= hi <= 1
    table = [line for line in first.stdout.splitlines() if line.startswith("lorraine")]
    assert [line.split()[1] for line in table] == ["allies", "axis"]
    for line, seat in zip(table, ("allies", "axis"), strict=True):
        base = next(r for r in rows if r["seat"] == seat and r["bot"] == "heuristic")
        search = next(r for r in rows if r["seat"] == seat and r["bot"] == "mcts:3")
        gain = f"{100 * (search['rate'] - base['rate']):+.1f}"
        assert f" {gain}  " in line
        # two games cannot clear the bar: the intervals overlap
        assert line.rstrip().endswith("not passed")
    again = run(*args)  # every cell is on file: nothing is played again, the same table comes out
    assert again.returncode == 0, again.stderr
    assert len(out.read_text().splitlines()) == 4
    assert [line for line in again.stdout.splitlines() if line.startswith("lorraine")] == table


def test_a_bad_bot_is_refused_before_play(tmp_path: Path) -> None:
    out = tmp_path / "cells.jsonl"
    got = run("--bot", "mcts:often", "--scenario", "lorraine", "--out", str(out))
    assert got.returncode == 2
    assert "a search budget is a number of rollouts" in got.stderr and "'often'" in got.stderr
    assert not out.exists()


def test_a_corrupt_cells_file_is_named_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "cells.jsonl"
    out.write_text('{"scenario": "lorraine"}\nnot json\n')
    before = out.read_bytes()
    got = run("--bot", "mcts:3", "--games", "2", "--baseline-games", "6", "--scenario", "lorraine", "--out", str(out))
    assert got.returncode == 2
    assert f"{out} line 1 is not a cell this script wrote" in got.stderr
    assert out.read_bytes() == before


def test_each_seat_counts_the_wins_of_its_camp() -> None:
    """A game's summary names the winning camp: Kampen om Norge's Norway and Allies win together, so a win of
    'norway_allies' is a win for each of their seats (the heuristic's baseline there was once counted as 0%)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import strength
    finally:
        sys.path.remove(str(SCRIPT.parent))
    assert strength.seats_of("kampen", {}) == {"germany": ["germany"], "norway": ["norway_allies"]}
    assert strength.seats_of("kampen", {"seats": 3}) == {
        "germany": ["germany"], "norway": ["norway_allies"], "allies": ["norway_allies"]}
    assert strength.seats_of("caen", {}) == {"allies": ["allies"], "axis": ["axis"]}
