"""Messages for illegal Kampen om Norge actions: say what the step expects and which rule forbids it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.state import Action
from warroom.rulesets.kampen.actions import Discard, Exchange, Move, Place, Play

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import KampenState

EXPECTED = {
    "move": "move FROM TO [N], play CARD or done", "pick": "fight AREA", "losses": "lose norway|allies",
    "retreat": "retreat AREA", "reinforce": "exchange CARD, play CARD or done", "place": "place AREA",
    "discard": "discard CARD", "deck_removal": "remove AREA", "card_effect": "move FROM TO N or place AREA",
    "invasion_exchange": "exchange CARD or done", "invasion_landing": "place AREA",
    "sabotage": "play CARD or done", "sabotage_target": "place AREA (an attacked area) or move FROM TO (a border)",
    "sabotage_counter": "play CARD or done", "flight": "retreat AREA", "drop_answer": "play CARD or done",
    "drop_scatter": "place AREA", "attack_cards": "play CARD or done", "defend_cards": "play CARD or done",
    "react_cards": "play CARD or done", "rescue": "play CARD or done", "rescue_target": "place AREA N",
    "evacuation": "play CARD or done", "evacuation_target": "place AREA", "landed_retreat": "retreat AREA",
    "submarine": "play CARD or done", "attacker_losses": "remove AREA (where the lost battalion came from)",
}


def explain(st: KampenState, action: Action) -> str:
    who = st.sc.names.get(st.current_player(), st.current_player())
    head = f"illegal action {action.to_str()!r} in step '{st.step}' ({who} to act; expected " \
           f"'{EXPECTED.get(st.step, '')}')"
    board = st.sc.board
    if isinstance(action, Move):
        if action.to not in board.neighbours(action.frm):
            return f"{head}: {action.to} is not next to {action.frm}; a battalion moves one area a round (4.1)"
        have = st.at(action.frm, st.country) - st.arrived.get(action.frm, 0)
        if have < action.n:
            return (f"{head}: {st.sc.names[st.country]} have {max(have, 0)} battalions in {action.frm} that may "
                    "still move (those that arrived this round move no more, 4.1)")
    if isinstance(action, Exchange | Discard) and action.card not in st.hands[st.country]:
        return f"{head}: {action.card} is not in your hand"
    actor = st.current_player()
    if isinstance(action, Play) and action.card not in st.hands.get(actor, []):
        return f"{head}: {action.card} is not in your hand"
    if isinstance(action, Play):
        return f"{head}: that card has no use that fits this moment (see its timing and requirements)"
    if isinstance(action, Place):
        return f"{head}: {st.sc.names[st.country]} may not place battalions in {action.area} now (4.3)"
    return f"{head}: not one of the legal actions"
