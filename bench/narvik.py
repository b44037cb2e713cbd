"""Benchmark: whole Narvik games on one core, for each pairing of bots (the Germans' first), median of several runs:
games per second, the engine's CPU time against a bare loop rolling the same number of dice (the ratio is what
to compare across machines), actions per game, and the outcomes (the heuristic bot against random play in both
seats). Usage: python bench/narvik.py [--games N] [--runs R] [--pair heuristic:random ...]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from collections import Counter

from warroom.ai import make_bot
from warroom.core.game import play
from warroom.core.state import CHANCE
from warroom.rulesets.narvik import new_game

PAIRS = ("random:random", "heuristic:random", "random:heuristic", "heuristic:heuristic")


def bare_dice(count: int, seed: int) -> float:
    """CPU seconds of a loop drawing `count` d6 rolls from a seeded stream: the unit the engine is measured in."""
    rng = random.Random(seed)
    start = time.process_time()
    total = 0
    for _ in range(count):
        total += int(rng.random() * 6) + 1
    return time.process_time() - start


def run(games: int, seed: int, german: str, allied: str) -> tuple[float, float, float, Counter[str]]:
    """(games per second, CPU ratio to the bare dice loop, actions per game, outcomes)."""
    outcomes: Counter[str] = Counter()
    actions = rolls = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        st = new_game(None, {})
        st.record_events = False
        players = {"german": make_bot(german, random.Random(seed * 7919 + i * 2)),
                   "allied": make_bot(allied, random.Random(seed * 7919 + i * 2 + 1))}
        play(st, players, random.Random(seed * 1_000_003 + i), trusted=True)
        outcomes[st.result] += 1
        actions += len(st.log)
        rolls += sum(1 for e in st.log if e.side == CHANCE)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return games / wall, cpu / max(bare_dice(rolls, seed), 1e-9), actions / games, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pair", action="append", help="GERMAN:ALLIED bots, e.g. heuristic:random")
    args = parser.parse_args()
    print(f"{'Germans':<10} {'Allies':<10} {'games/s':>8} {'CPU / bare dice':>16} {'actions':>8}  outcomes "
          f"(median of {args.runs} runs of {args.games} games; outcomes summed)")
    for pair in args.pair or PAIRS:
        german, allied = pair.split(":")
        results = [run(args.games, seed, german, allied) for seed in range(args.runs)]
        outcomes: Counter[str] = Counter()
        for r in results:
            outcomes.update(r[3])
        shown = ", ".join(f"{k} {v}" for k, v in outcomes.most_common())
        print(f"{german:<10} {allied:<10} {statistics.median(r[0] for r in results):>8.2f} "
              f"{statistics.median(r[1] for r in results):>16.0f} {statistics.median(r[2] for r in results):>8.0f}"
              f"  {shown}")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
