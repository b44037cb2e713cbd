"""Caen's opening: the D-Day turn (Caen 3.2: Operation Tonga, Operation Neptune on the three beaches, the
follow-up attacks from the beaches and 21. Panzerdivision's counter-attack) and the Caumont Gap battle of turn 2 (3.3)
(hooks `dday` and `caumont_gap`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.core.dice import Roll
from warroom.core.flow import Step, goto
from warroom.core.state import CHANCE, REPORT, Action
from warroom.rulesets.firestorm.actions import PASS, WRONG_KIND, Arrow, Pass, Report
from warroom.rulesets.firestorm.arrows import ArrowBar, arrow_bar, arrow_options, arrow_problem, open_battle
from warroom.rulesets.firestorm.state import CAPTURED, OFF_BOARD, POOL, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


# ----- the Caumont Gap (Caen turn 2) ------------------------------------------------------------------------
def caumont_due(st: St) -> bool:
    """Caen T2: the Caumont Gap battle is due once the Allies hold Bayeux (C:666).

    assumption: (battles in parallel) it waits until no battle is at a table: it moves 7 Armd and SS 101
    wherever they are and takes the gap at once, which must not touch troops or areas of a battle still
    being played; it then comes at the next point between battles, before the Strategic Phase."""
    sc = st.sc
    if not sc.has("caumont_gap") or st.flags.caumont_done or st.parked:
        return False
    v = sc.rules.value("caumont")
    return bool(v) and st.turn == v["turn"] and st.control[v["trigger"]] == sc.sides[0]


def begin_caumont(st: St) -> None:
    """Take the gap area at once; 7 Armd attacks Villers-Bocage alone against SS 101 alone.

    assumption: (Caen ambiguity 10) 7 Armd is moved to the gap wherever it is on the map; if it is
    off the map (pool, captured) the battle does not happen. German troops in the gap fall back to an
    adjacent German area with room; if German neighbours exist but are full they are destroyed, and
    with no German neighbour they are captured (as in a retreat, core 7.4 / Caen 4.1). SS 101 joins
    the defence of Villers-Bocage only if stacking leaves it room, and 7 Armd moves to the gap only if
    it has room; otherwise there is no battle. The first German neighbour with room takes displaced
    troops (an automatic retreat: the gap falls at once, before any decision).
    """
    sc = st.sc
    v = sc.rules.value("caumont")
    allies, axis = sc.sides
    st.flags.caumont_done = True
    gap, target, att, dfn = v["gap"], v["target"], v["attacker"], v["defender"]
    if st.control[gap] != allies:
        german_neighbours = [n for n in sc.adjacency[gap] if st.control[n] == axis]
        for u in st.units_at(gap, axis):
            spots = [n for n in german_neighbours if st.has_room(n)]
            if spots:
                st.loc[u] = spots[0]
            elif german_neighbours:
                st.destroy(u)
            else:
                st.capture(u)
        st.set_control(gap, allies)
        st.note(f"Caumont Gap: the Allies take {st.area_label(gap)} at once")
    room_for_defender = st.loc[dfn] == target or st.has_room(target)
    room_for_attacker = st.loc[att] == gap or st.has_room(gap)
    if (st.loc[att] in OFF_BOARD or st.control[target] != axis or st.loc[dfn] in (CAPTURED, WITHDRAWN)
            or not room_for_defender or not room_for_attacker):
        st.note("Caumont Gap: the special battle does not take place")
        return
    st.loc[att] = gap
    st.loc[dfn] = target
    open_battle(st, "caumont", allies, gap, target, max_ft=1)
    b = st.battle
    assert b is not None
    b.att, b.dfn = (att,), (dfn,)
    b.att_supplied = st.in_supply(gap, allies)
    b.def_supplied = st.in_supply(target, axis)
    st.note(f"Caumont Gap: {st.name(att)} attacks {st.area_label(target)}; {st.name(dfn)} defends alone")


# ----- the D-Day turn (Caen turn 1) -------------------------------------------------------------------------
def dday_actor(st: St) -> str:
    return REPORT if st.mode == "tabletop" else CHANCE


def dday_row(st: St, action: Report | Roll) -> int:
    """The table row: the GW die, or (tabletop) the Allied VP score (Caen ambiguity 7)."""
    if isinstance(action, Report):
        allied, german = action.attacker_vp, action.defender_vp
        if allied < 3 and german < 3:
            return 3
        return max(1, min(6, allied))
    return int(action.values[0])


def landing(st: St) -> str:
    """The D-Day landing a tabletop result is asked for now, in words: which operation, who lands, and where."""
    sc = st.sc
    if st.step == "dday_tonga":
        t = sc.tables["tonga"]
        return f"Operation Tonga: {st.name(t['unit'])} drops on {st.area_label(t['area'])}"
    beach, division, _brigade = sc.tables["neptune"]["beaches"][int(st.flags.beach_idx)]
    return f"Operation Neptune: {st.name(division)} lands on {st.area_label(beach)}"


FATES = {"lands": "lands", "pool": "is destroyed (into the Reinforcement Pool)", "captured": "is captured"}


def row_effect(st: St, row: int) -> tuple[tuple[Any, ...], str]:
    """What row `row` of the table of the landing asked for now (Caen 3.2: Tonga or Neptune) does: the row's
    entries, which two rows share exactly when they do the same, and that in words."""
    sc = st.sc
    if st.step == "dday_tonga":
        t = sc.tables["tonga"]
        fate, taken = t["rows"][row - 1]
        return (fate, taken), f"{st.name(t['unit'])} {FATES[fate]}, {st.area_label(t['area'])} " \
            f"{'taken' if taken else 'not taken'}"
    t = sc.tables["neptune"]
    _beach, _division, brigade = t["beaches"][int(st.flags.beach_idx)]
    fate, attack_ft, blocked_until = t["rows"][row - 1]
    follow = f"a follow-up attack with {attack_ft} Firestorm troop{'s' * (attack_ft > 1)}" if attack_ft else \
        "no follow-up attack"
    return (fate, attack_ft, blocked_until), f"{st.name(brigade)} {FATES[fate]}, {follow}, no other attack " \
        f"from the beach until turn {int(blocked_until) + 1}"


def dday_begin(st: St) -> None:
    st.flags.dice = 1
    st.flags.dday_done = False


def fare(st: St, unit: str, area: str, fate: str, pooled: str) -> None:
    """A D-Day table's fate for a unit: it lands in `area`, is destroyed into the Reinforcement Pool, or is
    captured."""
    if fate == "lands":
        st.loc[unit] = area
    elif fate == "pool":
        st.loc[unit] = POOL
        st.note(f"{st.name(unit)} is destroyed and {pooled}")
    else:
        st.capture(unit)


def apply_tonga(st: St, action: Report | Roll) -> None:
    """Operation Tonga (Caen 3.2): the row sets the fate of 6 Airborne and of the drop zone."""
    sc = st.sc
    allies = sc.sides[0]
    t = sc.tables["tonga"]
    row = dday_row(st, action)
    fate, taken = t["rows"][row - 1]
    unit, area = t["unit"], t["area"]
    st.flags.dice = 0
    st.flags.dday_done = True
    die = f" (die [{row}])" if isinstance(action, Roll) else ""
    st.note(f"Operation Tonga: row {row}{die} -> airborne {fate}, {area} {'captured' if taken else 'not captured'}")
    if taken:
        st.set_control(area, allies)
    fare(st, unit, area, fate, "goes to the Reinforcement Pool")


def neptune_begin(st: St) -> None:
    st.flags.dice = 1
    st.flags.dday_done = False


def apply_neptune(st: St, action: Report | Roll) -> None:
    """Operation Neptune (Caen 3.2): the beach is always taken; the row decides the tank brigade
    and any follow-up attack from it."""
    sc = st.sc
    t = sc.tables["neptune"]
    i = int(st.flags.beach_idx)
    beach, division, brigade = t["beaches"][i]
    row = dday_row(st, action)
    fate, attack_ft, blocked_until = t["rows"][row - 1]
    st.set_control(beach, sc.sides[0])
    st.loc[division] = beach
    die = f" (die [{row}])" if isinstance(action, Roll) else ""
    st.note(f"Operation Neptune, {st.area_label(beach)}: row {row}{die} -> {st.name(division)} lands; "
            f"tank brigade {fate}")
    fare(st, brigade, beach, fate, "returns as a reinforcement")
    if attack_ft:
        st.flags.exploits.append((beach, int(attack_ft)))
    blocked = dict(st.flags.no_attack_from)
    blocked[beach] = int(blocked_until)
    st.flags.no_attack_from = blocked
    st.flags.beach_idx = i + 1
    if i + 1 >= len(t["beaches"]):
        st.flags.dice = 0
        st.flags.dday_done = True


def exploit_legal(st: St) -> list[Any]:
    beach, _ = st.flags.exploits[0]
    return [*arrow_options(st, st.sc.sides[0], (beach,)), PASS]


def exploit_bar(st: St) -> ArrowBar:
    beach, _ = st.flags.exploits[0]
    return arrow_bar(st, st.sc.sides[0], (beach,), f"this follow-up attack is made from {st.area_label(beach)}, "
                                                    "where its landing succeeded (Caen 3.2, step III)")


def exploit_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal follow-up attack from a beach now ('' if it is)."""
    if isinstance(action, Pass):
        return ""
    if not isinstance(action, Arrow):
        return WRONG_KIND
    return arrow_problem(st, exploit_bar(st), action)


