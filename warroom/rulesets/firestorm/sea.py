"""Strategic Map helpers shared by the Strategic Game modules (Firestorm: Norway digest sections 1.2-1.4, 5,
6.13): geometry and range, moving and losing counters, airfields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard

from warroom.core.errors import IllegalActionError
from warroom.rulesets.firestorm.actions import Order, parse_words
from warroom.rulesets.firestorm.counters import CounterDef
from warroom.rulesets.firestorm.fleet import NEVER, NavalState, is_surface
from warroom.rulesets.firestorm.maps import StratAreaDef, reachable
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.norway import pay
from warroom.rulesets.firestorm.state import GONE

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St

HARBOUR = "@harbour"
"""The target of a special bombing mission: the port itself (6.9)."""


_ORDERS: dict[tuple[str, str, str, int], Order] = {}


def order(verb: str, arg: str = "", what: str = "", n: int = 0) -> Order:
    """An interned `Order` (bots ask for the same options many times)."""
    key = (verb, arg, what, n)
    got = _ORDERS.get(key)
    if got is None:
        got = _ORDERS[key] = Order(verb, arg, what, n)
    return got


def navy_of(st: St) -> NavalState:
    navy = st.navy
    assert navy is not None, "this campaign has no Strategic Game"
    return navy


def coded(sc: FirestormScenario, loc: str) -> tuple[str, ...]:
    """The coded areas a location lies in: itself, or a harbour's land region and sea area (1.7 hint 6)."""
    s = sc.strat_areas[loc]
    if s.is_coded:
        return (loc,)
    return tuple(p for p in (s.region, s.sea) if p)


_DIST: dict[tuple[int, str], tuple[FirestormScenario, dict[str, dict[str, int]]]] = {}


def distances(sc: FirestormScenario, by: str = "air") -> dict[str, dict[str, int]]:
    """Steps between Strategic Map locations: `air` over the coded areas for aircraft range (areas
    entered; the start does not count, 6.2), `sea` over the ship routes (sea areas and harbours)."""
    key = (id(sc), by)
    got = _DIST.get(key)
    if got is not None and got[0] is sc:
        return got[1]
    adj = sc.air_adj if by == "air" else sc.sea_adj
    table: dict[str, dict[str, int]] = {}
    for start in adj:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for here in frontier:
                for n in adj[here]:
                    if n not in dist:
                        dist[n] = dist[here] + 1
                        nxt.append(n)
            frontier = nxt
        table[start] = dist
    _DIST[key] = (sc, table)
    return table


def air_steps(sc: FirestormScenario, base: str, target: str) -> int:
    """Fewest areas an aircraft enters flying from `base` to `target`."""
    table = distances(sc)
    return min(table[a].get(b, 99) for a in coded(sc, base) for b in coded(sc, target))


def counter(st: St, unit: str) -> CounterDef:
    return st.sc.counters[unit]


def side_label(st: St, side: str) -> str:
    return st.sc.side_names[side]


def label(st: St, loc: str) -> str:
    s = st.sc.strat_areas.get(loc)
    if s is None:
        return loc
    return f"{s.id} {s.name}" if s.is_coded and s.name else s.name or s.id


def names(st: St, units: Sequence[str]) -> str:
    return ", ".join(st.sc.counters[u].name for u in units) if units else "nothing"


def is_home_port_of_other(s: StratAreaDef, side: str) -> bool:
    return s.kind == "home_port" and s.side != side


# ----- words for the Strategic Game's refusals ---------------------------------------------------------
NOT_NOW = "not an order for this moment"
"""A step's refusal of an order of another moment (`sea_legality` then says which moment it belongs to)."""
KIND_TEXT = {"ships": "surface ships", "subs": "submarines", "air": "aircraft", "": "nothing"}


def well_formed(action: object, *verbs: str) -> TypeGuard[Order]:
    """Whether `action` is an order with one of `verbs`, whose fields are those its verb takes (as typed)."""
    if not isinstance(action, Order) or action.verb not in verbs:
        return False
    try:
        return parse_words(action.to_str().split(), str) == action
    except IllegalActionError:
        return False


