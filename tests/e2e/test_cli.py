"""End-to-end tests of the `warroom` command line, each command run as a process of its own.

Every test checks exit codes and real output. Interactive play is driven through stdin; saves are
checked on disk (and, for every refused input, checked to be byte-for-byte unchanged).

Most commands are forked from a warm copy of the command line (`cli_process.warm`), which spares each the
half-second start-up of the interpreter and its imports. Those with `script=True` run the installed console
script itself: a command of each kind (scenarios, autoplay, simulate, play and resume here; validate in
test_cli_kampen.py), a refusal's exit code, a session whose stdin runs out, and one of every two runs compared
for equality (see `cli_process`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_process import console_script, warm

import warroom.scenarios.loader as loader

DATA = Path(loader.__file__).parent / "data"
OUTCOME = re.compile(r"(Victory by \d+ VP|Draw \(VP difference -?\d+, within \d+\))")
REPORT_PROMPT = "Report the tabletop result: 'report ATTACKER_VP DEFENDER_VP' (0-6 each)"


@dataclass(frozen=True)
class Run:
    code: int
    out_bytes: bytes
    err_bytes: bytes

    @property
    def out(self) -> str:
        return self.out_bytes.decode("utf-8")

    @property
    def err(self) -> str:
        """stderr with Rich's line wrapping undone (runs of whitespace become one space)."""
        return " ".join(self.err_bytes.decode("utf-8").split())


def warroom(*args: str | Path, stdin: str = "", cwd: Path | None = None, script: bool = False) -> Run:
    """Run `warroom ARGS` with `stdin` (closed at its end, so a session that wants more input sees EOF): forked
    from the warm command line, or with `script` as the installed console script in a new interpreter."""
    path = os.pathsep.join(p for p in (str(DATA.parents[2]), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, COLUMNS="200", LINES="50", PYTHONIOENCODING="utf-8", NO_COLOR="1",
               PYTHONPATH=path)  # the command runs this checkout's code, whichever one is installed
    env.pop("FORCE_COLOR", None)
    ran = (console_script if script else warm)(args, env, stdin.encode("utf-8"), cwd, 120)
    return Run(ran.code, ran.out_bytes, ran.err_bytes)


def load_save(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def log_of(path: Path) -> list[dict[str, Any]]:
    log = load_save(path)["log"]
    assert isinstance(log, list)
    return log


@pytest.fixture(scope="module")
def finished_save(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    """A complete bot-against-bot campaign written by `play --save` (shared by the save tests)."""
    path = tmp_path_factory.mktemp("saves") / "bots.json"
    return path, warroom("play", "caen", "--allies", "bot", "--axis", "bot", "--seed", "3", "--save", path)


# ---------------------------------------------------------------- 1. scenarios and validate


def test_scenarios_lists_both_campaigns_and_bundled_data_validates() -> None:
    r = warroom("scenarios", script=True)
    assert r.code == 0, r.err
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[1:-1]]
            for line in r.out.splitlines() if line.count("│") >= 7}
    assert rows["caen"][1:4] == ["Firestorm: Caen", "5", "Allies vs Germans"]
    assert rows["lorraine"][1:4] == ["Firestorm: Lorraine", "3", "Allies vs Germans"]

    for sid, turns in (("caen", 5), ("lorraine", 3)):
        v = warroom("validate", DATA / sid)
        assert v.code == 0, v.err
        assert v.out.startswith(f"OK: {sid} 'Firestorm: {sid.capitalize()}' v")
        assert f"{turns} turns" in v.out
        assert v.err == ""


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)


def _unknown_border(d: Path) -> None:
    _append(d / "map.toml", '\n[[border]]\na = "A1"\nb = "Z9"\nriver = ""\nassumption = "broken"\n')


def _island(d: Path) -> None:
    _append(d / "map.toml", '\n[[area]]\nid = "E9"\nname = "Island"\nmap = "caen"\nvp = 0\nterrain = "plain"\n'
                            'x = 980\ny = 680\nflags = []\nsupply = ""\ncontrol = "axis"\nassumption = "broken"\n')


def _bad_toml(d: Path) -> None:
    _append(d / "scenario.toml", "\nthis is = = not toml [\n")


