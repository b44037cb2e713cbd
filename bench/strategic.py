"""Benchmark: time per Strategic Action in Norway (digest 6.1), on one core.

An action runs from a side's choice (activate or pass) through forming the group, moving, every fight with
its dice and re-rolls, to the end of the action; bots' thinking time is included. Reports the median of
several runs. Usage: python bench/strategic.py [--games N] [--runs R] [--bot heuristic]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from warroom.ai import make_bot
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import new_game
from warroom.scenarios import load_scenario


def run(bot: str, games: int, seed: int) -> tuple[float, float]:
    """(microseconds per strategic action, milliseconds per campaign) over `games` campaigns."""
    sc = load_scenario("norway")
    a, b = sc.sides
    in_actions = 0.0
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        st = new_game(sc)
        st.record_events = False
        players = {a: make_bot(bot, random.Random(seed + 2 * i)), b: make_bot(bot, random.Random(seed + 2 * i + 1))}
        rng = random.Random(seed * 1_000_003 + i)
        actions += sum(t.actions for t in sc.turns)
        while not st.is_terminal():
            naval = st.phase() == "strategic actions"
            t0 = time.perf_counter()
            who = st.current_player()
            action = st.chance_dice().sample(rng) if who == CHANCE else players[who].choose(st, st.legal_actions())
            st.apply_unchecked(action, who)
            if naval:
                in_actions += time.perf_counter() - t0
    total = time.perf_counter() - start
    return in_actions / actions * 1e6, total / games * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bot", action="append")
    args = parser.parse_args()
    print(f"{'bot':<10} {'us per strategic action':>24} {'ms per campaign':>16}  (median of {args.runs} runs)")
    for bot in args.bot or ["random", "heuristic"]:
        results = [run(bot, args.games, seed) for seed in range(args.runs)]
        per_action = statistics.median(r[0] for r in results)
        per_game = statistics.median(r[1] for r in results)
        print(f"{bot:<10} {per_action:>24.0f} {per_game:>16.1f}")


if __name__ == "__main__":
    main()
