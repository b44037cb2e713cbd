"""Battles played in parallel (club play, docs/server-plan.md 5).

A club plays a turn's tabletop battles at the same time, so with the campaign parameter `parallel` a
battle that reaches its tabletop result is *parked*: it keeps its number, its areas are locked, and the
turn goes on to the next battle's initiative. Results of parked battles (`report N A D`) may arrive at
any decision point and in any order. A reported battle's after-action (roll to destroy, retreat,
advance) runs at the next point between battles, in battle order, and waits for every earlier parked
battle it shares an area with. The Strategic Phase begins once no battle is parked.

assumption: (issue 4, not in the rulebooks, which fight one battle at a time) the after-action of a
battle reported while another battle is being set up runs when that battle is parked or done: generals
are never interrupted in the middle of a decision. Two battles *share an area* when one's after-action
may reach the other's areas: its from-area, its to-area, or a neighbour of its to-area (where retreats
go and advancing troops come from). A parked battle's from- and to-areas take no new battle arrow, and
its committed troops do not advance into another battle's area, and Caen's Caumont Gap waits until no
battle is at a table, so one table's troops are never in two battles at once. When the tables leave a
side with no battle arrow, the next initiative waits for results (`steps.tables_bar_an_attack`): the
turn's battles keep their count and their attackers. Retreats into a parked battle's area are allowed:
the troops are simply there when that battle is resolved, as they would be had its arrow come later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.errors import IllegalActionError
from warroom.rulesets.firestorm.actions import Report, is_token
from warroom.rulesets.firestorm.battle import VP_RANGE, Battle

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState



def enabled(st: FirestormState) -> bool:
    return bool(st.params.get("parallel"))


def parks(st: FirestormState, b: Battle) -> bool:
    """Only the turn's counted battles are parked; special battles (D-Day, Caumont, 21. Pz) are fought
    through at once, as their rules tie them to the turn's sequence."""
    return enabled(st) and b.kind == "normal"


def park(st: FirestormState) -> None:
    """Put the open battle aside until its result is reported; it counts toward the turn's battles now."""
    b = st.battle
    assert b is not None
    b.no = st.battle_no
    b.parked = True
    b.parked_at = len(st.log)
    st.parked.append(b)
    st.battles_left -= 1
    st.battle = None
    if st.record_events:
        st.note(f"Battle {b.no} ({st.area_label(b.frm)} -> {st.area_label(b.to)}) goes to the table; "
                f"the turn goes on while it is played")


def locked_areas(st: FirestormState) -> frozenset[str]:
    """The from- and to-areas of every parked battle: no new battle arrow starts or ends there."""
    if not st.parked:
        return frozenset()
    return frozenset(a for b in st.parked for a in (b.frm, b.to))


def engaged_troops(st: FirestormState) -> frozenset[str]:
    """Troops committed to a parked battle: they stay at their table."""
    if not st.parked:
        return frozenset()
    return frozenset(u for b in st.parked for u in (*b.att, *b.dfn) if not is_token(u))


def footprint(st: FirestormState, b: Battle) -> frozenset[str]:
    """The areas a battle's after-action may touch: its two areas and the neighbours of its to-area."""
    return frozenset((b.frm, b.to, *st.sc.adjacency[b.to]))


def ready(st: FirestormState) -> Battle | None:
    """The first reported parked battle that no earlier parked battle sharing an area holds up."""
    earlier: list[Battle] = []
    for b in st.parked:  # in battle order
        if b.winner and not any(footprint(st, b) & footprint(st, e) for e in earlier):
            return b
        earlier.append(b)
    return None


def waiting_for(st: FirestormState) -> list[int]:
    """Numbers of parked battles still without a result."""
    return [b.no for b in st.parked if not b.winner]


def find(st: FirestormState, no: int) -> Battle:
    """The parked battle numbered `no`, waiting for its result; `IllegalActionError` naming the open ones."""
    for b in st.parked:
        if b.no == no:
            if b.winner:
                raise IllegalActionError(f"battle {no} already has its result; it waits for its after-action")
            return b
    open_now = waiting_for(st)
    which = f"battles waiting for a result: {', '.join(map(str, open_now))}" if open_now \
        else "no battle is waiting for a tabletop result"
    raise IllegalActionError(f"battle {no} is not at the table this turn ({which})")


def check_report(st: FirestormState, action: Report) -> Battle:
    """The parked battle a numbered report is for, with its VP in the tabletop range (core 7.1)."""
    for v in (action.attacker_vp, action.defender_vp):
        if v not in VP_RANGE:
            raise IllegalActionError(f"tabletop victory points run from 0 to 6, got {v}")
    if not st.parked:
        now = " (the battle being fought now is reported without a number: 'report A D')" \
            if st.battle is not None and st.step == "report" else ""
        raise IllegalActionError(f"no battle is at the table{now}")
    return find(st, action.battle)


def resume(st: FirestormState) -> None:
    """Take the ready battle back from the table to run its after-action."""
    b = ready(st)
    assert b is not None
    st.parked.remove(b)
    st.battle = b
    if st.record_events:
        st.note(f"After-action of battle {b.no} ({st.area_label(b.frm)} -> {st.area_label(b.to)})")
