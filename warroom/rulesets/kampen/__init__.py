"""Kampen om Norge (Vega Forlag, 2012): the card-driven area-control game for Germany, Norway and the Allies.

The board is `board.py` (data in `scenarios/data/kampen/board.toml`), the cards `cards.py`, the land-combat
arithmetic `combat.py`, and the flow of the basic game `steps.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from warroom.core.errors import ScenarioError, shown
from warroom.rulesets.kampen.scenario import KampenScenario, bundled, load_folder
from warroom.rulesets.kampen.state import KampenRules, KampenState

RULE_PARAMS = {
    "advanced": "the advanced game: ships and the 9 April round (true or false; default false)",
    "seats": "how many people play: 2 (one holds Norway and the Allies) or 3 (default 2)",
}


@cache
def flow() -> KampenRules:
    """The whole flow table: the basic game's rows (`steps.py`) and the advanced game's (`sea.py`, `april.py`)."""
    from warroom.rulesets.kampen import april, sea, steps

    return steps.build_flow([*sea.flow_steps(), *april.flow_steps()], april.after_april_place)


def check_params(params: Mapping[str, Any]) -> None:
    """Raise `ValueError`, naming the parameter, unless `advanced` is true or false and `seats` is 2 or 3.

    >>> check_params({"advanced": True, "seats": 3})
    >>> check_params({"seats": 4})
    Traceback (most recent call last):
    ...
    ValueError: seats: Kampen om Norge is played by 2 or 3 people, not 4
    """
    if not isinstance(params.get("advanced", False), bool):
        raise ValueError(f"advanced: must be true or false, got {shown(params['advanced'])}")
    seats = params.get("seats", 2)
    if isinstance(seats, bool) or seats not in (2, 3):
        raise ValueError(f"seats: Kampen om Norge is played by 2 or 3 people, not {shown(seats)}")


def load(path: Path) -> KampenScenario:
    """Read and validate the game's data from a folder (board.toml, cards.toml, ships.toml, setup.toml)."""
    if not Path(path).is_dir():
        raise ScenarioError([f"{path}: a Kampen om Norge scenario is a folder holding board.toml, cards.toml, "
                             "ships.toml and setup.toml, not one file"])
    return load_folder(Path(path))


def new_game(scenario: KampenScenario | None = None, params: dict[str, Any] | None = None) -> KampenState:
    """A new game (basic, or advanced with `params["advanced"]`): the decks are about to be shuffled (the first
    chance nodes)."""
    params = dict(params or {})
    check_params(params)
    st = KampenState(scenario if scenario is not None else bundled(), flow(), params)
    st.flow.enter(st, "shuffle")
    return st


__all__ = ["RULE_PARAMS", "KampenScenario", "KampenState", "check_params", "load", "new_game"]
