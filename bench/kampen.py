"""Benchmark: full Kampen om Norge games per second (the basic and the advanced game, the same bot for all three
countries, on one core), median of several runs, and the peak memory of this process.
Usage: python bench/kampen.py [--games N] [--runs R] [--bot random|heuristic] [--game basic|advanced]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from warroom.ai import make_bot
from warroom.core.game import play
from warroom.rulesets.kampen import new_game


def run(games: int, seed: int, bot: str, advanced: bool = False) -> tuple[float, float]:
    """(games per second, mean rounds per game)."""
    start = time.perf_counter()
    rounds = 0
    for i in range(games):
        st = new_game(None, {"advanced": True} if advanced else {})
        st.record_events = False
        players = {c: make_bot(bot, random.Random(seed * 7919 + i * 3 + k)) for k, c in enumerate(st.sc.countries)}
        play(st, players, random.Random(seed * 1_000_003 + i), trusted=True)
        rounds += st.round
    return games / (time.perf_counter() - start), rounds / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bot", action="append")
    parser.add_argument("--game", action="append", choices=("basic", "advanced"))
    args = parser.parse_args()
    print(f"{'game':<16} {'bot':<10} {'games/s (median of ' + str(args.runs) + ')':>24} {'min':>8} {'max':>8} "
          f"{'rounds':>7}")
    for game in args.game or ["basic", "advanced"]:
        for bot in args.bot or ["random", "heuristic"]:
            results = [run(args.games, seed, bot, game == "advanced") for seed in range(args.runs)]
            rates = [r for r, _ in results]
            rounds = statistics.mean(n for _, n in results)
            print(f"{'kampen ' + game:<16} {bot:<10} {statistics.median(rates):>24.1f} {min(rates):>8.1f} "
                  f"{max(rates):>8.1f} {rounds:>7.1f}")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
