"""Checks the reconstructed Firestorm: Lorraine map against the hints in the rules digest."""

from __future__ import annotations

import itertools
import math
import tomllib
from collections import deque
from pathlib import Path
from typing import Any

import pytest

MAP_PATH = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "lorraine" / "map.toml"

NAMED_VP: dict[str, tuple[str, int]] = {
    "A3": ("Luxembourg", 50),
    "B2": ("Verdun", 80),
    "B3": ("Mairy", 10),
    "B5": ("Metz", 70),
    "C1": ("Bar-le-Duc", 30),
    "C4": ("Arracourt", 20),
    "D4": ("Nancy", 50),
    "D7": ("Strasbourg", 80),
    "E3": ("Dompaire", 20),
    "E4": ("Épinal", 20),
}
ALLIED_START = {"A1", "A2", "B1", "B2", "B3", "B4", "C1", "C2", "C3", "D2", "D3"}
GERMAN_START = {"A3", "A4", "B5", "C4", "D4", "D5", "D6", "D7", "E3", "E4"}
# The 21 codes the rule text mentions are exactly the two start lists above.
RULEBOOK_CODES = ALLIED_START | GERMAN_START
MOSELLE_EAST = {"A4", "B5", "C4", "D4", "D5"}
DEPOTS = {"allies": {"A1", "B1", "C1"}, "axis": {"D7", "E4"}}
# Areas where the turn 1 set-up places troops (digest section 2).
DEPLOYED = {
    "allies": {"A2", "B2", "B3", "B4", "C2", "C3", "D2", "D3"},
    "axis": {"A3", "A4", "B5", "C4", "D4", "D5", "E3"},
}


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    with MAP_PATH.open("rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def areas(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in data["area"]}


@pytest.fixture(scope="module")
def rivers(data: dict[str, Any]) -> dict[frozenset[str], str]:
    return {frozenset((b["a"], b["b"])): b["river"] for b in data["border"]}


@pytest.fixture(scope="module")
def adjacency(data: dict[str, Any], areas: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {code: set() for code in areas}
    for b in data["border"]:
        adj[b["a"]].add(b["b"])
        adj[b["b"]].add(b["a"])
    return adj


def reachable(start: set[str], adj: dict[str, set[str]], allowed: set[str]) -> set[str]:
    seen = set(start) & allowed
    queue = deque(seen)
    while queue:
        cur = queue.popleft()
        for nxt in adj[cur]:
            if nxt in allowed and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def side_of(areas: dict[str, dict[str, Any]], side: str) -> set[str]:
    return {code for code, a in areas.items() if a["control"] == side}


def test_map_header(data: dict[str, Any]) -> None:
    (m,) = data["map"]
    assert m["id"] == "lorraine"
    assert (m["width"], m["height"]) == (1000, 700)


def test_area_count_and_codes(data: dict[str, Any], areas: dict[str, dict[str, Any]]) -> None:
    assert len(data["area"]) == 34
    assert len(areas) == 34
    assert set(areas) >= RULEBOOK_CODES
    for code, a in areas.items():
        assert code[0] in "ABCDEF" and code[1:].isdigit(), code
        assert a["aliases"] == [f"{code[0]}-{code[1:]}"]
        assert a["map"] == "lorraine"
        assert a["terrain"] == "plain"
        assert a["name"], code
        assert set(a["flags"]) <= {"beach", "fortified", "moselle_east"}
        if code not in NAMED_VP:
            assert a["assumption"], code


def test_victory_points(areas: dict[str, dict[str, Any]]) -> None:
    assert sum(a["vp"] for a in areas.values()) == 430
    for code, (name, vp) in NAMED_VP.items():
        assert areas[code]["name"] == name
        assert areas[code]["vp"] == vp
    assert all(a["vp"] == 0 for code, a in areas.items() if code not in NAMED_VP)


def test_flags(areas: dict[str, dict[str, Any]]) -> None:
    fortified = {code for code, a in areas.items() if "fortified" in a["flags"]}
    assert fortified == {"B5"}
    east = {code for code, a in areas.items() if "moselle_east" in a["flags"]}
    assert east >= MOSELLE_EAST


def test_borders_well_formed(data: dict[str, Any], areas: dict[str, dict[str, Any]]) -> None:
    seen: set[frozenset[str]] = set()
    for b in data["border"]:
        assert b["a"] in areas and b["b"] in areas, b
        assert b["a"] != b["b"], b
        pair = frozenset((b["a"], b["b"]))
        assert pair not in seen, f"duplicate border {sorted(pair)}"
        seen.add(pair)
        assert b["river"] in {"", "Moselle"}
        assert b["assumption"]


def test_graph_symmetric_connected_and_degrees(adjacency: dict[str, set[str]]) -> None:
    for code, neighbours in adjacency.items():
        for n in neighbours:
            assert code in adjacency[n]
        assert 3 <= len(neighbours) <= 6, (code, len(neighbours))
    assert reachable({"A1"}, adjacency, set(adjacency)) == set(adjacency)


def test_moselle_borders_follow_default(
    areas: dict[str, dict[str, Any]], rivers: dict[frozenset[str], str]
) -> None:
    west = side_of(areas, "allies")
    for pair, river in rivers.items():
        a, b = sorted(pair)
        crossing = bool(pair & MOSELLE_EAST) and bool(pair & west) and "A3" not in pair
        assert river == ("Moselle" if crossing else ""), (a, b)


def test_east_bank_areas_attackable_across_moselle(
    areas: dict[str, dict[str, Any]], adjacency: dict[str, set[str]], rivers: dict[frozenset[str], str]
) -> None:
    allied = side_of(areas, "allies")
    for code in ("A4", "C4", "D4", "D5", "B5"):
        across = {n for n in adjacency[code] if n in allied and rivers[frozenset((code, n))] == "Moselle"}
        assert across, code
    assert rivers[frozenset(("C3", "C4"))] == "Moselle"
    assert areas["C3"]["control"] == "allies"


def test_metz_bordered_from_all_sides(
    areas: dict[str, dict[str, Any]], adjacency: dict[str, set[str]]
) -> None:
    metz = areas["B5"]
    neighbours = adjacency["B5"]
    assert len(neighbours) >= 5
    dx = [areas[n]["x"] - metz["x"] for n in neighbours]
    dy = [areas[n]["y"] - metz["y"] for n in neighbours]
    assert min(dx) < 0 < max(dx)
    assert min(dy) < 0 < max(dy)


def test_luxembourg_attackable_without_moselle(
    areas: dict[str, dict[str, Any]], adjacency: dict[str, set[str]], rivers: dict[frozenset[str], str]
) -> None:
    assert "moselle_east" not in areas["A3"]["flags"]
    dry = {
        n for n in adjacency["A3"] if areas[n]["control"] == "allies" and rivers[frozenset(("A3", n))] == ""
    }
    assert dry


def test_dompaire_borders_allied_area(
    areas: dict[str, dict[str, Any]], adjacency: dict[str, set[str]]
) -> None:
    assert any(areas[n]["control"] == "allies" for n in adjacency["E3"])


def test_reinforcement_and_panther_areas(areas: dict[str, dict[str, Any]]) -> None:
    assert areas["D2"]["control"] == "allies"
    for code in ("D5", "D6", "E3", "E4"):
        assert areas[code]["control"] == "axis"


def test_depots(areas: dict[str, dict[str, Any]]) -> None:
    for side, codes in DEPOTS.items():
        assert {code for code, a in areas.items() if a["supply"] == side} == codes
        for code in codes:
            assert areas[code]["control"] == side
    assert all(a["supply"] in {"", "allies", "axis"} for a in areas.values())


def test_initial_control(areas: dict[str, dict[str, Any]]) -> None:
    assert all(a["control"] in {"allies", "axis"} for a in areas.values())
    assert side_of(areas, "allies") >= ALLIED_START
    assert side_of(areas, "axis") >= GERMAN_START
    for side, codes in DEPLOYED.items():
        assert side_of(areas, side) >= codes
    allied_vp = sum(a["vp"] for a in areas.values() if a["control"] == "allies")
    assert allied_vp == 120


@pytest.mark.parametrize("side", ["allies", "axis"])
def test_everything_in_supply_at_start(
    side: str, areas: dict[str, dict[str, Any]], adjacency: dict[str, set[str]]
) -> None:
    own = side_of(areas, side)
    assert reachable(DEPOTS[side], adjacency, own) == own


def test_coordinates(areas: dict[str, dict[str, Any]]) -> None:
    points = {code: (a["x"], a["y"]) for code, a in areas.items()}
    assert len(set(points.values())) == len(points)
    for x, y in points.values():
        assert 0 <= x <= 1000 and 0 <= y <= 700
    for (c1, p1), (c2, p2) in itertools.combinations(points.items(), 2):
        assert math.dist(p1, p2) >= 65, (c1, c2)


def test_layout_rows_and_columns(areas: dict[str, dict[str, Any]]) -> None:
    # Letter = row from north, number = column from west, within each row and column.
    for c1, c2 in itertools.permutations(areas, 2):
        a, b = areas[c1], areas[c2]
        if c1[0] == c2[0] and int(c1[1:]) < int(c2[1:]):
            assert a["x"] < b["x"], (c1, c2)
        if c1[1:] == c2[1:] and c1[0] < c2[0]:
            assert a["y"] < b["y"], (c1, c2)