def place(st: St, loc: str) -> str:
    """A location as read and as typed: 'B3 Møre coast', 'Narvik (narvik_harbour)'."""
    s = st.sc.strat_areas.get(loc)
    return label(st, loc) if s is None or s.is_coded else f"{label(st, loc)} ({loc})"


def side_name(st: St, side: str) -> str:
    return st.sc.side_names.get(side, side)


def listing(items: Sequence[str], most: int = 8) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" ... ({len(items)} in all)" if len(items) > most else "") if items else "none"


def location_problem(st: St, loc: str) -> str | None:
    """An argument that is not a Strategic Map location (1.2-1.4)."""
    sc = st.sc
    if loc in sc.strat_areas:
        return None
    if loc in sc.areas:
        return f"{loc} ({sc.areas[loc].name}) is a land-map area, not a Strategic Map location"
    return f"unknown Strategic Map location {loc!r}"


def counter_problem(st: St, unit: str, side: str) -> str | None:
    """An argument that is not one of `side`'s Strategic Map counters (5)."""
    sc = st.sc
    c = sc.counters.get(unit)
    if c is None:
        if unit in sc.troops:
            return f"{unit} is a land Firestorm Troop, not a Strategic Map counter"
        own = [u for u, w in navy_of(st).where.items() if sc.counters[u].side == side and w in sc.strat_areas]
        return f"unknown counter {unit!r} (counters are named by id, e.g. {', '.join(own[:3])})"
    if c.side != side:
        return f"{c.name} ({unit}) belongs to the {side_name(st, c.side)}: you command only your own counters"
    return None


def not_next_to(st: St, loc: str, here: str, who: str) -> str:
    sc = st.sc
    s = sc.strat_areas[loc]
    if s.kind in ("land", "airfield"):
        return f"{place(st, loc)} is land: {who} move only by sea and into harbours (1.2)"
    if s.kind in ("harbour", "home_port") and s.sea != here:
        return f"{place(st, loc)} opens only on sea area {s.sea}: {who} enter it from there (1.3)"
    return (f"{place(st, loc)} is not next to {place(st, here)}; from there {who} may go to: "
            f"{listing(list(sc.sea_adj[here]))}")



def relocate(st: St, unit: str, to: str) -> None:
    """Move a counter; a carrier takes the aircraft aboard with it (5.3)."""
    navy = navy_of(st)
    navy.where[unit] = to
    if counter(st, unit).type == "carrier":
        for c in st.sc.counters.values():
            if c.carrier == unit and navy.in_play(c.id):
                navy.where[c.id] = to


def lose(st: St, unit: str) -> None:
    """A destroyed counter is gone for good and the enemy scores its VP (6.13, 9.1); a carrier's
    aircraft are lost with it (5.3). In turn 4 each Allied surface ship sunk scores extra (3.5)."""
    navy = navy_of(st)
    was = navy.where[unit]
    if was in (GONE, NEVER):
        return
    c = counter(st, unit)
    navy.where[unit] = GONE
    enemy = st.sc.other(c.side)
    st.unit_vp[enemy] += c.vp
    st.note(f"{c.name} is destroyed: {side_label(st, enemy)} +{c.vp} VP")
    extra = st.sc.turn(st.turn).sunk_vp
    if extra and c.side == st.sc.sides[0] and is_surface(c):
        pay(st, f"sunk:{unit}", enemy, extra, f"{c.name} sunk in turn {st.turn}")
    if c.type == "carrier":
        for a in st.sc.counters.values():
            if a.carrier == unit and navy.in_play(a.id):
                lose(st, a.id)
    naval_infantry_check(st, unit, was)


def naval_infantry_check(st: St, unit: str, was: str) -> None:
    """Turn 1: if the German Warship Group is destroyed in Narvik harbour, Marine Regiment Berger may be
    placed in a German area of the Narvik map (3.2); `naval_infantry` in the scenario's values."""
    rule = st.sc.rules.value("naval_infantry")
    if not rule or unit != rule.get("counter") or st.turn != int(rule.get("turn", 1)) or was != rule.get("harbour"):
        return
    st.flags.naval_infantry = True
    st.note("The Warship Group was destroyed in Narvik harbour: its sailors join the garrison as naval infantry")


def alive(st: St) -> list[str]:
    navy = navy_of(st)
    return [u for u in navy.group if navy.where[u] == navy.at]


