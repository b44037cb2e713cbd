"""Legal options for each Firestorm decision (the single source that `legal_actions()` reads)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.caen as caen
import warroom.rulesets.firestorm.lorraine as lorraine
import warroom.rulesets.firestorm.norway as norway
import warroom.rulesets.firestorm.parallel as parallel
from warroom.rulesets.firestorm.actions import AIR, CARPET, DEFENCE, NAVAL, Arrow, Commit, Place, is_token
from warroom.rulesets.firestorm.battle import Battle

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def attack_froms(st: FirestormState, side: str) -> list[str]:
    """Areas `side` controls that hold one of its ground troops (battle arrow, core 5.1)."""
    troops = st.sc.troops
    control = st.control
    froms = {where for u, where in st.loc.items()
             if where in control and control[where] == side and troops[u].side == side}
    return sorted(froms)


def open_battle(st: FirestormState, kind: str, attacker: str, frm: str, to: str, max_ft: int = 2,
                required: str = "") -> None:
    """Open a battle arrow. A German attack from a Panzer Unit's area must use it (Lorraine 4.1)."""
    sc = st.sc
    b = Battle(kind, attacker, sc.other(attacker), frm, to, max_ft=max_ft,
               required=required or lorraine.required(st, attacker, kind, frm))
    st.battle = b
    if st.record_events:
        st.note(f"{sc.side_names[attacker]} attack {st.area_label(to)} from {st.area_label(frm)}")


def arrow_options(st: FirestormState, side: str, froms: list[str] | None = None,
                  locked: frozenset[str] | None = None) -> list[Arrow]:
    """Battle arrows from a friendly area with a ground troop into an adjacent enemy area; never into a
    pass-through area (Norway's Ofotfjord, 11.34) nor on a closed map (Norway 3.4), nor into or out of an
    area at a table (battles in parallel; `locked` overrides those areas, e.g. with none)."""
    sc = st.sc
    locked = parallel.locked_areas(st) if locked is None else locked
    if froms is None:
        froms = attack_froms(st, side)
        forced = lorraine.forced_froms(st, side, locked)
        if forced:
            froms = forced
        if side == sc.sides[0]:  # a failed landing keeps its beach's troops from attacking (Caen 3.2)
            blocked = st.flags.no_attack_from
            froms = [f for f in froms if blocked.get(f, 0) < st.turn]
    else:
        holding = set(attack_froms(st, side))
        froms = [f for f in froms if f in holding]
    restrict = sc.has("t1_moselle_restriction") and st.turn == 1 and side == sc.sides[0]
    open_targets = set(sc.rules.value("t1_open_targets"))
    out = []
    no_stop = sc.no_stop
    closed = st.flags.closed_maps
    for frm in froms:
        if (closed and norway.closed(st, frm)) or frm in locked:
            continue
        for to in sc.adjacency[frm]:
            if st.control[to] == side or to in no_stop or to in locked:
                continue
            if restrict and not (sc.rivers.get(frozenset((frm, to))) == "Moselle" or to in open_targets
                                 or sc.areas[to].control == side):
                continue
            out.append(Arrow(frm, to))
    return out


def commit_options(st: FirestormState, attacking: bool) -> list[Commit]:
    """Up to two Firestorm Troops per side (core 5.2-5.6) plus each campaign's extras.

    An aircraft or naval gunfire token is never the attacker's first or only troop (Norway 7.1)."""
    b = st.battle
    assert b is not None
    sc = st.sc
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    troops = sc.troops
    present = [u for u, where in st.loc.items() if where == area and troops[u].side == side]
    reserve = caen.troops_in_reserve(st, side)
    units = present + reserve
    air_ok = side in sc.air and st.air_left[side] > 0 and (not sc.has("norway_air")
                                                           or norway.air_allowed(st, b, side))
    naval_ok = sc.has("naval_gunfire") and norway.gunfire(st, b, side)[0] > 0
    limit = b.max_ft if attacking else 2
    options: list[tuple[str, ...]] = []
    if attacking:
        for u in units:
            options.append((u,))
        if limit >= 2:
            options.extend(combinations(units, 2))
            if air_ok:
                options.extend((u, AIR) for u in units)
            if naval_ok:
                options.extend((u, NAVAL) for u in units)
    else:
        items = list(units)
        if air_ok:
            items.append(AIR)
        if naval_ok:
            items.append(NAVAL)
        if (sc.has("german_defence") and side == sc.sides[1] and st.turn >= sc.rules.value("defence_from_turn")
                and len(present) < sc.rules.value("defence_max_regular")):
            items.append(DEFENCE)
        options.append(())
        options.extend((u,) for u in items)
        options.extend(combinations(items, 2))
    panzer = sc.has("panzer_units")
    must_lead = attacking and b.required == lorraine.PANZER
    out: list[Commit] = []
    for opt in options:
        real = [u for u in opt if not is_token(u)]
        if (panzer or must_lead) and lorraine.commit_problem(st, opt, must_lead):
            continue
        if attacking and b.required and not must_lead and b.required not in opt:
            continue
        joining = sum(1 for u in real if u in reserve) if reserve else 0
        if joining and caen.joining_problem(st, area, joining):
            continue
        if DEFENCE in opt and len(present) + joining >= sc.rules.value("defence_max_regular"):
            continue  # Caen 4.1: no German Defence troop beside three regular troops
        out.append(_commit(opt))
    if attacking and st.carpet_left > 0 and sc.has("carpet_bombing") and side == sc.sides[0]:
        out.extend(_commit((*c.units, CARPET)) for c in list(out))
    return out


