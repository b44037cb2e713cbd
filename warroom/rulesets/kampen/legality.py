"""Messages for illegal Kampen om Norge actions: say what the step expects and which rule forbids it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import warroom.rulesets.kampen.naval as naval
from warroom.core.state import Action
from warroom.rulesets.kampen.actions import (
    Choose,
    Discard,
    Exchange,
    Intercept,
    Join,
    Land,
    Move,
    Place,
    Play,
    Raid,
    Recall,
    Sail,
    Sea,
    Ship,
    Withdraw,
)

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import KampenState

EXPECTED = {
    "move": "move FROM TO [N], play CARD or done", "pick": "fight AREA", "losses": "lose norway|allies",
    "losses_answer": "done (agree to Norway's share of the losses) or refuse", "losses_forced": "lose norway|allies",
    "retreat": "retreat AREA", "reinforce": "exchange CARD, play CARD or done", "place": "place AREA",
    "discard": "discard CARD", "deck_removal": "remove AREA", "card_effect": "move FROM TO N or place AREA",
    "invasion_exchange": "exchange CARD or done", "invasion_landing": "place AREA",
    "sabotage": "play CARD or done", "sabotage_target": "place AREA (an attacked area) or move FROM TO (a border)",
    "sabotage_counter": "play CARD or done", "flight": "retreat AREA", "drop_answer": "play CARD or done",
    "drop_scatter": "place AREA", "attack_cards": "play CARD or done", "defend_cards": "play CARD or done",
    "react_cards": "play CARD or done", "rescue": "play CARD or done", "rescue_target": "place AREA N",
    "evacuation": "play CARD or done", "evacuation_target": "place AREA", "landed_retreat": "retreat AREA",
    "submarine": "play CARD or done", "attacker_losses": "remove AREA (where the lost battalion came from)",
    "bluff_roll": "roll", "april_choose": "choose CARD (a card of your 9 April deck)",
    "april_select": "play CARD or done", "deploy_norway": "place AREA or ship SHIP SEA",
    "deploy_germany": "ship SHIP SEA (any sea area I-VIII)", "april_recon": "play CARD or done",
    "recon_target": "sea SEA", "deploy_allies": "ship SHIP SEA (III-VIII)", "april_feint": "play CARD or done",
    "feint_moves": "sail FROM TO SHIP or done", "april_redeploy": "play CARD or done",
    "redeploy_moves": "move FROM TO or done", "icept_ask": "intercept or done", "smoke": "play CARD or done",
    "smoke_target": "withdraw SHIP or done",
    "sea_move": "sail FROM TO [SHIP], ship SHIP SEA (Home Fleet), recall or done",
    "recall_pay": "exchange CARD", "sea_pick": "sea SEA", "sea_join": "join SHIP or done",
    "sea_attack_cards": "play CARD or done", "sea_defend_cards": "play CARD or done",
    "sea_react_cards": "play CARD or done", "sailors": "play CARD or done", "sailors_target": "place AREA",
    "sea_chase": "ship SHIP SEA (where the chased ship goes)", "raid": "raid SHIP or done",
    "landing": "land SHIP AREA or done", "mines": "play CARD or done", "mines_target": "sea SEA",
    "kystfort": "play CARD or done", "kystfort_target": "place AREA (a point city where Germany lands)",
    "divert": "land SHIP AREA (another area on the same sea)", "mobilise": "place AREA (a mobilisation point)",
    "ship_withdrawal": "withdraw SHIP",
}


def explain(st: KampenState, action: Action) -> str:
    """Why `action` is refused, from what the country asked may know and nothing more.

    The legal actions of a step depend only on what the acting country can see (the twin tests hold that), so
    the reasons below are chosen from those, the public board and the actor's own cards and ships: never from
    another country's hand, nor from where a face-down ship of another country lies.
    """
    actor = st.current_player()
    who = st.sc.names.get(actor, actor)
    head = f"illegal action {action.to_str()!r} in step '{st.step}' ({who} to act; expected " \
           f"'{EXPECTED.get(st.step, '')}')"
    return f"{head}: {reason(st, actor, action)}"


def reason(st: KampenState, actor: str, action: Action) -> str:
    verb = action.to_str().split(" ", 1)[0]
    legal = st.offered()
    if verb not in {a.to_str().split(" ", 1)[0] for a in (st.legal_actions() if legal is None else legal)}:
        return f"{verb!r} is not asked for at this step"
    problem = st.flow.steps[st.step].problem  # the step's own "why not", which also decides what is legal
    if problem is not None:
        return problem(st, action) or "not one of the legal actions"
    board = st.sc.board
    if isinstance(action, Move):
        if action.to not in board.neighbours(action.frm) and not action.via:
            return f"{action.to} is not next to {action.frm}; a battalion moves one area a round (4.1)"
        have = st.at(action.frm, st.country) - st.arrived.get(action.frm, 0)
        if have < action.n:
            return (f"{st.sc.names[st.country]} have {max(have, 0)} battalions in {action.frm} that may still "
                    "move (those that arrived this round move no more, 4.1)")
    if isinstance(action, Exchange | Discard | Play) and action.card not in st.hands.get(actor, []):
        return f"{action.card} is not in your hand"
    if isinstance(action, Play):
        return "that card has no use that fits this moment (see its timing and requirements)"
    if isinstance(action, Place):
        return f"{st.sc.names[st.country]} may not place battalions in {action.area} now (4.3)"
    if isinstance(action, Choose) and action.card not in st.april_deck.get(actor, []):
        return f"{action.card} is not in your 9 April deck"
    if isinstance(action, Ship | Sail | Join | Raid | Land | Withdraw | Intercept | Recall | Sea):
        return sea_reason(st, actor, action)
    return "not one of the legal actions"


def sea_reason(st: KampenState, actor: str, action: Action) -> str:
    """Why an advanced-game action is refused, as far as a common mistake can be named. Every ship card is
    checked for its owner first: where another country's card lies, and whether it is real, stays unsaid."""
    if not st.advanced:
        return "ships and the 9 April round belong to the advanced game (play with --advanced)"
    key = getattr(action, "key", "")
    ships = st.sc.cards.ships.ships
    if key and key.split("#", 1)[0] not in ships:
        return f"there is no ship card {key!r}"
    owner = ships[key.split("#", 1)[0]].owner if key else actor
    chasing = isinstance(action, Ship) and st.step == "sea_chase"  # the only verb that moves an enemy card
    if owner != actor and not chasing:
        return f"{key} is not one of your ship cards"
    if isinstance(action, Ship) and not chasing and key not in st.ships_hand.get(actor, []):
        return f"{key} is not among your ships waiting to be put to sea"
    to = action.sea if isinstance(action, Ship) else action.to if isinstance(action, Sail) else ""
    if to and not naval.may_enter(owner, to):
        return "Allied ships never enter sea areas I and II (5.1)"
    if isinstance(action, Ship) and st.step == "deploy_norway" and to in st.sc.rules["advanced"]["eidsvoll_not_in"]:
        return f"Eidsvoll & Norge is deployed in any sea area but {to} (7.0)"
    battle = st.sea_battle
    if chasing and battle is not None and to != "raid" and to not in st.sc.board.seas[battle.sea].adjacent:
        return f"a chased ship goes to a sea area next to {battle.sea}, and {to} is not (8.2 step 7)"
    if isinstance(action, Sail):
        if action.frm == "raid":
            return "raiders leave the raid box only after Germany pays 6 symbols to recall them (recall; 7.2)" \
                if not st.flags.recalled else "recalled raiders sail from the raid box to VI, VII or VIII"
        if action.to not in st.sc.board.seas[action.frm].adjacent:
            return f"sea area {action.to} does not border {action.frm}; ships sail one area at a time (8.1)"
        if key and st.fleet.where(key) != action.frm:
            return f"{key} is not one of your ship cards in sea area {action.frm}"
        return "that group cannot sail there now (a ship sails 2 areas a round, Eidsvoll & Norge 1; found or " \
               "intercepting ships stop)"
    return "not one of the legal actions"
