"""Kampen om Norge actions in words, as the country to act reads them.

The words use only what the actor knows: its own cards by name, the areas and seas by name. A ship card is named
(its owner knows it); the describer is never asked about another country's decision.
"""

from __future__ import annotations

from warroom.core.state import Action
from warroom.rulesets.kampen.actions import (
    Choose,
    Discard,
    Done,
    Exchange,
    Fight,
    Intercept,
    Join,
    Land,
    Lose,
    Move,
    Place,
    Play,
    Raid,
    Recall,
    Refuse,
    Remove,
    Retreat,
    Sail,
    Sea,
    Ship,
    Withdraw,
)
from warroom.rulesets.kampen.state import KampenState


def ship_name(st: KampenState, key: str) -> str:
    """A ship card's ship: 'KMS Blücher' for 'blucher#0'."""
    return st.sc.cards.ships.ships[key.split("#", 1)[0]].name


def place(st: KampenState, area: str) -> str:
    """A land area by name ('Oslo'), or as given if it is not one."""
    land = st.sc.board.land.get(area)
    return land.name if land is not None else area


def sea_name(st: KampenState, sea: str) -> str:
    s = st.sc.board.seas.get(sea)
    return f"sea area {sea}" + (f" ({s.name})" if s is not None and s.name and s.name != sea else "")


def battalions(n: int) -> str:
    return f"{n} battalion{'s' * (n != 1)}"


def describe(st: KampenState, action: Action) -> str:
    """An action in words, e.g. 'move 2 battalions from Oslo to Hamar' or 'play Stukaer'."""
    if isinstance(action, Move):
        via = f" by way of {place(st, action.via)}" if action.via else ""
        frm, to = place(st, action.frm), place(st, action.to)
        if st.hostile(action.to, st.current_player()):
            return f"attack {to} with {battalions(action.n)} from {frm}{via}"
        return f"move {battalions(action.n)} from {frm} to {to}{via}"
    if isinstance(action, Fight):
        return f"fight the battle for {place(st, action.area)} next"
    if isinstance(action, Lose):
        return f"a {st.sc.names[action.country]} battalion is lost"
    if isinstance(action, Refuse):
        return "refuse Norway's share of the losses (Germany decides)"
    if isinstance(action, Retreat):
        return f"retreat to {place(st, action.to)}"
    if isinstance(action, Exchange):
        return f"exchange {st.sc.card_name(action.card)} for its {st.sc.symbols_of(action.card)} reinforcement " \
               f"symbols"
    if isinstance(action, Place):
        return f"place {battalions(action.n)} in {place(st, action.area)}"
    if isinstance(action, Discard):
        return f"put {st.sc.card_name(action.card)} under the deck"
    if isinstance(action, Remove):
        return f"take a battalion off the board in {place(st, action.area)}"
    if isinstance(action, Play):
        return f"play {st.sc.card_name(action.card)}" + (f" (use {action.use + 1})" if action.use is not None else "")
    if isinstance(action, Done):
        return "done"
    if isinstance(action, Choose):
        return f"take {st.sc.card_name(action.card)} into the hand"
    if isinstance(action, Ship):
        return f"put {ship_name(st, action.key)} into {sea_name(st, action.sea)}"
    if isinstance(action, Sail):
        who = ship_name(st, action.key) if action.key else "every ship free to sail"
        return f"sail {who} from {sea_name(st, action.frm)} to {sea_name(st, action.to)}"
    if isinstance(action, Intercept):
        return "try to intercept the enemy ships here"
    if isinstance(action, Join):
        return f"add {ship_name(st, action.key)} to the sea battle"
    if isinstance(action, Sea):
        return f"choose {sea_name(st, action.sea)}"
    if isinstance(action, Raid):
        return f"send {ship_name(st, action.key)} raiding"
    if isinstance(action, Land):
        return f"land a battalion from {ship_name(st, action.key)} in {place(st, action.area)}"
    if isinstance(action, Recall):
        return "call the raiders home (6 reinforcement symbols)"
    if isinstance(action, Withdraw):
        return f"withdraw {ship_name(st, action.key)}"
    return action.to_str()
