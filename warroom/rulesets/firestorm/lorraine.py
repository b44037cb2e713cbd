"""Lorraine's own rules: the weather (Lorraine 4.2, hook `weather`) and German Success (4.7, hook
`german_success`). The Panzer Units (4.1) are part of the commitments (`options.py`, `legality.py`), and the
Metz fortifications and the Moselle (4.3) of a battle's modifiers (`campaign.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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

