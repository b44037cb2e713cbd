"""Fuzz every registered rule system through the conformance harness at scale.

    make fuzz GAMES=10000            # games per system, spread over its scenarios and variants
    python scripts/fuzz.py --games 500 --system kampen --seed 7 --jobs 2

Reports crashes, dead ends, invariant breaks and leaks, each with the seed that plays it again
(`warroom.sim.conformance.play_checked`), and the games per second. Exits 1 if anything was found.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from warroom import rulesets
from warroom.sim.conformance import Tally, cases, run

CHUNK = 20


def work(system_id: str, scenario: str, variant_name: str, seeds: list[int]) -> Tally:
    system = rulesets.get(system_id)
    variant = next(v for v in system.variants if v.name == variant_name)
    return run(system, scenario, variant, seeds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per system")
    parser.add_argument("--system", help="only this system (default: every registered one)")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    if args.system is not None and rulesets.find(args.system) is None:
        parser.error(f"unknown rule system {args.system!r} (known: {', '.join(rulesets.systems())})")
    todo = list(cases(args.system))
    per_system: dict[str, int] = {}
    for system, _sc, _v in todo:
        per_system[system.id] = per_system.get(system.id, 0) + 1
    jobs: list[tuple[str, str, str, list[int]]] = []
    for system, scenario, variant in todo:
        n = max(1, args.games // per_system[system.id])
        first = args.seed * 1_000_000
        for start in range(0, n, CHUNK):
            jobs.append((system.id, scenario, variant.name, list(range(first + start, first + min(n, start + CHUNK)))))
    console = Console(stderr=True)
    totals: dict[str, Tally] = {}
    began = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as progress, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        task = progress.add_task("fuzzing", total=sum(len(j[3]) for j in jobs))
        futures = [(j[0], pool.submit(work, *j)) for j in jobs]
        for system_id, future in futures:
            tally = future.result()
            totals.setdefault(system_id, Tally()).merge(tally)
            progress.advance(task, tally.games)
    wall = time.perf_counter() - began
    found = 0
    for system_id, tally in totals.items():
        rate = tally.games / tally.seconds if tally.seconds else 0.0
        print(f"{system_id}: {tally.games} games, {tally.actions} actions, {rate:.1f} games/s per worker, "
              f"{len(tally.problems)} problems")
        for problem in tally.problems[:50]:
            print(f"  {problem}")
        found += len(tally.problems)
    print(f"all: {sum(t.games for t in totals.values())} games in {wall:.1f} s wall with {args.jobs} workers; "
          f"{found} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
