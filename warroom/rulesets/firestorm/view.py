"""Per-side views: what a side may see of a Firestorm position.

Firestorm has little hidden information; the seed and future dice are never part of a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.state import OFF_BOARD

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def battle_view(st: FirestormState, b: Battle) -> dict[str, Any]:
    return {
        "kind": b.kind, "attacker": b.attacker, "defender": b.defender, "from": b.frm, "to": b.to,
        "mode": b.mode, "attacker_troops": list(b.att), "defender_troops": list(b.dfn),
        "attacker_supplied": b.att_supplied, "defender_supplied": b.def_supplied,
        "modifiers": {s: [[label, v] for label, v in m] for s, m in b.modifiers.items()},
        "attacker_total": b.att_total, "defender_total": b.def_total, "winner": b.winner,
        "notes": list(b.notes),
    }


def build_view(st: FirestormState, side: str | None) -> dict[str, Any]:
    sc = st.sc
    areas = []
    for a in sc.areas.values():
        areas.append({
            "id": a.id, "name": a.name, "vp": a.vp, "terrain": a.terrain, "controller": st.control[a.id],
            "troops": st.units_at(a.id), "supplied": st.in_supply(a.id, st.control[a.id]),
            "x": a.x, "y": a.y, "flags": sorted(a.flags), "supply_source": a.supply,
        })
    off = {u: w for u, w in st.loc.items() if w in OFF_BOARD}
    return {
        "scenario": sc.id, "turn": st.turn, "turns": len(sc.turns), "step": st.step, "phase": st.phase(),
        "to_act": st.current_player(), "viewer": side,
        "vp": {s: {"total": st.total_vp(s), "areas": st.area_vp(s), "troops": st.unit_vp[s],
                   "bonus": st.bonus_vp[s]} for s in sc.sides},
        "battles_left": st.battles_left, "air_sorties": dict(st.air_left), "areas": areas,
        "off_board": off, "battle": battle_view(st, st.battle) if st.battle is not None else None,
        "terminal": st.terminal, "outcome": st.outcome_text() if st.terminal else None,
    }
