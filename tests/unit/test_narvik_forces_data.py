"""The Narvik orders of battle as data (`scenarios/data/narvik/forces.toml`): the schema the loader expects, the
entry rules (set-up, reinforcement, mobilisation, artillery stores, the stranded sailors), regiment breakdowns,
headquarters designations, key unit totals, the destroyers at Narvik and the turn record chart."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

FORCES = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "narvik" / "forces.toml"

PLACES = frozenset({
    "Stavanger", "Åndalsnes", "Namsos", "Narvik", "Kristiansand", "Bergen", "Trondheim", "Oslo", "Horten", "Drammen",
    "Fredrikstad", "Halden", "Larvik", "Arendal", "Egersund", "Haugesund", "Florø", "Ålesund", "Molde", "Kristiansund",
    "Mosjøen", "Mo i Rana", "Bodø", "Harstad", "Tromsø", "Hamar", "Lillehammer", "Gjøvik", "Elverum", "Kongsvinger",
    "Hønefoss", "Kongsberg", "Evje", "Voss", "Dombås", "Otta", "Tynset", "Røros", "Støren", "Oppdal", "Steinkjer",
    "Levanger", "Grong", "Setermoen", "Elvegårdsmoen", "Bjerkvik", "Gratangen", "Bjørnfjell", "Bardufoss", "Rena",
    "Eidsvoll", "Gardermoen", "Kjeller", "Fornebu", "Sola", "Kjevik", "Værnes",
})
CENTRES = frozenset({
    "Halden", "Fredrikstad", "Oslo", "Hønefoss", "Elverum", "Hamar", "Lillehammer", "Kongsberg", "Kristiansand",
    "Evje", "Voss", "Bergen", "Steinkjer", "Levanger", "Setermoen", "Elvegårdsmoen",
})
STORES = frozenset({"Gardermoen", "Kongsvinger", "Rena"})
AIRFIELDS = frozenset({"Fornebu", "Kjeller", "Gardermoen", "Sola", "Kjevik", "Værnes", "Bardufoss"})
OFF_MAP_BASES = frozenset({"Germany", "Denmark", "Britain", "carrier"})

SIDES = frozenset({"german", "allied"})
NATIONS = frozenset({"german", "norwegian", "british", "french", "polish"})
KINDS = frozenset({
    "infantry", "mountain", "parachute", "ski", "cavalry", "machine_gun", "naval_infantry", "artillery",
    "mountain_artillery", "antiaircraft", "antitank", "tank", "headquarters", "truck", "supply_depot",
})
SIZES = frozenset({"company", "battery", "battalion", "regiment", "brigade", "division", "group"})
HQ_KINDS = frozenset({"division", "brigade", "regiment", "group"})
AIR_KINDS = frozenset({"fighter", "bomber", "dive_bomber", "transport"})
ARTILLERY = frozenset({"artillery", "mountain_artillery", "antiaircraft", "antitank"})
TURNS = 15

UNIT_REQUIRED: dict[str, type] = {
    "id": str, "name": str, "short": str, "side": str, "nation": str, "kind": str, "size": str, "attack": int,
    "defense": int, "movement": int, "motorized": bool, "designation": str, "source": str,
}
UNIT_OPTIONAL: dict[str, type] = {
    "key_vp": int, "setup": str, "arrives": dict, "mobilises": dict, "breaks_into": list, "part_of": str,
    "hq": dict, "condition": str, "if_store_captured": dict, "assumption": str,
}
AIR_KEYS: dict[str, type] = {
    "id": str, "name": str, "short": str, "side": str, "nation": str, "kind": str, "strength": int, "range": int,
    "base": str, "arrives": int, "source": str, "assumption": str,
}
SHIP_REQUIRED: dict[str, type] = {"id": str, "name": str, "side": str, "kind": str, "at": str, "source": str}
ENTRIES = ("setup", "arrives", "mobilises")
SLUG = re.compile(r"[a-z0-9_]+")

NARVIK_DESTROYERS = frozenset({
    "Wilhelm Heidkamp", "Georg Thiele", "Wolfgang Zenker", "Bernd von Arnim", "Erich Giese", "Erich Koellner",
    "Diether von Roeder", "Hans Lüdemann", "Hermann Künne", "Anton Schmitt",
})
MONTHS = ("", "January", "February", "March", "April", "May", "June", "July")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return tomllib.loads(FORCES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def units(data: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = data["unit"]
    return found


@pytest.fixture(scope="module")
def by_id(units: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in units}


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def has_type(v: object, t: type) -> bool:
    return is_int(v) if t is int else isinstance(v, t)


def entry(u: dict[str, Any]) -> tuple[str, int, str]:
    """(how, turn, place): turn 0 for a unit on the map at the start."""
    if "setup" in u:
        return "setup", 0, str(u["setup"])
    if "arrives" in u:
        return "arrives", int(u["arrives"]["turn"]), str(u["arrives"]["at"])
    return "mobilises", int(u["mobilises"]["turn"]), str(u["mobilises"]["centre"])


def nonempty_text(v: object) -> bool:
    return isinstance(v, str) and v.strip() != ""


# ----- schema ----------------------------------------------------------------------------------------------


def test_top_level_tables(data: dict[str, Any]) -> None:
    assert set(data) == {"ratings", "unit", "air", "ship", "turn"}
    assert set(data["ratings"]) == {"assumption", "source"}
    assert nonempty_text(data["ratings"]["assumption"]) and nonempty_text(data["ratings"]["source"])


def test_unit_schema(units: list[dict[str, Any]]) -> None:
    assert units
    for u in units:
        uid = u.get("id", "?")
        assert not set(u) - set(UNIT_REQUIRED) - set(UNIT_OPTIONAL), uid
        for key, t in UNIT_REQUIRED.items():
            assert key in u and has_type(u[key], t), (uid, key)
        for key, t in UNIT_OPTIONAL.items():
            assert key not in u or has_type(u[key], t), (uid, key)
        assert SLUG.fullmatch(u["id"]), uid
        assert u["side"] in SIDES and u["nation"] in NATIONS, uid
        assert (u["side"] == "german") == (u["nation"] == "german"), uid
        assert u["kind"] in KINDS and u["size"] in SIZES, uid
        for key in ("attack", "defense", "movement", "key_vp"):
            assert u.get(key, 0) >= 0, (uid, key)
        assert nonempty_text(u["name"]) and nonempty_text(u["designation"]) and nonempty_text(u["source"]), uid
        assert "assumption" not in u or nonempty_text(u["assumption"]), uid
        assert 1 <= len(u["short"]) <= 7, (uid, u["short"])


def test_unit_ids_and_short_names_are_unique(units: list[dict[str, Any]]) -> None:
    ids = Counter(u["id"] for u in units)
    assert not [i for i, n in ids.items() if n > 1]
    shorts = Counter(u["short"] for u in units)
    assert not [s for s, n in shorts.items() if n > 1]


def test_each_unit_enters_exactly_once(units: list[dict[str, Any]]) -> None:
    for u in units:
        uid = u["id"]
        assert sum(k in u for k in ENTRIES) == 1, uid
        how, turn, place = entry(u)
        assert place in PLACES, (uid, place)
        if how == "arrives":
            assert set(u["arrives"]) == {"turn", "at"} and is_int(u["arrives"]["turn"]), uid
            assert 1 <= turn <= TURNS, uid
        if how == "mobilises":
            assert set(u["mobilises"]) == {"turn", "centre"} and is_int(u["mobilises"]["turn"]), uid
            assert 1 <= turn <= TURNS, uid


def test_headquarters(units: list[dict[str, Any]]) -> None:
    for u in units:
        uid = u["id"]
        assert ("hq" in u) == (u["kind"] == "headquarters"), uid
        if "hq" in u:
            h = u["hq"]
            assert set(h) == {"kind", "mountain", "motorized"}, uid
            assert h["kind"] in HQ_KINDS and isinstance(h["mountain"], bool) and isinstance(h["motorized"], bool)
            assert u["size"] == h["kind"], uid  # size = the formation's level


def test_designations_name_a_headquarters_of_the_same_side(units: list[dict[str, Any]]) -> None:
    hqs = {(u["side"], u["designation"]) for u in units if u["kind"] == "headquarters"}
    for u in units:
        if u["kind"] != "headquarters":
            assert (u["side"], u["designation"]) in hqs, (u["id"], u["designation"])


# ----- breakdowns -------------------------------------------------------------------------------------------


def test_breakdowns_are_consistent(units: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]) -> None:
    for u in units:
        for part in u.get("breaks_into", []):
            assert part in by_id and by_id[part].get("part_of") == u["id"], (u["id"], part)
            p = by_id[part]
            assert entry(p) == entry(u), (u["id"], part)  # parts copy the regiment's set-up or arrival
            assert (p["side"], p["designation"], p["kind"]) == (u["side"], u["designation"], u["kind"]), part
            assert "breaks_into" not in p, part
        if "part_of" in u:
            whole = by_id.get(u["part_of"])
            assert whole is not None and u["id"] in whole.get("breaks_into", []), u["id"]
        if u.get("breaks_into"):
            parts = [by_id[p] for p in u["breaks_into"]]
            assert u["attack"] == sum(p["attack"] for p in parts), u["id"]
            assert u["defense"] == sum(p["defense"] for p in parts), u["id"]
            assert u["movement"] == min(p["movement"] for p in parts), u["id"]


def test_german_regiments_all_break_down(units: list[dict[str, Any]]) -> None:
    regiments = [u for u in units if u["side"] == "german" and u["size"] == "regiment" and u["kind"] != "headquarters"]
    assert len(regiments) >= 15
    for u in regiments:
        assert len(u.get("breaks_into", [])) == 3, u["id"]
        assert u["kind"] in ("infantry", "mountain"), u["id"]
    assert not [u["id"] for u in units if u.get("breaks_into") and u["side"] != "german"]


# ----- Norwegian mobilisation and the artillery stores ----------------------------------------------------


def test_mobilisation_only_norwegian_at_the_sixteen_centres(units: list[dict[str, Any]]) -> None:
    mobilising = [u for u in units if "mobilises" in u]
    for u in mobilising:
        assert u["nation"] == "norwegian", u["id"]
        assert u["mobilises"]["centre"] in CENTRES, u["id"]
    assert {u["mobilises"]["centre"] for u in mobilising} == CENTRES  # something is raised at every centre
    assert sum(1 for u in mobilising if u["mobilises"]["turn"] <= 3) >= len(mobilising) * 3 // 4


def test_artillery_stores(units: list[dict[str, Any]]) -> None:
    at_store = [u for u in units if "arrives" in u and u["arrives"]["at"] in STORES]
    assert {u["arrives"]["at"] for u in at_store} == STORES
    for u in units:
        if "if_store_captured" in u:
            assert u in at_store, u["id"]
    for u in at_store:
        assert u["nation"] == "norwegian" and u["kind"] in ("artillery", "mountain_artillery"), u["id"]
        sub = u.get("if_store_captured")
        assert isinstance(sub, dict) and set(sub) == {"name", "short", "attack", "defense", "movement"}, u["id"]
        assert nonempty_text(sub["name"]) and isinstance(sub["short"], str) and 1 <= len(sub["short"]) <= 7
        assert all(is_int(sub[k]) and sub[k] >= 0 for k in ("attack", "defense", "movement")), u["id"]
        assert sub["movement"] >= 1


# ----- set-up and reinforcements -----------------------------------------------------------------------------


def test_german_invasion_set_up(units: list[dict[str, Any]]) -> None:
    landed = {u["setup"] for u in units if u["side"] == "german" and "setup" in u}
    assert {"Oslo", "Fornebu", "Kristiansand", "Arendal", "Egersund", "Sola", "Bergen", "Trondheim",
            "Narvik"} <= landed
    narvik = [u for u in units if u["side"] == "german" and u.get("setup") == "Narvik"]
    assert any(u["kind"] == "headquarters" and u["hq"]["mountain"] and u["key_vp"] > 0 for u in narvik)  # Dietl
    assert any(u["kind"] == "parachute" and "setup" in u for u in units if u["side"] == "german")
    assert not [u["id"] for u in units if u["side"] == "german" and ("mobilises" in u)]


def test_allied_contingents(units: list[dict[str, Any]]) -> None:
    count = Counter((u["nation"], u["kind"]) for u in units if u["side"] == "allied")
    assert count["polish", "infantry"] == 4
    assert count["french", "mountain"] == 6
    assert count["french", "tank"] == 1
    assert count["british", "naval_infantry"] >= 1
    assert sum(n for (nation, _), n in count.items() if nation == "norwegian") >= 40
    assert not [u["id"] for u in units if u["side"] == "allied" and u["nation"] != "norwegian" and "setup" in u]


def test_stranded_sailors(units: list[dict[str, Any]]) -> None:
    sailors = [u for u in units if "condition" in u]
    assert all(u["condition"] == "destroyers_sunk" for u in sailors)
    assert all(u["side"] == "german" and u["arrives"] == {"turn": 2, "at": "Narvik"} for u in sailors)
    hqs = [u for u in sailors if u["kind"] == "headquarters"]
    battalions = [u for u in sailors if u["kind"] == "naval_infantry"]
    assert len(hqs) == 1 and hqs[0]["hq"]["kind"] == "regiment"
    assert len(battalions) == 4 and all(u["size"] == "battalion" for u in battalions)
    assert len(sailors) == 5
    assert {u["designation"] for u in sailors} == {hqs[0]["designation"]}


def test_key_unit_totals(units: list[dict[str, Any]]) -> None:
    for side in SIDES:
        total = sum(u.get("key_vp", 0) for u in units if u["side"] == side)
        assert 15 <= total <= 30, (side, total)
        assert sum(1 for u in units if u["side"] == side and u.get("key_vp", 0) > 0) >= 4


# ----- air units, ships, turns -----------------------------------------------------------------------------


def test_air_units(data: dict[str, Any], units: list[dict[str, Any]]) -> None:
    air: list[dict[str, Any]] = data["air"]
    ids = {u["id"] for u in units}
    for a in air:
        assert set(a) == set(AIR_KEYS), a.get("id")
        assert all(has_type(a[k], t) for k, t in AIR_KEYS.items()), a["id"]
        assert SLUG.fullmatch(a["id"]) and a["id"] not in ids, a["id"]
        assert a["side"] in SIDES and a["nation"] in NATIONS and a["kind"] in AIR_KINDS, a["id"]
        assert (a["side"] == "german") == (a["nation"] == "german"), a["id"]
        assert a["base"] in AIRFIELDS | OFF_MAP_BASES, a["id"]
        assert a["strength"] >= 1 and a["range"] >= 1 and 1 <= a["arrives"] <= TURNS, a["id"]
        assert 1 <= len(a["short"]) <= 7 and nonempty_text(a["source"]) and nonempty_text(a["assumption"])
    assert len({a["id"] for a in air}) == len(air)
    sides = Counter(a["side"] for a in air)
    assert 10 <= sides["german"] <= 16 and 4 <= sides["allied"] <= 8
    assert any(a["kind"] == "transport" for a in air if a["side"] == "german")


def test_ten_destroyers_at_narvik(data: dict[str, Any]) -> None:
    ships: list[dict[str, Any]] = data["ship"]
    for s in ships:
        assert set(SHIP_REQUIRED) <= set(s) <= set(SHIP_REQUIRED) | {"assumption"}, s.get("id")
        assert all(has_type(s[k], t) for k, t in SHIP_REQUIRED.items()), s["id"]
        assert SLUG.fullmatch(s["id"]) and s["at"] in PLACES, s["id"]
    destroyers = [s for s in ships if s["kind"] == "destroyer" and s["side"] == "german" and s["at"] == "Narvik"]
    assert len(destroyers) == 10
    assert {s["name"] for s in destroyers} == NARVIK_DESTROYERS
    assert len({s["id"] for s in ships}) == len(ships)


def test_fifteen_four_day_turns(data: dict[str, Any]) -> None:
    turns: list[dict[str, Any]] = data["turn"]
    assert [t["no"] for t in turns] == list(range(1, TURNS + 1))
    start = dt.date(1940, 4, 9)
    for t in turns:
        assert set(t) == {"no", "dates"}
        first = start + dt.timedelta(days=4 * (t["no"] - 1))
        last = first + dt.timedelta(days=3)
        if first.month == last.month:
            expected = f"{first.day}–{last.day} {MONTHS[last.month]} 1940"
        else:
            expected = f"{first.day} {MONTHS[first.month]}–{last.day} {MONTHS[last.month]} 1940"
        assert t["dates"] == expected, t
    assert turns[0]["dates"] == "9–12 April 1940"
