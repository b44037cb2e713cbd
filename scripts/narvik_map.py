"""Generate the Narvik hex map, warroom/scenarios/data/narvik/map.toml, from geography.toml beside it.

The printed Narvik map is not among our sources, so the map is a stand-in designed from real geography:
geography.toml holds the facts (coast, border, terrain, lakes, fjords, places, railways, in latitude and
longitude) and this script lays the Europa hex grid over them, deterministically.

    python scripts/narvik_map.py           # (re)write map.toml
    python scripts/narvik_map.py --check   # exit 1 if map.toml differs from what would be written

Projection: sinusoidal about LON0, x = (lon - LON0) * 111.32 * cos(lat) km, y = (LAT0 - lat) * 110.57 km
(y grows southwards). Grid: flat-topped hexes in columns, 25.7 km between neighbouring centres; odd columns
(01, 03, ...) sit half a hex lower than even ones; a hex id is its column then its row, two digits each,
counted from 01 ("0712": column 7, row 12).

How a hex is classified:
1. Sea if less than half its area is land (the coast's mainland and islands). A sea hex belongs to the first
   [[sea_zone]] whose area holds its centre; sea in no zone's area (the Gulf of Bothnia) is neutral.
   Exception: a Norwegian island of 100 km² or more keeps about as many land hexes as its area is worth, at
   least one: the sea hexes holding the largest parts of it become land (else Lofoten would vanish).
2. Otherwise neutral (Sweden, Finland) if most of its land lies east of the border.
3. Otherwise Norwegian: a lake if its centre is in a [[lake]], else the terrain of the last
   [[terrain_region]] holding its centre ("rough" in none). A region too small to hold any hex centre
   (a glacier, say) marks the hex that holds its representative point, so that it is not lost.
4. A hex holding a [[place]] is always Norwegian land: if step 1-3 made it anything else it is forced to
   land with the terrain the regions give it ("forced land", listed in map.toml's header).
5. Open sea is the sea that ships reach from the map's edge, through sea hexes and through port hexes (a
   ship puts into Horten on its way up the Oslofjord). A port that touches no open sea of its zone gets a
   channel: the cheapest run of land hexes (none holding a place) from the port to open sea of its zone,
   where a hex costs more the farther it lies from the port's way in (its `approach` line, else its
   fjord's line); those hexes become sea of the port's zone ("forced sea", listed in the header). Sea
   left cut off from the open sea (a fjord's inner basin at hex scale) becomes land ("filled", listed).
6. A fjord (worked out before the railways) is the set of hexsides between neighbouring Norwegian land hexes
   whose connecting segment its line crosses. The segment runs between the hexes' anchors, the first place
   in a hex, else the hex's centre, so that a town lies on its true side of the fjord. A mountain ridge
   ([[ridge]]) becomes mountain hexsides the same way (they do not stop the railways: a line crossing one is
   a pass).
7. A railway joins the hexes of its places and waypoints by the fewest hex steps over Norwegian land (never
   sea, lake, glacier or neutral hexes, never across a fjord hexside), and among equally short paths the
   one nearest the straight line between them. A waypoint in a hex the line may not enter moves to the
   nearest hex it may. A line whose last waypoint lies in Sweden ends in the neutral hex next to Norwegian
   land nearest that waypoint; one whose last waypoint is still in a Norwegian hex ends there.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import math
import sys
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union
from shapely.prepared import PreparedGeometry, prep

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "warroom" / "scenarios" / "data" / "narvik"
GEOGRAPHY = DATA_DIR / "geography.toml"
MAP = DATA_DIR / "map.toml"

LON0 = 8.0  # central meridian of the sinusoidal projection, degrees east
LAT0 = 70.0  # latitude of y = 0 (the top edge of the even columns' first row), degrees north
KM_PER_DEG_LAT = 110.57
KM_PER_DEG_LON = 111.32  # at the equator; times cos(latitude)

HEX_KM = 25.7  # centre to centre of neighbouring hexes: Europa's 16-mile hex
RADIUS = HEX_KM / math.sqrt(3)  # centre to corner
COLUMN_KM = 1.5 * RADIUS  # between the centres of neighbouring columns
X_FIRST = -215.02  # x of column 01's centres, km
Y_TOP = -8.0  # y of the top edge of the even columns' row 01, km
COLUMNS = 33
ROWS = 53
LAND_SHARE = 0.5  # a hex is land when at least this share of its area is land
ISLAND_KEEP_KM2 = 100.0  # an island this large keeps a land hex even if it fills no hex by half

TERRAIN_CHAR = {"clear": ".", "forest": "f", "rough": "r", "mountain": "m", "glacier": "g"}
DEFAULT_TERRAIN = "rough"
ZONE_CHAR = {"skagerrak": "1", "north_sea": "2", "norwegian_sea": "3", "narvik_waters": "4"}
LAKE = "l"
NEUTRAL = "s"
LEGEND = {
    "1": "sea: skagerrak",
    "2": "sea: north_sea",
    "3": "sea: norwegian_sea",
    "4": "sea: narvik_waters",
    "l": "lake",
    "s": "neutral (Sweden, Finland)",
    ".": "clear",
    "f": "forest",
    "r": "rough",
    "m": "mountain",
    "g": "glacier",
}
LAND_CHARS = frozenset(TERRAIN_CHAR.values())
RAIL_CHARS = LAND_CHARS - {TERRAIN_CHAR["glacier"]}  # a railway skirts a glacier's hex

Hex = tuple[int, int]  # (column, row), both from 1
XY = tuple[float, float]


class GeographyError(ValueError):
    """geography.toml is malformed, or its facts cannot make a valid map."""


# --- projection and grid -------------------------------------------------------------------------------


def project(lat: float, lon: float) -> XY:
    """Sinusoidal projection to km: x east of LON0, y south of LAT0."""
    return (lon - LON0) * KM_PER_DEG_LON * math.cos(math.radians(lat)), (LAT0 - lat) * KM_PER_DEG_LAT


def hex_id(h: Hex) -> str:
    return f"{h[0]:02d}{h[1]:02d}"


def centre(h: Hex) -> XY:
    col, row = h
    y = Y_TOP + (row - 0.5) * HEX_KM + (HEX_KM / 2 if col % 2 == 1 else 0.0)
    return X_FIRST + (col - 1) * COLUMN_KM, y


def on_grid(h: Hex) -> bool:
    return 1 <= h[0] <= COLUMNS and 1 <= h[1] <= ROWS


def neighbours(h: Hex) -> list[Hex]:
    """The up to six hexes sharing a side with h, in a fixed order (north, then clockwise)."""
    col, row = h
    # an odd column sits lower: its side neighbours are rows r and r+1; an even one's are r-1 and r
    upper, lower = (row, row + 1) if col % 2 == 1 else (row - 1, row)
    cands = [(col, row - 1), (col + 1, upper), (col + 1, lower), (col, row + 1), (col - 1, lower), (col - 1, upper)]
    return [c for c in cands if on_grid(c)]


def hexagon(h: Hex) -> Polygon:
    cx, cy = centre(h)
    return Polygon(
        [(cx + RADIUS * math.cos(math.radians(a)), cy + RADIUS * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    )


def all_hexes() -> Iterator[Hex]:
    for row in range(1, ROWS + 1):
        for col in range(1, COLUMNS + 1):
            yield col, row


def hex_at(xy: XY) -> Hex:
    """The hex holding a projected point: the one with the nearest centre (ties go to the lower id)."""
    col = round((xy[0] - X_FIRST) / COLUMN_KM) + 1
    row = round((xy[1] - Y_TOP) / HEX_KM + 0.5)
    best: tuple[float, Hex] | None = None
    for c in range(col - 1, col + 2):
        for r in range(row - 1, row + 2):
            cx, cy = centre((c, r))
            d = (cx - xy[0]) ** 2 + (cy - xy[1]) ** 2
            if best is None or (d, (c, r)) < best:
                best = (d, (c, r))
    assert best is not None
    if not on_grid(best[1]):
        raise GeographyError(f"point {xy} lies off the map (hex {best[1]})")
    return best[1]


# --- reading geography.toml ----------------------------------------------------------------------------


def _float(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GeographyError(f"{what}: expected a number, got {value!r}")
    return float(value)


def _str(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise GeographyError(f"{what}: expected a non-empty string, got {value!r}")
    return value


def _latlon(value: object, what: str) -> XY:
    if not isinstance(value, list) or len(value) != 2:
        raise GeographyError(f"{what}: expected [lat, lon], got {value!r}")
    lat, lon = _float(value[0], what), _float(value[1], what)
    if not (50.0 <= lat <= 75.0 and -5.0 <= lon <= 35.0):
        raise GeographyError(f"{what}: [{lat}, {lon}] is not in Scandinavia")
    return lat, lon


def _points(value: object, what: str) -> list[XY]:
    """A list of [lat, lon], projected."""
    if not isinstance(value, list) or not value:
        raise GeographyError(f"{what}: expected a list of [lat, lon]")
    return [project(*_latlon(v, f"{what}[{i}]")) for i, v in enumerate(value)]


def _polygon(value: object, what: str) -> Polygon:
    pts = _points(value, what)
    poly = Polygon(pts)
    if len(pts) < 3 or not poly.is_valid:
        raise GeographyError(f"{what}: not a valid polygon")
    return poly


def _tables(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise GeographyError(f"[[{key}]] must be an array of tables")
    return value


@dataclass(frozen=True)
class Place:
    name: str
    xy: XY
    kinds: tuple[str, ...]
    sea: str | None
    fjord: str | None
    approach: LineString | None  # the way in from the sea, for a channel; else the fjord's line


@dataclass(frozen=True)
class Region:
    name: str
    terrain: str
    area: Polygon


@dataclass(frozen=True)
class Rail:
    name: str
    via: tuple[str | XY, ...]  # a place name or a projected waypoint


@dataclass(frozen=True)
class Geography:
    land: BaseGeometry
    islands: tuple[Polygon, ...]
    neutral: Polygon
    zones: tuple[tuple[str, str, Polygon], ...]  # id, name, area
    regions: tuple[Region, ...]
    lakes: tuple[tuple[str, Polygon], ...]
    fjords: tuple[tuple[str, LineString], ...]
    ridges: tuple[tuple[str, LineString], ...]
    places: tuple[Place, ...]
    rails: tuple[Rail, ...]


def _lines(doc: dict[str, Any], key: str) -> list[tuple[str, LineString]]:
    """The named lines of a group ([[fjord]], [[ridge]]): each a name and two points or more."""
    out = []
    for t in _tables(doc, key):
        name = _str(t.get("name"), f"{key}.name")
        pts = _points(t.get("line"), f"{key} {name}")
        if len(pts) < 2:
            raise GeographyError(f"{key} {name}: a line needs two points at least")
        out.append((name, LineString(pts)))
    return out


def neutral_area(border: list[XY]) -> Polygon:
    """The land east of the border: the border closed round the east, far beyond the map."""
    far = 10_000.0
    first, last = border[0], border[-1]
    ring = [*border, (far, last[1]), (far, far), (first[0], far)]
    poly = Polygon(ring)
    if not poly.is_valid:
        raise GeographyError("[border] sweden: the border closed round the east is not a valid polygon")
    return poly


def read_geography(path: Path) -> Geography:
    with path.open("rb") as f:
        doc = tomllib.load(f)
    coast = doc.get("coast")
    if not isinstance(coast, dict):
        raise GeographyError("[coast] is missing")
    islands = coast.get("islands", [])
    if not isinstance(islands, list):
        raise GeographyError("[coast] islands must be a list of polygons")
    island_polys = tuple(_polygon(p, f"coast.islands[{i}]") for i, p in enumerate(islands))
    land = unary_union([_polygon(coast.get("mainland"), "coast.mainland"), *island_polys])
    border = doc.get("border")
    if not isinstance(border, dict):
        raise GeographyError("[border] is missing")
    neutral = neutral_area(_points(border.get("sweden"), "border.sweden"))

    zones = tuple(
        (_str(t.get("id"), "sea_zone.id"), _str(t.get("name"), "sea_zone.name"), _polygon(t.get("area"), "sea_zone"))
        for t in _tables(doc, "sea_zone")
    )
    if [z[0] for z in zones] != list(ZONE_CHAR):
        raise GeographyError(f"[[sea_zone]] ids must be, in order: {', '.join(ZONE_CHAR)}")
    regions = []
    for t in _tables(doc, "terrain_region"):
        name = _str(t.get("name"), "terrain_region.name")
        terrain = _str(t.get("terrain"), f"terrain_region {name}")
        if terrain not in TERRAIN_CHAR:
            raise GeographyError(f"terrain_region {name}: unknown terrain {terrain!r}")
        regions.append(Region(name, terrain, _polygon(t.get("polygon"), f"terrain_region {name}")))
    lakes = tuple(
        (_str(t.get("name"), "lake.name"), _polygon(t.get("polygon"), f"lake {t.get('name')}"))
        for t in _tables(doc, "lake")
    )
    fjords, ridges = _lines(doc, "fjord"), _lines(doc, "ridge")
    zone_ids = {z[0] for z in zones}
    fjord_names = {f[0] for f in fjords}
    places = []
    for t in _tables(doc, "place"):
        name = _str(t.get("name"), "place.name")
        xy = project(*_latlon([t.get("lat"), t.get("lon")], f"place {name}"))
        kinds_value = t.get("kinds")
        if not isinstance(kinds_value, list) or not kinds_value:
            raise GeographyError(f"place {name}: kinds must be a non-empty list")
        kinds = tuple(_str(k, f"place {name} kinds") for k in kinds_value)
        sea = t.get("sea")
        fjord = t.get("fjord")
        if ("port" in kinds) != (sea is not None):
            raise GeographyError(f"place {name}: a port, and only a port, names its sea")
        if sea is not None and sea not in zone_ids:
            raise GeographyError(f"place {name}: unknown sea {sea!r}")
        if fjord is not None and fjord not in fjord_names:
            raise GeographyError(f"place {name}: unknown fjord {fjord!r}")
        approach = t.get("approach")
        places.append(
            Place(
                name,
                xy,
                kinds,
                None if sea is None else str(sea),
                None if fjord is None else str(fjord),
                None if approach is None else LineString(_points(approach, f"place {name} approach")),
            )
        )
    names = [p.name for p in places]
    if len(set(names)) != len(names):
        raise GeographyError("[[place]] names must be unique")
    rails = []
    for t in _tables(doc, "rail"):
        name = _str(t.get("name"), "rail.name")
        via_value = t.get("via")
        if not isinstance(via_value, list) or len(via_value) < 2:
            raise GeographyError(f"rail {name}: via needs two stops at least")
        via: list[str | XY] = []
        for i, v in enumerate(via_value):
            if isinstance(v, str):
                if v not in names:
                    raise GeographyError(f"rail {name}: unknown place {v!r}")
                via.append(v)
            else:
                via.append(project(*_latlon(v, f"rail {name} via[{i}]")))
        rails.append(Rail(name, tuple(via)))
    return Geography(
        land=land,
        islands=island_polys,
        neutral=neutral,
        zones=zones,
        regions=tuple(regions),
        lakes=lakes,
        fjords=tuple(fjords),
        ridges=tuple(ridges),
        places=tuple(places),
        rails=tuple(rails),
    )


# --- building the map -----------------------------------------------------------------------------------


@dataclass
class HexMap:
    cells: dict[Hex, str]  # the legend character of every hex
    place_hex: dict[str, Hex]
    rails: list[tuple[str, list[Hex]]]
    fjords: list[tuple[str, list[tuple[Hex, Hex]]]]
    ridges: list[tuple[str, list[tuple[Hex, Hex]]]]
    forced_land: list[tuple[Hex, str, str]]  # hex, place, what it was
    forced_sea: list[tuple[Hex, str]]  # hex, the port whose channel it is
    filled: list[Hex]  # sea hexes cut off from the open sea, made land


def _contains(prepared: PreparedGeometry[Any], xy: XY) -> bool:
    return bool(prepared.contains(Point(xy)))


def terrain_chars(geo: Geography) -> dict[Hex, str]:
    """The terrain every hex would have as Norwegian land (steps 3's regions, without lakes)."""
    terrain = {h: TERRAIN_CHAR[DEFAULT_TERRAIN] for h in all_hexes()}
    for region in geo.regions:
        area = prep(region.area)
        inside = [h for h in all_hexes() if _contains(area, centre(h))]
        if not inside:
            point = region.area.representative_point()
            inside = [hex_at((point.x, point.y))]
        for h in inside:
            terrain[h] = TERRAIN_CHAR[region.terrain]
    return terrain


def classify(geo: Geography) -> tuple[dict[Hex, str], dict[Hex, str]]:
    """Steps 1-3: the character of every hex, and the terrain each would have as land."""
    terrain = terrain_chars(geo)
    zones = [(ZONE_CHAR[zid], prep(area)) for zid, _, area in geo.zones]
    lakes = [prep(area) for _, area in geo.lakes]
    land = prep(geo.land)
    cells: dict[Hex, str] = {}
    for h in all_hexes():
        poly = hexagon(h)
        xy = centre(h)
        if land.contains(poly):
            land_part: BaseGeometry = poly
        elif not land.intersects(poly):
            land_part = Polygon()
        else:
            land_part = poly.intersection(geo.land)
        if land_part.area < LAND_SHARE * poly.area:
            cells[h] = next((char for char, area in zones if _contains(area, xy)), NEUTRAL)
        elif land_part.intersection(geo.neutral).area > land_part.area / 2:
            cells[h] = NEUTRAL
        elif any(_contains(lake, xy) for lake in lakes):
            cells[h] = LAKE
        else:
            cells[h] = terrain[h]
    keep_islands(geo, cells, terrain)
    return cells, terrain


def hexes_near(geom: BaseGeometry) -> list[Hex]:
    """The hexes whose centres lie within a hex of the geometry's bounding box."""
    x0, y0, x1, y1 = geom.bounds
    return [
        h
        for h in all_hexes()
        if x0 - HEX_KM <= centre(h)[0] <= x1 + HEX_KM and y0 - HEX_KM <= centre(h)[1] <= y1 + HEX_KM
    ]


def keep_islands(geo: Geography, cells: dict[Hex, str], terrain: dict[Hex, str]) -> None:
    """Step 1's exception: a Norwegian island of ISLAND_KEEP_KM2 or more keeps about as many land hexes as
    its area is worth (one at least); where too few of the hexes holding it are land, the sea hexes holding
    the largest parts of it become land. Long thin islands (Lofoten) would vanish by the half-land rule."""
    hex_area = hexagon((1, 1)).area
    for island in geo.islands:
        if island.area < ISLAND_KEEP_KM2 or geo.neutral.contains(island.representative_point()):
            continue
        parts = sorted((-hexagon(h).intersection(island).area, h) for h in hexes_near(island))
        want = max(1, round(island.area / hex_area))
        enough = 0.25 * min(island.area, hex_area)
        have = sum(1 for a, h in parts if cells[h] in LAND_CHARS and -a >= enough)
        for _, h in parts:
            if have >= want:
                break
            if cells[h] in ZONE_CHAR.values():
                cells[h] = terrain[h]
                have += 1


def open_sea(cells: dict[Hex, str], ports: frozenset[Hex]) -> set[Hex]:
    """The sea hexes (of any zone) that ships reach from the edge of the map, through sea hexes and through
    port hexes (a ship can put into a port on its way up a fjord: Horten on the Oslofjord, Molde on the
    Romsdalsfjord)."""
    seas = set(ZONE_CHAR.values())
    edge = [h for h in all_hexes() if cells[h] in seas and len(neighbours(h)) < 6]
    reached = set(edge)
    todo = list(edge)
    while todo:
        for n in neighbours(todo.pop()):
            if n not in reached and (cells[n] in seas or n in ports):
                reached.add(n)
                todo.append(n)
    return reached - ports


def touches_open_sea(cells: dict[Hex, str], h: Hex, zone: str, reached: set[Hex]) -> bool:
    return any(cells[n] == zone and n in reached for n in neighbours(h))


def dig_channel(
    cells: dict[Hex, str], place: Place, port: Hex, line: LineString, holders: set[Hex], ports: frozenset[Hex]
) -> list[Hex]:
    """Step 5: the cheapest run of Norwegian land hexes, none holding a place, from a neighbour of the port
    to a hex that touches open sea of the port's zone; a hex costs more the farther its centre lies from
    its way in (its approach, else its fjord's line), so the channel follows the fjord."""
    assert place.sea is not None
    zone = ZONE_CHAR[place.sea]
    reached = open_sea(cells, ports)

    def usable(h: Hex) -> bool:
        return cells[h] in LAND_CHARS and h not in holders

    def cost(h: Hex) -> float:
        return 1.0 + (float(line.distance(Point(centre(h)))) / (HEX_KM / 2)) ** 2

    best: dict[Hex, float] = {}
    came: dict[Hex, Hex] = {}
    heap: list[tuple[float, Hex]] = []
    for n in neighbours(port):
        if usable(n):
            best[n] = cost(n)
            heapq.heappush(heap, (best[n], n))
    while heap:
        d, h = heapq.heappop(heap)
        if d > best[h]:
            continue
        if touches_open_sea(cells, h, zone, reached):
            path = [h]
            while path[-1] in came:
                path.append(came[path[-1]])
            return path
        for n in neighbours(h):
            if usable(n) and d + cost(n) < best.get(n, math.inf):
                best[n] = d + cost(n)
                came[n] = h
                heapq.heappush(heap, (best[n], n))
    raise GeographyError(f"port {place.name}: no channel to open {place.sea} sea")


def segment_distance(xy: XY, a: XY, b: XY) -> float:
    return float(LineString([a, b]).distance(Point(xy))) if a != b else math.dist(xy, a)


def rail_path(
    cells: dict[Hex, str],
    fjord_sides: set[tuple[Hex, Hex]],
    start: Hex,
    goal: Hex,
    a: XY,
    b: XY,
    goal_may_be_neutral: bool,
) -> list[Hex]:
    """Step 7: fewest hex steps over Norwegian land from start to goal, crossing no fjord hexside, nearest
    the segment a-b among those."""

    def allowed(h: Hex) -> bool:
        return cells[h] in RAIL_CHARS or (h == goal and goal_may_be_neutral and cells[h] == NEUTRAL)

    # the cost of entering a hex: one step, plus a fraction (always < 1 over a whole path) for straying
    def cost(h: Hex) -> float:
        return 1.0 + min(segment_distance(centre(h), a, b), 500.0) / 50_000.0

    best: dict[Hex, float] = {start: 0.0}
    came: dict[Hex, Hex] = {}
    heap: list[tuple[float, Hex]] = [(0.0, start)]
    while heap:
        d, h = heapq.heappop(heap)
        if h == goal:
            break
        if d > best[h]:
            continue
        for n in neighbours(h):
            if not allowed(n) or (min(h, n), max(h, n)) in fjord_sides:
                continue
            nd = d + cost(n)
            if nd < best.get(n, math.inf):
                best[n] = nd
                came[n] = h
                heapq.heappush(heap, (nd, n))
    if goal not in best:
        raise GeographyError(f"no land path from {hex_id(start)} to {hex_id(goal)}")
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def nearest_allowed(cells: dict[Hex, str], xy: XY, ok: frozenset[str]) -> Hex:
    h = hex_at(xy)
    if cells[h] in ok:
        return h
    return min((c for c in all_hexes() if cells[c] in ok), key=lambda c: (math.dist(centre(c), xy), c))


def border_crossing(cells: dict[Hex, str], xy: XY) -> Hex:
    """Where a line that ends beyond the border leaves Norway: the neutral hex next to Norwegian land
    nearest the waypoint."""
    edge = [h for h in all_hexes() if cells[h] == NEUTRAL and any(cells[n] in LAND_CHARS for n in neighbours(h))]
    return min(edge, key=lambda h: (math.dist(centre(h), xy), h))


def build(geo: Geography) -> HexMap:
    cells, terrain = classify(geo)
    place_hex = {p.name: hex_at(p.xy) for p in geo.places}
    holders = set(place_hex.values())

    forced_land: list[tuple[Hex, str, str]] = []
    for p in geo.places:  # step 4
        h = place_hex[p.name]
        if cells[h] not in LAND_CHARS:
            forced_land.append((h, p.name, LEGEND[cells[h]]))
            cells[h] = terrain[h]

    forced_sea: list[tuple[Hex, str]] = []
    fjord_line = dict(geo.fjords)
    ports = frozenset(place_hex[p.name] for p in geo.places if p.sea is not None)
    for p in geo.places:  # step 5
        if p.sea is None:
            continue
        h = place_hex[p.name]
        if touches_open_sea(cells, h, ZONE_CHAR[p.sea], open_sea(cells, ports)):
            continue
        line = p.approach if p.approach is not None else None if p.fjord is None else fjord_line[p.fjord]
        if line is None:
            raise GeographyError(f"port {p.name} ({hex_id(h)}) touches no open {p.sea} sea and has no way in")
        for c in dig_channel(cells, p, h, line, holders, ports):
            cells[c] = ZONE_CHAR[p.sea]
            forced_sea.append((c, p.name))
    reached = open_sea(cells, ports)
    filled: list[Hex] = []
    for h in all_hexes():  # sea cut off from the open sea at hex scale: a fjord's inner basin
        if cells[h] in ZONE_CHAR.values() and h not in reached:
            cells[h] = terrain[h]
            filled.append(h)
    for p in geo.places:
        if p.sea is not None and not touches_open_sea(cells, place_hex[p.name], ZONE_CHAR[p.sea], reached):
            raise GeographyError(f"port {p.name} ({hex_id(place_hex[p.name])}) touches no open {p.sea} sea")

    anchor: dict[Hex, XY] = {}
    for p in geo.places:
        anchor.setdefault(place_hex[p.name], p.xy)
    def crossed(line: LineString) -> list[tuple[Hex, Hex]]:  # step 6
        near = prep(line.buffer(3 * HEX_KM))
        sides: list[tuple[Hex, Hex]] = []
        for h in all_hexes():
            if cells[h] not in LAND_CHARS or not _contains(near, centre(h)):
                continue
            for n in neighbours(h):
                if n <= h or cells[n] not in LAND_CHARS:
                    continue
                if line.intersects(LineString([anchor.get(h, centre(h)), anchor.get(n, centre(n))])):
                    sides.append((h, n))
        return sorted(sides)

    fjords = [(name, crossed(line)) for name, line in geo.fjords]
    ridges = [(name, crossed(line)) for name, line in geo.ridges]
    fjord_sides = {side for _, sides in fjords for side in sides}

    xy_of = {p.name: p.xy for p in geo.places}
    rails: list[tuple[str, list[Hex]]] = []
    for rail in geo.rails:  # step 7
        stops: list[tuple[Hex, XY]] = []
        for i, v in enumerate(rail.via):
            last = i == len(rail.via) - 1
            if isinstance(v, str):
                stops.append((place_hex[v], xy_of[v]))
            elif last and cells[hex_at(v)] == NEUTRAL:
                stops.append((border_crossing(cells, v), v))
            else:
                stops.append((nearest_allowed(cells, v, RAIL_CHARS), v))
        path = [stops[0][0]]
        for i, ((h0, a), (h1, b)) in enumerate(itertools.pairwise(stops)):
            if h0 == h1:
                continue
            last_leg = i == len(stops) - 2
            try:
                path += rail_path(cells, fjord_sides, h0, h1, a, b, goal_may_be_neutral=last_leg)[1:]
            except GeographyError as exc:
                raise GeographyError(f"rail {rail.name}: {exc}") from exc
        rails.append((rail.name, path))
    return HexMap(cells, place_hex, rails, fjords, ridges, forced_land, forced_sea, filled)


# --- writing map.toml -----------------------------------------------------------------------------------


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ids(hexes: Sequence[Hex], per_line: int = 12) -> list[str]:
    return [
        "  " + ", ".join(_q(hex_id(h)) for h in hexes[i : i + per_line]) + "," for i in range(0, len(hexes), per_line)
    ]


def _comment_ids(hexes: Sequence[Hex]) -> list[str]:
    return ["#   " + " ".join(hex_id(h) for h in hexes[i : i + 16]) for i in range(0, len(hexes), 16)]


def render(geo: Geography, m: HexMap) -> str:
    counts: dict[str, int] = {}
    for char in m.cells.values():
        counts[char] = counts.get(char, 0) + 1
    lines = [
        "# generated by scripts/narvik_map.py from geography.toml: do not edit by hand. To change the map, edit",
        "# geography.toml (or the grid constants in the script) and run `python scripts/narvik_map.py`;",
        "# `python scripts/narvik_map.py --check` fails while this file is not what the script would write.",
        "#",
        "# hexes: " + ", ".join(f"{LEGEND[c]} {counts[c]}" for c in LEGEND if c in counts),
    ]
    if m.forced_land:
        lines.append("# forced land (a place's hex that the coast, a lake or the border made something else):")
        lines += [f"#   {hex_id(h)} {name} (was {was})" for h, name, was in m.forced_land]
    if m.filled:
        lines.append("# filled (sea cut off from the open sea at hex scale, made land; fjord hexsides show the water):")
        lines += _comment_ids(m.filled)
    if m.forced_sea:
        lines.append("# forced sea (the channel up a fjord to a port that touched no sea of its zone):")
        lines += [f"#   {hex_id(h)} towards {name}" for h, name in m.forced_sea]
    lines += [
        "",
        "[map]",
        'name = "Norway, April–June 1940"',
        f"hex_km = {HEX_KM}",
        "layout = "
        + _q(
            "Flat-topped hexes in columns, 25.7 km between neighbouring centres; odd columns (01, 03, ...) sit "
            "half a hex lower than even ones (odd-q, counting from 01); a hex id is CCRR, its two-digit column "
            "then two-digit row, both counted from 01 at the north-west corner."
        ),
        "projection = "
        + _q(
            f"Sinusoidal about lon0 = {LON0:g}°E: x = (lon - {LON0:g}) * 111.32 * cos(lat) km east, "
            f"y = (lat0 - lat) * 110.57 km south with lat0 = {LAT0:g}°N; column 01's centres lie at x = "
            f"{X_FIRST:g} km, and the even columns' row 01 spans y = {Y_TOP:g} to {Y_TOP + HEX_KM:g} km."
        ),
        f"columns = {COLUMNS}",
        f"rows = {ROWS}",
        "source = "
        + _q(
            "Generated from geography.toml: Natural Earth 1:10m coast, border, lakes and glaciers (public domain); "
            "terrain regions, fjords, places and the 1940 railways from general geographic knowledge."
        ),
        "assumption = "
        + _q(
            "A stand-in: the printed Narvik map is not in our sources, so this map is designed from real "
            "geography. A hex is sea when less than half of it is land (but each island of 100 km² or more "
            "keeps a land hex), neutral when most of its land is east of the border; otherwise its centre "
            "decides lake or terrain. Every place's hex is land; a port up a narrow fjord gets a channel of "
            "sea hexes along it, and ships pass through port hexes (both listed in the header)."
        ),
        "legend = { " + ", ".join(f"{_q(k)} = {_q(v)}" for k, v in LEGEND.items()) + " }",
        "terrain = [",
    ]
    for row in range(1, ROWS + 1):
        lines.append("  " + _q("".join(m.cells[(col, row)] for col in range(1, COLUMNS + 1))) + ",")
    lines.append("]")
    for p in geo.places:
        lines += ["", "[[place]]", f"name = {_q(p.name)}", f"hex = {_q(hex_id(m.place_hex[p.name]))}"]
        lines.append("kinds = [" + ", ".join(_q(k) for k in p.kinds) + "]")
        if p.sea is not None:
            lines.append(f"sea = {_q(p.sea)}")
    for name, path in m.rails:
        lines += ["", "[[rail]]", f"name = {_q(name)}", "hexes = [", *_ids(path), "]"]
    for key, name, sides in [*(("fjord", n, s) for n, s in m.fjords), *(("ridge", n, s) for n, s in m.ridges)]:
        lines += ["", f"[[{key}]]", f"name = {_q(name)}", "hexsides = ["]
        lines += [
            "  " + ", ".join(f"[{_q(hex_id(a))}, {_q(hex_id(b))}]" for a, b in sides[i : i + 6]) + ","
            for i in range(0, len(sides), 6)
        ]
        lines.append("]")
    for zid, zname, _ in geo.zones:
        lines += ["", "[[sea_zone]]", f"id = {_q(zid)}", f"name = {_q(zname)}"]
    return "\n".join(lines) + "\n"


def generate(geography: Path = GEOGRAPHY) -> str:
    geo = read_geography(geography)
    return render(geo, build(geo))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the Narvik hex map (map.toml) from geography.toml.")
    parser.add_argument("--check", action="store_true", help="exit 1 if map.toml is not what would be written")
    args = parser.parse_args(argv)
    try:
        text = generate()
    except GeographyError as exc:
        print(f"narvik_map: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = MAP.read_text(encoding="utf-8") if MAP.exists() else ""
        if current != text:
            where = MAP.relative_to(ROOT)
            print(f"narvik_map: {where} is out of date: run python scripts/narvik_map.py", file=sys.stderr)
            return 1
        return 0
    MAP.write_text(text, encoding="utf-8")
    print(f"wrote {MAP.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
