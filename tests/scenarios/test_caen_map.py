"""Checks the reconstructed Firestorm: Caen campaign map against every hint in the rules digest.

Sources: shared/rules/firestorm-caen.md sections 1.1 (areas, VP), 1.2 (terrain), 1.3 (rivers),
1.4 (adjacency hints), 9 and the appendix (map facts from club reports of the printed map).
"""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

MAP_FILE = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "caen" / "map.toml"

WIDTH = 1000
HEIGHT = 700
MIN_SPACING = 70.0

# Section 1.1: the 22 codes the text mentions, with their VP (0 where the table has none).
NAMED_VP: dict[str, int] = {
    "A1": 20, "A2": 30, "A3": 30, "A5": 30, "A6": 0,
    "B1": 0, "B4": 0, "B5": 20,
    "C1": 20, "C2": 10, "C3": 20, "C4": 30, "C5": 30, "C6": 20, "C7": 20,
    "D1": 50, "D3": 50, "D4": 40, "D5": 20, "D6": 50, "D7": 50, "D8": 0,
}  # fmt: skip
RULEBOOK_NAMES: dict[str, str] = {
    "A1": "Bayeux", "A2": "Gold Beach", "A3": "Juno Beach", "A5": "Sword Beach",
    "B4": "Epron", "B5": "Bréville", "C1": "Tilly-sur-Seulles", "C2": "Cheux", "C3": "Carpiquet",
    "C6": "Colombelles", "C7": "Cagny", "D1": "Villers-Bocage", "D3": "Evercy", "D4": "Hill 112",
    "D5": "Bourgébus", "D6": "Verrières Ridge", "D7": "Caen-Falaise Road",
}  # fmt: skip
CANDIDATES = frozenset({"A4", "B2", "B3", "B6", "B7", "B8", "C8", "D2"})
UNNAMED_IN_TEXT = frozenset({"A6", "B1", "D8"})
VP_TOTAL = 540

BEACHES = frozenset({"A2", "A3", "A5"})
ALLIED_SUPPLY = BEACHES
AXIS_SUPPLY = frozenset({"A6", "C7", "D1", "D3", "D6", "D7"})
CITY = frozenset({"C4", "C5"})
BOCAGE = frozenset({"A1", "B1", "C1", "C2", "D1", "D3"})
CAEN = CITY

# Section 1.4 and the appendix: borders that must exist.
REQUIRED_BORDERS: tuple[tuple[str, str], ...] = (
    ("A1", "B1"),  # 1.4.1 Bayeux then B1
    ("B1", "D1"),  # 1.4.1 Villers-Bocage attacked from B1
    ("A3", "B3"),  # appendix: Bretteville attacked to free Juno
    ("A5", "B4"),  # appendix: Sword attacked Epron
    ("B4", "C6"),  # appendix: Colombelles attacked Epron
    ("C1", "D1"),  # appendix: Tilly linked with Villers-Bocage
    ("B4", "C4"),  # appendix: Caen West attacked from Epron
    ("C4", "C5"),  # the two Caen areas touch
    ("B4", "B5"),  # 1.4.4 / 1.3: Epron faces the airborne bridgehead across the Orne
)
ORNE_BORDERS: tuple[tuple[str, str], ...] = (("B4", "B5"), ("C4", "C5"), ("C5", "C6"))
ODON_BORDERS: tuple[tuple[str, str], ...] = (("C2", "D3"), ("C2", "D4"), ("C3", "D4"))
RIVERS = frozenset({"", "Orne", "Odon"})


@dataclass(frozen=True)
class Area:
    code: str
    aliases: tuple[str, ...]
    name: str
    map_id: str
    vp: int
    terrain: str
    x: int
    y: int
    flags: frozenset[str]
    supply: str
    control: str
    assumption: str


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    river: str
    assumption: str


@dataclass(frozen=True)
class CaenMap:
    maps: tuple[dict[str, Any], ...]
    areas: dict[str, Area]
    borders: tuple[Border, ...]

    def pair(self, a: str, b: str) -> Border | None:
        for border in self.borders:
            if {border.a, border.b} == {a, b}:
                return border
        return None

    def neighbours(self) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = {code: set() for code in self.areas}
        for border in self.borders:
            adj[border.a].add(border.b)
            adj[border.b].add(border.a)
        return adj

    def distances_from(self, start: str) -> dict[str, int]:
        adj = self.neighbours()
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in sorted(adj[here]):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist


@cache
def load() -> CaenMap:
    with MAP_FILE.open("rb") as handle:
        raw: dict[str, Any] = tomllib.load(handle)
    areas: dict[str, Area] = {}
    for row in raw["area"]:
        code = str(row["id"])
        assert code not in areas, f"duplicate area {code}"
        areas[code] = Area(
            code=code,
            aliases=tuple(str(alias) for alias in row["aliases"]),
            name=str(row["name"]),
            map_id=str(row["map"]),
            vp=int(row["vp"]),
            terrain=str(row["terrain"]),
            x=int(row["x"]),
            y=int(row["y"]),
            flags=frozenset(str(flag) for flag in row["flags"]),
            supply=str(row["supply"]),
            control=str(row["control"]),
            assumption=str(row.get("assumption", "")),
        )
    borders = tuple(
        Border(
            a=str(row["a"]),
            b=str(row["b"]),
            river=str(row["river"]),
            assumption=str(row.get("assumption", "")),
        )
        for row in raw["border"]
    )
    return CaenMap(maps=tuple(raw["map"]), areas=areas, borders=borders)


