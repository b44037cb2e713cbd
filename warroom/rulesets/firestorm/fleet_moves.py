"""The strategic moves of counters in Norway's Strategic Phase (Firestorm: Norway digest 6.12): where each of a
side's ships, submarines and land-based aircraft may move (`FleetReach`), the listing of those moves, kept from
one decision to the next (`fleet_move_options`), why a move is refused, and the airfield limits checked when the
moves end (1.4). `strategic.strategic_steps` puts the step `fleet_moves` in the flow table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import PASS, Move, Pass
from warroom.rulesets.firestorm.counters import CounterDef
from warroom.rulesets.firestorm.fleet import is_surface
from warroom.rulesets.firestorm.maps import reachable
from warroom.rulesets.firestorm.sea import (
    NOT_NOW,
    airfield_limit,
    counter,
    counter_problem,
    enemy_ships_here,
    home,
    is_home_port_of_other,
    label,
    land_aircraft,
    location_problem,
    navy_of,
    place,
    relocate,
    side_label,
    side_name,
)

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


_MOVES: dict[tuple[str, str], Move] = {}


_SHIP_DESTS: dict[tuple[int, str, str, frozenset[str]], tuple[Any, list[str]]] = {}
"""`FleetReach._ship_dests` by (scenario, side, start, seas blocked), with the scenario it was made for: the
same for every position that blocks the same seas. Lists in it are shared: never change one."""


class FleetReach:
    """Where each counter of a side may make its strategic move now (6.12), worked out once for a decision:
    ships any distance through seas free of enemy surface ships and never into the enemy's home ports,
    submarines up to 2 areas and never into a home port, land-based aircraft to a friendly airfield with room."""

    __slots__ = ("blocked", "by_type", "fields", "memo", "side", "st", "steps")

    def __init__(self, st: St, side: str) -> None:
        navy = navy_of(st)
        sc = st.sc
        enemy = sc.other(side)
        self.st = st
        self.side = side
        self.fields: list[str] | None = None  # made when an aircraft first asks (`_fields`)
        self.blocked = frozenset(w for u, w in navy.where.items()
                                 if sc.counters[u].side == enemy and is_surface(sc.counters[u]))
        self.steps = int(sc.rules.value("sub_strategic_move"))
        self.memo: dict[tuple[str, str], list[str]] = {}  # (kind, location) -> destinations, shared by a stack
        self.by_type: dict[tuple[str, str], list[str]] = {}  # (counter type, location) -> the same, asked first

    def _fields(self) -> list[str]:
        """The friendly airfields with room for one more of the side's land-based aircraft."""
        if self.fields is None:
            st, side = self.st, self.side
            navy = navy_of(st)
            counts: dict[str, int] = {}
            for u in land_aircraft(st, side):
                counts[navy.where[u]] = counts.get(navy.where[u], 0) + 1
            limits = {loc: airfield_limit(st, loc, side) for loc, s in st.sc.strat_areas.items()
                      if s.kind == "airfield"}
            self.fields = [loc for loc, limit in limits.items()
                           if limit != 0 and (limit is None or counts.get(loc, 0) < limit)]
        return self.fields

    def dests(self, c: CounterDef, w: str) -> list[str]:
        """Where counter `c` (one of the side's, at `w` on the map) may move, in order."""
        got = self.by_type.get((c.type, w))
        if got is None:
            got = self.by_type[(c.type, w)] = self._dests(c, w)
        return got

    def _dests(self, c: CounterDef, w: str) -> list[str]:
        if c.is_aircraft:
            return [f for f in self._fields() if f != w]
        if not (is_surface(c) or c.type == "submarine"):
            return []
        kind = "ship" if is_surface(c) else "sub"
        dests = self.memo.get((kind, w))
        if dests is None:
            dests = self.memo[(kind, w)] = self._ship_dests(w) if kind == "ship" else self._sub_dests(w)
        return dests

    def _ship_dests(self, w: str) -> list[str]:
        """Made once per scenario, side, start and set of seas blocked (`_SHIP_DESTS`)."""
        sc = self.st.sc
        key = (id(sc), self.side, w, self.blocked)
        got = _SHIP_DESTS.get(key)
        if got is not None and got[0] is sc:
            return got[1]
        seen = reachable(w, lambda a: [n for n in sc.sea_adj[a] if n not in self.blocked
                                       and not is_home_port_of_other(sc.strat_areas[n], self.side)])
        dests = sorted(seen - {w})
        if len(_SHIP_DESTS) >= 50_000:
            _SHIP_DESTS.clear()
        _SHIP_DESTS[key] = (sc, dests)
        return dests

    def _sub_dests(self, w: str) -> list[str]:
        # assumption: submarines never enter a home port, their own included: they may not attack there
        # (6.8) and the digest gives them no other use for one
        sc = self.st.sc
        near = {w}
        frontier = [w]
        for _ in range(self.steps):
            frontier = [n for a in frontier for n in sc.sea_adj[a]
                        if n not in near and sc.strat_areas[n].kind != "home_port"]
            near.update(frontier)
        return sorted(near - {w})


