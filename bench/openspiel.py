"""Benchmark: OpenSpiel's search through the OpenSpiel adapter, in iterations (simulations) per second from the
opening decision of each game, median of several runs, on one core: its Python MCTS on Caen and Lorraine (and its
C++ MCTS, through `mcts_search`), its Python IS-MCTS on Kampen om Norge. Each iteration plays one random rollout
to the end of the game. (OpenSpiel's C++ IS-MCTS cannot resample a Python game, so it is not measured.)
Usage: python bench/openspiel.py [--simulations N] [--runs R]   (needs `pip install 'warroom[openspiel]'`)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from warroom.adapters import openspiel


def opening(game: Any, seed: int) -> Any:
    """The game's first decision, its dice rolled from `seed`."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def python_mcts(game: Any, simulations: int, seed: int) -> Callable[[Any], object]:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, uct_c=2 * game.max_utility(), max_simulations=simulations, evaluator=evaluator,
                       random_state=np.random.RandomState(seed + 1))
    return bot.mcts_search  # type: ignore[no-any-return]


def cpp_mcts(game: Any, simulations: int, seed: int) -> Callable[[Any], object]:
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2 * game.max_utility(), simulations,
                          1000, False, seed, False)
    return bot.mcts_search  # type: ignore[no-any-return]  # (its `step` crashes on a Python game)


def python_ismcts(game: Any, simulations: int, seed: int) -> Callable[[Any], object]:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed + 1))
    return bot.get_policy  # type: ignore[no-any-return]


CASES: list[tuple[str, str, Callable[[Any, int, int], Callable[[Any], object]]]] = [
    ("caen", "MCTS (Python)", python_mcts),
    ("lorraine", "MCTS (Python)", python_mcts),
    ("caen", "MCTS (C++)", cpp_mcts),
    ("lorraine", "MCTS (C++)", cpp_mcts),
    ("kampen", "IS-MCTS (Python)", python_ismcts),
]


def rate(scenario: str, bot: Callable[[Any, int, int], Callable[[Any], object]], simulations: int, seed: int
         ) -> float:
    game = openspiel.load_game(scenario)
    state = opening(game, seed)
    search = bot(game, simulations, seed)
    start = time.perf_counter()
    search(state)
    return simulations / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<10} {'search':<18} {'iterations/s (median of ' + str(args.runs) + ')':>30} {'min':>8} {'max':>8}")
    for scenario, name, bot in CASES:
        rates = [rate(scenario, bot, args.simulations, seed) for seed in range(args.runs)]
        print(f"{scenario:<10} {name:<18} {statistics.median(rates):>30.1f} {min(rates):>8.1f} {max(rates):>8.1f}")


if __name__ == "__main__":
    main()