_COMMITS: dict[tuple[str, ...], Commit] = {}


def _commit(units: tuple[str, ...]) -> Commit:
    """Interned `Commit` values (each is sorted into canonical order once)."""
    got = _COMMITS.get(units)
    if got is None:
        got = _COMMITS[units] = Commit(units)
    return got


def place_areas(st: FirestormState, unit: str) -> list[str]:
    """Where a reinforcement may be placed (Caen 4.8, Lorraine 4.6), stacking permitting."""
    return placement_spots(st, st.sc.troops[unit].side, st.arrived.get(unit, ()))


def placement_spots(st: FirestormState, side: str, listed: tuple[str, ...]) -> list[str]:
    """Placement areas for a unit of `side`: its listed areas if it is new and has some (or, by the
    campaign's fallback, their friendly neighbours), else wherever the side's pool rule allows,
    plus 'reserve' where the Caen Tactical Reserve has room."""
    sc = st.sc
    control = st.control
    if listed:
        spots = [a for a in listed if control[a] == side]
        if not spots and sc.rules.value("arrival_fallback") == "adjacent":
            spots = sorted({n for a in listed for n in sc.adjacency[a] if control[n] == side and n not in sc.no_stop})
    else:
        spots = list(st.pool_spots(side))
    if st.flags.closed_maps:  # nobody is placed on a closed map (Norway 3.4)
        spots = [a for a in spots if not norway.closed(st, a)]
    limit = sc.rules.stacking
    if limit:
        counts = st.loc.counts
        spots = [a for a in spots if counts.get(a, 0) < limit]
    return spots


_PLACES: dict[tuple[str, str], Place] = {}


def place_options(st: FirestormState, unit: str, spots: list[str] | None = None) -> list[Place]:
    """Every legal `Place` for `unit`; `spots` (from `placement_spots`) may be passed in when shared."""
    if spots is None:
        spots = place_areas(st, unit)
    if caen.has_room(st, unit):
        spots = [*spots, caen.SPOT]
    out = []
    for a in spots:
        key = (unit, a)
        p = _PLACES.get(key)
        if p is None:
            p = _PLACES[key] = Place(unit, a)
        out.append(p)
    return out


def placeable(st: FirestormState, units: list[str]) -> list[str]:
    """The units among `units` that have somewhere to be placed (units without listed areas share it)."""
    troops = st.sc.troops
    shared: dict[str, bool] = {}
    out = []
    for u in units:
        listed = st.arrived.get(u, ())
        if listed:
            ok = bool(placement_spots(st, troops[u].side, listed)) or caen.has_room(st, u)
        else:
            side = troops[u].side
            if side not in shared:
                shared[side] = bool(placement_spots(st, side, ()))
            ok = shared[side] or caen.has_room(st, u)
        if ok:
            out.append(u)
    return out


def placing_options(st: FirestormState, units: list[str]) -> dict[str, list[Place]]:
    """`place_options` for many units at once: units without listed areas share one computation."""
    troops = st.sc.troops
    shared: dict[str, list[str]] = {}
    out: dict[str, list[Place]] = {}
    for u in units:
        listed = st.arrived.get(u, ())
        side = troops[u].side
        if listed:
            out[u] = place_options(st, u)
            continue
        spots = shared.get(side)
        if spots is None:
            spots = shared[side] = placement_spots(st, side, ())
        out[u] = place_options(st, u, spots)
    return out
