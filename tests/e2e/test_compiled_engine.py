"""The compiled engine (mypyc, `scripts/compile.py`), in subprocesses: it is loaded when its build is fresh, an
edited source falls back to pure Python, `WARROOM_PURE=1` forces pure Python, and seeded games are the same
action for action in both.

The suite itself runs pure Python (the root conftest sets `WARROOM_PURE=1`); the tests that need a build skip,
saying why, when there is none or it is stale (`make compile` builds it; `make test` does so first).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from depth import deep

from warroom import compiled, rulesets
from warroom.scenarios import bundled_ids
from warroom.sim.conformance import cases as cases_of_conformance

HERE = Path(__file__).parent
BUILD = compiled.check(compiled.overlay_dir())
needs_build = pytest.mark.skipif(not BUILD.compiled, reason=f"no fresh compiled build ({BUILD.reason}): "
                                 "`make compile` or `python scripts/compile.py` builds one (`make test` its quick "
                                 "one, `scripts/compile.py --quick`)")
PROBE = ("import warroom.compiled as c, warroom.core.dice as d, warroom.rulesets.firestorm.moves as m, "
         "warroom.rulesets.kampen.state as k, warroom.core.state as f, warroom.ai.mcts as s\n"
         "print(c.status().describe()); print(d.__file__); print(m.__file__); print(k.__file__); print(f.__file__); "
         "print(s.__file__); "
         "print(getattr(m, 'EDITED', False))")


def run(args: list[str], *, pure: bool, root: Path = compiled.SOURCE_ROOT) -> str:
    """The output of `python ARGS...` run on the sources under `root`, pure or with the compiled engine if fresh."""
    env = {**os.environ, "PYTHONPATH": str(root), compiled.DIR_ENV: str(compiled.overlay_dir())}
    env.pop(compiled.PURE_ENV, None)
    if pure:
        env[compiled.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, *args], env=env, cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_build
def test_a_fresh_build_is_loaded() -> None:
    engine, dice, moves, state, api, search, _ = run(["-c", PROBE], pure=False).splitlines()
    assert engine.startswith("engine: compiled (mypyc ")
    for path in (dice, moves, state, search):
        assert path.startswith(str(compiled.overlay_dir())) and path.endswith(compiled.extension_suffix()), path
    assert api == str(compiled.SOURCE_ROOT / "warroom" / "core" / "state.py")  # not compiled: always the source


def test_warroom_pure_forces_pure_python() -> None:
    engine, dice, moves, state, _, _, _ = run(["-c", PROBE], pure=True).splitlines()
    assert engine == "engine: pure Python (WARROOM_PURE=1)"
    assert [dice, moves, state] == [str(compiled.SOURCE_ROOT / "warroom" / name) for name in
                                    ("core/dice.py", "rulesets/firestorm/moves.py", "rulesets/kampen/state.py")]


PLUG_IN = ("import warroom.core.flow as f\n"
           "class Rules(f.Flow):\n"
           "    pass\n"
           "class Position:\n"
           "    step = ''\n"
           "    def is_terminal(self): return False\n"
           "p = Position()\n"
           "Rules([f.Step('a', 'phase', end_if=lambda s: False)]).enter(p, 'a')\n"
           "print(f.__file__); print(p.step, f.Step('a', 'phase').phase)")


@needs_build
def test_a_rule_system_not_compiled_may_build_on_the_compiled_flow() -> None:
    """A plug-in system (pure Python) subclasses the compiled `Flow` and builds `Step`s, as a bundled one does."""
    where, shown = run(["-c", PLUG_IN], pure=False).splitlines()
    assert where.startswith(str(compiled.overlay_dir())), where
    assert shown == "a phase"


@needs_build
def test_an_edited_source_takes_effect_at_once(tmp_path: Path) -> None:
    """A copy of the sources with one module edited after the build: the whole engine runs pure Python, edit
    included (never the stale compiled module)."""
    shutil.copytree(compiled.SOURCE_ROOT / "warroom", tmp_path / "warroom",
                    ignore=shutil.ignore_patterns("__pycache__"))
    unchanged = run(["-c", PROBE], pure=False, root=tmp_path).splitlines()
    assert unchanged[0].startswith("engine: compiled"), "a faithful copy of the sources uses the build"
    moves = tmp_path / "warroom" / "rulesets" / "firestorm" / "moves.py"
    moves.write_text(moves.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    engine, dice, moves_file, _, _, _, edited = run(["-c", PROBE], pure=False, root=tmp_path).splitlines()
    assert engine == ("engine: pure Python (the compiled build is stale: warroom/rulesets/firestorm/moves.py "
                      "changed since (make compiles it again))")
    assert (dice, moves_file, edited) == (str(tmp_path / "warroom/core/dice.py"), str(moves), "True")


PLAYS = [("caen", deep(25), "random"), ("lorraine", deep(25), "random"), ("norway", deep(8), "random"),
         ("kampen", deep(10), "random"), ("kampen advanced", deep(6), "random"), ("narvik", deep(1), "random"),
         ("caen", deep(3), "heuristic"), ("lorraine", deep(3), "heuristic"), ("norway", deep(2), "heuristic"),
         ("kampen", deep(1), "heuristic"), ("kampen advanced", deep(1), "heuristic")]
"""(scenario, games, bot) compared game by game, each game played twice (pure Python, then compiled) and written
out in full: every action, note and final view. The engines run the same sources, so a difference comes from a
code path that the compiler translates wrongly, and any game that reaches the path shows it: a handful of games
per scenario and bot (hundreds to thousands of actions each) go through every phase and kind of action. The counts
are sized to the suite's time, as the pure Python half of each comparison costs most of it (Narvik's one game, some
3,000 actions, the most; then the heuristic bots' Kampen om Norge games, some seconds each), and a deeper run
multiplies them (`WARROOM_TEST_DEPTH`)."""


def same_output(args: list[str]) -> list[str]:
    """Run `compiled_games.py ARGS` pure and compiled; assert the output is the same line for line; return it."""
    pure, fast = (run([str(HERE / "compiled_games.py"), *args], pure=p).splitlines() for p in (True, False))
    assert (pure[0], fast[0].split(" (")[0]) == ("engine: pure Python (WARROOM_PURE=1)", "engine: compiled")
    assert len(pure) == len(fast), f"{len(pure)} lines pure, {len(fast)} compiled"
    for n, (a, b) in enumerate(zip(pure[1:], fast[1:], strict=True)):
        assert a == b, f"line {n + 2} differs"
    return pure


@needs_build
@pytest.mark.parametrize(("scenario", "games", "bot"), PLAYS, ids=[f"{s}-{g}-{b}" for s, g, b in PLAYS])
def test_the_compiled_engine_plays_the_same_games(scenario: str, games: int, bot: str) -> None:
    """Seeded games, every action, note and final view, and a search's first decision: identical."""
    name, *advanced = scenario.split()
    out = same_output(["play", name, str(games), bot, *advanced])
    assert sum(line.startswith("game ") for line in out) == games and "replay DIFFERS" not in out


