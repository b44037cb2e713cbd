"""Messages for illegal actions: name the rule that forbids them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.caen as caen
import warroom.rulesets.firestorm.lorraine as lorraine
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    NAVAL,
    Advance,
    Arrow,
    Commit,
    Move,
    Order,
    Pass,
    Place,
    Retreat,
    is_token,
)
from warroom.rulesets.firestorm.moves import move_problem, pass_problem
from warroom.rulesets.firestorm.sea_legality import NAVAL_STEPS, expected_form, order_problem

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
    naval = st.navy is not None and step in NAVAL_STEPS
    expected = expected_form(st) if naval else EXPECTED.get(step, "")
    head = f"illegal action {action.to_str()!r} in step '{step}' ({who} to act"
    head += f"; expected '{expected}')" if expected else ")"
    if naval:
        return f"{head}: {order_problem(st, action)}"
    if isinstance(action, Order):
        if st.navy is None:
            return f"{head}: naval orders belong to the Strategic Game of Firestorm: Norway (digest 6)"
        return f"{head}: naval orders are given only during the Strategic Actions, before the land battles (6.0-6.1)"
    units = [getattr(action, "unit", "")] if hasattr(action, "unit") else []
    if isinstance(action, Commit):
        units = [u for u in action.units if not is_token(u)]
    for u in units:
        if u and u not in sc.troops:
            return f"{head}: unknown unit {u!r}"
    if step == "moves" and isinstance(action, Move | Pass):
        why = move_problem(st, action) if isinstance(action, Move) else pass_problem(st)
        return f"{head}: {why or 'not one of the legal actions'}"
    legal = st.legal_actions()
    b = st.battle
    if isinstance(action, Pass) and step == "advance" and b is not None and b.survivors:
        names = ", ".join(b.survivors)
        return f"{head}: once one troop has advanced, the battle survivors ({names}) must advance first"
    if isinstance(action, Advance):
        at_table = [b.no for b in st.parked if action.unit in (*b.att, *b.dfn)]
        if at_table:
            return f"{head}: {action.unit} is committed to battle {at_table[0]}, still on the table"
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
        at_table = [b.no for b in st.parked if {action.frm, action.to} & {b.frm, b.to}]
        if at_table:
            return (f"{head}: battle {at_table[0]} is being played on the table there; its areas take no new "
                    "battle arrow until its after-action is done")
        return f"{head}: this arrow is barred by a campaign rule (see the legal arrows)"
    if isinstance(action, Commit) and b is not None:
        return f"{head}: {commit_problem(st, action)}"
    if isinstance(action, Place | Move | Retreat):
        to = action.area if isinstance(action, Place) else action.to
        if to not in sc.areas and to != caen.SPOT:
            return f"{head}: unknown area {to!r}"
        return f"{head}: {destination_problem(st, action, to)}"
    if isinstance(action, Advance):
        return f"{head}: {action.unit} cannot advance now (survivors first; up to {sc.rules.advance_cap})"
    return f"{head}: not one of the legal actions"


def commit_problem(st: FirestormState, action: Commit) -> str:
    """The first Firestorm rule a commitment breaks (core 5; Caen 4.2-4.6; Lorraine 4.1)."""
    sc = st.sc
    b = st.battle
    assert b is not None
    attacking = st.step == "attack_commit"
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    troops = [u for u in action.units if not is_token(u)]
    if len(set(action.units)) != len(action.units):
        return "a troop or extra is listed twice"
    for u in troops:
        if sc.troops[u].side != side:
            return f"{u} is not one of your troops"
        if st.loc[u] != area and u not in caen.troops_in_reserve(st, side):
            return f"{u} is in {st.loc[u]}, not in the battle area {area}"
    extras = action.units.count(AIR) + action.units.count(DEFENCE) + action.units.count(NAVAL)
    if len(troops) + extras > (b.max_ft if attacking else 2):
        return f"at most {b.max_ft if attacking else 2} Firestorm Troops may be committed"
    if attacking and not troops:
        return "the attacker's first troop must be a ground troop from the attacking area"
    if AIR in action.units and (side not in sc.air or st.air_left[side] <= 0):
        return "no air sortie is left this turn"
    if AIR in action.units and sc.has("norway_air"):
        return ("no air sortie may fly over this map this turn (Norway 7.6-7.7: Stukas over Narvik need Bodø; "
                "the RAF flies only where and when its sortie rules allow)")
    if NAVAL in action.units:
        return ("naval gunfire supports only Allied troops in Narvik-map battles, while a Cruiser Sqn or "
                "Destroyer Flot is in Narvik harbour (Norway 7.1, 11.33)")
    if CARPET in action.units:
        return "carpet bombing is only for an Allied attack, once in each of the turns that allow it"
    if DEFENCE in action.units:
        return "the German Defence troop defends German areas from turn 2, and not beside three German troops"
    panzer = lorraine.commit_problem(st, action.units, attacking and b.required == lorraine.PANZER)
    if panzer:
        return panzer
    if b.required and b.required != lorraine.PANZER and b.required not in action.units:
        return f"this attack must be made with {b.required}"
    joining = caen.joining_problem(st, area, sum(1 for u in troops if u in caen.troops_in_reserve(st, side)))
    return joining or "not one of the legal commitments"


def destination_problem(st: FirestormState, action: Place | Move | Retreat, to: str) -> str:
    """Why a troop may not go to `to`: not its turn, enemy area, out of range, or full."""
    sc = st.sc
    unit = action.unit
    side = sc.troops[unit].side
    if side != st.current_player():
        return f"{unit} is not one of your troops"
    if to == caen.SPOT and isinstance(action, Place):
        return caen.entry_problem(st, unit) or f"{unit} is not waiting to be placed"
    if to != caen.SPOT and st.control[to] != side:
        return f"{to} is not held by your side"
    if to != caen.SPOT and sc.rules.stacking and not st.has_room(to):
        return f"{to} already holds {sc.rules.stacking} troops (stacking)"
    if isinstance(action, Move):
        if unit in st.moved:
            return f"{unit} has already made its strategic move this turn"
        if st.loc[unit] not in sc.areas:
            return f"{unit} is not on the map"
        return f"{to} is more than {sc.rules.move_range} step(s) through friendly areas from {st.loc[unit]}"
    if isinstance(action, Retreat):
        return f"a retreat goes to a friendly area next to {st.battle.to if st.battle else 'the battle'}"
    if unit not in st.placing:
        return f"{unit} is not waiting to be placed"
    return f"{unit} may not be placed in {to} (its listed areas, or the campaign's places for reinforcements)"
