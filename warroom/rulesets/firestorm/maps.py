"""Campaign maps read from data: land maps (areas fought over) and, for Norway, the naval/air
Strategic Map, whose locations are kept apart so land rules never see sea areas.

Every problem found is reported with its file, table and key (see `core.schema.Reader`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from warroom.core.geometry import inside, outline_of
from warroom.core.schema import Reader

TERRAINS = ("plain", "bocage", "city")
AREA_FLAGS = ("beach", "fortified", "moselle_east", "harbour", "airfield", "rail", "fjord")
MAP_KINDS = ("land", "strategic")
STRAT_KINDS = ("sea", "land", "airfield", "harbour", "home_port")
STRAT_BORDER_KINDS = ("sea", "coast", "land", "port", "town", "base")



@dataclass(frozen=True, slots=True)
class AreaDef:
    """A land area: what battles are fought over."""

    id: str
    name: str
    map: str
    vp: int
    terrain: str
    x: int
    y: int
    flags: frozenset[str]
    supply: str
    control: str
    aliases: tuple[str, ...] = ()
    assumption: str = ""
    sea: str = ""  # Norway: the Strategic Map sea area a harbour opens on


@dataclass(frozen=True, slots=True)
class BorderDef:
    a: str
    b: str
    river: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class StratAreaDef:
    """A location of the naval/air Strategic Map (Firestorm: Norway digest sections 1.2-1.4)."""

    id: str
    name: str
    kind: str  # sea | land | airfield | harbour | home_port
    x: int
    y: int
    aliases: tuple[str, ...] = ()
    sea: str = ""  # harbours and home ports: the sea area ships enter and leave by
    region: str = ""  # harbours and uncoded airfields: the coded land area they lie in
    land: str = ""  # the linked land-map area
    land_map: str = ""
    defence: int = 0  # harbour defence dice
    side: str = ""  # home ports and airfields: whose
    capacity: int | None = None  # aircraft counters; None = no limit
    capacity_unsupplied: int | None = None  # without rail supply to Oslo
    allied_limit: int | None = None
    from_turn: int = 1
    condition: str = ""
    assumption: str = ""

    @property
    def is_coded(self) -> bool:
        """A coded area (a step of a path for range and movement); harbours, home ports and airfields
        inside a coded land area (`region`) are places within one (Norway 1.7 hint 6)."""
        return self.kind in ("sea", "land") or (self.kind == "airfield" and not self.region)


@dataclass(slots=True)
class MapSet:
    maps: dict[str, dict[str, Any]]
    areas: dict[str, AreaDef]
    borders: list[BorderDef]
    adjacency: dict[str, tuple[str, ...]]
    rivers: dict[frozenset[str], str]
    aliases: dict[str, str]
    assumptions: list[str]
    strat_areas: dict[str, StratAreaDef] = field(default_factory=dict)
    strat_borders: list[tuple[str, str, str]] = field(default_factory=list)  # (a, b, kind)
    sea_adj: dict[str, tuple[str, ...]] = field(default_factory=dict)  # ship moves: sea and port borders
    air_adj: dict[str, tuple[str, ...]] = field(default_factory=dict)  # range: coded locations only


def alias_key(name: str) -> str:
    return name.upper().replace(" ", "")


def land_outline(m: Reader, mid: str) -> tuple[tuple[int, int], ...]:
    """A map's `land`: the outline of the land as x, y pairs (drawing only: the sea is what lies outside); none
    when the whole map is land."""
    flat = m.integers("land")
    if not flat:
        return ()
    points, problem = outline_of(flat, m.integer("width", 1000, lo=1), m.integer("height", 700, lo=1), "map")
    if problem:
        m.fail(f"map {mid!r}: 'land' {problem}")
    return points


def _check_places(maps: dict[str, dict[str, Any]], areas: dict[str, AreaDef], problems: list[str],
                  where: str) -> None:
    """Two areas of one map at one point could not be told apart on it; an area outside its map's land would be
    drawn in the sea."""
    seen: dict[tuple[str, int, int], str] = {}
    for a in areas.values():
        key = (a.map, a.x, a.y)
        if key in seen:
            problems.append(f"{where}: areas {seen[key]!r} and {a.id!r} are both at x = {a.x}, y = {a.y} on map "
                            f"{a.map!r}: give each its own point")
        seen.setdefault(key, a.id)
        land = maps.get(a.map, {}).get("land")
        if land and not inside(land, a.x, a.y):
            problems.append(f"{where}: area {a.id!r} (x = {a.x}, y = {a.y}) lies outside map {a.map!r}'s 'land' "
                            "outline: move it, or the outline")


def parse_maps(root: Reader, sides: tuple[str, str], problems: list[str], where: str) -> MapSet:
    """Read `[[map]]`, `[[area]]` and `[[border]]`; areas on a `kind = "strategic"` map are
    Strategic Map locations, all others land areas."""
    maps: dict[str, dict[str, Any]] = {}
    assumptions: list[str] = []
    for m in root.tables("map"):
        mid = m.text("id")
        maps[mid] = {"id": mid, "name": m.text("name", mid), "width": m.integer("width", 1000, lo=1),
                     "height": m.integer("height", 700, lo=1), "kind": m.text("kind", "land", MAP_KINDS),
                     "land": land_outline(m, mid)}
        if m.text("land_assumption", ""):
            assumptions.append(f"map {mid} land: {m.text('land_assumption')}")
    if not maps:
        root.fail("no [[map]] table: a scenario needs at least one map")
    strategic = {mid for mid, m in maps.items() if m["kind"] == "strategic"}

    areas: dict[str, AreaDef] = {}
    strat: dict[str, StratAreaDef] = {}
    aliases: dict[str, str] = {}
    land_refs: list[tuple[Reader, str]] = []  # land areas naming a sea area, checked once all are read
    for a in root.tables("area"):
        aid = a.text("id")
        if aid in areas or aid in strat:
            a.fail(f"duplicate area id {aid!r}")
        mid = a.text("map")
        if mid and maps and mid not in maps:
            a.fail(f"area {aid!r} is on map {mid!r}, which is not defined")
        width = maps.get(mid, {}).get("width", 10_000)
        height = maps.get(mid, {}).get("height", 10_000)
        names = a.texts("aliases")
        assumption = a.text("assumption", "")
        if mid in strategic:
            strat[aid] = _strat_area(a, aid, names, width, height, sides, assumption)
        else:
            areas[aid] = _land_area(a, aid, mid, names, width, height, sides, assumption)
            if areas[aid].sea:
                land_refs.append((a, aid))
        for name in (aid, *names):
            key = alias_key(name)
            if key in aliases and aliases[key] != aid:
                a.fail(f"alias {name!r} already names area {aliases[key]!r}")
            aliases[key] = aid
        if assumption:
            assumptions.append(f"area {aid}: {assumption}")

    borders: list[BorderDef] = []
    adj: dict[str, list[str]] = {aid: [] for aid in areas}
    strat_adj: dict[str, list[tuple[str, str]]] = {sid: [] for sid in strat}
    strat_borders: list[tuple[str, str, str]] = []
    rivers: dict[frozenset[str], str] = {}
    for b in root.tables("border", label="a"):
        x, y = b.text("a"), b.text("b")
        assumption = b.text("assumption", "")
        if x == y:
            b.fail(f"border joins area {x!r} to itself")
            continue
        if x in strat or y in strat:
            if x not in strat or y not in strat:
                b.fail(f"border {x}-{y} joins the Strategic Map to a land map")
                continue
            kind = b.text("kind", "sea", STRAT_BORDER_KINDS)
            if any(n == y for n, _ in strat_adj[x]):
                b.fail(f"border {x}-{y} is listed twice")
                continue
            strat_adj[x].append((y, kind))
            strat_adj[y].append((x, kind))
            strat_borders.append((x, y, kind))
        else:
            missing = [end for end in (x, y) if end not in areas]
            for end in missing:
                b.fail(f"border end {end!r} is not a defined area")
            if missing:
                continue
            if y in adj[x]:
                b.fail(f"border {x}-{y} is listed twice")
                continue
            border = BorderDef(x, y, b.text("river", ""), assumption)
            borders.append(border)
            adj[x].append(y)
            adj[y].append(x)
            if border.river:
                rivers[frozenset((x, y))] = border.river
        if assumption:
            assumptions.append(f"border {x}-{y}: {assumption}")
    if areas:
        _check_connected(adj, areas, problems, where)
    sea_adj = {sid: tuple(n for n, k in ns if k in ("sea", "port")) for sid, ns in strat_adj.items()}
    air_adj = {sid: tuple(n for n, k in ns if k in ("sea", "coast", "land") and strat[n].is_coded)
               for sid, ns in strat_adj.items() if strat[sid].is_coded}
    for aid, area in list(areas.items()):  # a land area's sea may be written with any of its codes
        if area.sea and alias_key(area.sea) in aliases:
            areas[aid] = replace(area, sea=aliases[alias_key(area.sea)])
    if strat:
        _check_strategic(strat, strat_adj, air_adj, areas, maps, land_refs, problems, where)
    _check_places(maps, areas, problems, where)
    return MapSet(maps, areas, borders, {k: tuple(v) for k, v in adj.items()}, rivers, aliases, assumptions,
                  strat, strat_borders, sea_adj, air_adj)


def _land_area(a: Reader, aid: str, mid: str, names: tuple[str, ...], width: int, height: int,
               sides: tuple[str, str], assumption: str) -> AreaDef:
    flags = list(a.texts("flags"))
    for f in flags:
        if f not in AREA_FLAGS:
            a.fail(f"unknown flag {f!r} (known: {', '.join(AREA_FLAGS)})")
    for key in ("harbour", "airfield", "rail", "fjord"):  # Norway's land maps write these as true/false keys
        if a.has(key) and a.flag(key, False):
            flags.append(key)
    supply = a.text("supply", "")
    if supply and supply not in sides:
        a.fail(f"key 'supply': {supply!r} is not a side ({', '.join(sides)})")
    control = a.text("control", sides[1])
    if control not in sides:
        a.fail(f"key 'control': {control!r} is not a side ({', '.join(sides)})")
    return AreaDef(
        id=aid, name=a.text("name", ""), map=mid, vp=a.integer("vp", 0, lo=0, hi=1000),
        terrain=a.text("terrain", "plain", TERRAINS), x=a.integer("x", lo=0, hi=width),
        y=a.integer("y", lo=0, hi=height), flags=frozenset(flags), supply=supply, control=control,
        aliases=names, assumption=assumption, sea=a.text("sea", ""),
    )


def _strat_area(a: Reader, aid: str, names: tuple[str, ...], width: int, height: int,
                sides: tuple[str, str], assumption: str) -> StratAreaDef:
    side = a.text("side", "")
    if side and side not in sides:
        a.fail(f"key 'side': {side!r} is not a side ({', '.join(sides)})")

    def optional(key: str) -> int | None:
        return a.integer(key, lo=0, hi=100) if a.has(key) else None

    return StratAreaDef(
        id=aid, name=a.text("name", ""), kind=a.text("kind", choices=STRAT_KINDS),
        x=a.integer("x", lo=0, hi=width), y=a.integer("y", lo=0, hi=height), aliases=names,
        sea=a.text("sea", ""), region=a.text("region", ""), land=a.text("land", ""),
        land_map=a.text("land_map", ""), defence=a.integer("defence", 0, lo=0, hi=10), side=side,
        capacity=optional("capacity"), capacity_unsupplied=optional("capacity_unsupplied"),
        allied_limit=optional("allied_limit"), from_turn=a.integer("from_turn", 1, lo=1, hi=20),
        condition=a.text("condition", ""), assumption=assumption,
    )


def _check_strategic(strat: dict[str, StratAreaDef], strat_adj: dict[str, list[tuple[str, str]]],
                     air_adj: dict[str, tuple[str, ...]], areas: dict[str, AreaDef],
                     maps: dict[str, dict[str, Any]], land_refs: list[tuple[Reader, str]],
                     problems: list[str], where: str) -> None:
    """Links between the Strategic Map and the land maps, and its own consistency (Norway 1.2-1.4)."""
    for s in strat.values():
        tag = f"{where}: strategic location {s.id!r}"
        if s.kind in ("harbour", "home_port"):
            if strat.get(s.sea) is None or strat[s.sea].kind != "sea":
                problems.append(f"{tag}: key 'sea': {s.sea!r} is not a sea area of the Strategic Map")
            elif not any(n == s.sea and k == "port" for n, k in strat_adj[s.id]):
                problems.append(f"{tag}: no 'port' border to its sea area {s.sea!r}")
        if s.kind == "home_port" and not s.side:
            problems.append(f"{tag}: a home port needs a 'side'")
        if s.land:
            if s.land_map not in maps or maps[s.land_map]["kind"] != "land":
                problems.append(f"{tag}: key 'land_map': {s.land_map!r} is not a land map")
            elif s.land not in areas or areas[s.land].map != s.land_map:
                problems.append(f"{tag}: key 'land': {s.land!r} is not an area of map {s.land_map!r}")
        if s.region and (s.region not in strat or not strat[s.region].is_coded):
            problems.append(f"{tag}: key 'region': {s.region!r} is not a coded area of the Strategic Map")
        if s.capacity is not None and s.capacity_unsupplied is not None and s.capacity_unsupplied > s.capacity:
            problems.append(f"{tag}: capacity_unsupplied is larger than capacity")
    for reader, aid in land_refs:
        sea = areas[aid].sea
        if sea not in strat or strat[sea].kind != "sea":
            reader.fail(f"area {aid!r}: key 'sea': {sea!r} is not a sea area of the Strategic Map")
    coded = [sid for sid, s in strat.items() if s.is_coded]
    if coded:
        missing = sorted(set(coded) - reachable(coded[0], lambda here: air_adj[here]))
        if missing:
            problems.append(f"{where}: the Strategic Map is not connected: {', '.join(missing)} cannot be "
                            f"reached from {coded[0]}")


def reachable(start: str, neighbours: Callable[[str], Iterable[str]]) -> set[str]:
    """Every node reachable from `start` (breadth first)."""
    seen = {start}
    queue = deque([start])
    while queue:
        for n in neighbours(queue.popleft()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def _check_connected(adj: dict[str, list[str]], areas: dict[str, AreaDef], problems: list[str],
                     where: str) -> None:
    """Each land map is one connected graph, and no border joins two maps."""
    by_map: dict[str, list[str]] = {}
    for a in areas.values():
        by_map.setdefault(a.map, []).append(a.id)
    for x, ns in adj.items():
        for y in ns:
            if x < y and areas[x].map != areas[y].map:
                problems.append(f"{where}: border {x}-{y} joins map {areas[x].map!r} to map {areas[y].map!r}")
    for map_id, ids in by_map.items():
        start = ids[0]
        missing = sorted(set(ids) - reachable(start, lambda here: adj[here]))
        if missing:
            problems.append(f"{where}: map {map_id!r} is not connected: {', '.join(missing)} cannot be reached "
                            f"from {start}")
