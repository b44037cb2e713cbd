"""Messages for illegal Strategic Game actions (Firestorm: Norway digest sections 1.3-1.4, 5-6, 7.6-7.7):
name the rule that forbids an order, or a counter's strategic move, and what may be done instead.

Each decision step of the Strategic Game carries its own "why not" (`Step.problem`, in `strategic`,
`naval_combat` and `sea`), which decides what is legal and names the rule an order breaks; this module says when
an order of another moment belongs, and otherwise asks the step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import Move, Order, Pass
from warroom.rulesets.firestorm.fleet_moves import fleet_move_problem
from warroom.rulesets.firestorm.sea import (
    HARBOUR,
    KIND_TEXT,
    counter_problem,
    listing,
    location_problem,
    navy_of,
    place,
)
from warroom.rulesets.firestorm.strategic import MOVE_VERBS

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St

NAVAL_STEPS = frozenset({"sa_stuka", "sa_choose", "sa_form", "sa_move", "nv_evade", "nv_alloc", "nv_retreat",
                         "nv_reply", "nv_aim", "fleet_moves"})
"""The decision steps of the Strategic Game."""

STEP_FORMS = {
    "sa_stuka": "sortie COUNTER or pass", "sa_choose": "activate LOCATION ships|subs|air or pass",
    "sa_form": "take COUNTER or launch", "nv_evade": "fight or evade", "nv_alloc": "allocate TARGET DICE",
    "nv_retreat": "withdraw LOCATION", "nv_reply": "stand or press", "nv_aim": "aim COUNTER subs|ships",
    "fleet_moves": "move COUNTER LOCATION or pass",
}
MOVE_FORMS = {"ships": "sail LOCATION or halt", "subs": "dive LOCATION, attack or halt",
              "air": "fly LOCATION, bomb HARBOUR or halt"}
STEP_VERBS = {"sa_stuka": ("sortie",), "sa_choose": ("activate",), "sa_form": ("take", "launch"),
              "nv_evade": ("fight", "evade"), "nv_alloc": ("allocate",), "nv_retreat": ("withdraw",),
              "nv_reply": ("stand", "press"), "nv_aim": ("aim",)}
VERB_KIND = {"sail": "ships", "dive": "subs", "attack": "subs", "fly": "air", "bomb": "air"}
WHEN = {
    "sortie": "Ju-87s are lent to the land maps only before the first Strategic Action of a turn (7.7)",
    "activate": "a group is activated only when the previous action is over (6.1)",
    "take": "no group is being formed: activate one first (activate LOCATION ships|subs|air, 6.1)",
    "launch": "no group is being formed: activate one first (activate LOCATION ships|subs|air, 6.1)",
    "halt": "only a group that has set off can halt",
    "fight": "the Germans choose to fight or evade only when surface combat is joined, before the dice (6.5)",
    "evade": "the Germans choose to fight or evade only when surface combat is joined, before the dice (6.5)",
    "allocate": "no fight is waiting for its dice to be allocated (6.3)",
    "withdraw": "no ships are retreating (6.4)",
    "aim": "counters aim only when ships that entered an area with enemy submarines and surface ships have been "
           "fired on by the submarines (6.8)",
    "stand": "only ships attacked by submarines on their way choose to stand or press on (6.8)",
    "press": "only ships attacked by submarines on their way choose to stand or press on (6.8)",
}


def expected_form(st: St) -> str:
    """What the current Strategic Game step expects, e.g. 'sail LOCATION or halt'."""
    if st.step == "sa_move":
        return MOVE_FORMS.get(navy_of(st).kind, "")
    return STEP_FORMS.get(st.step, "")


def some_legal(st: St) -> str:
    """A few of the legal actions, for messages that cannot be more precise."""
    return listing([a.to_str() for a in st.legal_actions()], 6)


def order_problem(st: St, action: Action) -> str:
    """Why a Strategic Game action (an `Order`, a `pass`, or a counter's `Move`) is not legal now."""
    if st.step == "fleet_moves":
        if isinstance(action, Move):
            return fleet_move_problem(st, action)
        return f"counters now make their strategic moves ({STEP_FORMS['fleet_moves']}); legal now: {some_legal(st)}"
    if isinstance(action, Pass):
        return pass_problem(st)
    if isinstance(action, Move):
        return (f"counters make their strategic moves in the Strategic Phase, after the land battles (6.12); "
                f"now: {expected_form(st)}")
    if not isinstance(action, Order):
        return f"this is the Strategic Game ({expected_form(st)}); legal now: {some_legal(st)}"
    named = name_problem(st, action)
    if named:
        return named
    verbs = MOVE_VERBS.get(navy_of(st).kind, ()) if st.step == "sa_move" else STEP_VERBS.get(st.step, ())
    if action.verb not in verbs:
        return verb_problem(st, action)
    problem = st.flow.steps[st.step].problem  # the step's own "why not", which also decides what is legal
    found = problem(st, action) if problem is not None else ""
    return found or f"not one of the legal orders now; legal now: {some_legal(st)}"


def name_problem(st: St, action: Order) -> str | None:
    """An order naming something that is no counter, or no Strategic Map location, whatever the moment."""
    sc = st.sc
    if action.verb in ("take", "sortie", "allocate") and action.arg not in sc.counters and action.arg != HARBOUR:
        return counter_problem(st, action.arg, st.current_player())
    if action.verb in ("activate", "sail", "dive", "fly", "bomb", "withdraw"):
        return location_problem(st, action.arg)
    return None


def pass_problem(st: St) -> str:
    if st.step == "sa_form":
        return "a group being formed cannot pass: take units (take COUNTER), then launch (6.1)"
    if st.step == "sa_move":
        return "a group that has set off stops with 'halt' (the action is then over)"
    if st.step == "nv_alloc":
        return "every die must be allocated: only submarines may hold their fire (6.3, 6.8)"
    return f"passing is not possible now ({expected_form(st)}); legal now: {some_legal(st)}"


def verb_problem(st: St, action: Order) -> str:
    """An order that belongs to another moment of the Strategic Actions."""
    navy = navy_of(st)
    verb = action.verb
    now = f"now: {expected_form(st)}"
    if verb in ("take", "launch") and navy.group and navy.stage != "form":
        return "the group is formed: units cannot join or leave once it has set off (digest 6.1)"
    if verb in VERB_KIND or verb == "halt":
        if st.step == "sa_move":
            return (f"'{verb}' is an order for {KIND_TEXT[VERB_KIND[verb]]}; this group is {KIND_TEXT[navy.kind]} "
                    f"(one kind of unit per action, 6.1); {now}")
        if st.step == "sa_form":
            return "the group has not set off yet: take units (take COUNTER), then launch (6.1)"
        if navy.kind and navy.combat is not None:
            return f"a fight is under way at {place(st, navy.combat.at)}: the group acts again once it is over; {now}"
        if navy.kind:
            return f"the group cannot move now; {now}"
        return f"no group has set off: activate one first (activate LOCATION ships|subs|air, 6.1); {now}"
    return f"{WHEN.get(verb, f'{verb!r} is not an order for this moment')}; {now}"


