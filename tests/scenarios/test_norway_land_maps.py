"""Checks the reconstructed Firestorm: Norway 1940 land maps against every hint in the rules digest.

Sources: shared/rules/firestorm-norway.md sections 1.1 (two code systems), 1.3 (harbours), 1.4 (airfields),
1.5 (South-Central Norway, SCN), 1.6 (Narvik, NAR), 1.7 (adjacency hints: one test each), 1.8 (code
contradictions), 2.2/2.3 (initial control), 7.2 (supply sources), 7.6 (rail), 9.2 (area VP) and 11.
The Strategic Map lives in another file; here only its links to the land maps are checked.
"""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

NORWAY_DIR = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "norway"
MAP_FILE = NORWAY_DIR / "map-land.toml"

SCN = "south-central"
NAR = "narvik"
MAP_PREFIX = {SCN: "SCN", NAR: "NAR"}
WIDTH = 1000
HEIGHT = 700
MIN_SPACING = 70.0
FJORD = "OFOT"

# Section 1.5: the 15 SCN set-up codes -> legacy FT-chapter codes (same code when the chapter repeats it).
SCN_LEGACY: dict[str, tuple[str, ...]] = {
    "D-1": (), "D-2": (), "D-3": ("A-3",), "D-4": (), "D-5": (), "D-6": ("A-6",),
    "D-7": ("A-7", "A-1"), "D-8": ("A-8",), "D-9": (), "D-10": ("A-11",), "D-11": (),
    "E-1": ("B-1",), "E-6": ("E-3",), "E-7": ("B-7",), "E-8": ("B-8",),
}  # fmt: skip
# Section 1.6: the 10 NAR set-up codes -> legacy codes.
NAR_LEGACY: dict[str, tuple[str, ...]] = {
    "X-1": (), "X-4": ("A-5",), "X-5": ("B-5",), "Y-2": ("B-2",), "Y-3": ("B-3",), "Y-4": (),
    "Z-1": (), "Z-3": ("C-3",), "Z-4": (), "Z-5": (),
}  # fmt: skip

# Names printed in the text (1.5, 1.6); every other coded area carries a reconstructed name.
RULEBOOK_NAMES: dict[str, str] = {
    "D1": "Namsos", "D3": "Trondheim", "D4": "Åndalsnes", "D6": "Bergen", "D7": "Stavanger",
    "D8": "Kristiansand", "D10": "Oslo", "E1": "Dombås", "X1": "Harstad", "Z1": "Ballangen", "Z3": "Narvik",
}  # fmt: skip
RECONSTRUCTED_NAMES: dict[str, str] = {
    "D2": "Steinkjer", "D5": "Voss", "D9": "Kongsberg", "D11": "Halden", "E6": "Hallingdal",
    "E7": "Lillehammer", "E8": "Elverum", "X4": "Salangen", "X5": "Setermoen", "Y2": "Gratangen",
    "Y3": "Bjerkvik", "Y4": "Rombaken", "Z4": "Beisfjord", "Z5": "Hundalen",
}  # fmt: skip

# Section 2.2: German start units on SCN; Norwegian start areas; the rest Allied by suggestion.
SCN_GERMAN_START = frozenset({"D3", "D6", "D7", "D8", "D10"})
SCN_NORWEGIAN_START = frozenset({"D2", "D5", "D9", "D11", "E6", "E7", "E8"})
# Section 2.3: stated German control on NAR; the rest Allied by suggestion.
NAR_GERMAN_START = frozenset({"Y2", "Y3", "Y4", "Z3", "Z4", "Z5"})
NAR_NORWEGIAN_START = frozenset({"X4", "X5"})

# Section 7.2: supply sources.
ALLIED_SUPPLY = {SCN: frozenset({"D1", "D4"}), NAR: frozenset({"X1", "Z1"})}
AXIS_SUPPLY = {SCN: frozenset({"D10"}), NAR: frozenset[str]()}