def _bad_start(d: Path) -> None:
    text = (d / "scenario.toml").read_text(encoding="utf-8")
    assert text.count('start = "B4"') == 1
    (d / "scenario.toml").write_text(text.replace('start = "B4"', 'start = "Q1"'), encoding="utf-8")


def _everything(d: Path) -> None:
    _unknown_border(d)
    _island(d)
    _bad_start(d)


@pytest.mark.parametrize(("breakage", "expected"), [
    (_unknown_border, ["1 problem(s)", "border end 'Z9' is not a defined area"]),
    (_island, ["1 problem(s)", "is not connected: E9 cannot be reached"]),
    (_bad_toml, ["1 problem(s)", "scenario.toml: not valid TOML", "line"]),
    (_bad_start, ["1 problem(s)", "('pz_21'): start 'Q1' is not an area on the map"]),
    (_everything, ["3 problem(s)", "'Z9'", "E9", "'Q1'"]),  # every problem is listed, not just the first
], ids=["unknown-border-area", "disconnected-area", "invalid-toml", "unknown-start", "all-at-once"])
def test_validate_reports_each_problem(tmp_path: Path, breakage: Callable[[Path], None],
                                       expected: list[str]) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(DATA / "caen", broken)
    breakage(broken)
    r = warroom("validate", broken)
    assert r.code == 1
    assert "OK:" not in r.out
    for text in expected:
        assert text in r.err, (text, r.err)
    problems = [line for line in r.err_bytes.decode("utf-8").splitlines() if line.startswith("  - ")]
    assert len(problems) == int(expected[0].split()[0])


# ---------------------------------------------------------------- 2. autoplay


@pytest.mark.parametrize(("sid", "turns"), [("caen", 5), ("lorraine", 3)])
def test_autoplay_is_deterministic_and_reports_every_turn(sid: str, turns: int) -> None:
    first = warroom("autoplay", sid, "--seed", "7")
    second = warroom("autoplay", sid, "--seed", "7", script=True)
    assert first.code == 0 and second.code == 0, first.err + second.err
    assert first.out_bytes == second.out_bytes
    lines = first.out.splitlines()
    assert lines[0].startswith(f"Firestorm: {sid.capitalize()}: autoplay, seed 7")
    headers = [line for line in lines if line.startswith("=== Turn ")]
    assert [h.split(":")[0] for h in headers] == [f"=== Turn {n}" for n in range(1, turns + 1)]
    assert lines[-1].startswith("Outcome: ")
    assert OUTCOME.search(lines[-1]), lines[-1]
    assert f"Campaign over: {lines[-1].removeprefix('Outcome: ')}" in lines

    other = warroom("autoplay", sid, "--seed", "8")
    assert other.code == 0
    assert other.out.splitlines()[1:] != lines[1:]  # the game itself differs, not only the title line


def test_autoplay_with_a_searching_bot_is_replayable_and_refuses_a_bad_budget(tmp_path: Path) -> None:
    save = tmp_path / "search.json"
    first = warroom("autoplay", "lorraine", "--seed", "4", "--allies-bot", "mcts:8/h40", "--axis-bot", "random",
                    "--save", save)
    again = warroom("autoplay", "lorraine", "--seed", "4", "--allies-bot", "mcts:8/h40", "--axis-bot", "random",
                    script=True)
    assert first.code == 0 and again.code == 0, first.err + again.err
    assert first.out_bytes == again.out_bytes
    assert "Allies mcts:8/h40 vs Germans random" in first.out.splitlines()[0]
    assert load_save(save)["params"]["bot"] == "mcts:8/h40"
    bad = warroom("autoplay", "lorraine", "--allies-bot", "mcts:fast")
    assert bad.code == 2 and "--allies-bot" in bad.err and "'fast'" in bad.err, bad.err
    unknown = warroom("simulate", "caen", "--games", "2", "--axis-bot", "alphazero")
    assert unknown.code == 2 and "unknown bot 'alphazero'" in unknown.err, unknown.err


