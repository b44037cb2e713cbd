"""Messages for illegal actions: name the rule that forbids them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import Advance, Arrow, Commit, Move, Place, Retreat, is_token

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState

EXPECTED = {
    "plan_place": "place UNIT AREA", "reinforce": "place UNIT AREA", "arrow": "arrow FROM TO",
    "attack_commit": "commit UNIT [UNIT]", "defend_commit": "commit [UNIT ...] or commit -",
    "mode_choice": "mode gw|tabletop", "retreat": "retreat UNIT AREA", "advance": "advance UNIT or pass",
    "moves": "move UNIT AREA or pass", "dday_exploit": "arrow FROM TO or pass", "dday_pz21": "arrow FROM TO or pass",
}


def explain(st: FirestormState, action: Action) -> str:
    """Why `action` is not among `legal_actions()`."""
    sc = st.sc
    step = st.step
    who = sc.side_names.get(st.current_player(), st.current_player())
    expected = EXPECTED.get(step, "")
    head = f"illegal action {action.to_str()!r} in step '{step}' ({who} to act"
    head += f"; expected '{expected}')" if expected else ")"
    units = [getattr(action, "unit", "")] if hasattr(action, "unit") else []
    if isinstance(action, Commit):
        units = [u for u in action.units if not is_token(u)]
    for u in units:
        if u and u not in sc.troops:
            return f"{head}: unknown unit {u!r}"
    legal = st.legal_actions()
    if not any(type(a) is type(action) for a in legal):
        return f"{head}: that kind of action is not allowed now"
    if isinstance(action, Arrow):
        for area in (action.frm, action.to):
            if area not in sc.areas:
                return f"{head}: unknown area {area!r}"
        if st.control[action.frm] != st.current_player():
            return f"{head}: the battle arrow must start in an area you control ({action.frm} is not yours)"
        if action.to not in sc.adjacency[action.frm]:
            return f"{head}: {action.to} is not adjacent to {action.frm}"
        if st.control[action.to] == st.current_player():
            return f"{head}: {action.to} is already yours; attack an enemy area"
        if not st.units_at(action.frm, st.current_player()):
            return f"{head}: {action.frm} holds no ground Firestorm Troop to attack with"
        return f"{head}: this arrow is barred by a campaign rule (see the legal arrows)"
    if isinstance(action, Commit):
        return (f"{head}: commit at most two troops from the battle area, a ground troop first, "
                f"at most one air sortie, and within the campaign's limits")
    if isinstance(action, Place | Move | Retreat):
        to = action.area if isinstance(action, Place) else action.to
        if to not in sc.areas and to != "reserve":
            return f"{head}: unknown area {to!r}"
        return f"{head}: {action.unit} may not go to {to} (not friendly, out of range, or full)"
    if isinstance(action, Advance):
        return f"{head}: {action.unit} cannot advance now (survivors first; up to {sc.rules.advance_cap})"
    return f"{head}: not one of the legal actions"