# Section 1.3: harbour towns of the Strategic Map that sit on a land map, and their known sea areas.
HARBOURS = frozenset({"D1", "D3", "D4", "D6", "D7", "D8", "D10", "Z3"})
KNOWN_SEA = {"D1": "B-2", "D4": "B-3", "Z3": "B-1"}
# Section 1.4: airfields on SCN named by the text (Oslo, Sola/Stavanger, Trondheim).
AIRFIELDS = frozenset({"D3", "D7", "D10"})

AREA_KEYS = frozenset(
    {"id", "aliases", "name", "map", "vp", "terrain", "x", "y", "flags", "supply", "control", "assumption",
     "harbour", "sea", "airfield", "rail", "fjord"}
)  # fmt: skip
BORDER_KEYS = frozenset({"a", "b", "river", "fjord", "assumption"})
ALLOWED_FLAGS = frozenset({"beach", "fortified", "moselle_east"})
STRATEGIC_CODE = re.compile(r"[A-C]-?\d+")


def canonical(code: str) -> str:
    """The canonical id of a set-up code: the code without its dash ("D-10" -> "D10")."""
    return code.replace("-", "")


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
    flags: tuple[str, ...]
    supply: str
    control: str
    harbour: bool
    sea: str
    airfield: bool
    rail: bool
    fjord: bool
    assumption: str
    keys: frozenset[str]


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    river: str
    fjord: bool
    assumption: str
    keys: frozenset[str]


@dataclass(frozen=True)
class LandMaps:
    maps: tuple[dict[str, Any], ...]
    areas: dict[str, Area]
    borders: tuple[Border, ...]

    def on(self, map_id: str) -> dict[str, Area]:
        return {code: area for code, area in self.areas.items() if area.map_id == map_id}

    def pair(self, a: str, b: str) -> Border | None:
        for border in self.borders:
            if {border.a, border.b} == {a, b}:
                return border
        return None

    def neighbours(self, keep: Callable[[Border], bool] = lambda _: True) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = {code: set() for code in self.areas}
        for border in self.borders:
            if keep(border):
                adj[border.a].add(border.b)
                adj[border.b].add(border.a)
        return adj

    def resolve(self, text: str) -> str | None:
        """Like the loader: case-insensitive, spaces ignored, ids and aliases accepted."""
        key = text.strip().upper().replace(" ", "")
        for code, area in self.areas.items():
            if key in {name.upper().replace(" ", "") for name in (code, *area.aliases)}:
                return code
        return None


def distances(adj: dict[str, set[str]], start: str, allowed: set[str] | None = None) -> dict[str, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(adj[here]):
            if there not in dist and (allowed is None or there in allowed):
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


@cache
def load() -> LandMaps:
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
            flags=tuple(str(flag) for flag in row["flags"]),
            supply=str(row["supply"]),
            control=str(row["control"]),
            harbour=bool(row.get("harbour", False)),
            sea=str(row.get("sea", "")),
            airfield=bool(row.get("airfield", False)),
            rail=bool(row.get("rail", False)),
            fjord=bool(row.get("fjord", False)),
            assumption=str(row.get("assumption", "")),
            keys=frozenset(str(key) for key in row),
        )
    borders = tuple(
        Border(
            a=str(row["a"]),
            b=str(row["b"]),
            river=str(row["river"]),
            fjord=bool(row.get("fjord", False)),
            assumption=str(row.get("assumption", "")),
            keys=frozenset(str(key) for key in row),
        )
        for row in raw["border"]
    )
    return LandMaps(maps=tuple(raw["map"]), areas=areas, borders=borders)


def _ccw(p: Area, q: Area, r: Area) -> int:
    return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)


# --- section 1.7: one test per adjacency hint -------------------------------------------------------


def test_hint_1_b1_is_the_sea_next_to_narvik() -> None:
    """1.7.1 (N:339, 1145): A-1 -> B-1 -> Narvik harbour; B-1 is next to Narvik. Land side: Z-3 is the
    Narvik harbour town and its Strategic Map sea area is B-1."""
    land = load()
    narvik = land.areas["Z3"]
    assert narvik.name == "Narvik" and narvik.map_id == NAR
    assert narvik.harbour
    assert narvik.sea == "B-1"
    assert [code for code, area in land.on(NAR).items() if area.harbour] == ["Z3"]