def test_the_searching_bot_refuses_battles_at_the_table_in_play_and_in_resume(tmp_path: Path) -> None:
    """Its look-ahead plays whole games alone, so tabletop and mixed games are refused up front, by name."""
    refused = warroom("play", "caen", "--mode", "mixed", "--bot", "mcts:3")
    assert refused.code == 2 and "cannot play this game" in refused.err and "'mixed'" in refused.err, refused.err
    save = tmp_path / "mixed.json"
    made = warroom("play", "caen", "--mode", "mixed", "--save", save)
    assert made.code == 0, made.err
    data = load_save(save)
    data["params"]["bot"] = "mcts:3"
    save.write_text(json.dumps(data), encoding="utf-8")
    before = save.read_bytes()
    again = warroom("resume", save)
    assert again.code == 2 and "cannot resume" in again.err and "--mode gw" in again.err, again.err
    assert save.read_bytes() == before  # nothing lost


# ---------------------------------------------------------------- 3. simulate


def test_simulate_json_is_consistent_and_independent_of_jobs() -> None:
    one = warroom("simulate", "caen", "--games", "20", "--seed", "1", "--json")
    two = warroom("simulate", "caen", "--games", "20", "--seed", "1", "--json", "--jobs", "2", script=True)
    assert one.code == 0 and two.code == 0, one.err + two.err
    report = json.loads(one.out)
    assert json.loads(two.out) == report
    assert one.out_bytes == two.out_bytes

    assert report["games"] == 20
    assert report["scenario"] == "caen" and report["seed"] == 1
    assert sum(row["count"] for row in report["outcomes"].values()) == 20
    assert sum(row["count"] for row in report["wins"].values()) == 20
    assert set(report["wins"]) <= {"allies", "axis", "draw"}
    for row in [*report["outcomes"].values(), *report["wins"].values()]:
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["rate"] <= hi <= 1
        assert row["rate"] == pytest.approx(row["count"] / 20)
    vp = report["vp_difference"]
    pct = [vp["percentiles"][k] for k in ("5", "25", "50", "75", "95")]
    assert pct == sorted(pct)
    assert pct[0] <= vp["mean"] <= pct[-1]
    assert len(report["held_at_end"]) == 26
    for shares in report["held_at_end"].values():
        assert sum(shares.values()) == pytest.approx(1.0)


def test_simulate_prints_tables_and_progress() -> None:
    r = warroom("simulate", "lorraine", "--games", "4", "--seed", "2")
    assert r.code == 0, r.err
    for title in ("Firestorm: Lorraine: 4 campaigns", "Wins", "Held at the end", "95% interval"):
        assert title in r.out
    assert re.search(r"VP difference \(allies minus axis\): mean [-+]\d+\.\d; p5 ", r.out)
    assert "Metz" in r.out
    assert "simulating lorraine" in r.err and "4/4" in r.err


# ---------------------------------------------------------------- 4 and 5. play, save and resume


def test_bots_play_to_the_end_and_the_finished_save_resumes(finished_save: tuple[Path, Run]) -> None:
    path, played = finished_save
    assert played.code == 0, played.err
    outcome = played.out.splitlines()[-1]
    assert OUTCOME.search(outcome), outcome
    save = load_save(path)
    assert save["format"] == "warroom-save"
    assert (save["scenario"], save["seed"]) == ("caen", 3)
    assert save["params"]["players"] == {"allies": "bot", "axis": "bot"}
    assert len(save["log"]) > 50
    before = path.read_bytes()

    r = warroom("resume", path, script=True)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == f"Resumed Firestorm: Caen at turn 5 ({len(save['log'])} actions replayed)"
    assert r.out.splitlines()[-1] == outcome
    assert path.read_bytes() == before


