"""Benchmark: where the engine spends its time, module by module, in the games it plays most.

For each workload (bot games of every bundled campaign as `warroom simulate` and the server play them, random and
heuristic bots, and a few searching decisions), the pure-Python engine runs under cProfile and each module's share
of the time spent in its own code is taken. A module's figure is its largest share over the workloads. The
compile (`scripts/compile.py`) optimises fully only the modules that matter: those listed in its `COLD` are ones
this script shows under 1% in every workload, and are built at the C compiler's -O0, which compiles nearly three
times faster. Run this again when the engine's hot paths change, and move a module out of `COLD` when it rises.

Usage: python bench/hot_modules.py [--games N] [--all]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

os.environ["WARROOM_PURE"] = "1"  # the shares of the Python code itself, before any module is compiled

from warroom import rulesets
from warroom.ai.mcts import Budget, MCTSBot
from warroom.core.game import play
from warroom.scenarios import load_game
from warroom.sim.runner import play_one, play_summary


def campaigns(scenario: str, bot: str, games: int, events: bool,
              params: dict[str, Any] | None = None) -> Callable[[], None]:
    """`games` bot games: as `warroom simulate` plays them (`events` False), or on the reference engine with its
    event notes, as the server plays them; `params` over the system's defaults for bot games."""
    sc = load_game(scenario)
    bots = dict.fromkeys(sc.sides, bot)
    chosen = None if params is None else {**rulesets.of(sc).sim_params, **params}

    def run() -> None:
        for seed in range(games):
            if events:
                play_one(scenario, seed, bots, chosen, record_events=True, sc=sc)
            else:
                play_summary(scenario, seed, bots, chosen, sc)
    return run


def searches(scenario: str, params: dict[str, Any], decisions: int) -> Callable[[], None]:
    """The searching bot (16 rollouts, each to the end of the game) playing every seat for its first `decisions`
    actions from the opening."""
    sc = load_game(scenario)
    system = rulesets.of(sc)

    def run() -> None:
        st = system.new_game(sc, {**system.sim_params, **params})
        seats = system.seats(sc, st.params)
        bots = {seat: MCTSBot(random.Random(k), Budget(rollouts=16)) for k, seat in enumerate(sorted(seats))}
        with contextlib.suppress(RuntimeError):  # the game goes on past the last action looked at
            play(st, bots, random.Random(2), max_actions=decisions)
    return run


def shares(run: Callable[[], None]) -> dict[str, float]:
    """Each `warroom` module's share of the time spent in its own code while `run` runs."""
    profile = cProfile.Profile()
    profile.enable()
    run()
    profile.disable()
    stats: Any = pstats.Stats(profile)
    total = 0.0
    by: Counter[str] = Counter()
    for (path, _line, _name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():
        total += own
        if f"{os.sep}warroom{os.sep}" in path:
            by[path.rsplit(f"{os.sep}warroom{os.sep}", 1)[1].replace(os.sep, "/")] += own
    return {name: t / total for name, t in by.items()} if total else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games per workload (default 3)")
    parser.add_argument("--all", action="store_true", help="list every module, not only the compiled ones")
    args = parser.parse_args()
    n = max(1, args.games)
    work: dict[str, Callable[[], None]] = {}
    for scenario in ("caen", "lorraine", "norway"):
        for bot in ("random", "heuristic"):
            work[f"{scenario} {bot}, simulate"] = campaigns(scenario, bot, n, events=False)
            work[f"{scenario} {bot}, with notes"] = campaigns(scenario, bot, max(1, n // 2), events=True)
    for advanced in (False, True):
        for bot in ("random", "heuristic"):
            work[f"kampen{' advanced' if advanced else ''} {bot}"] = campaigns("kampen", bot, n, events=True,
                                                                              params={"advanced": advanced})
    for scenario, params in (("caen", {}), ("norway", {}), ("kampen", {}), ("kampen", {"advanced": True})):
        work[f"{scenario}{' advanced' if params else ''} search"] = searches(scenario, params, 8)
    most: defaultdict[str, float] = defaultdict(float)
    for label, run in work.items():
        print(f"profiling {label}", file=sys.stderr, flush=True)
        for name, share in shares(run).items():
            most[name] = max(most[name], share)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    from compile import COLD, compiled_sources  # the compile's own list of modules

    built = set(compiled_sources())
    print(f"{'largest share':>13}  module (* compiled at -O0: in the compile's COLD)")
    names = set(most) | ({path.removeprefix("warroom/") for path in built})  # a compiled module never run: 0%
    for name in sorted(names, key=lambda name: (-most[name], name)):
        path = f"warroom/{name}"
        if args.all or path in built:
            print(f"{100 * most[name]:12.2f}%  {name}{' *' if path in COLD else ''}")
    risen = sorted(path for path in COLD if 100 * most[path.removeprefix("warroom/")] >= 1)
    if risen:
        print(f"in COLD but at 1% or more somewhere: {', '.join(risen)}")


if __name__ == "__main__":
    main()
