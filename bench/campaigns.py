"""Benchmark: full bot-against-bot campaigns per second, per scenario and bot type, on one core.

Two engines: the reference engine driven by `core.game.play` (wall time), and what `warroom simulate` plays
(`sim.runner.play_summary`, CPU time): the same games in the rule system's simulation kernel where it has one
that takes them (Caen and Lorraine, random and heuristic bots), else the reference engine.
Reports the median of several runs and the peak memory (max RSS) of this process. The first line says which
engine ran (compiled by mypyc, or pure Python and why; `WARROOM_PURE=1` forces pure Python).
Usage: python bench/campaigns.py [--games N] [--runs R] [--scenario caen] [--bot random]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from warroom import compiled
from warroom.ai import make_bot
from warroom.core.game import play
from warroom.rulesets.firestorm import new_game
from warroom.scenarios import bundled_ids, load_game, load_scenario
from warroom.sim.runner import play_summary


def run(scenario: str, bot: str, games: int, seed: int) -> float:
    sc = load_scenario(scenario)
    a, b = sc.sides
    start = time.perf_counter()
    for i in range(games):
        st = new_game(sc)
        st.record_events = False
        players = {a: make_bot(bot, random.Random(seed + 2 * i)), b: make_bot(bot, random.Random(seed + 2 * i + 1))}
        play(st, players, random.Random(seed * 1_000_003 + i), trusted=True)
    return games / (time.perf_counter() - start)


def run_simulated(scenario: str, bot: str, games: int, seed: int) -> float:
    """Campaigns per CPU second as `warroom simulate` plays them."""
    sc = load_game(scenario)
    bots = dict.fromkeys(sc.sides, bot)
    start = time.process_time()
    for i in range(games):
        play_summary(scenario, seed * 1_000_003 + i, bots, None, sc)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--bot", action="append")
    args = parser.parse_args()
    scenarios = args.scenario or bundled_ids(system="firestorm")
    bots = args.bot or ["random", "heuristic"]
    print(compiled.status().describe())
    print(f"{'scenario':<10} {'bot':<10} {'engine':<10} {'campaigns/s (median of ' + str(args.runs) + ')':>30} "
          f"{'min':>8} {'max':>8}")
    for scenario in scenarios:
        for bot in bots:
            for engine, how in (("reference", run), ("simulate", run_simulated)):
                rates = [how(scenario, bot, args.games, seed) for seed in range(args.runs)]
                print(f"{scenario:<10} {bot:<10} {engine:<10} {statistics.median(rates):>30.1f} {min(rates):>8.1f} "
                      f"{max(rates):>8.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.1f} MiB")


if __name__ == "__main__":
    main()
