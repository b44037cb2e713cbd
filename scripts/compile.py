"""Compile the engine's hot rule modules with mypyc into an overlay that `warroom.compiled` uses while fresh.

The overlay goes outside the source tree (`<venv>/warroom-compiled/` by default, or `--out`), never next to the
sources, so a compiled module cannot shadow an edited one: `warroom` uses it only while every source hash in its
`manifest.json` matches, and runs pure Python otherwise (see `warroom/compiled.py`). The build is made in a
fresh directory beside the overlay, loaded once in a child process to check it, and only then put in place;
the compiler's output goes to `<out>.log`.

Needs mypy (which ships mypyc), setuptools and a C compiler. Exits 1 with one line on stderr if the build fails.

`--quick` builds the same C with gcc at -O0 throughout (`QUICK`): a little over half the full build's CPU time, for
the tests (`make test` builds one into `<venv>/warroom-compiled-quick`; the games it plays are the same, a little
slower). `make run` and `make compile` build the full one.

Usage: python scripts/compile.py [--out DIR] [--force] [--quick] [--verbose] [--jobs N]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the warroom of this checkout, not another installed one

from warroom import compiled  # noqa: E402

COMPILED = ("warroom/core/dice.py", "warroom/core/flow.py", "warroom/rulesets/firestorm/*.py",
            "warroom/rulesets/kampen/*.py", "warroom/ai/firestorm_kernel_bot.py", "warroom/ai/mcts.py")
"""The modules mypyc compiles: the rules, where the engine spends its time, the dice and the search's loop."""
KEPT_PURE = {
    "warroom/rulesets/firestorm/__init__.py": "a package's __init__: tiny, runs once",
    "warroom/rulesets/kampen/__init__.py": "a package's __init__: tiny, runs once",
}
"""Files matched by `COMPILED` that stay pure Python, and why. (The state classes whose `clone()` copies the
instance dictionary are compiled as non-native classes: `@mypyc_attr(native_class=False)`.)"""
INPUTS = ("warroom/core", "warroom/rulesets", "warroom/ai/firestorm_kernel_bot.py", "warroom/ai/mcts.py")
"""Every source under these folders (and these files) is hashed into the manifest: the compiled modules and the pure
modules whose types they were compiled against (a changed signature in a pure module makes the build stale too)."""
PURE = "the engine runs as pure Python (`make compile` tries again)"
GROUP = "warroom_engine"
"""mypyc's group: its shared library is the module `warroom_engine__mypyc` (served from the overlay by
`warroom.compiled`'s finder, like the compiled modules; nothing is added to `sys.path`). Not a dotted name under
`warroom`: mypyc 2.4 puts the headers of a dotted group where its per-module C files (`multi_file`) do not look."""


def compiled_sources(root: Path = ROOT) -> list[str]:
    """The sources to compile, relative to `root`, with '/'."""
    found: list[str] = []
    for pattern in COMPILED:
        for path in sorted(root.glob(pattern)):
            name = path.relative_to(root).as_posix()
            if name not in KEPT_PURE:
                found.append(name)
    return found


def input_hashes(root: Path = ROOT) -> dict[str, str]:
    """The SHA-256 of every source the build reads, by path relative to `root`."""
    return {path.relative_to(root).as_posix(): compiled.digest(path)
            for folder in INPUTS
            for path in ([root / folder] if folder.endswith(".py") else sorted((root / folder).rglob("*.py")))}


