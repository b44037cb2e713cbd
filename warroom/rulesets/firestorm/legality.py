"""Messages for illegal actions: name the rule that forbids them.

Each decision's step carries its own "why not" (`Step.problem`: arrows in `arrows.py`, commitments in
`commitment.py`, placements in `placement.py`, strategic moves in `moves.py`, retreats and advances in
`after_action.py`), the same function that decides what is legal; this module puts the step and the expected form
in front of it. Norway's Strategic Game is explained by `sea_legality.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import WRONG_KIND, Commit, Order, is_token
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
    problem = st.flow.steps[step].problem
    if problem is not None:
        return f"{head}: {problem(st, action) or 'not one of the legal actions'}"
    if not any(type(a) is type(action) for a in st.legal_actions()):
        return f"{head}: {WRONG_KIND}"
    return f"{head}: not one of the legal actions"