def test_hint_2_b7_b5_a3_is_a_strategic_flight_only() -> None:
    """1.7.2 (N:343): B-7 -> B-5 -> A-3 is a Strategic Map flight. The bare codes stay free for the
    Strategic Map; the land areas whose legacy code spells the same (A-3 Trondheim, B-5 Setermoen,
    B-7 Lillehammer) take it only map-prefixed, and their assumption names the code."""
    land = load()
    for code, owner in (("B-7", "E7"), ("B-5", "X5"), ("A-3", "D3")):
        assert canonical(code) not in land.areas
        assert land.resolve(code) is None
        assert land.resolve(canonical(code)) is None
        prefix = MAP_PREFIX[land.areas[owner].map_id]
        assert land.resolve(f"{prefix}:{code}") == owner
        assert code in land.areas[owner].assumption


def test_hint_3_namsos_lies_in_b2_and_c2_and_oslo_has_the_airfield() -> None:
    """1.7.3 (N:399): from Oslo's land area, C-3 then C-2 reaches Namsos, which lies in both B-2 and C-2.
    Land side: Oslo (D-10) holds the airfield the flight starts from; Namsos (D-1) is a harbour whose sea
    area is B-2, with C-2 recorded in its assumption."""
    land = load()
    oslo, namsos = land.areas["D10"], land.areas["D1"]
    assert oslo.airfield and oslo.harbour
    assert namsos.harbour
    assert namsos.sea == "B-2"
    assert "C-2" in namsos.assumption
    # Namsos is the northernmost SCN area and Oslo lies far to the south (the flight needs two steps).
    assert namsos.y == min(area.y for area in land.on(SCN).values())
    assert oslo.y - namsos.y > HEIGHT / 2


def test_hint_4_a3_b4_is_a_strategic_move_only() -> None:
    """1.7.4 (N:407): A-3 -> B-4 is one Strategic Map move. B-4 names no land area at all; A-3 only as
    Trondheim's legacy alias. No land border reaches a Strategic Map code."""
    land = load()
    for code in ("A-3", "B-4"):
        assert land.resolve(code) is None
        assert land.resolve(canonical(code)) is None
    assert land.resolve("SCN:A-3") == "D3"
    for border in land.borders:
        assert border.a in land.areas and border.b in land.areas


def test_hint_5_b3_is_the_sea_next_to_andalsnes() -> None:
    """1.7.5 (N:421): B-3 is the sea area next to Åndalsnes (D-4)."""
    andalsnes = load().areas["D4"]
    assert andalsnes.name == "Åndalsnes"
    assert andalsnes.harbour
    assert andalsnes.sea == "B-3"


def test_hint_6_harbours_are_land_areas_linked_to_the_strategic_map() -> None:
    """1.7.6 (N:335, 411): a harbour counts in both its land area and its sea area. Every Strategic Map
    harbour town on a land map (1.3) is a real land area of that map (not the fjord), and only those."""
    land = load()
    harbours = {code for code, area in land.areas.items() if area.harbour}
    assert harbours == HARBOURS
    for code in harbours:
        area = land.areas[code]
        assert not area.fjord
        assert code != FJORD
        assert land.neighbours()[code], code
    seas = {code: area.sea for code, area in land.areas.items() if area.sea}
    assert seas == KNOWN_SEA
    assert all(land.areas[code].harbour for code in seas)


def test_hint_7_ofotfjord_crossing() -> None:
    """1.7.7 (N:697): the side controlling Narvik harbour may cross Ofotfjord as if it were land, but may
    not stop there. Modelled (digest 11.34) as a pass-through node whose borders are all fjord crossings."""
    land = load()
    fjord = land.areas[FJORD]
    assert fjord.map_id == NAR and fjord.fjord and fjord.name == "Ofotfjord"
    assert fjord.vp == 0 and fjord.supply == "" and not fjord.harbour
    assert [code for code, area in land.areas.items() if area.fjord] == [FJORD]
    crossings = [border for border in land.borders if border.fjord]
    assert crossings
    for border in land.borders:
        assert border.fjord == (FJORD in (border.a, border.b)), border
    shores = {border.b if border.a == FJORD else border.a for border in crossings}
    assert {"Z3", "Z1", "Y3", "X1"} <= shores  # Narvik, Ballangen, Bjerkvik, Harstad's Evenes shore
    # The crossing is a real short cut between the two sides of the fjord ...
    with_fjord = land.neighbours()
    land_only = land.neighbours(lambda border: not border.fjord)
    assert distances(with_fjord, "Y3")["Z3"] == 2
    assert distances(land_only, "Y3")["Z3"] > 2
    assert distances(with_fjord, "X1")["Z1"] == 2
    # ... yet the side without Narvik harbour can still reach every land area on foot.
    nar_land = {code for code in land.on(NAR) if code != FJORD}
    assert set(distances(land_only, "Z3", nar_land)) == nar_land
    # Narvik harbour is German at start (Warship Group in port), so the crossing starts German.
    assert fjord.control == land.areas["Z3"].control == "axis"


