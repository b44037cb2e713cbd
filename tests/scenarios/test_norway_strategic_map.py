"""Checks the reconstructed Firestorm: Norway 1940 Strategic Map against every hint in the rules digest.

Sources: shared/rules/firestorm-norway.md sections 1.2 (coded areas), 1.3 (harbour towns), 1.4 (airfields),
1.7 (adjacency hints), 2.1 (set-up), 6.2 and 6.10-6.11 (movement, sea lanes, harbours), 7.6 (airfields, Bodø).
Aircraft range is counted over the coded areas (sea, land, airfield); harbours and uncoded airfields are
locations inside them: a harbour counts as being in both its sea area and its land area (N:411).
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

DATA_DIR = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "norway"
MAP_FILE = DATA_DIR / "map-strategic.toml"
LAND_FILE = DATA_DIR / "map-land.toml"

MAP_ID = "strategic"
WIDTH = 1000
HEIGHT = 700
MIN_SPACING = 40.0
SIDES = frozenset({"allies", "axis"})
KINDS = frozenset({"sea", "land", "airfield", "harbour", "home_port"})
BORDER_KINDS = frozenset({"sea", "coast", "land", "port", "town", "base"})

# Section 1.2: the 17 codes the text mentions, with the kind the digest gives or presumes.
SEA_CODES = frozenset({"A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "B5", "C6"})
LAND_CODES: dict[str, str] = {
    "A5": "airfield", "A6": "home_port", "B6": "airfield", "B7": "airfield",
    "C1": "airfield", "C2": "land", "C3": "land",
}  # fmt: skip
SECTION_1_2_CODES = SEA_CODES | frozenset(LAND_CODES)

# Section 1.3: the 14 harbour towns -> defence value. Namsos 1 is printed (N:399); the other Norwegian
# harbours take that value as the default, home ports add no defence dice (air attack only).
NORWEGIAN_HARBOURS: dict[str, int] = {
    "Narvik": 1, "Bodø": 1, "Namsos": 1, "Trondheim": 1, "Åndalsnes": 1,
    "Bergen": 1, "Stavanger": 1, "Kristiansand": 1,
}  # fmt: skip
HOME_PORTS: dict[str, str] = {
    "Wilhelmshaven": "axis", "Kiel": "axis", "Oslo": "axis",
    "Clyde": "allies", "Rosyth": "allies", "Scapa Flow": "allies",
}  # fmt: skip
HARBOUR_NAMES = frozenset(NORWEGIAN_HARBOURS) | frozenset(HOME_PORTS)

# Section 1.3 "Linked land area" column: harbour -> (land-map area, land map id in map-land.toml).
LAND_LINKS: dict[str, tuple[str, str]] = {
    "Narvik": ("Z3", "narvik"), "Namsos": ("D1", "south-central"), "Trondheim": ("D3", "south-central"),
    "Åndalsnes": ("D4", "south-central"), "Bergen": ("D6", "south-central"),
    "Stavanger": ("D7", "south-central"), "Kristiansand": ("D8", "south-central"),
    "Oslo": ("D10", "south-central"),
}  # fmt: skip

# Section 6.10: the Allied sea-lane ports and their sea areas.
SEA_LANES: dict[str, str] = {"Narvik": "B1", "Namsos": "B2", "Åndalsnes": "B3"}


@dataclass(frozen=True)
class Airfield:
    side: str
    capacity: int | None  # None: unlimited
    from_turn: int | None  # None: from the start


# Section 1.4 / 7.6: airfields by name.
AIRFIELDS: dict[str, Airfield] = {
    "United Kingdom": Airfield("allies", None, None),
    "Germany": Airfield("axis", None, None),
    "Denmark": Airfield("axis", None, 2),
    "Northern Norway (Bardufoss)": Airfield("allies", 4, None),
    "Oslo airfield (Fornebu)": Airfield("axis", 4, 2),
    "Sola (Stavanger airfield)": Airfield("axis", 4, 2),
    "Trondheim airfield": Airfield("axis", 4, 2),
    "Bodø airfield": Airfield("axis", 4, 2),
}
AIRFIELD_CODES: dict[str, str] = {"United Kingdom": "A5", "Germany": "B7", "Denmark": "B6"}
HALVED_AIRFIELDS = frozenset({"Sola (Stavanger airfield)", "Trondheim airfield", "Bodø airfield"})


@dataclass(frozen=True)
class Area:
    code: str
    aliases: tuple[str, ...]
    name: str
    map_id: str
    kind: str
    x: int
    y: int
    control: str
    assumption: str
    raw: dict[str, Any]

    @property
    def is_passage(self) -> bool:
        """A coded area that aircraft fly through (not a harbour or an airfield inside a land area)."""
        return self.kind in {"sea", "land", "airfield"} and "region" not in self.raw


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: str
    assumption: str


@cache
def raw_map() -> dict[str, Any]:
    with MAP_FILE.open("rb") as fh:
        return tomllib.load(fh)


@cache
def areas() -> dict[str, Area]:
    result: dict[str, Area] = {}
    for row in raw_map()["area"]:
        area = Area(
            code=str(row["id"]),
            aliases=tuple(str(s) for s in row["aliases"]),
            name=str(row["name"]),
            map_id=str(row["map"]),
            kind=str(row["kind"]),
            x=int(row["x"]),
            y=int(row["y"]),
            control=str(row["control"]),
            assumption=str(row.get("assumption", "")),
            raw=dict(row),
        )
        assert area.code not in result, f"duplicate area {area.code}"
        result[area.code] = area
    return result


@cache
def borders() -> tuple[Border, ...]:
    return tuple(
        Border(str(r["a"]), str(r["b"]), str(r["kind"]), str(r.get("assumption", "")))
        for r in raw_map()["border"]
    )


def by_name(name: str) -> Area:
    found = [a for a in areas().values() if a.name == name]
    assert len(found) == 1, f"expected one area named {name!r}, found {len(found)}"
    return found[0]


def neighbours(kinds: Iterable[str]) -> dict[str, set[str]]:
    wanted = frozenset(kinds)
    adj: dict[str, set[str]] = {code: set() for code in areas()}
    for b in borders():
        if b.kind in wanted:
            adj[b.a].add(b.b)
            adj[b.b].add(b.a)
    return adj


def air_distances(start: str) -> dict[str, int]:
    """Areas entered from `start` over the coded areas (the start area does not count, N:343)."""
    passage = {c for c, a in areas().items() if a.is_passage}
    adj = neighbours({"sea", "coast", "land"})
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in sorted(adj[here] & passage):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def base_area(location: Area) -> str:
    """The coded area an airfield belongs to (itself, or its land area, N:302)."""
    return str(location.raw.get("region", location.code))


def range_to_harbour(start: str, harbour: Area) -> int:
    """A harbour counts as being in both its land and its sea area for aircraft range (N:411)."""
    dist = air_distances(start)
    return min(dist[str(harbour.raw["sea"])], dist[str(harbour.raw["region"])])


def ship_path_exists(path: list[str]) -> bool:
    adj = neighbours({"sea", "port"})
    return all(b in adj[a] for a, b in itertools.pairwise(path))


# ---------------------------------------------------------------- section 1.7 hints
def test_hint_1_a1_b1_narvik_is_a_surface_move() -> None:
    """1.7.1: A-1 -> B-1 -> Narvik harbour is a legal surface move; B-1 is next to Narvik (N:339, 1145)."""
    narvik = by_name("Narvik")
    assert narvik.raw["sea"] == "B1"
    assert ship_path_exists(["A1", "B1", narvik.code])
    assert areas()["A1"].kind == areas()["B1"].kind == "sea"


def test_hint_2_b7_b5_a3_is_a_two_area_flight() -> None:
    """1.7.2: B-7 -> B-5 -> A-3 is a 2-area flight; the start area does not count (N:343)."""
    dist = air_distances("B7")
    assert dist["B5"] == 1
    assert dist["A3"] == 2
    assert air_distances("B5")["A3"] == 1


def test_hint_3_oslo_c3_c2_reaches_namsos_but_not_b2() -> None:
    """1.7.3: from Oslo's land area C-3 then C-2 is 2 areas; B-2 needs a third; Namsos is in B-2 and C-2."""
    oslo_field = by_name("Oslo airfield (Fornebu)")
    oslo_area = base_area(oslo_field)
    assert oslo_area == by_name("Oslo").raw["region"]
    assert oslo_area not in {"C2", "C3"}
    dist = air_distances(oslo_area)
    assert dist["C3"] == 1
    assert dist["C2"] == 2
    assert dist["B2"] == 3
    namsos = by_name("Namsos")
    assert (namsos.raw["sea"], namsos.raw["region"]) == ("B2", "C2")
    assert range_to_harbour(oslo_area, namsos) == 2  # range 2 is enough for the bombing example


