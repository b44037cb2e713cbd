"""After a battle: the loser's retreat (core 7.4) and the winner's advance (core 7.5), stacking permitting (Caen 4.1).

A defeated defender's surviving troops retreat, one at a time and each where its side chooses, into adjacent areas
it holds that have room; once none has room, those still to retreat are destroyed. A winning attacker takes the
area and may move troops in: its battle survivors first, then troops from adjacent friendly areas, up to the
campaign's cap and the stacking limit. Troops committed to a battle still at the table stay there.

One "why not" serves both the legal actions and the refusal: `retreat_problem` and `advance_problem` name what a
refused action breaks, and the legal lists keep exactly the candidates for which the same checks find nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.norway as norway
import warroom.rulesets.firestorm.parallel as parallel
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import PASS, Advance, Pass, Retreat, is_token
from warroom.rulesets.firestorm.battle import ATTACKER, Battle

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


def battle_of(st: St) -> Battle:
    b = st.battle
    assert b is not None, "no open battle"
    return b


# ----- retreat (core 7.4) ------------------------------------------------------------------------------------
def refuge_problem(st: St, b: Battle, area: str) -> str:
    """Why the defender's troops may not retreat from the battle area into its neighbour `area` ('' if they may)."""
    sc = st.sc
    if st.control[area] != b.defender:
        return f"{area} is not held by your side"
    if area in sc.no_stop:
        return f"troops pass through {area} but may not stop there"
    if not st.has_room(area):
        return f"{area} already holds {sc.rules.stacking} troops (stacking)"
    return ""


def retreat_targets(st: St) -> list[str]:
    """Adjacent areas of the defender with room: where a retreating troop may go (core 7.4)."""
    b = battle_of(st)
    return [n for n in st.sc.adjacency[b.to] if not refuge_problem(st, b, n)]