def test_hint_8_namsos_and_andalsnes_open_to_the_sea() -> None:
    """1.7.8 (N:1041): Namsos (D-1) and Åndalsnes (D-4) are reached by sea from B-2 and B-3; Allied FT
    beaten there may leave by sea. Both are Allied harbours and supply sources on SCN."""
    areas = load().areas
    for code, sea in (("D1", "B-2"), ("D4", "B-3")):
        area = areas[code]
        assert area.map_id == SCN
        assert area.harbour and area.sea == sea
        assert area.supply == "allies"
        assert area.control == "allies"


def test_hint_9_namsos_traces_to_oslo_over_land() -> None:
    """1.7.9 (N:1043): the Bodø rule traces from Namsos (D-1) to Oslo (D-10) through friendly areas, so an
    SCN land path exists; it runs through Trondheim and Dombås or Østerdalen."""
    land = load()
    scn = set(land.on(SCN))
    dist = distances(land.neighbours(), "D1", scn)
    assert "D10" in dist
    assert 3 <= dist["D10"] <= 6
    # Without Trondheim no path exists: the map has one route south from the Namsos-Steinkjer pocket.
    assert "D10" not in distances(land.neighbours(), "D1", scn - {"D3"})


# --- maps, codes, aliases (1.1, 1.5, 1.6, 1.8) --------------------------------------------------------


def test_two_map_headers() -> None:
    maps = load().maps
    assert [header["id"] for header in maps] == [SCN, NAR]
    for header in maps:
        assert header["width"] == WIDTH and header["height"] == HEIGHT
        assert header["name"]


def test_area_counts_per_map() -> None:
    """1.5: 15 SCN codes. 1.6: 10 NAR codes, plus the uncoded Ofotfjord node (11.34)."""
    land = load()
    assert len(land.on(SCN)) == 15
    assert len(land.on(NAR)) == 11
    assert set(land.on(SCN)) == {canonical(code) for code in SCN_LEGACY}
    assert set(land.on(NAR)) == {canonical(code) for code in NAR_LEGACY} | {FJORD}
    assert {area.map_id for area in land.areas.values()} == {SCN, NAR}


@pytest.mark.parametrize(
    ("code", "map_id", "legacy"),
    [(code, SCN, legacy) for code, legacy in SCN_LEGACY.items()]
    + [(code, NAR, legacy) for code, legacy in NAR_LEGACY.items()],
)
def test_code_and_legacy_aliases_resolve(code: str, map_id: str, legacy: tuple[str, ...]) -> None:
    """Set-up codes are canonical (dash dropped); the dashed and map-prefixed spellings and every legacy
    code of 1.5/1.6, map-prefixed in both "SCN:A-11" and "SCN:A11" styles, resolve to the same area.
    Bare legacy codes are left to the Strategic Map (1.1: they collide with its codes)."""
    land = load()
    cid = canonical(code)
    area = land.areas[cid]
    assert area.map_id == map_id
    prefix = MAP_PREFIX[map_id]
    for spelling in (code, cid, f"{prefix}:{code}", f"{prefix}:{cid}", code.lower()):
        assert land.resolve(spelling) == cid, spelling
    assert code in area.aliases
    for old in legacy:
        for spelling in (f"{prefix}:{old}", f"{prefix}:{canonical(old)}"):
            assert spelling in area.aliases, spelling
            assert land.resolve(spelling) == cid, spelling
        assert old in area.assumption  # the legacy code is explained
        if old != code:
            assert land.resolve(old) is None, old


