"""Players that pick among legal actions: a random bot and a heuristic bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.core.state import Action
from warroom.rulesets import heuristic, of

KINDS = ("random", "heuristic")


class RandomBot:
    """Uniformly random legal play, from its own seeded RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]


def make_bot(kind: str, rng: random.Random) -> Any:
    """A bot by name: 'random' or 'heuristic'."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    raise ValueError(f"unknown bot {kind!r} (use random or heuristic)")


class HeuristicBot(RandomBot):
    """Plays with the heuristic its state's rule system declares (random play where it declares none)."""

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        choose = heuristic(of(state))
        if choose is None:
            return super().choose(state, legal)
        return choose(state, legal, self.rng)