def fleet_move_options(st: St, side: str) -> list[Move]:
    """Strategic moves (6.12): each of the side's counters that may still move (`fleet_counter_problem`), to
    each place `FleetReach` finds for it. A new list each time."""
    return list(_listed(st, side))


def _listed(st: St, side: str) -> list[Move]:
    """`fleet_move_options`, kept on the navy from one decision to the next (`NavalState.fleet_seen`): the kept
    list itself, which nobody may change."""
    navy = navy_of(st)
    key = (side, st.turn, st.step, navy.where.version, len(navy.moved))
    seen = navy.fleet_seen
    if seen is not None:
        if seen[0] == key:
            return seen[1]
        was, moves, mover = seen
        if mover and was[:3] == key[:3] and was[3] + 1 == key[3] and was[4] + 1 == key[4]:
            # one ship or submarine of the side moved since: its own moves are gone, nobody else's changed (no
            # enemy ship moved, so the seas open are the same, and the airfields' room is the same)
            out = [m for m in moves if m.unit != mover]
            navy.fleet_seen = (key, out, "")
            return out
    out = _fleet_move_options(st, side)
    navy.fleet_seen = (key, out, "")
    return out


def _fleet_move_options(st: St, side: str) -> list[Move]:
    navy = navy_of(st)
    sc = st.sc
    reach = FleetReach(st, side)
    out: list[Move] = []
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.side != side or u in navy.moved or w not in sc.strat_areas or c.carrier:  # `fleet_counter_problem`
            continue
        for d in reach.dests(c, w):
            move = _MOVES.get((u, d))
            if move is None:
                move = _MOVES[(u, d)] = Move(u, d)
            out.append(move)
    return out


def fleet_counter_problem(st: St, side: str, unit: str) -> str:
    """Why `unit` may not make a strategic move of `side` now, wherever to ('' if it may go somewhere)."""
    sc = st.sc
    navy = navy_of(st)
    if unit in sc.troops:
        return f"{unit} is a land Firestorm Troop: the land strategic moves are over; counters move now (6.12)"
    bad = counter_problem(st, unit, side)
    if bad:
        return bad
    c = sc.counters[unit]
    where = navy.where[unit]
    if unit in navy.moved:
        return f"{c.name} has already made its strategic move this turn (6.12)"
    if where not in sc.strat_areas:
        return f"{c.name} is not on the Strategic Map ({where})"
    if c.carrier:
        return f"{c.name} stays aboard its carrier: carrier aircraft move with it (5.3, 6.12)"
    return ""


