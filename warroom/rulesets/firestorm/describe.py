"""Actions in words, as the player to act reads them (the terminal, and later the club pages): one describer
for the whole Firestorm system, Strategic Game orders included."""

from __future__ import annotations

from collections.abc import Sequence

import warroom.rulesets.firestorm.caen as caen
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    TOKEN_LABELS,
    Advance,
    Arrow,
    Commit,
    Mode,
    Move,
    Order,
    Pass,
    Place,
    Report,
    Retreat,
)
from warroom.rulesets.firestorm.naval_combat import target_name
from warroom.rulesets.firestorm.sea import KIND_TEXT, air_steps
from warroom.rulesets.firestorm.state import FirestormState
from warroom.rulesets.firestorm.steps import can_claim_tabletop, item_bonus


def short(st: FirestormState, loc: str, width: int = 26) -> str:
    """A location as typed, with its name where it is a code: 'B4 Northern North Sea (off…', 'narvik_harbour'."""
    s = st.sc.strat_areas[loc]
    named = s.name and s.name.split()[0].lower() not in loc.lower()
    text = f"{loc} {s.name}" if named else loc
    return text if len(text) <= width else text[:width - 1] + "…"


def place_words(st: FirestormState, loc: str, width: int = 34) -> str:
    """A Strategic Map location in words: a coded sea area or region with its code ('B4 Northern North Sea (off…'),
    a harbour, airfield or port by its name ('Namsos harbour', 'Trondheim airfield', 'Scapa Flow')."""
    s = st.sc.strat_areas[loc]
    if "_" not in loc and s.name.split()[0].lower() not in loc.lower():
        text = f"{loc} {s.name}"
    elif s.kind == "harbour" and "harbour" not in s.name.lower():
        text = f"{s.name} harbour"
    else:
        text = s.name or loc
    return text if len(text) <= width else text[:width - 1] + "…"


def commit_bonus(st: FirestormState, units: Sequence[str]) -> str:
    """The General's Wargame bonus a commitment brings in the attacked area, e.g. '+5' or '+3 +d6 table'."""
    b = st.battle
    if b is None or b.mode == "tabletop" or st.mode == "tabletop":
        return ""
    sc = st.sc
    side = st.current_player()
    terrain = sc.areas[b.to].terrain
    fixed, rolled = 0, 0
    for u in units:
        if u == CARPET:
            fixed += int(sc.rules.value("carpet_gw"))
        elif u == DEFENCE:
            rolled += 1
        elif u == AIR:
            air = sc.air[side]
            if air.variable:
                rolled += 1
            else:
                fixed += air.gw_bonus(terrain)
        elif u in sc.troops and sc.troops[u].variable:
            rolled += 1
        else:
            fixed += item_bonus(st, side, u, terrain, 0)  # a troop, or an extra such as naval gunfire
    return f" ({fixed:+d}" + (f", plus {rolled} rolled" if rolled else "") + f" in {terrain})"


def describe_naval(st: FirestormState, action: Action) -> str | None:
    """A readable line for a Strategic Game order or a counter's strategic move; None for other actions."""
    sc = st.sc
    navy = st.navy
    if navy is None:
        return None
    if isinstance(action, Move) and action.unit in sc.counters:
        c = sc.counters[action.unit]
        return f"move {c.name} from {place_words(st, navy.where[action.unit], 12)} to {place_words(st, action.to)}"
    if not isinstance(action, Order):
        return None
    verb, arg = action.verb, action.arg
    if verb == "activate":
        return f"activate {KIND_TEXT[action.what]} at {place_words(st, arg)}"
    if verb in ("take", "sortie"):
        c = sc.counters[arg]
        stats = f"CV {c.cv}" + (f", range {c.range}" if c.is_aircraft else "")
        return (f"take {c.name} ({c.type}, {stats})" if verb == "take"
                else f"lend {c.name} to the land battles this turn")
    if verb == "fly":
        return f"strike at the enemy ships at {place_words(st, arg)} ({air_steps(sc, navy.at, arg)} areas away)"
    if verb == "aim":
        c = sc.counters[arg]
        return f"{c.name} (CV {c.cv}) attacks the {'submarines' if action.what == 'subs' else 'surface ships'}"
    if verb == "allocate":
        return f"fire {action.n} {'die' if action.n == 1 else 'dice'} at {target_name(st, arg)}"
    fixed = {"launch": "launch: the group sets off", "halt": "halt: the action ends here",
             "attack": "attack the enemy ships here", "fight": "fight",
             "evade": "voluntary retreat: no German dice, the Allies fire half theirs",
             "stand": "stop here and reply with every ship", "press": "sail on, replying with half the ships"}
    if verb in fixed:
        return fixed[verb]
    moves = {"sail": "sail to", "dive": "move the submarines to", "bomb": "bomb", "withdraw": "retreat to"}
    return f"{moves.get(verb, verb)} {place_words(st, arg)}"


def describe(st: FirestormState, action: Action) -> str:
    """A readable line for an action (the bracketed text form is what can be typed)."""
    naval = describe_naval(st, action)
    if naval is not None:
        return naval
    if isinstance(action, Arrow):
        return f"attack {st.area_label(action.to)} from {st.area_label(action.frm)}"
    if isinstance(action, Commit):
        names = " + ".join(TOKEN_LABELS.get(u, st.name(u)) for u in action.units) or "nothing"
        return f"commit {names}{commit_bonus(st, action.units) if action.units else ''}"
    if isinstance(action, Retreat):
        return f"retreat {st.name(action.unit)} to {st.area_label(action.to)}"
    if isinstance(action, Advance):
        return f"advance {st.name(action.unit)} (from {st.loc[action.unit]})"
    if isinstance(action, Place):
        where = caen.NAME if action.area == caen.SPOT else st.area_label(action.area)
        return f"place {st.name(action.unit)} in {where}"
    if isinstance(action, Move):
        return f"move {st.name(action.unit)} from {st.loc[action.unit]} to {st.area_label(action.to)}"
    if isinstance(action, Pass):
        return "pass / done"
    if isinstance(action, Mode):
        b = st.battle
        if action.mode == "tabletop":
            return "take it to the table (the commanders play it and report the result)"
        if b is not None and st.current_player() == b.attacker and can_claim_tabletop(st, b.defender):
            return (f"leave it to the General's Wargame (the {st.sc.side_names[b.defender]} may still take it to "
                    "the table)")
        return "roll it by the General's Wargame"
    if isinstance(action, Report):
        which = f"battle {action.battle}" if action.battle else "the battle"
        return f"result of {which}: attacker {action.attacker_vp} VP, defender {action.defender_vp} VP"
    return action.to_str()
