"""Naval interdiction, the stranded sailors and the landing craft (seed, differences 4 and 12; rules.toml [naval],
a stand-in): at the start of each Allied player turn the Allied fleet may attack one German-held port. On the die
it is interdicted for the next German player turn, and the German destroyers in it are sunk, their crews coming
ashore as the naval regiment and its battalions. From May the Allied landing craft carry a few units a phase along
the coast."""

from __future__ import annotations

from typing import Any

from warroom.core.dice import Roll
from warroom.core.state import CHANCE
from warroom.rulesets.narvik.actions import End, Interdict
from warroom.rulesets.narvik.hexes import neighbours
from warroom.rulesets.narvik.movement import enemy_blocks, movement_class, owned_by
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, SEA
from warroom.rulesets.narvik.state import NarvikState


def targets(st: NarvikState) -> list[str]:
    """German-held ports the fleet may attack."""
    return sorted({p.hex for p in st.sc.map.places.values() if "port" in p.kinds and owned_by(st, p.hex) == GERMAN})


def begin_naval(st: NarvikState) -> None:
    st.target = ""
    st.closing = st.phasing != ALLIED or not targets(st)


def naval_actor(st: NarvikState) -> str:
    return CHANCE if st.target else ALLIED


def naval_legal(st: NarvikState) -> list[Interdict | End]:
    return [] if st.target else [*(Interdict(h) for h in targets(st)), End()]


def apply_naval(st: NarvikState, action: Any) -> None:
    if isinstance(action, End):
        st.closing = True
    elif isinstance(action, Interdict):
        st.target = action.hex
    else:
        assert isinstance(action, Roll)
        port = st.target
        st.target = ""
        st.closing = True
        if action.values[0] not in st.sc.charts.interdict_roll:
            st.note(f"die {action.values[0]}: the Allied fleet fails to close {st.hex_name(port)}")
            return
        st.interdicted = port
        st.note(f"die {action.values[0]}: the Allied fleet interdicts {st.hex_name(port)}")
        sunk = [d for name in st.sc.map.at.get(port, ()) for d in st.sc.destroyers.get(name, ()) if d not in st.sunk]
        if sunk:
            for d in sunk:
                st.sunk[d] = port
            st.note(f"{len(sunk)} German destroyers are sunk in {st.hex_name(port)}; their crews go ashore")
            strand(st, port)


def strand(st: NarvikState, port: str) -> None:
    """The stranded sailors: due on their turn if it is still to come, else at the next German reinforcement
    phase, at the port where the destroyers were sunk (assumption: scenario data names Narvik)."""
    if st.destroyers_sunk:
        return
    st.destroyers_sunk = True
    for u in sorted(st.sc.units.values(), key=lambda x: x.id):
        if u.condition == "destroyers_sunk" and not u.part_of and u.enters[0] <= st.game_turn:
            st.waiting.append(u.id)


# ----- landing craft ---------------------------------------------------------------------------------------------
STAYS_ASHORE = frozenset({"headquarters", "truck", "supply_depot"})
"""Unit kinds the landing craft do not carry (assumption in rules.toml [naval])."""


def landings_left(st: NarvikState) -> int:
    """Lifts the landing craft have left this phase: only in the Allied movement phase, from their turn."""
    c = st.sc.charts
    if st.phasing != ALLIED or st.step != "move" or st.game_turn < c.landing_from:
        return 0
    return max(0, c.landing_lifts - st.landings)


_REACH: dict[int, tuple[object, dict[str, dict[str, int]]]] = {}
"""id(a scenario's charts) -> (the charts, kept so that the id stays theirs; hex -> its sea reach): the map and
the range never change in a game, so each coast's reach is worked out once a scenario."""


def sea_reach(st: NarvikState, hid: str) -> dict[str, int]:
    """The sea hexes landing craft reach from the coast at `hid`, by the sea hexes passed through (the first is 1);
    empty when the hex touches no sea."""
    charts = st.sc.charts
    known = _REACH.setdefault(id(charts), (charts, {}))[1]
    got = known.get(hid)
    if got is not None:
        return got
    terrain = st.sc.map.terrain
    reached = {n: 1 for n in neighbours(hid) if terrain.get(n) == SEA}
    frontier = list(reached)
    for step in range(2, charts.landing_range + 1):
        frontier = [n for h in frontier for n in neighbours(h) if terrain.get(n) == SEA and n not in reached]
        for n in frontier:
            reached.setdefault(n, step)
    known[hid] = reached
    return reached


def may_embark(st: NarvikState, uid: str) -> bool:
    """Whether the landing craft may take the unit now (the caller checks it may still move): the Allies' while
    they have lifts left, a unit that is no headquarters, truck or depot, not disrupted, in a hex free of enemy
    units."""
    if landings_left(st) <= 0:
        return False
    u = st.types[uid]
    occupied, _ = enemy_blocks(st, u.side)
    return u.kind not in STAYS_ASHORE and uid not in st.disrupted and st.pos[uid] not in occupied


def landing_spots(st: NarvikState, uid: str) -> list[str]:
    """Where the unit may land, if the landing craft may carry it now (the caller checks it may still move): the
    coastal hexes its sea reach touches, other than its own, free of enemy units, of a terrain it may enter."""
    if not may_embark(st, uid):
        return []
    start = st.pos[uid]
    m = st.sc.map
    occupied, _ = enemy_blocks(st, st.types[uid].side)
    cls = movement_class(st, st.types[uid])
    return sorted({n for h in sea_reach(st, start) for n in neighbours(h)
                   if m.is_land(n) and n != start and n not in occupied
                   and st.sc.charts.cost[m.terrain[n]][cls] > 0})
