"""Benchmark: how fast the engine plays against bare dice, and how fast the searching bot thinks, on one core.

Three measures, each the median of several runs, in CPU time (`time.process_time`), so that a busy machine
changes them less than wall time would:

- **engine/dice ratio** per scenario: the CPU time of random-bot games (the trusted path, no event notes) over
  the CPU time of a bare loop making as many `randint(1, 6)` calls as those games rolled dice. Taken in one
  process, it compares across machines and loads; lower is better, 1 would be the dice alone. Also `clone()`.
  Where the rule system has a simulation kernel for the scenario (Caen, Lorraine), the same in the kernel, which
  is what `warroom simulate` with random bots and the searching bot's random rollouts play.
- **search**: iterations per second of `ai.mcts` from each system's opening (the first decision of a side), with
  rollouts to the end of the game, and the time of 1,000 rollouts from Caen's opening with the evaluation at a
  horizon. Horizon and evaluation are printed with the figure.
- **memory**: the peak memory (tracemalloc) of a search tree of 10,000 nodes on Caen.

The first line says which engine ran: compiled by mypyc, or pure Python and why (`WARROOM_PURE=1` forces it);
compare the two by running this twice, alternating.

Usage: python bench/search.py [--runs R] [--games N] [--part ratio|search|memory]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from typing import Any

from warroom import compiled, rulesets
from warroom.ai import make_bot
from warroom.ai.mcts import Budget, MCTSBot, search_for
from warroom.core.game import play
from warroom.scenarios import load_game
from warroom.sim.walk import decisions

SCENARIOS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("caen", {}), ("lorraine", {}), ("norway", {}), ("kampen", {}), ("kampen", {"advanced": True}))


class CountingRandom(random.Random):
    """A random stream that counts its draws (one per die face). Counting costs a Python call per draw, so the
    games are timed again with a plain `random.Random` of the same seed, which rolls the same dice."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()


def label(scenario: str, params: dict[str, Any]) -> str:
    return scenario + (" advanced" if params.get("advanced") else "")


def new_game(scenario: str, params: dict[str, Any]) -> Any:
    sc = load_game(scenario)
    system = rulesets.of(sc)
    st = system.new_game(sc, {**system.sim_params, **params})
    st.record_events = False
    return st


def dice_loop(dice: int, seed: int) -> float:
    """CPU seconds of a bare loop making `dice` calls of `randint(1, 6)`: the ratios' denominator."""
    randint = random.Random(seed).randint
    start = time.process_time()
    for _ in range(dice):
        randint(1, 6)
    return time.process_time() - start


def random_bots(sides: list[str], seed: int) -> dict[str, Any]:
    return {s: make_bot("random", random.Random(seed + k)) for k, s in enumerate(sides)}


def engine_ratio(scenario: str, params: dict[str, Any], games: int, seed: int) -> tuple[float, float, float]:
    """(engine/dice CPU ratio, games per CPU second, dice per game) of random-bot games."""
    dice = 0
    spent = 0.0
    for i in range(games):
        st = new_game(scenario, params)
        sides = sorted(rulesets.of(st).seats(st.sc, st.params))
        rng = CountingRandom(seed * 1_000_003 + i)
        play(st.clone(), random_bots(sides, seed * 7919 + 2 * i), rng, trusted=True)
        dice += rng.draws
        players = random_bots(sides, seed * 7919 + 2 * i)
        start = time.process_time()
        play(st, players, random.Random(seed * 1_000_003 + i), trusted=True)
        spent += time.process_time() - start
    return spent / dice_loop(dice, seed), games / spent, dice / games


