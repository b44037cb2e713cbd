"""Placing new and returning troops (core 2; Caen 4.8; Lorraine 4.6; Norway 3.4), stacking permitting (Caen 4.1).

A new troop with listed arrival areas goes to one of them that its side holds (or, where the campaign says so,
next to one); any other troop goes wherever its side's pool rule allows: any area it holds, its beaches or its
supply depots. Nobody is placed on a closed map, nor into a full area. Caen's Germans may instead put a troop
into the Tactical Reserve (`caen.entry_problem`).

Troops are placed one at a time. Those with listed areas go first, in the turn's order; after them the placing
side takes its troops in the order they wait, unless there is not room for all, when it also picks which land.

One "why not" serves both the legal placements and the refusal: `candidate_areas` is the one list of where a troop
may arrive, `open_problem` the one test of an area's room, and `place_problem` names what a refused `place` breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import warroom.rulesets.firestorm.caen as caen
import warroom.rulesets.firestorm.norway as norway
from warroom.rulesets.firestorm.actions import Place

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def candidate_areas(st: FirestormState, side: str, listed: tuple[str, ...]) -> list[str]:
    """Where a troop of `side` may arrive, before closed maps and stacking: its `listed` areas that the side
    holds (or, by the campaign's fallback, their friendly neighbours), or the side's pool areas."""
    sc = st.sc
    control = st.control
    if not listed:
        return list(st.pool_spots(side))
    spots = [a for a in listed if control[a] == side]
    if not spots and sc.rules.value("arrival_fallback") == "adjacent":
        spots = sorted({n for a in listed for n in sc.adjacency[a] if control[n] == side and n not in sc.no_stop})
    return spots


def open_problem(st: FirestormState, area: str) -> str:
    """Why nobody may be placed in `area` now, whoever they are ('' if they may)."""
    if st.flags.closed_maps and norway.closed(st, area):
        return f"{st.area_label(area)} is on a map whose fighting is over (Norway 3.4): nobody is placed there"
    limit = st.sc.rules.stacking
    if limit and st.loc.counts.get(area, 0) >= limit:
        return f"{area} already holds {limit} troops (stacking)"
    return ""


def placement_spots(st: FirestormState, side: str, listed: tuple[str, ...]) -> list[str]:
    """The areas a troop of `side` with `listed` arrival areas may be placed in now."""
    spots = candidate_areas(st, side, listed)
    if st.flags.closed_maps:
        spots = [a for a in spots if not open_problem(st, a)]
    else:
        limit = st.sc.rules.stacking
        if limit:  # `open_problem`'s one test when no map is closed, inline: it runs for every area, very often
            counts = st.loc.counts
            spots = [a for a in spots if counts.get(a, 0) < limit]
    return spots


def place_areas(st: FirestormState, unit: str) -> list[str]:
    """Where a reinforcement may be placed (Caen 4.8, Lorraine 4.6), stacking permitting."""
    return placement_spots(st, st.sc.troops[unit].side, st.arrived.get(unit, ()))


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


def placer(st: FirestormState) -> str:
    """The side placing now: that of the first troop waiting."""
    return st.sc.troops[st.placing[0]].side


def next_up(st: FirestormState) -> tuple[list[str], bool, list[str] | None]:
    """The placing side's waiting troops in order; whether it must take them in that order (it may pick which
    troops land only when there is not room for all); and, when worked out, the areas shared by its troops
    without listed areas."""
    side = placer(st)
    troops = st.sc.troops
    mine = [u for u in st.placing if troops[u].side == side]
    limit = st.sc.rules.stacking
    if st.arrived.get(mine[0]) or not limit:
        return mine, True, None
    counts = st.loc.counts
    spots = placement_spots(st, side, ())
    return mine, sum(limit - counts.get(a, 0) for a in spots) >= len(mine), spots


def legal_place(st: FirestormState) -> Sequence[Place]:
    """Which waiting troop goes where (Caen 4.8, Lorraine 4.6).

    With room for all, taking the troops one by one in queue order reaches every placement; Caen's 5 AGRA lands
    only "if there is room" after 7 Armd and 51 HD, so listed troops keep the turn's order."""
    mine, in_order, spots = next_up(st)
    if in_order:
        return place_options(st, mine[0], spots)
    options = placing_options(st, mine)
    return [p for u in mine for p in options[u]]


def place_problem(st: FirestormState, action: object) -> str:
    """Why `action` is not a legal placement now ('' if it is)."""
    if not isinstance(action, Place):
        return "a troop is placed now: 'place UNIT AREA'"
    sc = st.sc
    unit, area = action.unit, action.area
    if unit not in sc.troops:
        return f"unknown unit {unit!r}"
    side = placer(st)
    if sc.troops[unit].side != side:
        return f"{unit} is not one of your troops"
    if unit not in st.placing:
        return f"{unit} is not waiting to be placed"
    mine, in_order, _ = next_up(st)
    if in_order and unit != mine[0]:
        why = ("troops with listed arrival areas land first, in the order the turn lists them"
               if st.arrived.get(mine[0]) else "with room for all, the waiting troops are placed in their order")
        return f"{mine[0]} is placed next: {why}"
    if area == caen.SPOT:
        return caen.entry_problem(st, unit)
    if area not in sc.areas:
        return f"unknown area {area!r}"
    listed = st.arrived.get(unit, ())
    if area not in candidate_areas(st, side, listed):
        return _not_a_candidate(st, unit, side, listed, area)
    return open_problem(st, area)


def _not_a_candidate(st: FirestormState, unit: str, side: str, listed: tuple[str, ...], area: str) -> str:
    """Why `area` is not among `candidate_areas`: the words for the rule that list follows."""
    sc = st.sc
    if st.control[area] != side:
        return f"{area} is not held by your side"
    if area in sc.no_stop:
        return f"troops pass through {area} but may not stop there"
    if listed:
        where = ", ".join(listed)
        held = [a for a in listed if st.control[a] == side]
        if held:
            return f"{unit} arrives in one of its listed areas that you hold ({', '.join(held)})"
        if sc.rules.value("arrival_fallback") == "adjacent":
            return f"none of {unit}'s listed areas ({where}) is yours, so it arrives next to one of them"
        return f"{unit} arrives only in its listed areas ({where}), and you hold none of them"
    rule = sc.rules.pool_areas[side]
    if rule == "beach":
        return f"troops from the Reinforcement Pool land on a beach you hold, and {area} is not a beach"
    if rule == "depot":
        return f"troops from the Reinforcement Pool are placed at one of your supply depots, and {area} is not one"
    return f"{unit} may not be placed in {area} (its listed areas, or the campaign's places for reinforcements)"