def test_human_game_saves_quits_and_resumes_as_a_continuation(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    r = warroom("play", "caen", "--allies", "human", "--axis", "bot", "--seed", "2", "--save", path,
                stdin="1\n1\n1\nquit\n")
    assert r.code == 0, r.err
    assert f"Game saved to {path}. Continue with: warroom resume {path}" in r.out
    log1 = log_of(path)
    assert sum(e["side"] == "allies" for e in log1) == 3  # the three choices made
    assert {e["side"] for e in log1} <= {"allies", "axis", "chance"}

    r = warroom("resume", path, stdin="quit\n")
    assert r.code == 0, r.err
    assert f"({len(log1)} actions replayed)" in r.out.splitlines()[0]
    log2 = log_of(path)
    assert log2[:len(log1)] == log1

    r = warroom("resume", path, stdin="1\n1\n", script=True)  # input runs out: the session ends, keeping the game
    assert r.code == 0, r.err
    assert "Input closed." in r.out
    log3 = log_of(path)
    assert len(log3) > len(log2)
    assert log3[:len(log2)] == log2
    assert sum(e["side"] == "allies" for e in log3) == 5


def test_resumed_hot_seat_game_continues_the_same_dice(tmp_path: Path) -> None:
    """Quit and resume must not change the game: the dice stream picks up where it stopped."""
    whole, split = tmp_path / "whole.json", tmp_path / "split.json"
    args = ("play", "caen", "--allies", "human", "--axis", "human", "--seed", "5", "--save")
    assert warroom(*args, whole, stdin="1\n" * 40).code == 0
    assert warroom(*args, split, stdin="1\n" * 20 + "quit\n").code == 0
    assert len(log_of(split)) < len(log_of(whole))
    assert warroom("resume", split, stdin="1\n" * 20, script=True).code == 0
    assert any(len(e["action"].split()) > 2 for e in log_of(whole) if e["side"] == "chance")  # multi-dice rolls
    assert log_of(split) == log_of(whole)


def test_a_game_without_a_seed_gets_fresh_dice_that_its_save_records(tmp_path: Path) -> None:
    """Issue 11: `play` without --seed no longer rolls seed 1's dice every time. Each game draws a fresh seed,
    the save records it, and --seed with that number plays the same game again."""
    args = ("play", "lorraine", "--allies", "human", "--axis", "human", "--save")
    saves = [tmp_path / f"fresh{i}.json" for i in range(3)]
    # The first game is played again below, choice by choice; the other two only show their own dice, and a few
    # choices in, each has rolled several times (every screen on the way costs a tenth of a second).
    for path, choices in zip(saves, (30, 5, 5), strict=True):
        assert warroom(*args, path, stdin="1\n" * choices).code == 0
    seeds = [load_save(path)["seed"] for path in saves]
    assert len(set(seeds)) == 3 and all(isinstance(s, int) and s >= 0 for s in seeds)
    rolls = [[e["action"] for e in log_of(path) if e["side"] == "chance"] for path in saves]
    first = min(map(len, rolls))
    assert first >= 3 and len({tuple(r[:first]) for r in rolls}) > 1  # three games, not one game three times
    again = tmp_path / "again.json"
    assert warroom(*args[:-1], "--seed", str(seeds[0]), "--save", again, stdin="1\n" * 30, script=True).code == 0
    assert log_of(again) == log_of(saves[0])
    before = log_of(saves[1])
    assert warroom("resume", saves[1], stdin="1\n" * 5).code == 0  # resume continues with the recorded seed
    assert log_of(saves[1])[:len(before)] == before and load_save(saves[1])["seed"] == seeds[1]


# ---------------------------------------------------------------- 6. bad input


@pytest.mark.parametrize("command", ["play", "autoplay", "simulate"])
def test_unknown_scenario_is_refused(command: str) -> None:
    r = warroom(command, "nosuch", script=command == "play")
    assert r.code == 2
    assert "unknown scenario 'nosuch'" in r.err
    assert "caen" in r.err and "lorraine" in r.err
    assert r.out == ""


def test_bad_moves_at_the_prompt_are_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    bad = ["arrow A2 ZZ9", "arrow A2 A3", "arrow A2 D8", "99", "0", "frobnicate now", "arrow A2", "²",
           "arrow A2 [/x]"]
    r = warroom("play", "caen", "--seed", "2", "--save", path, stdin="\n".join([*bad, "1", "quit"]) + "\n")
    assert r.code == 0, r.err
    refusals = [line.split("Not allowed: ", 1)[1] for line in r.out.splitlines() if "Not allowed: " in line]
    assert len(refusals) == len(bad)
    assert refusals[0] == "unknown area 'ZZ9' in scenario 'caen'"
    assert refusals[1].endswith("A3 is already yours; attack an enemy area")
    assert refusals[2].endswith("D8 is not adjacent to A2")
    assert re.fullmatch(r"choose a number from 1 to \d+", refusals[3])
    assert refusals[4] == refusals[3]
    assert refusals[5] == "unknown action 'frobnicate'"
    assert refusals[6] == "'arrow' takes a from-area and a to-area, got 'A2'"
    assert refusals[7] == "unknown action '²'"
    assert refusals[8] == "unknown area '[/x]' in scenario 'caen'"  # shown literally, not read as markup
    allied = [e["action"] for e in log_of(path) if e["side"] == "allies"]
    assert len(allied) == 1 and allied[0].startswith("arrow A2 ")  # only the good choice was played


def _first_decision(log: list[dict[str, Any]]) -> int:
    return next(i for i, e in enumerate(log) if e["side"] != "chance")


def _cut(log: list[dict[str, Any]], i: int, **change: str) -> list[dict[str, Any]]:
    return [*log[:i], {**log[i], **change}]


def _decision_by_wrong_side(d: dict[str, Any]) -> None:
    i = _first_decision(d["log"])
    d["log"] = _cut(d["log"], i, side="allies" if d["log"][i]["side"] == "axis" else "axis")


def _illegal_arrow(d: dict[str, Any]) -> None:
    d["log"] = _cut(d["log"], _first_decision(d["log"]), action="arrow A2 D8")


BAD_SAVES: list[tuple[str, Callable[[bytes], bytes], list[str]]] = [
    ("not-json", lambda b: b"this is not JSON {", ["invalid JSON"]),
    ("truncated", lambda b: b[: len(b) // 2], ["invalid JSON"]),
    ("not-a-save", lambda b: b'{"format": "something-else"}', ["not a warroom save", "'format'"]),
]
BAD_RECORDS: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("unknown-scenario", lambda d: d.update(scenario="nosuch"), ["unknown scenario 'nosuch'"]),
    ("wrong-side", _decision_by_wrong_side, ["log entry 4 ('arrow B4 A5') is by 'allies', but 'axis' was to act"]),
    ("illegal-action", _illegal_arrow, ["log entry 4 ('arrow A2 D8') is not legal on replay",
                                        "A2 is not yours"]),
    ("bad-die", lambda d: d["log"][0].update(action="roll 9"), ["log entry 0 ('roll 9')", "1 d6"]),
    ("after-the-end", lambda d: d["log"].append({**d["log"][-1], "action": "pass", "side": "allies"}),
     ["comes after the end of the game"]),
    ("old-version", lambda d: d.update(scenario_version="0.1"), ["version 0.1", "version 1.1.0 is installed"]),
    ("bad-players", lambda d: d["params"].update(players="x"), ["save parameter 'players'"]),
    ("bad-bot", lambda d: d["params"].update(bot="genius"), ["save parameter 'bot': unknown bot 'genius'"]),
]


def _as_bytes(edit: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    def apply(raw: bytes) -> bytes:
        data = json.loads(raw)
        edit(data)
        return json.dumps(data, indent=1).encode("utf-8")
    return apply


@pytest.mark.parametrize(("edit", "expected"),
                         [pytest.param(e, x, id=n) for n, e, x in BAD_SAVES]
                         + [pytest.param(_as_bytes(e), x, id=n) for n, e, x in BAD_RECORDS])
def test_broken_save_is_refused_and_left_untouched(tmp_path: Path, finished_save: tuple[Path, Run],
                                                   edit: Callable[[bytes], bytes], expected: list[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(edit(finished_save[0].read_bytes()))
    before = path.read_bytes()
    r = warroom("resume", path, stdin="1\n1\n1\n")
    assert r.code != 0
    assert r.err.startswith(f"error: cannot resume {path}: ")
    for text in expected:
        assert text in r.err, (text, r.err)
    assert "Traceback" not in r.err
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["broken.json"]  # no stray temporary files either


def test_resume_of_a_missing_file_is_refused(tmp_path: Path) -> None:
    r = warroom("resume", tmp_path / "nothere.json", script=True)
    assert r.code == 2
    assert f"no save file at {tmp_path / 'nothere.json'}" in r.err


def test_unknown_area_in_a_saved_log_names_the_entry(tmp_path: Path, finished_save: tuple[Path, Run]) -> None:
    data = load_save(finished_save[0])
    data["log"] = _cut(data["log"], _first_decision(data["log"]), action="arrow B4 ZZ9")
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = warroom("resume", path)
    assert r.code != 0
    assert "'ZZ9'" in r.err
    assert "log entry 4" in r.err


def test_existing_save_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "precious.json"
    path.write_bytes(b"my precious campaign\n")
    r = warroom("play", "caen", "--allies", "bot", "--axis", "bot", "--save", path)
    assert r.code == 2
    assert f"save file {path} already exists" in r.err
    assert r.out == ""
    r = warroom("autoplay", "caen", "--save", path)
    assert r.code == 2
    assert f"save file {path} already exists" in r.err
    assert r.out == ""  # refused up front, before a whole campaign is played
    assert path.read_bytes() == b"my precious campaign\n"


# ---------------------------------------------------------------- 7. tabletop


def test_tabletop_dday_asks_for_reports_and_checks_their_range(tmp_path: Path) -> None:
    path = tmp_path / "tabletop.json"
    stdin = "report 9 1\n1\nreport x y\n" + "report 4 2\n" * 4 + "quit\n"
    r = warroom("play", "caen", "--mode", "tabletop", "--allies", "human", "--axis", "human", "--seed", "1",
                "--save", path, stdin=stdin)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    refusals = [line.split("Not allowed: ", 1)[1] for line in lines if "Not allowed: " in line]
    assert refusals == ["tabletop victory points run from 0 to 6, got 9",
                        "type the tabletop result as 'report ATTACKER_VP DEFENDER_VP', e.g. 'report 4 2'",
                        "victory points must be whole numbers, got 'x y'"]
    assert lines.count(REPORT_PROMPT) == 4  # Tonga and the three Neptune beaches
    assert "Operation Tonga: row 4 -> airborne lands, B5 captured" in r.out
    assert len(re.findall(r"> Operation Neptune, A\d \w+ Beach: row 4 ", r.out)) == 3
    assert "report: choose by number" not in r.out  # a tabletop result is typed, there is nothing to pick
    assert "Germans: choose by number or type the action" in r.out  # the 21. Panzer counter-attack is next
    log = log_of(path)
    assert [(e["side"], e["action"]) for e in log] == [("report", "report 4 2")] * 4


def test_tabletop_battles_in_parallel_are_reported_by_number(tmp_path: Path) -> None:
    path = tmp_path / "parallel.json"
    turn2 = "report 9 4 2\n" + "".join(f"report {n} {4 if n % 2 else 1} 2\n" for n in range(1, 6))
    stdin = "report 4 2\n" * 5 + turn2 + "quit\n"  # D-Day: Tonga, three beaches, 21. Pz
    assert warroom("play", "caen", "--parallel", "--seed", "1").code != 0  # tabletop battles only
    r = warroom("play", "caen", "--mode", "tabletop", "--parallel", "--allies", "bot", "--axis", "bot", "--seed", "1",
                "--save", path, stdin=stdin)
    assert r.code == 0, r.err
    assert "goes to the table" in r.out and "Battles at the table: 1: " in r.out
    assert "Not allowed: battle 9 is not at the table this turn (battles waiting for a result: 1" in r.out
    numbered = [e["action"] for e in log_of(path) if e["side"] == "report" and e["action"].count(" ") == 3]
    assert numbered[:2] == ["report 1 4 2", "report 2 1 2"]
    resumed = warroom("resume", path, stdin="quit\n")
    assert resumed.code == 0, resumed.err


def test_draft_scenarios_validate_but_cannot_be_played(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "draft"
    shutil.copytree(DATA / "lorraine", folder)
    head = folder / "scenario.toml"
    head.write_text(head.read_text(encoding="utf-8").replace('system = "firestorm"',
                                                               'system = "firestorm"\nstatus = "draft"', 1),
                    encoding="utf-8")
    assert warroom("validate", folder).code == 0
    for verb in ("play", "autoplay", "simulate"):
        r = warroom(verb, folder)
        assert r.code == 2 and "is a draft" in r.err, (verb, r.err)
