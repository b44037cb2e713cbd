"""Players that pick among legal actions: a random bot and a heuristic bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.core.state import Action


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
    """Scores every legal action with the ruleset's heuristics (random play where it has none)."""

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        from warroom.rulesets.firestorm.state import FirestormState
        from warroom.rulesets.kampen.state import KampenState

        if isinstance(state, FirestormState):
            from warroom.ai.firestorm_heuristic import choose

            return choose(state, legal, self.rng)
        if isinstance(state, KampenState):
            from warroom.ai.kampen_heuristic import choose as choose_kampen

            return choose_kampen(state, legal, self.rng)
        return super().choose(state, legal)