def test_hint_4_a3_b4_is_one_move() -> None:
    """1.7.4: A-3 -> B-4 is one move (submarine example, N:407)."""
    assert "B4" in neighbours({"sea"})["A3"]


def test_hint_5_b3_is_next_to_andalsnes() -> None:
    """1.7.5: B-3 is the sea area next to Åndalsnes (N:421)."""
    andalsnes = by_name("Åndalsnes")
    assert andalsnes.raw["sea"] == "B3"
    assert andalsnes.code in neighbours({"port"})["B3"]


@pytest.mark.parametrize("name", sorted(HARBOUR_NAMES))
def test_hint_6_harbour_is_in_its_land_and_sea_area(name: str) -> None:
    """1.7.6: a harbour counts as being in both its land area and its sea area (N:335, 411)."""
    harbour = by_name(name)
    sea, region = str(harbour.raw["sea"]), str(harbour.raw["region"])
    assert sea in neighbours({"port"})[harbour.code]
    assert region in neighbours({"town"})[harbour.code]
    assert region in neighbours({"coast"})[sea], f"{name}: land area {region} must touch sea area {sea}"
    assert range_to_harbour(region, harbour) == 0
    assert range_to_harbour(sea, harbour) == 0


@pytest.mark.parametrize(("name", "sea"), [("Namsos", "B2"), ("Åndalsnes", "B3")])
def test_hint_8_landing_ports_reachable_by_sea(name: str, sea: str) -> None:
    """1.7.8: Namsos and Åndalsnes are reachable by sea from B-2 and B-3 (N:1041).

    Hints 1.7.7 (Ofotfjord) and 1.7.9 (SCN path D-1 to D-10) concern the land maps.
    """
    harbour = by_name(name)
    assert harbour.raw["sea"] == sea
    assert ship_path_exists([sea, harbour.code])


