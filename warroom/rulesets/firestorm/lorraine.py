"""Lorraine's own rules: the Panzer Units (4.1, hook `panzer_units`), the weather (4.2, hook `weather`) and German
Success (4.7, hook `german_success`). The Metz fortifications and the Moselle (4.3) are among a battle's
modifiers (`campaign.py`). A destroyed Panzer Unit counts as captured (`lost_as_captured`, which
`FirestormState.destroy` asks through its flow).

A German Panzer Unit next to an enemy area must attack: while one can, the Germans attack only from such areas,
the Panzer Unit leads the attack, and it always fights alone. Each decision has one "why not" here, which serves
both the legal actions and the refusal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.parallel as parallel
from warroom.rulesets.firestorm.battle import table_entry

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


def weather_effect(st: St, face: int) -> str:
    """Lorraine Weather Effects table (L 4.2); assumption: bands 1 / 2 / 3 / 4-6 (digest suggestion)."""
    return table_entry(st.sc.tables.get("weather", []), face)


def final_bonuses(st: St) -> None:
    """Lorraine German Success (L 4.7): +100 once if the Germans hold any listed Allied area."""
    sc = st.sc
    if sc.has("german_success"):
        axis = sc.sides[1]
        areas = sc.rules.value("german_success_areas")
        held = [a for a in areas if st.control[a] == axis]
        if held:
            bonus = int(sc.rules.value("german_success_vp"))
            st.bonus_vp[axis] += bonus
            st.note(f"German Success: the Germans hold {', '.join(held)}: +{bonus} VP")



# ----- the Panzer Units (4.1) ---------------------------------------------------------------------------------
PANZER = "panzer"
"""A battle's `required` troop when a Panzer Unit must lead its attack."""


def panzer_froms(st: St, locked: frozenset[str] | None = None) -> list[str]:
    """The areas holding a German Panzer Unit next to an enemy area: the Germans must attack from them.

    With battles in parallel, areas at a table do not count: a Panzer Unit must attack only where it can."""
    axis = st.sc.sides[1]
    adjacency = st.sc.adjacency
    locked = parallel.locked_areas(st) if locked is None else locked
    out = set()
    for u, where in st.loc.items():
        troop = st.sc.troops[u]
        if troop.is_panzer and troop.side == axis and where in st.control and st.control[where] == axis \
                and where not in locked and any(st.control[n] != axis and n not in locked for n in adjacency[where]):
            out.add(where)
    return sorted(out)


def forced_froms(st: St, side: str, locked: frozenset[str]) -> list[str]:
    """The only areas `side` may attack from now ([] when the rule does not bind it)."""
    if not st.sc.has("panzer_units") or side != st.sc.sides[1]:
        return []
    return panzer_froms(st, locked)


def required(st: St, attacker: str, kind: str, frm: str) -> str:
    """What must lead an attack opened from `frm`: a Panzer Unit there, or nothing ('')."""
    sc = st.sc
    if sc.has("panzer_units") and attacker == sc.sides[1] and kind == "normal" and frm in panzer_froms(st):
        return PANZER
    return ""


def lost_as_captured(st: St, unit: str) -> bool:
    """A Panzer Unit that is destroyed counts as captured (4.1): it is gone for good, and the Allies score it."""
    return st.sc.troops[unit].is_panzer and st.sc.has("panzer_units")


def commit_problem(st: St, units: tuple[str, ...], must_lead: bool) -> str:
    """Why these Firestorm Troops may not be committed ('' if they may): a Panzer Unit fights alone, and one that
    must lead the attack is among them."""
    if not st.sc.has("panzer_units") and not must_lead:
        return ""
    troops = st.sc.troops
    panzers = [u for u in units if u in troops and troops[u].is_panzer]
    if st.sc.has("panzer_units") and panzers and len(units) > 1:
        return "a Panzer Unit fights alone"
    if must_lead and not panzers:
        return "a Panzer Unit that can attack must lead the attack, alone"
    return ""


def start_problem(st: St, forced: tuple[str, ...]) -> str:
    """The refusal of a German battle arrow from anywhere but `forced`, the Panzer Units' areas (4.1)."""
    where = ", ".join(st.area_label(a) for a in forced)
    return f"a German Panzer Unit next to the enemy must attack: the Germans attack only from {where} (Lorraine 4.1)"
