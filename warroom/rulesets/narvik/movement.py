"""Ground movement, stacking, ownership and supply (seed: Ground Unit Movement, Stacking, Headquarters; the
charts are rules.toml's stand-ins).

Stated rules kept here, each with its seed passage in docs/narvik.md:
- a unit spends movement points per hex entered, by the terrain of the hex or the hexside crossed (a fjord
  hexside is never crossed; a mountain one costs at least its `ridge_cost`);
- it never passes through a hex holding enemy units, but may enter one and stop;
- starting in an enemy-occupied hex it may leave, but not straight into another enemy-occupied hex;
- it may always move one hex, as its only move, even without the points to enter it (and then not from an
  enemy-occupied hex into a hex with an enemy ground unit whose defence is above 0);
- in the exploitation phase only combat/motorised units move, without rail movement and never into a hex with
  an enemy ground unit whose defence is above 0;
- halved movement keeps its fractions;
- a headquarters that has absorbed units moves at the slowest of them and itself; a non-mountain division
  headquarters enters mountains only along a transportation line;
- a place (mobilization centre, airfield, port, city) belongs to the last side to hold its hex alone.
"""

from __future__ import annotations

import heapq

from warroom.core.keep import PerObject
from warroom.rulesets.narvik.hexes import distance, neighbours, side
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, NarvikScenario, UnitType
from warroom.rulesets.narvik.state import NarvikState

OWNED_KINDS = frozenset({"mobilization_centre", "airfield", "port", "city", "artillery_store"})
"""The places whose hex has an owner (seed: Ground Unit Movement), and the artillery stores, which the seed says
can be captured (assumption: like the places it lists)."""


def movement_class(st: NarvikState, u: UnitType) -> str:
    return "motorized" if u.motorized else st.sc.charts.classes[u.kind]


def movement_points(st: NarvikState, uid: str) -> float:
    """What a unit may spend this phase: its rating (the slowest of a headquarters and what it absorbed),
    halved when disrupted and again when out of general supply, fractions kept."""
    riders = [u for u, hq in st.absorbed.items() if hq == uid]
    mp = float(min(st.types[u].movement for u in (uid, *riders)))
    if any(u in st.disrupted for u in (uid, *riders)):
        mp *= st.sc.charts.disruption
    if st.phase_supply.get(uid) == "out":  # as found when the phase began
        mp *= 0.5
    return mp


def entry_cost(st: NarvikState, u: UnitType, frm: str, to: str) -> float:
    """Movement points to step from `frm` into its neighbour `to`; 0 when the unit may not."""
    m = st.sc.map
    terrain = m.terrain.get(to, "")
    if not m.is_land(to):
        return 0.0
    edge = side(frm, to)
    if edge in m.fjord_sides:
        return 0.0
    if edge in m.rail_sides:
        return float(st.sc.charts.along_rail)
    if u.hq is not None and u.hq.kind == "division" and not u.hq.mountain and terrain == "mountain":
        return 0.0  # only along a transportation line (seed, Headquarters)
    cls = movement_class(st, u)
    cost = float(st.sc.charts.cost[terrain][cls])
    if edge in m.mountain_sides and cost > 0:  # a ridge costs what a mountain does, whatever lies beyond
        ridge = st.sc.charts.ridge_cost[cls]
        return max(cost, float(ridge)) if ridge > 0 else 0.0
    return cost


Steps = dict[str, tuple[tuple[str, float], ...]]
"""Hex -> its neighbours a unit may enter from it, each with the points it costs (`entry_cost` above 0), in the
order of `neighbours`."""
_STEPS: PerObject[NarvikScenario, dict[tuple[str, bool], Steps]] = PerObject(lambda sc: {})
"""Per scenario: the `Steps` of each movement class, with and without the Headquarters rule (a division
headquarters not of mountain troops enters mountains only along a transportation line), filled in as asked. The
map and the charts never change, so neither do they."""
_LINKS: PerObject[NarvikScenario, dict[str, tuple[str, ...]]] = PerObject(
    lambda sc: {h: links_of(sc, h) for h in sc.map.terrain})
"""Per scenario: hex of the map -> its land neighbours not across a fjord (a supply line's steps), in the order of
`neighbours`."""


def steps_for(st: NarvikState, u: UnitType) -> Steps:
    """The `Steps` of `u`'s kind: `entry_cost(st, u, frm, to)` for every `to` next to `frm` where it is above 0,
    worked out once per scenario."""
    kept = _STEPS(st.sc)
    key = (movement_class(st, u), u.hq is not None and u.hq.kind == "division" and not u.hq.mountain)
    got = kept.get(key)
    if got is None:
        got = kept[key] = {h: unit_steps(st, u, h) for h in st.sc.map.terrain}
    return got