def fleet_move_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal strategic move of a counter, nor a legal end of them, now ('' if it is)."""
    if isinstance(action, Pass):
        return ""
    if not isinstance(action, Move):
        return NOT_NOW
    side = fleet_mover(st)
    unit, to = action.unit, action.to
    why = fleet_counter_problem(st, side, unit)
    if why:
        return why
    bad = location_problem(st, to)
    if bad:
        return bad
    if to in FleetReach(st, side).dests(st.sc.counters[unit], navy_of(st).where[unit]):
        return ""
    return _unreachable(st, side, unit, to)


def _unreachable(st: St, side: str, unit: str, to: str) -> str:
    """The words for why `to` is not among the places `FleetReach` finds for `unit`."""
    sc = st.sc
    c = sc.counters[unit]
    where = navy_of(st).where[unit]
    if to == where:
        return f"{c.name} is already at {place(st, to)}"
    dest = sc.strat_areas[to]
    if c.is_aircraft:
        return airfield_problem(st, to, side)
    if not (is_surface(c) or c.type == "submarine"):
        return f"{c.name} makes no strategic move (6.12)"
    if dest.kind in ("land", "airfield"):
        return f"{place(st, to)} is land: ships and submarines move only by sea (1.2)"
    if is_home_port_of_other(dest, side):
        return f"{place(st, to)} is a home port of the {side_name(st, dest.side)}: only their ships may enter it (1.3)"
    if c.type == "submarine":
        if dest.kind == "home_port":
            return f"{place(st, to)} is a home port: submarines never enter one (6.8)"
        most = sc.rules.value("sub_strategic_move")
        return f"{place(st, to)} is more than {most} areas away: submarines move up to {most} areas (6.12)"
    if enemy_ships_here(st, to, side):
        return f"enemy surface ships are at {place(st, to)}: ships never move into or through them (6.12)"
    if to in reachable(where, lambda a: list(sc.sea_adj[a])):
        return f"every sea route from {place(st, where)} to {place(st, to)} passes enemy surface ships (6.12)"
    return f"{place(st, to)} cannot be reached by sea from {place(st, where)}"


def airfield_problem(st: St, to: str, side: str) -> str:
    """Why an aircraft may not re-base to `to`: not an airfield, not usable by `side` now, or full."""
    sc = st.sc
    s = sc.strat_areas[to]
    if s.kind != "airfield":
        return f"{place(st, to)} is not an airfield: aircraft re-base only to airfields (6.12)"
    limit = airfield_limit(st, to, side)
    if limit == 0:
        if s.side != side:
            return f"{place(st, to)} is an airfield of the {side_name(st, s.side)} (1.4)"
        if st.turn < s.from_turn:
            return f"{place(st, to)} may be used from turn {s.from_turn} (1.4, 7.6)"
        if s.land and st.control[s.land] != side:
            return f"{place(st, to)} is unusable: its land area {st.area_label(s.land)} is not held by your side (7.6)"
        return f"{place(st, to)} is not usable by your side now (Bodø needs all of the SCN map with Namsos, 7.6)"
    here = sum(1 for u in land_aircraft(st, side) if navy_of(st).where[u] == to)
    if limit is not None and here >= limit:
        return f"{place(st, to)} already holds its limit of {limit} aircraft (1.4, 7.6)"
    return f"{place(st, to)} is not open to your aircraft now (1.4, 7.6)"


def fleet_mover(st: St) -> str:
    return st.sc.rules.move_order[st.idx]


def begin_fleet_moves(st: St) -> None:
    st.idx = 0
    navy_of(st).moved = set()


def legal_fleet(st: St) -> Sequence[Any]:
    return [*_listed(st, fleet_mover(st)), PASS]


def apply_fleet(st: St, action: Pass | Move) -> None:
    navy = navy_of(st)
    if isinstance(action, Pass):
        st.note(f"{side_label(st, fleet_mover(st))} end their strategic moves at sea and in the air")
        st.idx += 1
        if st.idx >= len(st.sc.sides):
            check_airfields(st)
        return
    assert isinstance(action, Move)
    frm = navy.where[action.unit]
    seen = navy.fleet_seen
    before = (fleet_mover(st), st.turn, st.step, navy.where.version, len(navy.moved))
    relocate(st, action.unit, action.to)
    navy.moved.add(action.unit)
    if seen is not None and seen[0] == before and not counter(st, action.unit).is_aircraft:
        navy.fleet_seen = (seen[0], seen[1], action.unit)  # `fleet_move_options` drops its moves
    st.note(f"{counter(st, action.unit).name} moves {label(st, frm)} -> {label(st, action.to)}")


def check_airfields(st: St) -> None:
    """Airfield limits at the end of the Strategic Phase (1.4): aircraft at an airfield that is over its
    limit or no longer usable fly to their home airfield (assumption 11.37)."""
    navy = navy_of(st)
    sc = st.sc
    for side in sc.sides:
        by_field: dict[str, list[str]] = {}
        for u in land_aircraft(st, side):
            by_field.setdefault(navy.where[u], []).append(u)
        for loc, units in sorted(by_field.items()):
            limit = airfield_limit(st, loc, side)
            if limit is None:
                continue
            # assumption: aircraft that arrived this turn keep their place (the Norway Hurricane at C-1, 3.4);
            # the others leave in counter order
            keep_first = sorted(units, key=lambda u: (sc.counters[u].arrives != st.turn, u))
            for u in keep_first[limit:]:
                navy.where[u] = home(st, u)
                st.note(f"{counter(st, u).name} re-bases to {label(st, home(st, u))} (airfield limit)")
