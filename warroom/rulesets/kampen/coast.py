"""Where new battalions come ashore in the advanced game (8.3), and the sea areas they come over.

The land steps (`steps.py`, 4.3) ask this module where Germany and the Allies may place; the sea rules
(`sea.py`) build on it. It sits below both, so that neither needs the other.
"""

from __future__ import annotations

import warroom.rulesets.kampen.naval as naval
from warroom.rulesets.kampen.state import ALLIES, GERMANY, KampenState

St = KampenState
SEAS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
COAST = SEAS[:7]  # I-VII border land areas (5.1)


def german_sea_ok(st: St, sea: str) -> tuple[bool, bool]:
    """(may Germany place on this sea's coast, without limit?) (8.3): I and II always; a sea with no Allied ships
    and none further south (VIII does not count); a sea its ships control, then one battalion per German ship
    while Allied ships are further south.

    assumption: Eidsvoll & Norge is not an 'Allied ship' here; false ships count for control."""
    if sea in ("I", "II"):
        return True, True
    south = SEAS[:SEAS.index(sea) + 1]
    clear = not any(st.fleet.ships(s, ALLIES) for s in south if s != "VIII")
    if clear:
        return True, True
    if naval.control(st.fleet, sea) == GERMANY:
        return True, not any(st.fleet.ships(s, ALLIES) for s in south if s not in (sea, "VIII"))
    return False, False


def german_places(st: St, area: str) -> bool:
    used: dict[str, int] = dict(st.flags.sea_places)
    for sea in sorted(st.sc.board.coast(area)):
        ok, free = german_sea_ok(st, sea)
        if ok and (free or used.get(sea, 0) < real_ships(st, sea)):
            return True
    return False


def real_ships(st: St, sea: str) -> int:
    """German ships there that can carry a battalion (false ships carry none, as on 9 April)."""
    return sum(1 for c in st.fleet.ships(sea, GERMANY) if not naval.ship_type(st.sc.cards.ships, c.key).false_ship)


def count_german_place(st: St, area: str) -> None:
    used: dict[str, int] = dict(st.flags.sea_places)
    seas = sorted(st.sc.board.coast(area))
    if any(german_sea_ok(st, s) == (True, True) for s in seas):
        return
    for sea in seas:
        if german_sea_ok(st, sea)[0] and used.get(sea, 0) < real_ships(st, sea):
            used[sea] = used.get(sea, 0) + 1
            st.flags.sea_places = tuple(sorted(used.items()))
            return


def allied_places(st: St, area: str) -> bool:
    seas = st.sc.board.coast(area)
    return bool(seas & set(COAST[2:])) and not seas & {"I", "II"} and not any(
        naval.control(st.fleet, s) == GERMANY for s in seas)
