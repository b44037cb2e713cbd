"""Players that pick among legal actions: a random bot, a heuristic bot and a searching bot (`ai.mcts`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.ai.mcts import MCTSBot, parse_budget
from warroom.core.state import Action
from warroom.core.system import Heuristic
from warroom.rulesets import heuristic, of

KINDS = ("random", "heuristic", "mcts")
"""The bot kinds; a searching bot may name its budget after a colon: 'mcts:800', 'mcts:1.5s', 'mcts:200/h60'."""


class RandomBot:
    """Uniformly random legal play, from its own seeded RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]


def make_bot(kind: str, rng: random.Random) -> Any:
    """A bot by name: 'random', 'heuristic', or 'mcts' with an optional budget ('mcts:800' rollouts,
    'mcts:1.5s' of CPU time, '/hN' a horizon of N actions). Raises `ValueError` naming what is wrong."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    name, colon, budget = kind.partition(":")
    if name == "mcts":
        if colon and not budget:
            raise ValueError("'mcts:' needs a budget after the colon, e.g. mcts:800 or mcts:1.5s")
        return MCTSBot(rng, parse_budget(budget))
    raise ValueError(f"unknown bot {kind!r} (use random, heuristic or mcts, e.g. mcts:800 or mcts:1.5s)")


def bot_problem(kind: str) -> str:
    """Why `kind` names no bot ('' if it names one)."""
    try:
        make_bot(kind, random.Random(0))
    except ValueError as exc:
        return str(exc)
    return ""


class HeuristicBot(RandomBot):
    """Plays with the heuristic its state's rule system declares (random play where it declares none)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        # the heuristic of each state type met: a type's rule system, and so its heuristic, never changes
        self._heuristics: dict[type, Heuristic | None] = {}

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        kind = type(state)
        if kind in self._heuristics:
            choose = self._heuristics[kind]
        else:
            choose = self._heuristics[kind] = heuristic(of(state))
        if choose is None:
            return super().choose(state, legal)
        return choose(state, legal, self.rng)