CONFORMANCE = {"firestorm": deep(1), "kampen": deep(1)}
"""Games per scenario and variant in the compiled engine's conformance run, for each rule system whose rules are
compiled: one game of each case puts every check of the harness to the compiled rules, and a deeper run
multiplies it. The pure engine's run is tests/property/test_conformance.py's (the suite runs pure Python; it plays
more games, looking for rare faults), and that the two engines play the same games is `PLAYS`'s to show, action by
action."""
RULES_KEPT_PURE = {"narvik": "its rules stay pure Python (scripts/compile.py): a compared game (PLAYS) covers the "
                             "compiled core (the flow, the dice) it runs on"}
"""Rule systems with no compiled conformance run, and why."""


@needs_build
@pytest.mark.parametrize("system", sorted(CONFORMANCE))
def test_the_compiled_engine_keeps_every_promise_of_the_state_api(system: str) -> None:
    """The conformance harness (every scenario and variant of the system: tabletop reports, battles in parallel,
    clone independence, twins) finds nothing on the compiled engine."""
    out = run([str(HERE / "compiled_games.py"), "conformance", system, str(CONFORMANCE[system])],
              pure=False).splitlines()
    assert out[0].startswith("engine: compiled"), out[0]
    cases = list(cases_of_conformance(system))
    assert cases, f"no scenario of {system} to play"
    problems = [line for line in out if line.startswith("problem")]
    assert not problems, "\n".join(problems[:10])
    assert len(out) == 1 + len(cases) and all(f": {CONFORMANCE[system]} games, " in line for line in out[1:])