# ---------------------------------------------------------------- other digest facts
@pytest.mark.parametrize(("name", "sea"), sorted(SEA_LANES.items()))
def test_sea_lane_ports(name: str, sea: str) -> None:
    """6.10: Åndalsnes - B-3, Namsos - B-2, Narvik - B-1 (also the T4 withdrawal, N:1145)."""
    assert by_name(name).raw["sea"] == sea


def test_rosyth_is_a6() -> None:
    """1.2 / 2.1: 'Rosyth A-6' (N:900)."""
    assert areas()["A6"].name == "Rosyth"


@pytest.mark.parametrize("code", sorted(SECTION_1_2_CODES))
def test_section_1_2_code_present_with_alias(code: str) -> None:
    area = areas()[code]
    assert f"{code[0]}-{code[1:]}" in area.aliases
    assert area.map_id == MAP_ID
    expected = "sea" if code in SEA_CODES else LAND_CODES[code]
    assert area.kind == expected


def test_sea_areas_are_plain_without_flags_or_vp() -> None:
    for area in areas().values():
        if area.kind == "sea":
            assert area.raw["terrain"] == "plain"
            assert area.raw["flags"] == []
            assert area.raw["vp"] == 0
            assert area.control in SIDES
            assert "Placeholder control" in area.assumption
    assert {a.code for a in areas().values() if a.kind == "sea"} == SEA_CODES