FLAGS = {"opt_level": "2", "debug_level": "0", "cold_opt_level": "0"}
"""mypyc's optimisation and debug levels for the C compiler: -O2 without debug information. The C compiler's time
is 16% less than at mypyc's default (-O3 -g1), and games ran as fast, within 2% (Caen, Lorraine and Norway, random
bots, alternating). The modules in `COLD` are compiled at -O0 instead (`cold_opt_level`). Kept in the manifest,
with `COLD`: a build made with other levels is built again."""
QUICK = {"opt_level": "0", "debug_level": "0", "cold_opt_level": "0"}
"""The levels of a `--quick` build, for the tests: mypyc writes the very same C (its translation of the sources is
what the compiled engine's tests check, and what an edit of ours can break), and gcc compiles it without
optimising, in a little over half the CPU time of the full build (82 CPU-s against 142, 2 cores, all 77 modules;
its games do 20–35% more work than the full build's, valgrind's count of instructions). At mypyc's level 0 the C
assertions of its runtime are on too (it undefines NDEBUG), which checks more. What gcc's optimiser does to that
C is gcc's to test, not ours."""
COLD = frozenset({
    "warroom/rulesets/firestorm/battle.py", "warroom/rulesets/firestorm/bridge.py",
    "warroom/rulesets/firestorm/campaign.py", "warroom/rulesets/firestorm/counters.py",
    "warroom/rulesets/firestorm/dday.py", "warroom/rulesets/firestorm/describe.py",
    "warroom/rulesets/firestorm/determinise.py", "warroom/rulesets/firestorm/encoding.py",
    "warroom/rulesets/firestorm/kcaen.py", "warroom/rulesets/firestorm/legality.py",
    "warroom/rulesets/firestorm/naval.py", "warroom/rulesets/firestorm/navy.py",
    "warroom/rulesets/firestorm/positions.py", "warroom/rulesets/firestorm/prompts.py",
    "warroom/rulesets/firestorm/sea_legality.py", "warroom/rulesets/firestorm/secrets.py",
    "warroom/rulesets/firestorm/system.py", "warroom/rulesets/firestorm/tabletop.py",
    "warroom/rulesets/firestorm/view.py",
    "warroom/rulesets/kampen/cards.py", "warroom/rulesets/kampen/combat.py", "warroom/rulesets/kampen/decks.py",
    "warroom/rulesets/kampen/describe.py", "warroom/rulesets/kampen/encoding.py",
    "warroom/rulesets/kampen/legality.py", "warroom/rulesets/kampen/losses.py",
    "warroom/rulesets/kampen/prompts.py", "warroom/rulesets/kampen/scenario.py",
    "warroom/rulesets/kampen/system.py", "warroom/rulesets/kampen/victory.py",
    "warroom/rulesets/kampen/view.py",
})
"""Compiled modules where the engine spends under 1% of its time in every workload of `bench/hot_modules.py` (bot
games of each campaign as `simulate` and the server play them, and searching bots): what a player's view, a
description, a prompt, a refusal's reason and a saved action are made of, the rule system's set-up, and rules met
once a campaign. gcc compiles them at -O0, 13 CPU-s against 35 at -O2 (a fifth of the engine's C); they still
run compiled, and a game does under 1% more work (instructions counted by valgrind, random bots: Caen 0.15% more,
Norway 0.6%, Kampen om Norge's advanced game 0.7%). A module that rises to 1% in a workload leaves this list
(the bench flags it)."""
MOST_JOBS = 8
"""The most C compilers at once by default (the biggest file takes some 280 MB of memory to compile)."""


def quick_dir() -> Path:
    """Where a `--quick` build goes unless told otherwise: beside the full build, never in its place (the engine
    uses whatever build its folder holds)."""
    return Path(sys.prefix) / "warroom-compiled-quick"


def is_fresh(out: Path, root: Path = ROOT, flags: dict[str, str] = FLAGS) -> bool:
    """Whether `out` holds a build of exactly these sources, of this script's module list and `flags`, for this
    Python."""
    if not compiled.check(out, root).compiled:
        return False
    manifest = json.loads((out / compiled.MANIFEST).read_text(encoding="utf-8"))
    return bool(manifest.get("compiled") == compiled_sources(root) and manifest.get("flags") == flags
                and manifest.get("cold") == sorted(COLD))


def build_log(out: Path) -> Path:
    """Where the build of the overlay `out` writes the compiler's output: beside it."""
    return out.with_name(out.name + ".log")