def test_contradictions_of_section_1_8() -> None:
    """1.8: Oslo D-10/A-11; Stavanger D-7/A-7/A-1; Norwegians E-6/E-3; Narvik Y-2/Y-3/Z-3 vs B-2/B-3/C-3."""
    land = load()
    assert land.resolve("SCN:A-11") == land.resolve("D-10") == "D10"
    assert land.resolve("SCN:A-7") == land.resolve("SCN:A-1") == land.resolve("D-7") == "D7"
    assert land.resolve("SCN:E-3") == "E6"
    assert [land.resolve(f"NAR:{code}") for code in ("B-2", "B-3", "C-3")] == ["Y2", "Y3", "Z3"]
    assert [land.resolve(f"NAR:{code}") for code in ("A-5", "B-5")] == ["X4", "X5"]
    assert land.resolve("Ballagen") is None  # the misspelling is a name, not a code
    assert land.areas["Z1"].name == "Ballangen" and "Ballagen" in land.areas["Z1"].assumption


def test_ids_and_aliases_unique() -> None:
    land = load()
    seen: dict[str, str] = {}
    for code, area in land.areas.items():
        assert len(set(area.aliases)) == len(area.aliases), code
        for name in (code, *area.aliases):
            key = name.upper().replace(" ", "")
            assert seen.setdefault(key, code) == code, f"{name} names {seen[key]} and {code}"


def test_no_bare_strategic_codes() -> None:
    """1.1: bare A-n/B-n/C-n codes belong to the Strategic Map; the land maps never claim them."""
    for code, area in load().areas.items():
        for name in (code, *area.aliases):
            assert not STRATEGIC_CODE.fullmatch(name), (code, name)


def test_no_alias_collides_with_other_norway_map_files() -> None:
    """The loader merges every TOML file of the folder and keeps one alias table for all maps, so no land
    id or alias may name an area of another Norway map file (for example the Strategic Map)."""
    mine: set[str] = set()
    for code, area in load().areas.items():
        mine |= {name.upper().replace(" ", "") for name in (code, *area.aliases)}
    others = sorted(path for path in NORWAY_DIR.glob("*.toml") if path != MAP_FILE)
    if not others:
        pytest.skip("no other Norway map file yet")
    for path in others:
        with path.open("rb") as handle:
            raw: dict[str, Any] = tomllib.load(handle)
        for row in raw.get("area", []):
            names = [str(row["id"]), *(str(alias) for alias in row.get("aliases", []))]
            for name in names:
                assert name.upper().replace(" ", "") not in mine, (path.name, name)


def test_only_known_keys() -> None:
    land = load()
    for area in land.areas.values():
        assert area.keys <= AREA_KEYS, (area.code, sorted(area.keys - AREA_KEYS))
    for border in land.borders:
        assert border.keys <= BORDER_KEYS, (border.a, border.b)


# --- names, VP, terrain, flags ---------------------------------------------------------------------------


def test_names() -> None:
    areas = load().areas
    for code, name in {**RULEBOOK_NAMES, **RECONSTRUCTED_NAMES}.items():
        assert areas[code].name == name, code
    for code in RECONSTRUCTED_NAMES:
        assert areas[code].assumption.startswith("Reconstructed"), code
    names = [area.name for area in areas.values()]
    assert len(set(names)) == len(names)


def test_every_area_has_an_assumption() -> None:
    for area in load().areas.values():
        assert len(area.assumption) > 40, area.code


def test_no_area_vp_printed() -> None:
    """9.2 / 11.2: the text prints no area values; default 0."""
    for area in load().areas.values():
        assert area.vp == 0, area.code
        assert "9.2" in area.assumption, area.code


def test_terrain_and_flags() -> None:
    for area in load().areas.values():
        assert area.terrain == "plain", area.code
        assert set(area.flags) <= ALLOWED_FLAGS
        assert area.flags == (), area.code


# --- supply (7.2), control (2.2, 2.3), airfields and rail (1.4, 7.6) -------------------------------------