def test_fourteen_harbour_towns() -> None:
    found = {a.name for a in areas().values() if a.kind in {"harbour", "home_port"}}
    assert found == HARBOUR_NAMES
    assert len(found) == 14


@pytest.mark.parametrize(("name", "defence"), sorted(NORWEGIAN_HARBOURS.items()))
def test_norwegian_harbour_defence(name: str, defence: int) -> None:
    harbour = by_name(name)
    assert harbour.kind == "harbour"
    assert harbour.raw["defence"] == defence


def test_namsos_defence_is_one() -> None:
    """1.3: the only printed value (N:399)."""
    assert by_name("Namsos").raw["defence"] == 1


@pytest.mark.parametrize(("name", "side"), sorted(HOME_PORTS.items()))
def test_home_ports_with_sides(name: str, side: str) -> None:
    port = by_name(name)
    assert port.kind == "home_port"
    assert port.raw["side"] == side
    assert port.control == side
    assert port.raw["defence"] == 0


@pytest.mark.parametrize("name", sorted(HARBOUR_NAMES))
def test_harbour_linked_to_existing_sea_and_land_area(name: str) -> None:
    harbour = by_name(name)
    assert areas()[str(harbour.raw["sea"])].kind == "sea"
    assert areas()[str(harbour.raw["region"])].kind in {"land", "airfield"}
    assert areas()[str(harbour.raw["region"])].is_passage


@pytest.mark.parametrize(("name", "link"), sorted(LAND_LINKS.items()))
def test_harbour_land_map_link(name: str, link: tuple[str, str]) -> None:
    harbour = by_name(name)
    assert (harbour.raw["land"], harbour.raw["land_map"]) == link


def test_land_links_exist_in_land_map() -> None:
    if not LAND_FILE.is_file():
        pytest.skip("map-land.toml not written yet")
    with LAND_FILE.open("rb") as fh:
        land = tomllib.load(fh)
    land_areas = {str(r["id"]): str(r["map"]) for r in land.get("area", [])}
    for area in areas().values():
        if "land" in area.raw:
            code, map_id = str(area.raw["land"]), str(area.raw["land_map"])
            assert land_areas.get(code) == map_id, f"{area.code}: {code} not on land map {map_id}"


@pytest.mark.parametrize(("name", "spec"), sorted(AIRFIELDS.items()))
def test_airfields(name: str, spec: Airfield) -> None:
    field = by_name(name)
    assert field.kind == "airfield"
    assert field.raw["side"] == spec.side
    assert field.raw.get("capacity") == spec.capacity
    assert field.raw.get("from_turn") == spec.from_turn
    if name in AIRFIELD_CODES:
        assert field.code == AIRFIELD_CODES[name]
    assert areas()[base_area(field)].is_passage


def test_airfield_special_limits() -> None:
    """7.6: limit halved to 2 without rail supply to Oslo; Bodø only under its rule; C-1 1 Allied aircraft."""
    for name in HALVED_AIRFIELDS:
        assert by_name(name).raw["capacity_unsupplied"] == 2
    assert "capacity_unsupplied" not in by_name("Oslo airfield (Fornebu)").raw
    assert by_name("Bodø airfield").raw["condition"] == "bodo"
    assert areas()["C1"].raw["allied_limit"] == 1
    assert {a.name for a in areas().values() if a.kind == "airfield"} == set(AIRFIELDS)


