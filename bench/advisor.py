"""Benchmark: how long the plan advisor takes for a turn's plan, scenario by scenario, on one core.

For each scenario a game of the heuristic bots is played from `--seed`; the advisor is then asked at a few of its
decisions (the first of each side in turn 2's battles and strategic phase; for Kampen om Norge, the first decisions
of each side after its opening round). Each is advised with the defaults of `warroom advise` (8 plans, stop at ±5
points) under a CPU-time cap (`--cap`), and the bench prints the CPU seconds it took, the rollouts, the widest
half-width of a plan it did not drop, and whether it reached the target. The issue's bar is Caen within 10 s.

Usage: python bench/advisor.py [--scenario caen ...] [--seed 3] [--cap 60] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from warroom import rulesets
from warroom.ai.advisor import Advisor
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.scenarios import load_game
from warroom.sim.runner import play_one

SCENARIOS = ("caen", "lorraine", "norway", "kampen")


def positions(scenario: str, seed: int) -> list[tuple[str, Any]]:
    """(label, position) for the decisions the bench asks about."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    bots = dict.fromkeys(sc.sides, "heuristic")
    game = play_one(scenario, seed, bots)
    params = dict(game.params)

    def at(k: int) -> Any:
        record = GameRecord(scenario, sc.version, params, seed, list(game.log[:k]))
        return replay(record, lambda: system.new_game(sc, dict(params)))

    found: list[tuple[str, Any]] = []
    wanted = [(s, p) for s in sc.sides for p in ("battle", "strategic")] if system.id == "firestorm" else \
        [(s, "") for s in sc.sides]
    for side, phase in wanted:
        k = next((i for i, e in enumerate(game.log) if e.side == side and e.turn >= 2
                  and (not phase or e.phase == phase)), None)
        if k is not None:
            found.append((f"{side}, turn {game.log[k].turn} {phase or game.log[k].phase}", at(k)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", action="append", choices=SCENARIOS)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="CPU seconds at most for one piece of advice")
    parser.add_argument("--repeat", type=int, default=3, help="runs per position (the median is printed)")
    args = parser.parse_args()
    print(f"{'scenario':9} {'decision':32} {'CPU s':>7} {'rollouts':>9} {'widest ±':>9}  target")
    for scenario in args.scenario or SCENARIOS:
        for label, st in positions(scenario, args.seed):
            bots = dict.fromkeys(st.sc.sides, "heuristic")
            times: list[float] = []
            advice = None
            for _ in range(args.repeat):
                start = time.process_time()
                advice = Advisor(st, bots, 1, seconds=args.cap).advise()
                times.append(time.process_time() - start)
            assert advice is not None
            widest = max(c.win.half() for c in advice.candidates if not c.dropped)
            print(f"{scenario:9} {label:32} {statistics.median(times):7.2f} {advice.rollouts:9,} "
                  f"{widest * 100:8.1f}%  {'reached' if widest <= 0.05 else 'not reached'}", flush=True)


if __name__ == "__main__":
    main()
