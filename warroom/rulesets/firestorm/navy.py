"""The queries the land rules ask of the Strategic Game (Firestorm: Norway digest sections 5-6): sea-lane
control, harbour control, and harbour closure (6.9). Its position is `fleet.NavalState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.rulesets.firestorm.fleet import NavalState

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.model import FirestormScenario
    from warroom.rulesets.firestorm.state import FirestormState

# ----- queries the land rules use (sea-lane control, harbours) ------------------------------------------
def sea_control(st: FirestormState, harbour: str, side: str) -> bool:
    """Sea-lane control of a harbour (Norway 6.10): `side` has surface ships in the harbour or its sea
    area and the enemy has none in either. Submarines never count.

    Without the Strategic Game (no `st.navy`) every port counts as controlled by the Allies.
    """
    navy = st.navy
    sc = st.sc
    if navy is None:
        return side == sc.sides[0]
    h = sc.strat_areas[harbour]
    places = (harbour, h.sea)
    enemy = sc.other(side)
    if any(navy.surface_at(sc, p, enemy) for p in places):
        return False
    return any(navy.surface_at(sc, p, side) for p in places)


def harbour_holder(st: FirestormState, harbour: str) -> str:
    """The side with surface ships in a harbour, or '' (Norway 6.11: at Narvik that alone is control).

    Without the Strategic Game the harbour's linked land area decides."""
    navy = st.navy
    sc = st.sc
    if navy is None:
        land = sc.strat_areas[harbour].land
        return st.control[land] if land else ""
    for side in sc.sides:
        if navy.surface_at(sc, harbour, side):
            return side
    return ""


# ----- harbour closure (Norway 6.9) ------------------------------------------------------------------------
def close_harbour(st: FirestormState, harbour: str) -> None:
    """Harbour closure: a special bombing mission hit the harbour, which supplies no Allied troops for the rest
    of the turn (its troops, and those whose only route runs through it, are out of supply). Landings,
    evacuations and sea-lane control go on (assumption: the rulebook names supply only)."""
    navy = st.navy
    assert navy is not None, "harbour closure belongs to the Strategic Game"
    navy.closed_harbours.add(harbour)
    st.note(f"{st.sc.strat_areas[harbour].name} is hit: closed as an Allied supply port this turn")


def harbour_closed(st: FirestormState, harbour: str) -> bool:
    """Whether harbour closure holds for this harbour this turn."""
    return st.navy is not None and harbour in st.navy.closed_harbours


def reopen_harbours(navy: NavalState) -> None:
    """Harbour closure lasts for the rest of the turn: every harbour reopens when the next one begins."""
    navy.closed_harbours = set()


def harbour_of(sc: FirestormScenario, land_area: str) -> str:
    """The Strategic Map harbour linked to a land area, or ''."""
    for s in sc.strat_areas.values():
        if s.land == land_area and s.kind in ("harbour", "home_port"):
            return s.id
    return ""


def ships_in(st: FirestormState, loc: str, side: str) -> list[str]:
    """Surface ships of `side` at a Strategic Map location (empty without the Strategic Game)."""
    if st.navy is None:
        return []
    return st.navy.surface_at(st.sc, loc, side)