def unit_steps(st: NarvikState, u: UnitType, frm: str) -> tuple[tuple[str, float], ...]:
    """`Steps` of one hex (for a hex off the map's table: the table holds every hex of the map)."""
    out = []
    for to in neighbours(frm):
        cost = entry_cost(st, u, frm, to)
        if cost > 0:
            out.append((to, cost))
    return tuple(out)


def supply_links(sc: NarvikScenario) -> dict[str, tuple[str, ...]]:
    """Hex of the map -> its land neighbours not across a fjord, worked out once per scenario."""
    return _LINKS(sc)


def links_of(sc: NarvikScenario, here: str) -> tuple[str, ...]:
    m = sc.map
    return tuple(n for n in neighbours(here) if m.is_land(n) and side(here, n) not in m.fjord_sides)


def enemy_blocks(st: NarvikState, side_: str) -> tuple[set[str], set[str]]:
    """(hexes holding an enemy ground unit, those of them where one has a defence above 0 now); kept until the
    position changes. The caller must not change them."""
    key = "blocks:" + side_
    got: tuple[set[str], set[str]] | None = st.cache.get(key)
    if got is not None:
        return got
    occupied: set[str] = set()
    strong: set[str] = set()
    for uid, hid in st.pos.items():
        if st.types[uid].side != side_:
            occupied.add(hid)
            if st.defense_of(uid) > 0:
                strong.add(hid)
    st.cache[key] = (occupied, strong)
    return occupied, strong


