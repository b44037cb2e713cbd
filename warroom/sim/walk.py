"""Random legal play, one decision at a time: the walk that tests and probes take through a game.

`decisions` plays a game with seeded random legal actions and stops at every decision of a side, so the caller
can look at the position before the walk moves on. Dice are rolled, and results at the table are reported, from
the same seed, so a walk is replayed exactly from its game and seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from warroom import rulesets
from warroom.core.state import CHANCE, REPORT


def decisions(st: Any, seed: int, most: int | None = None) -> Iterator[Any]:
    """Walk `st` (a new game, changed in place) to its end, or for `most` actions, yielding it at every decision
    of a side before a random legal action is played. Look at the position; do not change it."""
    rng = random.Random(seed)
    system = rulesets.of(st)
    played = 0
    while not st.is_terminal() and (most is None or played < most):
        played += 1
        who = st.current_player()
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
            continue
        if who == REPORT:
            assert system.tabletop is not None, f"{system.id} asks for a tabletop result it cannot take"
            reports = system.tabletop.reports(st)
            st.apply_action(reports[rng.randrange(len(reports))], REPORT)
            continue
        yield st
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))], who)


def play(st: Any, seed: int, most: int | None = None) -> Any:
    """`st` walked at random to its end (or for `most` actions), returned for convenience."""
    for _ in decisions(st, seed, most):
        pass
    return st