def retreat_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal retreat now ('' if it is)."""
    if not isinstance(action, Retreat):
        return "a troop retreats now: 'retreat UNIT AREA'"
    b = battle_of(st)
    sc = st.sc
    if action.unit not in sc.troops:
        return f"unknown unit {action.unit!r}"
    if sc.troops[action.unit].side != b.defender:
        return f"{action.unit} is not one of your troops"
    if action.unit not in b.retreating:
        return f"{action.unit} is not among the troops retreating from {b.to} ({', '.join(b.retreating)})"
    if action.to not in sc.areas:
        return f"unknown area {action.to!r}"
    if action.to not in sc.adjacency[b.to]:
        return f"a retreat goes to a friendly area next to {b.to}"
    return refuge_problem(st, b, action.to)


def prune_retreat(st: St) -> None:
    """Once no neighbour has room, every troop still to retreat is destroyed (Caen 4.1), not captured."""
    b = battle_of(st)
    if b.retreating and not retreat_targets(st):
        for unit in b.retreating:
            if st.record_events:
                st.note(f"{st.name(unit)} cannot retreat: every friendly neighbour is full (stacking); destroyed")
            st.destroy(unit)
        b.retreating = []


def retreat_actor(st: St) -> str:
    return battle_of(st).defender


def legal_retreat(st: St) -> list[Retreat]:
    """The retreating side picks which troop goes where, one at a time (core ambiguity 9)."""
    b = battle_of(st)
    targets = retreat_targets(st)
    return [Retreat(u, n) for u in b.retreating for n in targets]


def apply_retreat(st: St, action: Retreat) -> None:
    b = battle_of(st)
    b.retreating.remove(action.unit)
    st.loc[action.unit] = action.to
    if st.record_events:
        st.note(f"{st.name(action.unit)} retreats to {st.area_label(action.to)}")
    prune_retreat(st)


# ----- advance (core 7.5) ------------------------------------------------------------------------------------
def room_problem(st: St, b: Battle) -> str:
    """Why no more troops may advance into the captured area ('' if one may)."""
    cap = st.sc.rules.advance_cap
    if b.advanced >= cap:
        return f"up to {cap} troops advance after a battle, and {b.advanced} have"
    if not st.has_room(b.to):
        return f"{b.to} already holds {st.sc.rules.stacking} troops (stacking)"
    return ""


def advancer_problem(st: St, b: Battle, unit: str, engaged: frozenset[str], where: str = "") -> str:
    """Why `unit`, which is not a battle survivor, may not advance into the captured area ('' if it may).
    `where` the troop is may be passed in when known."""
    sc = st.sc
    if sc.troops[unit].side != b.attacker:
        return f"{unit} is not one of your troops"
    if unit in engaged:
        at_table = [p.no for p in st.parked if unit in p.att or unit in p.dfn]
        return f"{unit} is committed to battle {at_table[0]}, still on the table"
    where = where or st.loc[unit]
    if where not in sc.adjacency[b.to]:
        return f"{unit} is in {where}, not next to {b.to}"
    if st.control[where] != b.attacker:
        return f"{unit} is in {where}, which your side does not hold"
    return ""


def advance_options(st: St) -> list[Advance | Pass]:
    b = battle_of(st)
    if room_problem(st, b):
        return []
    if b.survivors:
        out: list[Advance | Pass] = [_advance(u) for u in b.survivors]
        if b.advanced == 0:
            out.append(PASS)
        return out
    near = st.sc.adjacency[b.to]
    troops = st.sc.troops
    attacker = b.attacker
    engaged = parallel.engaged_troops(st)  # troops at another battle's table stay there
    out = [_advance(u) for u, where in st.loc.items()  # the attacker's troops next door, then `advancer_problem`
           if where in near and troops[u].side == attacker and not advancer_problem(st, b, u, engaged, where)]
    out.append(PASS)
    return out


_ADVANCES: dict[str, Advance] = {}


def _advance(unit: str) -> Advance:
    """Interned `Advance` values."""
    got = _ADVANCES.get(unit)
    if got is None:
        got = _ADVANCES[unit] = Advance(unit)
    return got


def advance_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal advance now ('' if it is)."""
    b = battle_of(st)
    if isinstance(action, Pass):
        if b.survivors and b.advanced:
            return f"once one troop has advanced, the battle survivors ({', '.join(b.survivors)}) must advance first"
        return room_problem(st, b)
    if not isinstance(action, Advance):
        return "a troop advances now: 'advance UNIT' or 'pass'"
    if action.unit not in st.sc.troops:
        return f"unknown unit {action.unit!r}"
    why = room_problem(st, b)
    if why or action.unit in b.survivors:
        return why
    why = advancer_problem(st, b, action.unit, parallel.engaged_troops(st))
    if why or not b.survivors:
        return why
    return f"the battle survivors ({', '.join(b.survivors)}) advance first"


def nothing_to_advance(st: St) -> bool:
    """No decision left: the cap is reached, the area is full, or no troop could move in."""
    options = advance_options(st)
    return not options or (len(options) == 1 and isinstance(options[0], Pass))


def begin_advance(st: St) -> None:
    """Advance (core 7.5): the winner takes the area; battle survivors move in first."""
    b = battle_of(st)
    st.flags.advance_done = b.winner != ATTACKER
    if b.winner != ATTACKER:
        return
    st.set_control(b.to, b.attacker)
    if st.record_events:
        st.note(f"{st.sc.side_names[b.attacker]} capture {st.area_label(b.to)}")
    norway.on_capture(st, b.to, b.attacker)
    norway.refresh_fjords(st)
    b.survivors = [u for u in b.att if not is_token(u) and st.loc[u] == b.frm]
    st.flags.advance_done = nothing_to_advance(st)


def apply_advance(st: St, action: Pass | Advance) -> None:
    b = battle_of(st)
    if isinstance(action, Pass):
        st.flags.advance_done = True
        return
    st.loc[action.unit] = b.to
    b.advanced += 1
    if action.unit in b.survivors:
        b.survivors.remove(action.unit)
    if st.record_events:
        st.note(f"{st.name(action.unit)} advances into {st.area_label(b.to)}")
    if nothing_to_advance(st):
        st.flags.advance_done = True