def reach(st: NarvikState, uid: str, exploiting: bool) -> dict[str, float]:
    """Every hex the unit may move to this phase, with the points the cheapest way there costs (a hex reached
    only by the one-hex minimum move costs all the unit's points)."""
    u = st.types[uid]
    start = st.pos[uid]
    mp = movement_points(st, uid)
    if st.types[uid].movement == 0 or mp <= 0:
        return {}
    occupied, strong = enemy_blocks(st, u.side)
    barred = strong if exploiting else set()
    from_enemy = start in occupied
    steps = steps_for(st, u)  # entry_cost(st, u, here, there) > 0, worked out once
    best: dict[str, float] = {start: 0.0}
    queue: list[tuple[float, str]] = [(0.0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best.get(here, 1e9) or (here in occupied and here != start):
            continue  # an enemy-occupied hex is entered only to stop
        for there, cost in steps[here] if here in steps else unit_steps(st, u, here):
            if there in barred or (here == start and from_enemy and there in occupied):
                continue
            total = spent + cost
            if total <= mp and total < best.get(there, 1e9):
                best[there] = total
                heapq.heappush(queue, (total, there))
    del best[start]
    # the minimum move: always one hex, as the unit's only move
    for there, _cost in steps[start] if start in steps else unit_steps(st, u, start):
        if there in best or there in barred:
            continue
        if from_enemy and there in strong:
            continue
        best[there] = mp
    return best


def rail_reach(st: NarvikState, uid: str) -> list[str]:
    """Hexes a unit may reach by rail movement: along connected railway hexes free of enemy units, from the rail
    hex it stands on (not an enemy-occupied one), at most `rail_move_hexes` of them."""
    m = st.sc.map
    start = st.pos[uid]
    occupied, _ = enemy_blocks(st, st.types[uid].side)
    if start in occupied or not any(side(start, n) in m.rail_sides for n in neighbours(start)):
        return []
    limit = st.sc.charts.rail_move_hexes
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            for there in neighbours(here):
                if there not in seen and side(here, there) in m.rail_sides and there not in occupied \
                        and m.is_land(there) and seen[here] < limit:
                    seen[there] = seen[here] + 1
                    nxt.append(there)
        frontier = nxt
    return sorted(h for h in seen if h != start)


# ----- stacking (seed: Stacking) ---------------------------------------------------------------------------------
def counts_for_stacking(st: NarvikState, uid: str, hid: str) -> bool:
    u = st.types[uid]
    c = st.sc.charts
    if uid in st.absorbed or u.kind in c.free_kinds:
        return False
    if u.size == "company" and u.kind not in c.artillery_kinds:
        return False
    return not (u.kind == "naval_infantry" and u.nation == "british" and "port" in st.sc.map.kinds_at(hid))


def overstacked_in(st: NarvikState, hid: str, side_: str) -> list[str]:
    """The units of `side_` in `hid` beyond its stacking limit: two ground units, plus one artillery battalion or
    two batteries (artillery beyond that counts as ground units); those with the least defence are flipped."""
    c = st.sc.charts
    counted = [u for u in st.units_in(hid, side_) if counts_for_stacking(st, u, hid)]
    counted.sort(key=lambda u: (-st.types[u].defense, u))
    artillery_room = 1.0  # one battalion's worth: a battalion takes 1/artillery_battalions, a battery 1/batteries
    ground_room = c.ground_units
    over = []
    for uid in counted:
        u = st.types[uid]
        if u.kind in c.artillery_kinds:
            need = 1.0 / (c.artillery_batteries if u.size == "battery" else c.artillery_battalions)
            if need <= artillery_room:
                artillery_room -= need
                continue
        if ground_room > 0:
            ground_room -= 1
            continue
        over.append(uid)
    return over


def mark_overstacking(st: NarvikState) -> None:
    """Flip every overstacked unit (at the end of each movement and exploitation phase, and through combat)."""
    stacks: dict[tuple[str, str], list[str]] = {}
    for uid, hid in st.pos.items():
        stacks.setdefault((hid, st.types[uid].side), []).append(uid)
    st.overstacked = {u for (hid, s), units in stacks.items() if len(units) > st.sc.charts.ground_units
                      for u in overstacked_in(st, hid, s)}


# ----- ownership -------------------------------------------------------------------------------------------------
def settle_owner(st: NarvikState, hid: str) -> None:
    """A place's hex held by one side's ground units alone becomes that side's."""
    if not st.sc.map.kinds_at(hid) & OWNED_KINDS:
        return
    sides = {st.types[u].side for u, h in st.pos.items() if h == hid}
    if len(sides) == 1:
        owner = sides.pop()
        if st.owner.get(hid) != owner:
            st.owner[hid] = owner
            st.changed()


def owned_by(st: NarvikState, hid: str) -> str:
    """Who owns a place's hex: everything in Norway is Norway's at the start (seed)."""
    return st.owner.get(hid, ALLIED)


# ----- supply (rules.toml [supply]: a stand-in) ------------------------------------------------------------------
def sources(st: NarvikState, side_: str) -> list[str]:
    kinds = {"port", "airfield"} if side_ == GERMAN else {"port", "mobilization_centre"}
    return sorted({p.hex for p in st.sc.map.places.values() if set(p.kinds) & kinds and owned_by(st, p.hex) == side_})


def supply_map(st: NarvikState, side_: str) -> dict[str, int]:
    """Hexes -> the length of the shortest line to a friendly supply source through land hexes free of enemy
    ground units (kept for the phase)."""
    got: dict[str, int] | None = st.cache.get("supply:" + side_)
    if got is not None:
        return got
    links = supply_links(st.sc)  # land neighbours not across a fjord
    occupied, _ = enemy_blocks(st, side_)
    dist = {h: 0 for h in sources(st, side_) if h not in occupied}
    frontier = list(dist)
    limit = st.sc.charts.general_hexes
    step = 0
    while frontier and step < limit:
        step += 1
        nxt = []
        for here in frontier:
            for there in links[here] if here in links else links_of(st.sc, here):
                if there in dist or there in occupied:
                    continue
                dist[there] = step
                nxt.append(there)
        frontier = nxt
    st.cache["supply:" + side_] = dist
    return dist


def supply_line(st: NarvikState, uid: str) -> int:
    """The unit's line to a source in hexes (its own hex may hold enemies); a large number when none."""
    m = st.sc.map
    dist = supply_map(st, st.types[uid].side)
    here = st.pos[uid]
    if here in dist:
        return dist[here]
    near = [dist[n] + 1 for n in neighbours(here) if n in dist and side(here, n) not in m.fjord_sides]
    return min(near) if near else 999


def supply_state(st: NarvikState, uid: str) -> str:
    """'attack' (attack supply), 'general' (general supply only) or 'out' (out of general supply)."""
    c = st.sc.charts
    line = supply_line(st, uid)
    if line > c.general_hexes:
        return "out"
    if line <= c.attack_hexes:
        return "attack"
    own = st.types[uid].side
    here = st.pos[uid]
    for other_uid, hid in st.pos.items():
        t = st.types[other_uid]
        if t.kind == "headquarters" and t.side == own and distance(here, hid) <= c.hq_hexes \
                and supply_line(st, other_uid) <= c.general_hexes:
            return "attack"
    return "general"
