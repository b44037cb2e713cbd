"""Narvik (GDW's Europa series, 1974/1980): the German invasion of Norway and the Allied answer, April–June 1940,
in battalions on a hex map, four days a turn.

Our source gives only how Narvik differs from standard Europa; what it states is implemented as stated, and
every chart it leaves out is a stand-in in `scenarios/data/narvik/` (docs/narvik.md lists both). The hex grid
is `hexes.py`, the data `scenario.py`, movement, stacking, ownership and supply `movement.py`, combat
`combat.py`, the sequence of play `steps.py` and victory `victory.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from warroom.core.errors import ScenarioError, shown
from warroom.rulesets.narvik.scenario import DATA, NarvikScenario, load_folder
from warroom.rulesets.narvik.state import NarvikRules, NarvikState

RULE_PARAMS = {
    "broken_down": "German combat units start broken down into battalions, as the source advises (true or false; "
                   "default true)",
}


@cache
def flow() -> NarvikRules:
    from warroom.rulesets.narvik import steps
    from warroom.rulesets.narvik.view import build_view

    return steps.build_flow(build_view, steps.refuse)


def check_params(params: Mapping[str, Any]) -> None:
    """Raise `ValueError`, naming the parameter, unless `broken_down` is true or false.

    >>> check_params({"broken_down": False})
    >>> check_params({"broken_down": "yes"})
    Traceback (most recent call last):
    ...
    ValueError: broken_down: must be true or false, got 'yes'
    """
    if not isinstance(params.get("broken_down", True), bool):
        raise ValueError(f"broken_down: must be true or false, got {shown(params['broken_down'])}")


def load(path: Path) -> NarvikScenario:
    """Read and validate the game's data from a folder (scenario.toml, rules.toml, map.toml, forces.toml)."""
    if not Path(path).is_dir():
        raise ScenarioError([f"{path}: a Narvik scenario is a folder holding scenario.toml, rules.toml, map.toml "
                             "and forces.toml, not one file"])
    return load_folder(Path(path))


@cache
def bundled() -> NarvikScenario:
    return load_folder(DATA)


def new_game(scenario: NarvikScenario | None = None, params: dict[str, Any] | None = None) -> NarvikState:
    """A new game: the units of the first day on the map, each place held by whoever holds its hex alone (all
    Norway's otherwise), and the German player turn of turn 1 about to move."""
    from warroom.rulesets.narvik.movement import settle_owner
    from warroom.rulesets.narvik.steps import entering, place

    params = dict(params or {})
    check_params(params)
    sc = scenario or bundled()
    st = NarvikState(sc, flow(), params)
    for u in sorted(sc.units.values(), key=lambda x: x.id):
        if u.setup and not u.part_of:
            for uid in entering(st, u):
                place(st, uid, sc.map.place_hex(u.setup), settle=False)
    for hid in sorted(set(st.pos.values())):  # a place one side alone starts in is that side's
        settle_owner(st, hid)
    st.flow.enter(st, "reinforce")
    return st
