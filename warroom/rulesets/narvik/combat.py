"""Combat: the phasing player attacks the enemy units in the same hex as his own (seed: Sequence of Play, D),
on rules.toml's odds table with AD and DD (seed, difference 9); retreats, eliminations and key units' victory
points (seed: Victory Determination).

>>> column(6, 2, 0, EIGHT), column(1, 4, 0, EIGHT), column(9, 2, -2, EIGHT), column(30, 1, 3, EIGHT)
(4, 0, 3, 7)
"""

from __future__ import annotations

from warroom.rulesets.narvik.hexes import neighbours
from warroom.rulesets.narvik.movement import (
    entry_cost,
    mark_overstacking,
    owned_by,
    settle_owner,
    supply_line,
    supply_state,
)
from warroom.rulesets.narvik.state import NarvikState, other

EIGHT = (1 / 3, 1 / 2, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
"""The bundled table's columns, 1:3 to 6:1 (for the examples)."""


def column(attack: float, defense: float, shift: int, ratios: tuple[float, ...]) -> int:
    """The odds column (0: the leftmost) for these strengths, rounded in the defender's favour, moved by `shift`
    columns and kept on the table; `ratios` is each column's lowest attack-to-defence ratio."""
    ratio = attack / defense
    base = 0
    for i, lowest in enumerate(ratios):
        if ratio >= lowest - 1e-9:
            base = i
    return max(0, min(len(ratios) - 1, base + shift))


def attackers(st: NarvikState, hid: str) -> list[str]:
    return st.units_in(hid, st.phasing)


def defenders(st: NarvikState, hid: str) -> list[str]:
    return st.units_in(hid, other(st.phasing))


def attack_strength(st: NarvikState, hid: str) -> float:
    """The phasing units' attack: halved when disrupted, and halved without attack supply."""
    return sum(st.attack_of(u) * (1.0 if supply_state(st, u) == "attack" else 0.5) for u in attackers(st, hid))


def defense_strength(st: NarvikState, hid: str) -> float:
    """The defenders' defence: overstacked units add nothing (seed, Stacking B), disrupted ones half."""
    mark_overstacking(st)
    return sum(st.defense_of(u) for u in defenders(st, hid) if u not in st.overstacked)


def odds(st: NarvikState, hid: str) -> tuple[float, float, int, int]:
    """(attack, defence, column shift (terrain and air support), column) of the battle in `hid`."""
    a, d = attack_strength(st, hid), defense_strength(st, hid)
    terrain = st.sc.map.terrain[hid]
    support = st.support.get(hid, {})
    most = st.sc.charts.support_most
    shift = st.sc.charts.terrain_shift.get(terrain, 0) + min(most, support.get(st.phasing, 0)) - min(
        most, support.get(other(st.phasing), 0))
    ratios = st.sc.charts.ratios
    return a, d, shift, (column(a, d, shift, ratios) if d > 0 else len(ratios) - 1)


def eliminate(st: NarvikState, uid: str, why: str) -> None:
    """A unit is destroyed: a key unit scores its victory points for the other side."""
    u = st.types[uid]
    del st.pos[uid]
    st.changed()
    st.absorbed.pop(uid, None)
    for rider in [r for r, hq in st.absorbed.items() if hq == uid]:
        del st.absorbed[rider]  # they were in its hex; they stay there, no longer absorbed
    st.disrupted.pop(uid, None)
    st.gone.append(uid)
    if u.key_vp:
        st.vp[other(u.side)] += u.key_vp
        st.note(f"{u.name} destroyed ({why}): {u.key_vp} victory points to {st.sc.names[other(u.side)]}")
    else:
        st.note(f"{u.name} destroyed ({why})")


def retreat_hex(st: NarvikState, uid: str) -> str:
    """Where a retreating unit goes (rules.toml [retreat]): a neighbouring hex it could enter holding no enemy
    ground unit; first one with friendly units, then one its side owns, then the nearest a supply source, then the
    lowest id. '' when there is none."""
    own = st.types[uid].side
    here = st.pos[uid]
    enemy = st.occupied(other(own))
    friends = st.occupied(own)
    best: tuple[int, int, int, str] | None = None
    for there in neighbours(here):
        if there in enemy or entry_cost(st, st.types[uid], here, there) <= 0:
            continue
        keep = st.pos[uid]
        st.pos[uid] = there
        line = supply_line(st, uid)
        st.pos[uid] = keep
        key = (0 if there in friends else 1, 0 if owned_by(st, there) == own and there in st.owner else 1, line, there)
        if best is None or key < best:
            best = key
    return best[3] if best is not None else ""


def retreat(st: NarvikState, uids: list[str], why: str, forced: bool = True) -> None:
    """Each unit falls back one hex (a headquarters with what it absorbed). One that cannot is eliminated when the
    retreat is a combat result (`forced`), and otherwise stays where it is."""
    for uid in uids:
        if uid not in st.pos or uid in st.absorbed:
            continue
        there = retreat_hex(st, uid)
        if not there and not forced:
            st.note(f"{st.name(uid)} has no way back and stays in {st.hex_name(st.pos[uid])}")
            continue
        if not there:
            riders = [r for r, hq in st.absorbed.items() if hq == uid]
            for r in riders:
                eliminate(st, r, f"{why}, with no way back")
            eliminate(st, uid, f"{why}, with no way back")
            continue
        st.note(f"{st.name(uid)} falls back to {st.hex_name(there)} ({why})")
        for r in [r for r, hq in st.absorbed.items() if hq == uid]:
            st.pos[r] = there
        st.pos[uid] = there
        st.changed()
        settle_owner(st, there)


def disrupt(st: NarvikState, uids: list[str]) -> None:
    """Disrupted until the end of the owner's next player turn (rules.toml [disruption])."""
    now = st.player_turn
    for uid in uids:
        own_parity = 0 if st.types[uid].side == st.sc.sides[0] else 1
        until = now + 1
        while until % 2 != own_parity:
            until += 1
        st.disrupted[uid] = until
    if uids:
        st.note(f"disrupted: {', '.join(st.name(u) for u in uids)}")


def resolve(st: NarvikState, hid: str, roll: int) -> str:
    """Fight the battle in `hid` with a die roll; returns the result's code."""
    atk, dfn = attackers(st, hid), defenders(st, hid)
    a, d, shift, col = odds(st, hid)
    if d <= 0:
        result = "DE"
        st.note(f"{st.hex_name(hid)}: the defenders have no defence left and are overrun")
    else:
        result = st.sc.charts.results[roll - 1][col]
        st.note(f"{st.hex_name(hid)}: {a:g} against {d:g}, terrain {shift:+d}, column {st.sc.charts.columns[col]}, "
                f"die {roll}: {result}")
    if result == "AE":
        for u in atk:
            eliminate(st, u, "attack failed")
    elif result == "AR":
        retreat(st, [u for u in atk if u not in st.absorbed], "attack repulsed")
    elif result == "AD":
        disrupt(st, atk)
    elif result == "DD":
        disrupt(st, dfn)
    elif result == "DR":
        retreat(st, [u for u in dfn if u not in st.absorbed], "driven out")
    elif result == "DE":
        for u in dfn:
            if u in st.pos:
                eliminate(st, u, "overrun")
    elif result == "EX":
        owed = sum(st.types[u].defense for u in dfn)
        for u in dfn:
            if u in st.pos:
                eliminate(st, u, "exchange")
        for u in sorted(atk, key=lambda x: (st.types[x].attack, x)):
            if owed <= 0:
                break
            if u in st.pos:
                owed -= st.types[u].attack
                eliminate(st, u, "exchange")
    settle_owner(st, hid)
    st.changed()
    mark_overstacking(st)
    return result


def fall_back(st: NarvikState, hid: str, why: str, units: list[str] | None = None) -> None:
    """The defenders of `hid` (or those of them named) fall back before combat (the first turn's mandatory
    retreat, a withdrawal); those with no way back stay to fight (rules.toml [retreat])."""
    retreat(st, [u for u in (units if units is not None else defenders(st, hid)) if u not in st.absorbed], why,
            forced=False)
    settle_owner(st, hid)
    st.changed()