def _ccw(p: Area, q: Area, r: Area) -> int:
    return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)


# --- map header and areas (1.1) -------------------------------------------------------------------


def test_map_header() -> None:
    caen = load()
    assert len(caen.maps) == 1
    header = caen.maps[0]
    assert header["id"] == "caen"
    assert header["width"] == WIDTH
    assert header["height"] == HEIGHT
    assert all(area.map_id == "caen" for area in caen.areas.values())


def test_twenty_six_areas_a1_to_d8() -> None:
    codes = set(load().areas)
    assert len(codes) == 26
    assert all(re.fullmatch(r"[A-D][1-8]", code) for code in codes)
    assert {"A1", "D8"} <= codes
    assert set(NAMED_VP) <= codes


def test_four_missing_codes_come_from_candidates() -> None:
    extra = set(load().areas) - set(NAMED_VP)
    assert len(extra) == 4
    assert extra <= CANDIDATES
    assert "B3" in extra  # appendix: B3 is Bretteville-l'Orgueilleuse


def test_aliases_are_dash_form() -> None:
    for code, area in load().areas.items():
        assert area.aliases == (f"{code[0]}-{code[1:]}",)


def test_vp_per_area_and_total() -> None:
    areas = load().areas
    for code, vp in NAMED_VP.items():
        assert areas[code].vp == vp, code
    for code in set(areas) - set(NAMED_VP):
        assert areas[code].vp == 0, code
    assert sum(area.vp for area in areas.values()) == VP_TOTAL


def test_names() -> None:
    areas = load().areas
    for code, name in RULEBOOK_NAMES.items():
        assert areas[code].name == name
    assert areas["C4"].name.startswith("Caen")
    assert areas["C5"].name.startswith("Caen")
    assert areas["B3"].name == "Bretteville-l'Orgueilleuse"
    for area in areas.values():
        assert area.name, area.code


def test_reconstructed_areas_say_so() -> None:
    areas = load().areas
    reconstructed = (set(areas) - set(NAMED_VP) - {"B3"}) | UNNAMED_IN_TEXT
    for code in reconstructed:
        assert areas[code].assumption.startswith("Reconstructed"), code
    assert areas["B3"].assumption


def test_all_areas_start_german() -> None:
    assert all(area.control == "axis" for area in load().areas.values())


# --- terrain, beaches, supply (1.2, C:176) --------------------------------------------------------


def test_terrain() -> None:
    for code, area in load().areas.items():
        if code in CITY:
            assert area.terrain == "city", code
        elif code in BOCAGE:
            assert area.terrain == "bocage", code
        else:
            assert area.terrain == "plain", code


def test_beaches_flagged() -> None:
    beaches = {code for code, area in load().areas.items() if "beach" in area.flags}
    assert beaches == BEACHES
    for area in load().areas.values():
        assert area.flags <= {"beach", "fortified"}


def test_supply_sources() -> None:
    areas = load().areas
    assert {code for code, area in areas.items() if area.supply == "allies"} == ALLIED_SUPPLY
    assert {code for code, area in areas.items() if area.supply == "axis"} == AXIS_SUPPLY
    assert {area.supply for area in areas.values()} <= {"", "allies", "axis"}


# --- coordinates ----------------------------------------------------------------------------------


def test_coordinates_inside_box_unique_and_spaced() -> None:
    areas = list(load().areas.values())
    for area in areas:
        assert 0 <= area.x <= WIDTH and 0 <= area.y <= HEIGHT, area.code
    assert len({(area.x, area.y) for area in areas}) == len(areas)
    for first, second in itertools.combinations(areas, 2):
        gap = math.dist((first.x, first.y), (second.x, second.y))
        assert gap >= MIN_SPACING, (first.code, second.code, gap)


def test_rows_run_north_to_south() -> None:
    areas = load().areas
    mean_y: dict[str, float] = {}
    for row in "ABCD":
        ys = [area.y for area in areas.values() if area.code[0] == row]
        mean_y[row] = sum(ys) / len(ys)
    assert mean_y["A"] < mean_y["B"] < mean_y["C"] < mean_y["D"]
    assert all(areas[code].y < areas["C4"].y for code in BEACHES)  # coast north of Caen


def test_german_supply_lies_south_or_east() -> None:
    areas = load().areas
    caen_x = sum(areas[c].x for c in CAEN) / len(CAEN)
    caen_y = sum(areas[c].y for c in CAEN) / len(CAEN)
    for code in AXIS_SUPPLY:
        assert areas[code].x > caen_x or areas[code].y > caen_y, code