@pytest.mark.parametrize("map_id", [SCN, NAR])
def test_supply_sources(map_id: str) -> None:
    """7.2: Oslo for the Germans on SCN; Namsos, Åndalsnes (SCN) and Harstad, Ballangen (NAR) for the
    Allies. German supply on NAR is a die roll, so no NAR area is a German source."""
    areas = load().on(map_id)
    assert {code for code, area in areas.items() if area.supply == "allies"} == ALLIED_SUPPLY[map_id]
    assert {code for code, area in areas.items() if area.supply == "axis"} == AXIS_SUPPLY[map_id]
    assert {area.supply for area in areas.values()} <= {"", "allies", "axis"}


def test_narvik_german_supply_roll_recorded() -> None:
    narvik = load().areas["Z3"]
    assert narvik.supply == ""
    assert "d6" in narvik.assumption and "supply" in narvik.assumption


def test_initial_control_scn() -> None:
    """2.2: German start units make D-3, D-6, D-7, D-8, D-10 German; every other SCN area (Norwegian start
    areas, Namsos, Åndalsnes, Dombås) starts Allied by the digest suggestion."""
    areas = load().on(SCN)
    assert {code for code, area in areas.items() if area.control == "axis"} == SCN_GERMAN_START
    assert {code for code, area in areas.items() if area.control == "allies"} == set(areas) - SCN_GERMAN_START
    assert SCN_NORWEGIAN_START | {"D1", "D4", "E1"} == set(areas) - SCN_GERMAN_START
    for code in set(areas) - SCN_GERMAN_START - SCN_NORWEGIAN_START:
        assert "suggestion" in areas[code].assumption, code


def test_initial_control_nar() -> None:
    """2.3: Y-2, Y-3, Y-4, Z-3, Z-4, Z-5 are German; the Norwegian areas X-4, X-5 and the landing sites
    Harstad, Ballangen start Allied (suggestion)."""
    areas = load().on(NAR)
    coded = {code: area for code, area in areas.items() if code != FJORD}
    assert {code for code, area in coded.items() if area.control == "axis"} == NAR_GERMAN_START
    assert {code for code, area in coded.items() if area.control == "allies"} == NAR_NORWEGIAN_START | {
        "X1",
        "Z1",
    }
    for code in ("X1", "Z1"):
        assert "suggestion" in coded[code].assumption, code


def test_airfields() -> None:
    """1.4: Oslo, Sola (Stavanger) and Trondheim airfields; Bodø is off the land maps."""
    areas = load().areas
    assert {code for code, area in areas.items() if area.airfield} == AIRFIELDS
    assert all(areas[code].map_id == SCN for code in AIRFIELDS)


def test_rail_network_reaches_oslo() -> None:
    """7.6: rail areas form one network through Oslo; Stavanger (Sola) had no 1940 rail link to Oslo."""
    land = load()
    rail = {code for code, area in land.areas.items() if area.rail}
    assert "D10" in rail
    assert "D7" not in rail
    assert rail <= set(land.on(SCN))
    assert set(distances(land.neighbours(), "D10", rail)) == rail
    assert {"D3", "D1", "D4", "D6", "D8"} <= rail


# --- coordinates -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("map_id", [SCN, NAR])
def test_coordinates_inside_box_unique_and_spaced(map_id: str) -> None:
    areas = list(load().on(map_id).values())
    for area in areas:
        assert 0 <= area.x <= WIDTH and 0 <= area.y <= HEIGHT, area.code
    assert len({(area.x, area.y) for area in areas}) == len(areas)
    for first, second in itertools.combinations(areas, 2):
        gap = math.dist((first.x, first.y), (second.x, second.y))
        assert gap >= MIN_SPACING, (first.code, second.code, gap)


def test_compass_directions() -> None:
    """North at the top: Namsos north of Trondheim north of Dombås north of Oslo; Bergen and Stavanger in
    the west; Harstad north-west of Narvik; Ballangen south-west; the Norwegian areas north."""
    a = load().areas
    assert a["D1"].y < a["D3"].y < a["E1"].y < a["D10"].y
    assert a["D6"].x < a["D4"].x < a["D10"].x and a["D7"].x < a["D8"].x < a["D10"].x
    assert a["X1"].x < a["Z3"].x and a["X1"].y < a["Z3"].y
    assert a["Z1"].x < a["Z3"].x and a["Z1"].y > a["Z3"].y
    assert max(a["X4"].y, a["X5"].y) < a["Y2"].y < a["Y3"].y < a["Z3"].y