def cannot_build() -> str:
    """Why this machine cannot build the engine ('' when it can): no C compiler, or no mypyc."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} is not found)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is missing (it comes with mypy: pip install -e '.[compile]')"
    return ""


def default_jobs() -> int:
    """C compilers at once: the cores this process may use, at most `MOST_JOBS`."""
    return max(1, min(MOST_JOBS, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))


def build(tmp: Path, sources: list[str], jobs: int, flags: dict[str, str]) -> None:
    """Run mypyc and the C compiler: the extension modules land in `tmp / 'lib'` (the child process's work)."""
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    os.chdir(ROOT)  # mypy names the modules from their paths
    # One C file per module (multi_file). Nearly all of the C is in one extension, the group's shared library
    # (95 files, 30 MB), and setuptools compiles one extension's files one after the other (`--parallel` only builds
    # extensions side by side), so `ParallelSources` compiles them `jobs` at a time too. mypyc takes some 15 CPU-s,
    # the C compiler the rest.
    extensions = mypycify([*sources, "--cache-dir", str(tmp / "mypy-cache")], opt_level=flags["opt_level"],
                          debug_level=flags["debug_level"],
                          target_dir=str(tmp / "c"), group_name=GROUP, multi_file=True)

    class ParallelSources(build_ext):  # type: ignore[misc]  # setuptools has no types here
        def build_extensions(self) -> None:
            compile_one = self.compiler.compile

            def compile_file(file: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
                later = level_after(Path(file).name, flags)
                if later:
                    kwargs = {**kwargs, "extra_postargs": [*(kwargs.get("extra_postargs") or []), *later]}
                return list(compile_one([file], *args, **kwargs))

            def compile_all(files: list[str], *args: Any, **kwargs: Any) -> list[str]:
                order = sorted(files, key=os.path.getsize, reverse=True)  # the last to finish: a small one
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    done = dict(zip(order, pool.map(lambda f: compile_file(f, args, kwargs), order), strict=True))
                return [obj for f in files for obj in done[f]]

            self.compiler.compile = compile_all
            super().build_extensions()

    found = {path.name for path in (tmp / "c").glob("*.c")}
    missing = sorted(module for module in COLD if c_file(module) not in found)
    if missing:  # mypyc named its files otherwise: all at -O2, as before, and the log says why
        print(f"warroom: no C file found for {', '.join(missing)}: compiled at -O{flags['opt_level']}", flush=True)
    os.chdir(tmp)  # setuptools must not read the project's pyproject.toml
    setup(name="warroom-compiled", ext_modules=extensions, cmdclass={"build_ext": ParallelSources},
          script_args=["build_ext", "--build-lib", str(tmp / "lib"), "--build-temp", str(tmp / "obj"),
                       "--parallel", str(jobs)])


def c_file(module: str) -> str:
    """The C file mypyc (`multi_file`) writes for the module at `module` (a path like `COLD`'s)."""
    return "__native_" + module.removesuffix(".py").replace("/", "___") + ".c"


COLD_FILES = frozenset(c_file(module) for module in COLD)
"""The C files of the `COLD` modules."""


def level_after(c_name: str, flags: dict[str, str]) -> list[str]:
    """What goes last on the C compiler's command line for the C file `c_name` (the last -O is the one gcc takes):
    the cold level for a `COLD` module's file, nothing for any other."""
    return [f"-O{flags['cold_opt_level']}"] if c_name in COLD_FILES else []


def failure(log: Path) -> str:
    """What went wrong, in a few words, from the build's log: its last error line, shortened."""
    lines = [line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()] or lines or ["no output"]
    last = errors[-1]
    if "Command '[" in last:  # setuptools quotes the whole compiler command line
        return "the C compiler failed"
    return last if len(last) <= 100 else last[:99] + "…"


def module_files(lib: Path) -> dict[str, str]:
    """The extension modules built in `lib`, by module name: file path relative to `lib`."""
    suffix = compiled.extension_suffix()
    return {path.relative_to(lib).as_posix()[: -len(suffix)].replace("/", "."): path.relative_to(lib).as_posix()
            for path in sorted(lib.rglob("*" + suffix))}


def loads(lib: Path) -> str:
    """'' if a fresh Python process runs the compiled engine from `lib` (and plays a few actions of Caen); else
    what went wrong."""
    probe = ("import random, warroom.compiled as c; s = c.status(); assert s.compiled, s.reason\n"
             "from warroom.scenarios import load_game; from warroom.rulesets import new_game\n"
             "from warroom.core.game import play; from warroom.ai import make_bot\n"
             "import warroom.rulesets.firestorm.moves as m; assert m.__file__.endswith(c.extension_suffix())\n"
             "for name in ('caen', 'kampen'):\n"
             "    st = new_game(load_game(name)); st.clone()\n"
             "    play(st, {s: make_bot('random', random.Random(1)) for s in st.sc.sides}, random.Random(1))\n")
    env = {**os.environ, compiled.DIR_ENV: str(lib), "PYTHONPATH": str(ROOT)}
    env.pop(compiled.PURE_ENV, None)
    run = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=False)
    return "" if run.returncode == 0 else (run.stderr.strip().splitlines() or ["no output"])[-1]


def put_in_place(lib: Path, out: Path) -> None:
    """Replace `out` by `lib` (a process starting in between finds no build and runs pure Python)."""
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    lib.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help="the overlay (default: <venv>/warroom-compiled, "
                        "with --quick <venv>/warroom-compiled-quick)")
    parser.add_argument("--force", action="store_true", help="build even if the overlay is fresh")
    parser.add_argument("--quick", action="store_true", help="gcc at -O0 throughout: the tests' build (QUICK)")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help=f"C compilers at once (default: the cores, at most {MOST_JOBS})")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)  # the build itself, in a child process
    args = parser.parse_args()
    sources = compiled_sources()
    if args.child:
        build(args.child, sources, max(1, args.jobs), QUICK if args.quick else FLAGS)
        return 0
    out: Path = (args.out or (quick_dir() if args.quick else compiled.overlay_dir())).resolve()
    flags = QUICK if args.quick else FLAGS
    if not args.force and is_fresh(out, flags=flags):
        print(f"warroom: the compiled engine in {out} is up to date")
        return 0
    why_not = cannot_build()
    if why_not:
        print(f"warroom: not compiled: {why_not}; {PURE}", file=sys.stderr)
        return 1
    hashes = input_hashes()  # before mypyc reads them: an edit made during the build leaves the build stale
    tmp = out.with_name(f"{out.name}.build-{os.getpid()}")
    log = build_log(out)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    print(f"warroom: compiling {len(sources)} engine modules with mypyc (a few minutes; log: {log})", flush=True)
    start = time.monotonic()
    try:
        with log.open("w", encoding="utf-8") as sink:
            child = subprocess.run([sys.executable, __file__, "--child", str(tmp), "--jobs", str(args.jobs),
                                    *(["--quick"] if args.quick else [])],
                                   stdout=None if args.verbose else sink, stderr=subprocess.STDOUT, check=False)
        if child.returncode != 0:
            print(f"warroom: not compiled ({failure(log)}; log: {log}); {PURE}", file=sys.stderr)
            return 1
        lib = tmp / "lib"
        manifest = {
            "format": compiled.FORMAT, "suffix": compiled.extension_suffix(),
            "python": sys.version.split()[0], "mypy": importlib.metadata.version("mypy"),
            "seconds": round(time.monotonic() - start, 1), "compiled": sources, "flags": flags,
            "cold": sorted(COLD),
            "modules": module_files(lib), "sources": hashes,
        }
        (lib / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        problem = loads(lib)
        if problem:
            print(f"warroom: not compiled: the build does not load ({problem}); {PURE}", file=sys.stderr)
            return 1
        put_in_place(lib, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"warroom: compiled the engine{' (quick: gcc at -O0)' if args.quick else ''} in "
          f"{time.monotonic() - start:.0f} s into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
