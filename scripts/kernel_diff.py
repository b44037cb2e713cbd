"""Differential test of the simulation kernel against the reference engine, at scale.

    make fuzz GAMES=10000                              # runs this too: GAMES seeded games per scenario
    python scripts/kernel_diff.py --games 500 --scenario caen --jobs 2

Each game is played twice: in lockstep (every decision's legal actions, in order, and the dice due, compared
between the two engines) and as one random-bot game through each engine's own loop (the logs and the ends
compared). Prints the first differences with the seed that plays them again (`sim.kernel_check`); exits 1 if any.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from warroom.sim.kernel_check import KERNEL_SCENARIOS, lockstep, same_game

CHUNK = 50


def work(scenario: str, seeds: list[int]) -> list[str]:
    problems = []
    for seed in seeds:
        for check in (lockstep, same_game):
            why = check(scenario, seed)
            if why:
                problems.append(why)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per scenario")
    parser.add_argument("--scenario", choices=KERNEL_SCENARIOS, help="only this scenario (default: every one)")
    parser.add_argument("--seed", type=int, default=1, help="first seed, times 1,000,000")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    scenarios = [args.scenario] if args.scenario else list(KERNEL_SCENARIOS)
    first = args.seed * 1_000_000
    jobs = [(scenario, list(range(first + start, first + min(args.games, start + CHUNK))))
            for scenario in scenarios for start in range(0, args.games, CHUNK)]
    console = Console(stderr=True)
    began = time.perf_counter()
    problems: list[str] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as progress, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        task = progress.add_task("kernel against reference", total=len(scenarios) * args.games)
        futures = [(len(seeds), pool.submit(work, scenario, seeds)) for scenario, seeds in jobs]
        for n, future in futures:
            problems.extend(future.result())
            progress.advance(task, n)
    wall = time.perf_counter() - began
    for problem in problems[:50]:
        print(f"  {problem}")
    print(f"kernel: {len(scenarios) * args.games} games per check ({', '.join(scenarios)}) in {wall:.1f} s wall with "
          f"{args.jobs} workers; {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