# --- borders ---------------------------------------------------------------------------------------------


def test_borders_unique_symmetric_and_explained() -> None:
    land = load()
    seen: set[frozenset[str]] = set()
    for border in land.borders:
        assert border.a in land.areas and border.b in land.areas, border
        assert border.a != border.b
        pair = frozenset((border.a, border.b))
        assert pair not in seen, f"duplicate border {sorted(pair)}"
        seen.add(pair)
        assert border.river == ""
        assert border.assumption, border
    adj = land.neighbours()
    for here, theirs in adj.items():
        for there in theirs:
            assert here in adj[there]


def test_borders_never_cross_maps() -> None:
    land = load()
    for border in land.borders:
        assert land.areas[border.a].map_id == land.areas[border.b].map_id, border


@pytest.mark.parametrize(("map_id", "start"), [(SCN, "D10"), (NAR, "Z3")])
def test_each_map_connected(map_id: str, start: str) -> None:
    land = load()
    areas = set(land.on(map_id))
    assert set(distances(land.neighbours(), start, areas)) == areas


@pytest.mark.parametrize("map_id", [SCN, NAR])
def test_drawing_is_planar(map_id: str) -> None:
    """Straight lines between neighbouring centres never cross: the graph can be drawn as a map."""
    land = load()
    areas = land.areas
    borders = [b for b in land.borders if areas[b.a].map_id == map_id]
    for first, second in itertools.combinations(borders, 2):
        if len({first.a, first.b, second.a, second.b}) < 4:
            continue
        p, q, r, s = areas[first.a], areas[first.b], areas[second.a], areas[second.b]
        crosses = _ccw(p, q, r) * _ccw(p, q, s) < 0 and _ccw(r, s, p) * _ccw(r, s, q) < 0
        assert not crosses, (first.a, first.b, second.a, second.b)


def test_degrees_plausible() -> None:
    """Every area has 2-6 neighbours, except Namsos: the map ends north of it, so its one land exit is
    Namdalen towards Steinkjer (cutting it there isolates the port, as in 1940)."""
    for code, theirs in load().neighbours().items():
        if code == "D1":
            assert theirs == {"D2"}
        else:
            assert 2 <= len(theirs) <= 6, (code, sorted(theirs))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("D1", "D2"),  # Namsos - Steinkjer
        ("D2", "D3"),  # Steinkjer - Trondheim
        ("D3", "E1"),  # Trondheim - Dombås (Dovre line)
        ("D4", "E1"),  # Åndalsnes - Dombås (Romsdalen)
        ("E1", "E7"),  # Dombås - Gudbrandsdalen
        ("E7", "D10"),  # Gudbrandsdalen - Oslo
        ("E8", "D10"),  # Østerdalen - Oslo
        ("E8", "D3"),  # Østerdalen - Trondheim (Røros line)
        ("D10", "D9"),  # Oslo - Kongsberg
        ("D6", "D5"),  # Bergen - Voss
        ("X1", "Y3"),  # Harstad's Bogen shore - Bjerkvik
        ("Y2", "Y3"),  # Gratangen - Bjerkvik
        ("Z3", "Z4"),  # Narvik - Beisfjord/Ankenes
        ("Z1", "Z4"),  # Ballangen - Ankenes round Skjomen
    ],
)
def test_geographic_border(a: str, b: str) -> None:
    assert load().pair(a, b) is not None, f"{a}-{b} missing"


def test_dombas_blocks_the_road_from_andalsnes() -> None:
    """T1 narrative (N:1010): the Dombås drop blocked the rail and road net; Åndalsnes reaches Oslo only
    through Dombås or along the coast, never directly."""
    land = load()
    adj = land.neighbours()
    assert "D10" not in adj["D4"]
    assert distances(adj, "D4")["D10"] >= 3
