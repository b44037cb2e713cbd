"""What a battle's situation adds, over every campaign: the defender's GW modifiers, supply, and the tabletop
set-up. Each campaign's own rules live in its module (`caen.py`, `dday.py`, `lorraine.py`, `norway.py`); this
module gathers what they add to a battle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import warroom.rulesets.firestorm.norway as norway
from warroom.rulesets.firestorm.actions import CARPET, DEFENCE
from warroom.rulesets.firestorm.battle import Battle

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


# ----- GW situation modifiers for the defender ------------------------------------------------------
def defence_modifiers(st: St, b: Battle) -> list[tuple[str, int]]:
    """Defender situation modifiers: terrain (Caen), beaches (Caen 4.4), fortifications and rivers.

    Metz fortifications defend Germans only, and they do not add to the river bonus (Lorraine 4.3):
    a fortified area gets only its fortification bonus.
    """
    sc = st.sc
    area = sc.areas[b.to]
    out: list[tuple[str, int]] = []
    terrain_bonus = sc.rules.value("terrain_defence").get(area.terrain, 0)
    if terrain_bonus:
        out.append((f"defending in {area.terrain}", int(terrain_bonus)))
    if sc.has("beach_defence") and "beach" in area.flags and b.defender == sc.sides[0]:
        out.append(("naval artillery off the beach", int(sc.rules.value("beach_gw"))))
    river = sc.rivers.get(frozenset((b.frm, b.to)))
    if sc.has("fortifications") and "fortified" in area.flags and b.defender == sc.sides[1]:
        out.append(("fortifications", int(sc.rules.value("fortified_gw"))))
    elif river:
        out.append((f"defending across the {river}", sc.rules.river_gw))
    return out


# ----- supply in battle ----------------------------------------------------------------------------
def battle_supply(st: St, b: Battle) -> tuple[bool, bool]:
    """Whether the attacker and the defender are in supply (core 6: the attacker traces from its
    from-area, the defender from the defended area), with Norway's rules when switched on."""
    if not st.sc.has("norway_supply"):
        return st.in_supply(b.frm, b.attacker), st.in_supply(b.to, b.defender)
    return norway.norway_supply(st, b, True), norway.norway_supply(st, b, False)


# ----- tabletop set-up: variable forces, briefing ---------------------------------------------------


def tabletop_table(st: St, item: str) -> Sequence[Sequence[Any]]:
    """The table a committed item's tabletop force is rolled on, if any (Caen 4.2 German Defence
    troop; Lorraine German infantry)."""
    if item == DEFENCE:
        rows: Sequence[Sequence[Any]] = st.sc.rules.value("defence_tabletop")
        return rows
    troop = st.sc.troops.get(item)
    return troop.tabletop if troop is not None else ()


def tabletop_briefing(st: St, b: Battle) -> list[str]:
    """Set-up reminders for a tabletop battle: rivers, fortifications, naval guns, bombardment.

    The texts are scenario data (`[tables.briefing]`); the situations that call them are rules.
    """
    sc = st.sc
    texts = sc.tables.get("briefing", {})
    area = sc.areas[b.to]
    out = []
    river = sc.rivers.get(frozenset((b.frm, b.to)))
    fortified = sc.has("fortifications") and "fortified" in area.flags and b.defender == sc.sides[1]
    if fortified and "fortified" in texts:
        out.append(str(texts["fortified"]))
    elif river:
        out.append(str(texts.get("river", "A river runs through no-man's land.")).format(river=river))
        if sc.has("fortifications") and "moselle_east" in area.flags and b.defender == sc.sides[1] \
                and "river_fortified" in texts:
            out.append(str(texts["river_fortified"]))
    if sc.has("beach_defence") and "beach" in area.flags and b.defender == sc.sides[0] and "beach" in texts:
        out.append(str(texts["beach"]))
    if CARPET in b.att and "carpet" in texts:
        out.append(str(texts["carpet"]))
    if b.kind == "caumont" and "caumont" in texts:
        out.append(str(texts["caumont"]))
    if b.from_reserve and "reserve" in texts:
        names = ", ".join(st.name(u) for u in b.from_reserve)
        out.append(str(texts["reserve"]).format(troops=names))
    return out