# --- borders --------------------------------------------------------------------------------------


def test_border_endpoints_exist_and_pairs_unique() -> None:
    caen = load()
    seen: set[frozenset[str]] = set()
    for border in caen.borders:
        assert border.a in caen.areas and border.b in caen.areas, border
        assert border.a != border.b
        pair = frozenset((border.a, border.b))
        assert pair not in seen, f"duplicate border {sorted(pair)}"
        seen.add(pair)
        assert border.river in RIVERS
        assert border.assumption, border


def test_adjacency_symmetric() -> None:
    adj = load().neighbours()
    for here, theirs in adj.items():
        for there in theirs:
            assert here in adj[there]


def test_graph_connected() -> None:
    caen = load()
    assert set(caen.distances_from("A1")) == set(caen.areas)


def test_degrees_plausible() -> None:
    for code, theirs in load().neighbours().items():
        assert 3 <= len(theirs) <= 6, (code, sorted(theirs))


def test_drawing_is_planar() -> None:
    """Straight lines between neighbouring centres never cross: the graph can be drawn as a map."""
    caen = load()
    areas = caen.areas
    for first, second in itertools.combinations(caen.borders, 2):
        if len({first.a, first.b, second.a, second.b}) < 4:
            continue
        p, q, r, s = areas[first.a], areas[first.b], areas[second.a], areas[second.b]
        crosses = _ccw(p, q, r) * _ccw(p, q, s) < 0 and _ccw(r, s, p) * _ccw(r, s, q) < 0
        assert not crosses, (first.a, first.b, second.a, second.b)


@pytest.mark.parametrize(("a", "b"), REQUIRED_BORDERS)
def test_required_border(a: str, b: str) -> None:
    assert load().pair(a, b) is not None, f"{a}-{b} missing"


def test_each_beach_touches_german_land() -> None:
    caen = load()
    adj = caen.neighbours()
    for beach in BEACHES:
        land = {n for n in adj[beach] if n not in BEACHES and caen.areas[n].control == "axis"}
        assert land, beach


def test_epron_borders_dday_allied_area() -> None:
    """1.4.4: 21. Panzer counter-attacks from Epron into an area the Allies can hold on D-Day."""
    adj = load().neighbours()
    assert adj["B4"] & (BEACHES | {"B5"})
    assert "A5" in adj["B4"]
    assert "C6" in adj["B4"]


def test_breville_is_east_of_the_orne() -> None:
    caen = load()
    areas = caen.areas
    crossing = caen.pair("B4", "B5")
    assert crossing is not None and crossing.river == "Orne"
    assert areas["B5"].x > areas["B4"].x
    assert areas["B5"].x > areas["A5"].x
    # 1.4.2: Goodwood starts east of the Orne from the bridgehead (no river towards Cagny).
    goodwood = caen.pair("B5", "C7")
    assert goodwood is not None and goodwood.river == ""


@pytest.mark.parametrize(("a", "b"), ORNE_BORDERS)
def test_orne_border(a: str, b: str) -> None:
    border = load().pair(a, b)
    assert border is not None and border.river == "Orne", f"{a}-{b}"


@pytest.mark.parametrize(("a", "b"), ODON_BORDERS)
def test_odon_border(a: str, b: str) -> None:
    border = load().pair(a, b)
    assert border is not None and border.river == "Odon", f"{a}-{b}"


def test_odon_separates_c2_c3_from_d3_d4() -> None:
    caen = load()
    odon = {frozenset((b.a, b.b)) for b in caen.borders if b.river == "Odon"}
    for north in ("C2", "C3"):
        assert any(frozenset((north, south)) in odon for south in ("D3", "D4")), north
    for south in ("D3", "D4"):
        assert any(frozenset((north, south)) in odon for north in ("C2", "C3")), south


def test_orne_crossing_into_evercy() -> None:
    caen = load()
    assert any(b.river == "Orne" and "D3" in (b.a, b.b) for b in caen.borders)


def test_rivers_have_reasons() -> None:
    for border in load().borders:
        if border.river:
            assert border.river in border.assumption or "river" in border.assumption.lower(), border


# --- playability ------------------------------------------------------------------------------------


def test_caen_about_two_steps_from_the_beaches() -> None:
    caen = load()
    best = min(caen.distances_from(beach)[city] for beach in BEACHES for city in CAEN)
    assert best <= 2
    for beach in BEACHES:
        assert min(caen.distances_from(beach)[city] for city in CAEN) <= 4, beach


def test_beaches_near_objectives() -> None:
    caen = load()
    for beach in BEACHES:
        dist = caen.distances_from(beach)
        near = [c for c, d in dist.items() if 1 <= d <= 2 and c not in BEACHES and caen.areas[c].vp > 0]
        assert near, beach


def test_german_supply_reachable_everywhere() -> None:
    caen = load()
    for source in AXIS_SUPPLY:
        assert set(caen.distances_from(source)) == set(caen.areas), source
        assert max(caen.distances_from(source).values()) <= 8, source