def enemy_ships_here(st: St, loc: str, side: str) -> list[str]:
    return navy_of(st).surface_at(st.sc, loc, st.sc.other(side))


def sail_problem(st: St, loc: str) -> str:
    """Why the active group of ships may not sail into `loc` now ('' if it may): ships move area by area, never
    into the enemy's home ports, never back to a place already visited in the action; a group that evaded may
    not fight again (1.3, 6.2, 6.5)."""
    sc = st.sc
    navy = navy_of(st)
    bad = location_problem(st, loc)
    if bad:
        return bad
    if loc == navy.at:
        return f"the group is already in {place(st, loc)}"
    if loc not in sc.sea_adj[navy.at]:
        return not_next_to(st, loc, navy.at, "ships")
    s = sc.strat_areas[loc]
    if is_home_port_of_other(s, navy.player):
        return f"{place(st, loc)} is a home port of the {side_name(st, s.side)}: only their ships may enter it (1.3)"
    if loc in navy.path:
        return f"the group has already been in {place(st, loc)} during this action: a place is entered once"
    if navy.no_fight and enemy_ships_here(st, loc, navy.player):
        return (f"enemy ships are in {place(st, loc)}: after a voluntary retreat the group may move on but "
                "not enter combat again (6.5)")
    return ""


def sail_options(st: St) -> list[Order]:
    navy = navy_of(st)
    return [order("sail", n) for n in st.sc.sea_adj[navy.at] if not sail_problem(st, n)]


def cv(st: St, units: Sequence[str]) -> int:
    return sum(st.sc.counters[u].cv for u in units)


def home(st: St, unit: str) -> str:
    return str(st.sc.rules.value("home_airfields")[st.sc.counters[unit].side])


def rail_to_hub(st: St, land: str, side: str) -> bool:
    """An airfield's land area traces rail through friendly areas to the rail hub (7.6)."""
    sc = st.sc
    hub = sc.rules.value("rail_hub")
    if not hub or st.control.get(hub) != side:
        return False

    def rail_ok(a: str) -> bool:
        return "rail" in sc.areas[a].flags and st.control[a] == side

    if not rail_ok(land):
        return False
    return hub in reachable(land, lambda a: [n for n in sc.adjacency[a] if rail_ok(n)])


def airfield_limit(st: St, loc: str, side: str) -> int | None:
    """How many aircraft `side` may keep at an airfield; None = no limit; 0 = unusable (1.4, 7.6).

    Re-basing in a turn's Strategic Phase prepares the next turn, so an airfield usable `from_turn` 2
    (Denmark, Oslo) takes aircraft in the turn 1 Strategic Phase (digest 3.2: Denmark is taken then)."""
    s = st.sc.strat_areas[loc]
    turn = st.turn + 1 if st.phase() == "strategic" else st.turn
    if s.kind != "airfield" or s.side != side or turn < s.from_turn:
        return 0
    if s.land and st.control[s.land] != side:
        return 0
    if s.condition == "bodo" and not st.flags.bodo:
        return 0
    limit = s.capacity
    if limit is not None and s.capacity_unsupplied is not None and s.land and not rail_to_hub(st, s.land, side):
        limit = s.capacity_unsupplied
    if s.allied_limit is not None and side == st.sc.sides[0]:
        limit = s.allied_limit if limit is None else min(limit, s.allied_limit)
    return limit


def airfield_usable(st: St, loc: str, side: str) -> bool:
    return loc in st.sc.strat_areas and airfield_limit(st, loc, side) != 0


def has_room(st: St, loc: str, side: str) -> bool:
    """`side` may base one more aircraft at `loc` (a usable airfield below its limit, 1.4)."""
    if not airfield_usable(st, loc, side):
        return False
    limit = airfield_limit(st, loc, side)
    return limit is None or sum(1 for u in land_aircraft(st, side) if navy_of(st).where[u] == loc) < limit


def land_aircraft(st: St, side: str) -> list[str]:
    navy = navy_of(st)
    sc = st.sc
    return [u for u, w in navy.where.items() if sc.counters[u].side == side and sc.counters[u].is_aircraft
            and not sc.counters[u].carrier and w in sc.strat_areas]
