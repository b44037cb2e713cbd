"""Checks the Firestorm: Norway 1940 scenario.toml (campaign, land troops, turns) against the rules digest.

Sources: shared/rules/firestorm-norway.md sections 2.2/2.3 (land set-up), 3 (turns), 4 (land Firestorm
Troops), 9.1 (unit VP) and 10 (General's Wargame bonuses). The files are read as raw TOML so these checks
do not depend on the loader.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

NORWAY_DIR = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "norway"
SIDES = ("allies", "axis")
NATIONS = {
    "norwegian": "allies", "british": "allies", "french": "allies", "polish": "allies", "german": "axis",
}
NAR = "narvik"

# Keys documented in docs/scenario-format.md, plus `status` and `nation`.
SCENARIO_KEYS = {"id", "version", "title", "system", "status", "description", "turns", "sides", "side_names",
                 "side_adjectives", "replays", "historical"}
RULES_KEYS = {"hooks", "stacking", "advance_cap", "move_range", "redeploy_returned", "reinforce_order",
              "move_order", "destroyed_to", "oos_gw", "river_gw", "pool_areas", "assumptions", "values"}
TABLES_KEYS = {"fow_destroy", "gw_destroy", "out_of_supply", "outcome", "briefing"}
TROOP_KEYS = {"id", "name", "side", "category", "bonus", "variable", "tabletop", "points", "rating",
              "capture_vp", "flags", "start", "nation", "assumption", "platoon"}
TURN_KEYS = {"number", "name", "battles", "battles_d3", "initiative", "reserve_limit", "carpet", "special",
             "withdraw", "arrival", "actions", "first", "landing_vp", "sunk_vp", "bonus"}
ARRIVAL_KEYS = {"unit", "areas", "when", "landing", "on_fail", "seize"}

# Digest 3.1: (name, fixed battles, D3 count, initiative side, bonus, tie side).
TURNS: list[tuple[str, int, int, str, int, str]] = [
    ("Wesertag", 2, 0, "axis", 6, "axis"),
    ("Operation Hammer", 5, 1, "axis", 1, "axis"),
    ("The Land of the Midnight Bomb", 5, 1, "axis", 2, "axis"),
    ("Operations Alphabet and Juno", 2, 1, "allies", 2, "axis"),
]

# Digest 2.2/2.3: troops on each land area at the start, by nation.
SETUP: dict[str, dict[str, int]] = {
    "D10": {"german": 2}, "D8": {"german": 2}, "D7": {"german": 2}, "D6": {"german": 2}, "D3": {"german": 2},
    "D2": {"norwegian": 1}, "D5": {"norwegian": 1}, "D9": {"norwegian": 1}, "D11": {"norwegian": 1},
    "E6": {"norwegian": 1}, "E7": {"norwegian": 1}, "E8": {"norwegian": 1},
    "X4": {"norwegian": 1}, "X5": {"norwegian": 1},
    "Y2": {"german": 1}, "Y3": {"german": 1}, "Z3": {"german": 1},
}  # fmt: skip


@cache
def _load(name: str) -> dict[str, Any]:
    with (NORWAY_DIR / name).open("rb") as fh:
        return tomllib.load(fh)


def scenario() -> dict[str, Any]:
    return _load("scenario.toml")


def land_areas() -> dict[str, dict[str, Any]]:
    return {str(a["id"]): a for a in _load("map-land.toml")["area"]}


def troops() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = scenario()["troop"]
    return rows


def troop_by_id() -> dict[str, dict[str, Any]]:
    return {str(t["id"]): t for t in troops()}


def turns() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = scenario()["turn"]
    return rows


def arrivals() -> list[tuple[int, dict[str, Any]]]:
    return [(int(t["number"]), a) for t in turns() for a in t.get("arrival", [])]


def test_only_documented_keys_are_used() -> None:
    sc = scenario()
    assert set(sc) <= {"scenario", "rules", "tables", "troop", "turn", "air"}
    assert set(sc["scenario"]) <= SCENARIO_KEYS
    assert set(sc["rules"]) <= RULES_KEYS
    assert set(sc["tables"]) <= TABLES_KEYS
    for t in troops():
        assert set(t) <= TROOP_KEYS, t["id"]
    for turn in turns():
        assert set(turn) <= TURN_KEYS, turn["number"]
    for _, a in arrivals():
        assert set(a) <= ARRIVAL_KEYS, a["unit"]


def test_scenario_header() -> None:
    head = scenario()["scenario"]
    assert head["id"] == "norway"
    assert head["system"] == "firestorm"
    assert head["status"] == "ready"
    assert head["sides"] == list(SIDES)
    assert head["side_names"] == {"allies": "Allies", "axis": "Germans"}
    assert head["turns"] == len(turns()) == 4


def test_rules_follow_the_digest() -> None:
    rules = scenario()["rules"]
    assert set(rules["hooks"]) == {"norway_supply", "ofotfjord", "evacuation", "naval_gunfire", "norway_air",
                                   "norway_turns", "norway_briefing", "strategic_game"}
    assert rules["destroyed_to"] == "gone"
    assert rules["advance_cap"] == 3
    assert rules["oos_gw"] == -2
    assert rules["river_gw"] == 0
    assert rules["move_order"] == ["allies", "axis"]
    assert sorted(rules["reinforce_order"]) == sorted(SIDES)
    assert all(isinstance(a, str) and a for a in rules["assumptions"])
    outcome = sorted(scenario()["tables"]["outcome"], reverse=True)
    assert [row[0] for row in outcome] == [150, 100, 50]


def test_troop_ids_are_unique_short_ascii() -> None:
    ids = [str(t["id"]) for t in troops()]
    assert len(ids) == len(set(ids))
    for tid in ids:
        assert tid.isascii() and tid == tid.lower() and " " not in tid and len(tid) <= 20, tid


@pytest.mark.parametrize("troop", troops(), ids=lambda t: str(t["id"]))
def test_troop_fields(troop: dict[str, Any]) -> None:
    assert troop["side"] in SIDES
    assert troop["nation"] in NATIONS
    assert NATIONS[troop["nation"]] == troop["side"]
    assert isinstance(troop["bonus"], int) and troop["bonus"] in (1, 2, 3)
    assert troop["capture_vp"] == (5 if troop["nation"] == "norwegian" else 10)
    assert isinstance(troop["points"], int) and troop["points"] > 0
    assert troop["flags"] == []
    assert troop["name"] and troop["rating"] and troop["category"]


@pytest.mark.parametrize("troop", troops(), ids=lambda t: str(t["id"]))
def test_troop_start_is_a_land_area_held_by_its_side(troop: dict[str, Any]) -> None:
    start = troop["start"]
    if start == "offmap":
        return
    areas = land_areas()
    assert start in areas, f"{troop['id']}: unknown start {start!r}"
    assert not areas[start].get("fjord", False)
    assert areas[start]["control"] == troop["side"]


def test_setup_matches_digest_sections_2_2_and_2_3() -> None:
    placed: dict[str, Counter[str]] = {}
    for t in troops():
        if t["start"] != "offmap":
            placed.setdefault(str(t["start"]), Counter())[str(t["nation"])] += 1
    assert {area: dict(c) for area, c in placed.items()} == SETUP


def test_norwegians_are_all_placed_at_start() -> None:
    norwegians = [t for t in troops() if t["nation"] == "norwegian"]
    assert len(norwegians) == 9
    assert all(t["start"] != "offmap" for t in norwegians)


@pytest.mark.parametrize(("number", "expected"), list(enumerate(TURNS, start=1)))
def test_turn_battles_and_initiative(number: int, expected: tuple[str, int, int, str, int, str]) -> None:
    name, battles, d3, side, bonus, ties = expected
    turn = turns()[number - 1]
    assert turn["number"] == number
    assert turn["name"] == name
    assert (turn["battles"], turn.get("battles_d3", 0)) == (battles, d3)
    assert turn["initiative"] == {"side": side, "bonus": bonus, "ties": ties}


def test_turn_one_german_initiative_is_certain() -> None:
    init = turns()[0]["initiative"]
    # German d6 + bonus against an Allied d6, ties to the Germans: the worst German roll must still win.
    assert init["side"] == "axis" and init["ties"] == "axis"
    assert 1 + init["bonus"] >= 6


def test_arrivals_name_known_units_and_areas() -> None:
    known = troop_by_id()
    areas = land_areas()
    for number, a in arrivals():
        assert a["unit"] in known, f"turn {number}: unknown unit {a['unit']!r}"
        assert a["when"] in ("strategic", "planning")
        for area in a["areas"]:
            assert area in areas, f"turn {number} {a['unit']}: unknown area {area!r}"
            assert not areas[area].get("fjord", False)


def test_each_offmap_unit_arrives_once_and_placed_units_never_arrive() -> None:
    counts = Counter(str(a["unit"]) for _, a in arrivals())
    assert all(n == 1 for n in counts.values()), counts
    for tid, t in troop_by_id().items():
        if t["start"] != "offmap":
            assert tid not in counts, tid
    # Marine Regiment Berger appears only through its Narvik special rule (digest 3.2), never by the list.
    never = {tid for tid, t in troop_by_id().items() if t["start"] == "offmap" and tid not in counts}
    assert {str(troop_by_id()[tid]["name"]).split(" (")[0] for tid in never} == {"Marine-Regiment Berger"}


def test_arrivals_by_turn_match_digest_section_3() -> None:
    known = troop_by_id()
    per_turn: dict[int, Counter[str]] = {}
    for number, a in arrivals():
        per_turn.setdefault(number, Counter())[str(known[a["unit"]]["nation"])] += 1
    assert {n: dict(c) for n, c in per_turn.items()} == {
        1: {"german": 7, "british": 3, "french": 2},
        2: {"british": 1},
        3: {"german": 1, "french": 2, "polish": 1},
    }


def test_narvik_map_arrivals_stay_on_the_narvik_map() -> None:
    areas = land_areas()
    for number, a in arrivals():
        if number == 3:
            assert a["areas"], a["unit"]
            assert all(areas[x]["map"] == NAR for x in a["areas"]), a["unit"]


def test_norway_is_offered_for_play_with_its_strategic_map() -> None:
    from warroom.scenarios import bundled_ids, load_scenario

    sc = load_scenario("norway")
    assert sc.status == "ready" and "norway" in bundled_ids()
    assert len(sc.strat_areas) > 30 and sc.counters, "the Strategic Map and its counters are loaded"