def kernel_ratio(scenario: str, games: int, seed: int) -> tuple[float, float] | None:
    """(engine/dice CPU ratio, games per CPU second) of random-bot games played in the simulation kernel
    (the engine of `RuleSystem.fast_game`), or None where the system has no kernel for the scenario."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    if system.kernel is None or system.kernel(new_game(scenario, {})) is None:
        return None
    from warroom.rulesets.firestorm.kernel import new_kernel

    dice = 0
    spent = 0.0
    for i in range(games):
        rng = CountingRandom(seed * 1_000_003 + i)
        new_kernel(sc, dict(system.sim_params)).play_out(
            (random.Random(seed * 7919 + 2 * i), random.Random(seed * 7919 + 2 * i + 1)), rng)
        dice += rng.draws
        rngs = (random.Random(seed * 7919 + 2 * i), random.Random(seed * 7919 + 2 * i + 1))
        start = time.process_time()
        new_kernel(sc, dict(system.sim_params)).play_out(rngs, random.Random(seed * 1_000_003 + i))
        spent += time.process_time() - start
    return spent / dice_loop(dice, seed), games / spent


def clone_us(scenario: str, params: dict[str, Any], n: int = 2000) -> float:
    """Microseconds per `clone()` of a position a few turns in."""
    st = new_game(scenario, params)
    for _ in decisions(st, 1, most=150):
        pass
    start = time.process_time()
    for _ in range(n):
        st.clone()
    return (time.process_time() - start) / n * 1e6


def opening(scenario: str, params: dict[str, Any]) -> Any:
    """The first decision of a side (the dice before it rolled from seed 1)."""
    return next(decisions(new_game(scenario, params), 1))


def search_rate(scenario: str, params: dict[str, Any], seed: int, budget: Budget) -> tuple[float, float]:
    """(iterations per CPU second, CPU seconds) of one search from the opening."""
    st = opening(scenario, params)
    search = search_for(st, random.Random(seed), budget)
    start = time.process_time()
    search.run()
    spent = time.process_time() - start
    return search.iterations / spent, spent


def tree_memory(nodes: int = 10_000) -> tuple[int, float]:
    """(nodes, peak MiB traced) of a Caen search grown to at least `nodes` nodes."""
    st = opening("caen", {})
    bot = MCTSBot(random.Random(1), Budget(rollouts=nodes))
    tracemalloc.start()
    bot.choose(st, st.legal_actions())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert bot.last is not None
    return bot.last.nodes(), peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--part", action="append", choices=("ratio", "search", "memory"))
    args = parser.parse_args()
    parts = args.part or ["ratio", "search", "memory"]
    print(compiled.status().describe())
    if "ratio" in parts:
        print(f"{'scenario':<18} {'engine/dice':>12} {'games/CPU s':>12} {'dice/game':>10} {'clone µs':>9}")
        for scenario, params in SCENARIOS:
            runs = [engine_ratio(scenario, params, args.games, seed) for seed in range(args.runs)]
            ratio = statistics.median(r for r, _, _ in runs)
            rate = statistics.median(g for _, g, _ in runs)
            clone = statistics.median(clone_us(scenario, params) for _ in range(args.runs))
            print(f"{label(scenario, params):<18} {ratio:>12.1f} {rate:>12.1f} {runs[0][2]:>10.0f} {clone:>9.1f}")
            fast = [kernel_ratio(scenario, args.games * 4, seed) for seed in range(args.runs)]
            if params or any(f is None for f in fast):
                continue
            ratio = statistics.median(f[0] for f in fast if f is not None)
            rate = statistics.median(f[1] for f in fast if f is not None)
            print(f"{'  in the kernel':<18} {ratio:>12.1f} {rate:>12.1f}")
    if "search" in parts:
        print(f"{'scenario':<18} {'MCTS iterations/CPU s, rollouts to the end':>44}")
        for scenario, params in SCENARIOS:
            rates = [search_rate(scenario, params, seed, Budget(rollouts=60))[0] for seed in range(args.runs)]
            print(f"{label(scenario, params):<18} {statistics.median(rates):>44.1f}")
        for horizon in (None, 40):
            times = [search_rate("caen", {}, seed, Budget(rollouts=1000, horizon=horizon))[1]
                     for seed in range(args.runs)]
            where = "to the end (value: the final VP)" if horizon is None else (
                f"horizon {horizon} actions (value: the VP as they stand, squashed)")
            print(f"caen: 1,000 rollouts from the opening, {where}: {statistics.median(times):.2f} CPU s")
    if "memory" in parts:
        nodes, peak = tree_memory()
        print(f"caen search tree: {nodes} nodes, peak traced memory {peak:.1f} MiB")


if __name__ == "__main__":
    main()