def test_home_airfields_always_in_supply() -> None:
    assert areas()["A5"].raw["supply"] == "allies"
    assert areas()["B7"].raw["supply"] == "axis"


# ---------------------------------------------------------------- structure
def test_single_map_box() -> None:
    maps = raw_map()["map"]
    assert len(maps) == 1
    assert (maps[0]["id"], maps[0]["width"], maps[0]["height"]) == (MAP_ID, WIDTH, HEIGHT)


def test_every_area_has_kind_and_assumption() -> None:
    for area in areas().values():
        assert area.kind in KINDS
        assert area.control in SIDES
        assert area.assumption, f"{area.code} needs an assumption"


def test_aliases_unique() -> None:
    seen: dict[str, str] = {}
    for area in areas().values():
        for name in (area.code, *area.aliases):
            key = name.upper().replace(" ", "")
            assert seen.setdefault(key, area.code) == area.code, f"{name} names two areas"


def test_borders_valid_symmetric_no_duplicates() -> None:
    seen: set[frozenset[str]] = set()
    for b in borders():
        assert b.a in areas() and b.b in areas(), b
        assert b.a != b.b
        pair = frozenset({b.a, b.b})
        assert pair not in seen, f"duplicate border {b.a}-{b.b}"
        seen.add(pair)
        assert b.kind in BORDER_KINDS
        assert b.assumption
    adj = neighbours(BORDER_KINDS)
    for a, nbrs in adj.items():
        for n in nbrs:
            assert a in adj[n]


def test_border_kinds_match_area_kinds() -> None:
    for b in borders():
        x, y = areas()[b.a], areas()[b.b]
        kinds = {x.kind, y.kind}
        if b.kind == "sea":
            assert kinds == {"sea"}
        elif b.kind == "coast":
            assert "sea" in kinds and x.is_passage and y.is_passage and kinds != {"sea"}
        elif b.kind == "land":
            assert "sea" not in kinds and x.is_passage and y.is_passage
        elif b.kind == "port":
            place = x if x.kind != "sea" else y
            sea = y if place is x else x
            assert place.raw["sea"] == sea.code
        elif b.kind == "town":
            place = x if "region" in x.raw else y
            other = y if place is x else x
            assert place.kind in {"harbour", "home_port"} and place.raw["region"] == other.code
        else:
            place = x if "region" in x.raw else y
            other = y if place is x else x
            assert place.kind == "airfield" and place.raw["region"] == other.code


def test_connected() -> None:
    adj = neighbours(BORDER_KINDS)
    start = next(iter(adj))
    seen = {start}
    todo = deque([start])
    while todo:
        for n in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(areas())


def test_sea_graph_connected() -> None:
    """Ships can reach every sea area and every harbour from every other one."""
    adj = neighbours({"sea", "port"})
    ship_places = {c for c, a in areas().items() if a.kind in {"sea", "harbour", "home_port"}}
    seen = {"A1"}
    todo = deque(["A1"])
    while todo:
        for n in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == ship_places


def test_coordinates_unique_inside_box_and_spaced() -> None:
    pts = {c: (a.x, a.y) for c, a in areas().items()}
    for x, y in pts.values():
        assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT
    assert len(set(pts.values())) == len(pts)
    for (c1, p1), (c2, p2) in itertools.combinations(pts.items(), 2):
        assert math.dist(p1, p2) >= MIN_SPACING, f"{c1} and {c2} are too close"


def test_geography_north_at_top() -> None:
    """Britain west, Norway east, Germany and Denmark south; the sea lane runs north to south."""
    a = areas()
    assert a["A5"].x < by_name("Bergen").x < by_name("Narvik").x
    assert a["B1"].y < a["B2"].y < a["B3"].y < a["B4"].y < a["B5"].y < a["B6"].y < a["B7"].y
    assert a["C1"].y < a["C2"].y < a["C3"].y
    assert a["A1"].y < a["A2"].y < a["A3"].y < a["A4"].y
