"""Kampen om Norge (Vega Forlag, 2012): the card-driven area-control game for Germany, Norway and the Allies.

The board is `board.py` (data in `scenarios/data/kampen/board.toml`), the cards `cards.py`, the land-combat
arithmetic `combat.py`, and the flow of the basic game `steps.py`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.core.flow import Flow
from warroom.rulesets.kampen.state import KampenState


@cache
def flow() -> Flow[KampenState]:
    from warroom.rulesets.kampen.steps import build_flow

    return build_flow()


def new_game(scenario: Any = None, params: dict[str, Any] | None = None) -> KampenState:
    """A new basic game: the decks are about to be shuffled (the first chance nodes)."""
    from warroom.rulesets.kampen.scenario import bundled

    st = KampenState(scenario if scenario is not None else bundled(), flow(), dict(params or {}))
    st.flow.enter(st, "shuffle")
    return st


__all__ = ["KampenState", "new_game"]