def compile_script() -> Any:
    """scripts/compile.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("compile_script", compiled.SOURCE_ROOT / "scripts" / "compile.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_a_machine_that_can_build_the_engine_has_built_it() -> None:
    """Under `make test` (which sets WARROOM_REQUIRE_BUILD=1 for these tests) a machine with a C compiler and mypyc
    must have a fresh build: a failed build leaves the engine pure Python, and would otherwise only skip the tests
    above (`make` does not retry a failed build until an engine source changes, so that `make run` does not wait
    for it each time)."""
    if os.environ.get("WARROOM_REQUIRE_BUILD") != "1":
        pytest.skip("only where a build is required (WARROOM_REQUIRE_BUILD=1, as `make test` sets)")
    script = compile_script()
    why_not = script.cannot_build()
    if why_not:
        pytest.skip(f"this machine cannot build the engine: {why_not}")
    log = script.build_log(compiled.overlay_dir())
    assert BUILD.compiled, f"the engine did not build ({BUILD.reason}); the compiler's output is in {log}"


def test_the_cold_modules_are_compiled_at_the_cold_level() -> None:
    """`COLD` names compiled modules only; the cold level goes last on the command line of their C files and of no
    other module's (for the full build, whose other modules are at -O2); and the build in use compiled each C file
    at the level its manifest names for it: the full build's (`FLAGS`) or the quick one's (`QUICK`, all at -O0, as
    `make test` builds)."""
    script = compile_script()
    assert script.COLD and set(script.compiled_sources()) >= script.COLD
    cold_level = [f"-O{script.FLAGS['cold_opt_level']}"]
    for module in script.compiled_sources():
        assert script.level_after(script.c_file(module), script.FLAGS) == (
            cold_level if module in script.COLD else []), module
    if not BUILD.compiled:
        pytest.skip(f"no fresh compiled build ({BUILD.reason})")
    manifest = json.loads((compiled.overlay_dir() / compiled.MANIFEST).read_text(encoding="utf-8"))
    if manifest.get("cold") != sorted(script.COLD):
        pytest.skip("the build predates this list of cold modules")
    levels: dict[str, str] = {}
    for line in script.build_log(compiled.overlay_dir()).read_text(encoding="utf-8").splitlines():
        words = line.split()  # a compile command, whatever the compiler is called: '-c', then the C file
        compiles = [i for i, word in enumerate(words[:-1]) if word == "-c" and words[i + 1].endswith(".c")]
        if compiles:
            levels[Path(words[compiles[0] + 1]).name] = [w for w in words if w.startswith("-O")][-1]
    if not levels:
        pytest.skip("the build's log holds no compile commands (a build made with --verbose writes them elsewhere)")
    cold = set(script.COLD_FILES)
    assert cold <= set(levels), sorted(cold - set(levels))
    flags = manifest["flags"]
    assert flags in (script.FLAGS, script.QUICK)
    assert {levels[name] for name in cold} == {f"-O{flags['cold_opt_level']}"}
    modules = {script.c_file(module) for module in script.compiled_sources()} - cold
    assert {levels[name] for name in modules} == {f"-O{flags['opt_level']}"}


def test_every_rule_system_has_a_compiled_conformance_run_or_a_reason() -> None:
    systems = {s.id for s in rulesets.systems().values()}
    assert set(CONFORMANCE) | set(RULES_KEPT_PURE) == systems and not set(CONFORMANCE) & set(RULES_KEPT_PURE)
    script = compile_script()
    compiled_rules = {Path(name).parts[2] for name in script.compiled_sources() if name.startswith("warroom/rulesets/")}
    assert compiled_rules == set(CONFORMANCE)  # a system whose rules are compiled gets the harness run
    played = {scenario.split()[0] for scenario, _, _ in PLAYS}
    assert all(played & set(bundled_ids(system=system)) for system in RULES_KEPT_PURE)  # and one compared game


def test_warroom_version_says_which_engine_runs() -> None:
    version = ["-c", "from warroom.cli.main import main; main()", "--version"]
    assert run(version, pure=True) == "warroom 0.1.0; engine: pure Python (WARROOM_PURE=1)\n"
    if BUILD.compiled:
        assert run(version, pure=False).startswith("warroom 0.1.0; engine: compiled (mypyc ")
