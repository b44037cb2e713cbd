"""Narvik's actions in words, as the player to act reads them, and the sentence saying what is asked now."""

from __future__ import annotations

from warroom.core.dice import Roll
from warroom.core.state import CHANCE, Action
from warroom.rulesets.narvik.actions import (
    Absorb,
    Break,
    Combine,
    Detach,
    End,
    Fly,
    Interdict,
    Land,
    Move,
    Rail,
    Stand,
    Truck,
    Withdraw,
)
from warroom.rulesets.narvik.naval import landings_left
from warroom.rulesets.narvik.state import NarvikState, other


def unit_words(st: NarvikState, uid: str) -> str:
    u = st.types.get(uid)
    return f"{u.name} ({u.short})" if u is not None else uid


def describe(st: NarvikState, action: Action) -> str:
    """An action in words: 'move I./Gebirgsjäger-Regiment 139 (I/139) to Narvik (1503)'."""
    h = st.hex_name
    if isinstance(action, Move):
        return f"move {unit_words(st, action.unit)} to {h(action.to)}"
    if isinstance(action, Rail):
        return f"send {unit_words(st, action.unit)} by rail to {h(action.to)}"
    if isinstance(action, Land):
        return f"land {unit_words(st, action.unit)} from the sea at {h(action.to)}"
    if isinstance(action, Truck):
        return f"drive {unit_words(st, action.unit)} in {unit_words(st, action.truck)} to {h(action.to)}"
    if isinstance(action, Break):
        parts = st.types[action.unit].breaks_into if action.unit in st.types else ()
        return f"break {unit_words(st, action.unit)} down into {len(parts)} units"
    if isinstance(action, Combine):
        return f"combine the parts of {unit_words(st, action.unit)}"
    if isinstance(action, Absorb):
        return f"{unit_words(st, action.hq)} absorbs {unit_words(st, action.unit)}"
    if isinstance(action, Detach):
        return f"detach {unit_words(st, action.unit)} from its headquarters"
    if isinstance(action, Withdraw):
        return f"try to withdraw from {h(action.hex)} before combat"
    if isinstance(action, Stand):
        return f"stand and fight in {h(action.hex)}"
    if isinstance(action, Interdict):
        return f"send the fleet against {h(action.hex)}"
    if isinstance(action, Fly):
        air = st.sc.air[action.air].name if action.air in st.sc.air else action.air
        what = {"support": f"support the battle in {h(action.hex)}", "bomb": f"bomb {h(action.hex)}",
                "cover": f"hold the air over {h(action.hex)}",
                "carry": f"fly {unit_words(st, action.unit)} to {h(action.hex)}"}.get(action.mission, action.mission)
        return f"{air}: {what}"
    if isinstance(action, End):
        return {"move": "end the movement phase", "regroup": "absorb no more units", "naval": "no naval attack",
                "air": "fly no more missions",
                "exploit": "end the exploitation phase", "reabsorb": "absorb no more units"}.get(st.step, "end")
    if isinstance(action, Roll):
        return f"roll {' '.join(str(v) for v in action.values)}"
    return action.to_str()


def asking(st: NarvikState) -> str:
    """What the position asks for, and why, for everyone watching."""
    if st.terminal:
        return f"The game is over: {st.result}."
    names = st.sc.names
    who = names[st.phasing]
    when = f"Turn {st.game_turn} ({st.sc.dates.get(st.game_turn, '')})"
    if st.step == "naval":
        if st.target:
            return f"{when}: the die decides whether the Allied fleet closes {st.hex_name(st.target)}."
        return (f"{when}: the Allies may send the fleet against one German-held port: closed, it takes no German "
                "reinforcements next turn, and destroyers in it are sunk.")
    if st.step == "air":
        if st.declaring:
            return (f"{when}: {names[st.declaring]} declare air missions (ground support, bombing, transport, "
                    "air cover); the phasing side declares first.")
        return f"{when}: the die decides an air mission over {st.hex_name(st.missions[st.resolving][2])}."
    if st.step == "move":
        lifts = landings_left(st)
        craft = f" The landing craft can carry {lifts} more unit{'s' if lifts > 1 else ''} along the coast." \
            if lifts else ""
        return (f"{when}: {who} move. A unit may enter a hex held by the enemy only to stop there; "
                f"units sharing a hex with the enemy must attack it in the combat phase.{craft}")
    if st.step in ("regroup", "reabsorb"):
        return f"{when}: {who} may have headquarters absorb units stacked with them before the phase ends."
    if st.step == "exploit":
        return (f"{when}: {who} may move combat/motorised units again, but not by rail and not into a hex "
                "with an enemy unit that can still defend.")
    if st.step == "combat" and st.fighting:
        place = st.hex_name(st.fighting)
        if st.current_player() == CHANCE:
            what = {"first": "whether the Norwegians fall back before the attack (first turn only)",
                    "withdraw": "whether the defenders get away"}.get(st.pending, "the battle")
            return f"{when}: the die decides {what} in {place}."
        return (f"{when}: {names[other(st.phasing)]} are attacked in {place}: stand and fight, or try to "
                "withdraw before combat.")
    return f"{when}: {who}'s {st.phase()} phase."