def prune_exploits(st: St) -> None:
    """Drop follow-up attacks whose beach cannot attack any more (no troops or no target)."""
    exploits = st.flags.exploits
    while exploits and len(exploit_legal(st)) == 1:
        exploits.pop(0)


def apply_exploit(st: St, action: Pass | Arrow) -> None:
    _beach, max_ft = st.flags.exploits.pop(0)
    if isinstance(action, Pass):
        prune_exploits(st)
        return
    assert isinstance(action, Arrow)
    open_battle(st, "exploit", st.sc.sides[0], action.frm, action.to, max_ft=max_ft)


def pz21_legal(st: St) -> list[Any]:
    unit = st.sc.tables["neptune"]["counter_attack"]
    where = st.loc[unit]
    if where in OFF_BOARD:
        return []
    return [*arrow_options(st, st.sc.sides[1], (where,)), PASS]


def pz21_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal counter-attack of 21. Panzerdivision now ('' if it is)."""
    if isinstance(action, Pass):
        return ""
    if not isinstance(action, Arrow):
        return WRONG_KIND
    unit = st.sc.tables["neptune"]["counter_attack"]
    where = st.loc[unit]
    bar = arrow_bar(st, st.sc.sides[1], (where,), f"the counter-attack is made by {st.name(unit)}, from "
                                                  f"{st.area_label(where) if where in st.sc.areas else where}")
    return arrow_problem(st, bar, action)


def pz21_begin(st: St) -> None:
    st.flags.pz21_done = len(pz21_legal(st)) <= 1
    if st.flags.pz21_done:
        st.note("21. Panzerdivision cannot counter-attack")


def apply_pz21(st: St, action: Pass | Arrow) -> None:
    st.flags.pz21_done = True
    if isinstance(action, Arrow):
        unit = st.sc.tables["neptune"]["counter_attack"]
        open_battle(st, "pz21", st.sc.sides[1], action.frm, action.to, required=unit)


def dday_steps() -> list[Step[St]]:
    """Caen turn 1: Tonga, Neptune on three beaches, follow-up attacks, 21. Pz counter-attack."""
    return [
        Step("dday_tonga", "d-day", actor=dday_actor, apply=apply_tonga, on_begin=dday_begin,
             end_if=lambda st: bool(st.flags.dday_done), next=goto("dday_neptune")),
        Step("dday_neptune", "d-day", actor=dday_actor, apply=apply_neptune, on_begin=neptune_begin,
             end_if=lambda st: bool(st.flags.dday_done), next=goto("dday_exploit")),
        Step("dday_exploit", "d-day", actor=lambda st: st.sc.sides[0], legal=exploit_legal, apply=apply_exploit,
             problem=exploit_problem,
             on_begin=prune_exploits, end_if=lambda st: st.battle is not None or not st.flags.exploits,
             next=lambda st: "attack_commit" if st.battle is not None else "dday_pz21"),
        Step("dday_pz21", "d-day", actor=lambda st: st.sc.sides[1], legal=pz21_legal, apply=apply_pz21,
             problem=pz21_problem,
             on_begin=pz21_begin, end_if=lambda st: bool(st.flags.pz21_done),
             next=lambda st: "attack_commit" if st.battle is not None else "strategic_start"),
    ]

