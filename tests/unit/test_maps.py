"""Map data: land maps and Norway's Strategic Map read into the model (rulesets/firestorm/maps.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warroom.core.schema import Reader
from warroom.rulesets.firestorm import read_tree as read_toml_tree
from warroom.rulesets.firestorm.counters import CounterDef, parse_counters
from warroom.rulesets.firestorm.maps import MapSet, parse_maps

NORWAY = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "norway"
SIDES = ("allies", "axis")


def read(folder: Path) -> tuple[MapSet, list[str]]:
    data, where = read_toml_tree(folder)
    problems: list[str] = []
    return parse_maps(Reader(where, data, problems), SIDES, problems, where), problems


def norway_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "norway"
    shutil.copytree(NORWAY, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def test_norway_maps_load_without_problems() -> None:
    maps, problems = read(NORWAY)
    assert problems == []
    assert {m["id"]: m["kind"] for m in maps.maps.values()} == {
        "south-central": "land", "narvik": "land", "strategic": "strategic"}
    assert sum(1 for a in maps.areas.values() if a.map == "south-central") == 15
    assert sum(1 for a in maps.areas.values() if a.map == "narvik") == 11  # ten areas and Ofotfjord
    assert not set(maps.areas) & set(maps.strat_areas), "land areas and strategic locations are kept apart"


def test_harbours_link_land_and_sea() -> None:
    maps, _ = read(NORWAY)
    narvik = maps.strat_areas["narvik_harbour"]
    assert (narvik.kind, narvik.sea, narvik.land, narvik.land_map, narvik.defence) == (
        "harbour", "B1", "Z3", "narvik", 1)
    assert maps.areas["Z3"].sea == "B1", "the land side's 'B-1' is resolved to the canonical sea id"
    assert {"harbour", "airfield", "rail"} <= maps.areas["D3"].flags
    assert "narvik_harbour" in maps.sea_adj["B1"], "ships enter a harbour from its sea area"
    assert "narvik_harbour" not in maps.air_adj, "a harbour is a place inside its areas, not a step of a path"
    oslo = maps.strat_areas["oslo_harbour"]
    assert oslo.kind == "home_port" and oslo.side == "axis" and oslo.land == "D10"


def test_uncoded_airfields_are_places_not_steps() -> None:
    maps, _ = read(NORWAY)
    sola = maps.strat_areas["sola_airfield"]
    assert sola.kind == "airfield" and sola.region and not sola.is_coded
    assert sola.capacity == 4 and sola.capacity_unsupplied == 2
    assert maps.strat_areas["A5"].is_coded and maps.strat_areas["B2"].is_coded


@pytest.mark.parametrize(
    ("file", "old", "new", "problem"),
    [
        ("map-strategic.toml", 'sea = "B4"\nregion = "C4"', 'sea = "Q9"\nregion = "C4"',
         "key 'sea': 'Q9' is not a sea area of the Strategic Map"),
        ("map-land.toml", 'sea = "B-2"', 'sea = "C6x"', "key 'sea': 'C6x' is not a sea area"),
        ("map-strategic.toml", 'kind = "home_port"\nside = "axis"', 'kind = "home_port"\nside = ""',
         "a home port needs a 'side'"),
        ("map-strategic.toml", 'land = "D10"', 'land = "Z3"', "key 'land': 'Z3' is not an area of map 'south-central'"),
        ("map-strategic.toml", 'kind = "harbour"', 'kind = "lighthouse"', "expected one of sea, land"),
    ],
)
def test_broken_links_are_named(tmp_path: Path, file: str, old: str, new: str, problem: str) -> None:
    _, problems = read(norway_copy(tmp_path, file, old, new))
    assert any(problem in p for p in problems), problems


def test_a_border_may_not_join_the_strategic_map_to_a_land_map(tmp_path: Path) -> None:
    folder = tmp_path / "norway"
    shutil.copytree(NORWAY, folder)
    with (folder / "map-land.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[[border]]\na = "D1"\nb = "B2"\n')
    _, problems = read(folder)
    assert any("border D1-B2 joins the Strategic Map to a land map" in p for p in problems), problems


def read_with_counters(folder: Path) -> tuple[dict[str, CounterDef], list[str]]:
    data, where = read_toml_tree(folder)
    problems: list[str] = []
    root = Reader(where, data, problems)
    maps = parse_maps(root, SIDES, problems, where)
    return parse_counters(root, SIDES, maps.strat_areas, 4, problems), problems


def test_norway_counters_load_and_link() -> None:
    counters, problems = read_with_counters(NORWAY)
    assert problems == []
    assert sum(1 for c in counters.values() if c.type == "battleship") >= 4
    carriers = [c for c in counters.values() if c.type == "carrier"]
    assert carriers and all(c.side == "allies" for c in carriers)
    for c in counters.values():
        if c.carrier:
            assert counters[c.carrier].type == "carrier" and counters[c.carrier].start == c.start
        if c.type == "fighter":
            assert c.air_cv > 0 and c.is_aircraft


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('carrier = "', 'carrier = "x', "is not a carrier counter"),
        ('side = "allies"\ntype = "battleship"\ncv = 4', 'side = "allies"\ntype = "dreadnought"\ncv = 4',
         "expected one of battleship"),
        ('carrier = ""\nstart = "A1"', 'carrier = ""\nstart = "atlantis"',
         "start 'atlantis' is not a location of the Strategic Map"),
    ],
)
def test_broken_counters_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    _, problems = read_with_counters(norway_copy(tmp_path, "counters.toml", old, new))
    assert any(problem in p for p in problems), problems


NARVIK_LAND = "land = [0, 0, 1000, 0, 1000, 700, 330, 700, 140, 660, 60, 560, 0, 520]"


@pytest.mark.parametrize(("land", "says"), [
    ("land = [0, 0, 1000, 700, 1000, 0, 0, 700]", "'land' crosses itself"),
    ("land = [0, 0, 500, 0, 1000, 0]", "'land' encloses no ground"),
    ("land = [0, 0, 10, 0, 0, 10]", "lies outside map 'narvik''s 'land' outline"),
    ("land = [0, 0, 1000]", "'land' needs x, y pairs"),
    ("land = [0, 0, 1000, 0, 2000, 700]", "lies outside the map (1000 x 700)"),
])
def test_a_bad_land_outline_is_refused_with_its_reason(tmp_path: Path, land: str, says: str) -> None:
    _, problems = read(norway_copy(tmp_path, "map-land.toml", NARVIK_LAND, land))
    assert any(says in p for p in problems), problems


def test_two_areas_at_one_point_are_refused(tmp_path: Path) -> None:
    folder = norway_copy(tmp_path, "map-land.toml", "x = 520\ny = 292", "x = 524\ny = 417")  # Gratangen onto Bjerkvik
    _, problems = read(folder)
    assert any("are both at x = 524, y = 417 on map 'narvik'" in p for p in problems), problems


def test_the_bundled_outlines_hold_every_area() -> None:
    maps, problems = read(NORWAY)
    assert problems == []
    assert len(maps.maps["narvik"]["land"]) == 7 and len(maps.maps["south-central"]["land"]) == 27
