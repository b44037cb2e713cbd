"""Checks the Firestorm: Norway 1940 Strategic Game counters against the rules digest.

Sources: shared/rules/firestorm-norway.md sections 2.1 (set-up), 3.2-3.4 (turn arrivals), 5.1 (notation,
the six battleships), 5.2 (unit roster), 5.3 (carriers), 9.1 (unit VP) and 11.4, 11.11, 11.28, 11.29,
11.35 (ambiguities); schema and provisional defaults: docs/norway-plan.md section 1.
A value the text does not print must be named as `key=` in the counter's `assumption`.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

DATA_DIR = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "norway"
COUNTERS_FILE = DATA_DIR / "counters.toml"
MAP_FILE = DATA_DIR / "map-strategic.toml"

KEYS = frozenset({
    "id", "name", "side", "type", "cv", "air_cv", "aa", "range", "reroll", "carrier", "start", "arrives",
    "vp", "assumption",
})  # fmt: skip
OPTIONAL = frozenset({"arrive_at", "land_sortie", "gunfire"})
SIDES = frozenset({"allies", "axis"})
SHIPS = frozenset({"battleship", "named", "carrier", "group", "submarine"})
AIRCRAFT = frozenset({"fighter", "bomber"})
TYPES = SHIPS | AIRCRAFT
ID_RE = re.compile(r"[a-z][a-z0-9_]*")
SHEET = "counter sheet missing (digest 5.2, 11.4)"


def numbered(stem: str, n: int) -> tuple[str, ...]:
    return tuple(f"{stem}_{i}" for i in range(1, n + 1))


@dataclass(frozen=True)
class Row:
    """One row of digest 5.2: the counters it stands for, and which of their values are printed."""

    unit: str
    ids: tuple[str, ...]
    side: str
    types: frozenset[str]
    printed: dict[str, int | bool | str] = field(default_factory=dict)
    default: dict[str, int | bool | str] = field(default_factory=dict)  # 5.2 "Suggestion" / plan section 1
    assumed: tuple[str, ...] = ()  # keys the text does not print, to be named in `assumption`


def one(t: str) -> frozenset[str]:
    return frozenset({t})


# fmt: off
ROSTER: tuple[Row, ...] = (
    # 5.2 rows "HMS Warspite" .. "HMS Valiant": battleship, CV 4 (N:256, example N:357); 9.1 battleship 15.
    Row("HMS Warspite", ("warspite",), "allies", one("battleship"), {"cv": 4, "vp": 15}),
    Row("HMS Resolution", ("resolution",), "allies", one("battleship"), {"cv": 4, "vp": 15}),
    Row("HMS Rodney", ("rodney",), "allies", one("battleship"), {"cv": 4, "vp": 15}),
    Row("HMS Valiant", ("valiant",), "allies", one("battleship"), {"cv": 4, "vp": 15}),
    # 5.2 "HMS Renown" / "HMS Repulse": named, not battleships (11.35), CV `?`; default 3.
    Row("HMS Renown", ("renown",), "allies", one("named"), {}, {"cv": 3}, ("cv", "vp")),
    Row("HMS Repulse", ("repulse",), "allies", one("named"), {}, {"cv": 3}, ("cv", "vp")),
    # 5.2 carrier rows: CV `?`; default 1.
    Row("HMS Furious", ("furious",), "allies", one("carrier"), {}, {"cv": 1}, ("cv", "vp")),
    Row("HMS Glorious", ("glorious",), "allies", one("carrier"), {}, {"cv": 1}, ("cv", "vp")),
    Row("HMS Ark Royal", ("ark_royal",), "allies", one("carrier"), {}, {"cv": 1}, ("cv", "vp")),
    # 5.2 "Cruiser Sqn": 4 at start, CV 3 (example N:357).
    Row("Cruiser Sqn", numbered("cruiser", 4), "allies", one("group"), {"cv": 3}, {}, ("vp",)),
    # 5.2 "French Cruiser Sqn": 1 (T2), CV `?`; suggestion 3.
    Row("French Cruiser Sqn", ("french_cruiser",), "allies", one("group"), {}, {"cv": 3}, ("cv", "vp")),
    # 5.2 "AA Cruiser Sqn": CV `?` vs ships, defends with 2 vs aircraft (N:377); no default given.
    Row("AA Cruiser Sqn", ("aa_cruiser",), "allies", one("group"), {"aa": 2}, {}, ("cv", "vp")),
    # 5.2 "Destroyer Flot(illa)": 4 at start + 1 (T2), CV `?`; suggestion 2 (N:399).
    Row("Destroyer Flot", numbered("destroyer", 5), "allies", one("group"), {}, {"cv": 2}, ("cv", "vp")),
    # 5.2 "Submarine Flot": 2, CV 1 (N:266).
    Row("Submarine Flot", numbered("submarine", 2), "allies", one("submarine"), {"cv": 1}, {}, ("vp",)),
    # 5.2 "Scharnhorst" / "Gneisenau": battleship, CV 3 (N:256, example).
    Row("Scharnhorst", ("scharnhorst",), "axis", one("battleship"), {"cv": 3, "vp": 15}),
    Row("Gneisenau", ("gneisenau",), "axis", one("battleship"), {"cv": 3, "vp": 15}),
    # 5.2 "Admiral Hipper": named heavy cruiser, CV `?`; default 3. 9.1: other German ship 10.
    Row("Admiral Hipper", ("hipper",), "axis", one("named"), {"vp": 10}, {"cv": 3}, ("cv",)),
    # 5.2 "Warship Group": 4, CV `?`; default 2. 9.1: other German ship 10.
    Row("Warship Group", numbered("warship", 4), "axis", one("group"), {"vp": 10}, {"cv": 2}, ("cv",)),
    # 5.2 "U-Boat Group": 6, CV 1 (N:266); 9.1 leaves U-boats out of the "other German ship" row.
    Row("U-Boat Group", numbered("uboat", 6), "axis", one("submarine"), {"cv": 1}, {}, ("vp",)),
    # 5.2 "Hurricane (UK)": CV 3 (N:898), bracket not stated, range `?`; 11.28 two counters.
    Row("Hurricane (UK)", ("hurricane_1",), "allies", one("fighter"), {"air_cv": 3}, {},
        ("air_cv", "cv", "range", "vp")),
    # 5.2 "Hurricane (Norway)": CV 2 (N:1081), range `?`.
    Row("Hurricane (Norway)", ("hurricane_2",), "allies", one("fighter"), {"air_cv": 2}, {},
        ("air_cv", "cv", "range", "vp")),
    # 5.2 "Skua (land)": CV `?`, range 2 ("Movement 2", N:898).
    Row("Skua (land)", ("skua_1",), "allies", AIRCRAFT, {"range": 2}, {},
        ("type", "cv", "air_cv", "reroll", "vp")),
    # 5.2 "Skua (Ark Royal)": CV `?`, range 1 (N:308, 1028).
    Row("Skua (Ark Royal)", ("skua_2",), "allies", AIRCRAFT, {"range": 1, "carrier": "ark_royal"}, {},
        ("type", "cv", "air_cv", "reroll", "vp")),
    # 5.2 "Swordfish": 3 carrier aircraft, CV and range `?`; default 2, range 1.
    Row("Swordfish", numbered("swordfish", 3), "allies", one("bomber"), {},
        {"cv": 2, "range": 1, "reroll": False}, ("cv", "range", "reroll", "vp")),
    # 5.2 "Gladiator (Glorious)": carrier fighter, CV and range `?`; default (1), range 1.
    Row("Gladiator (Glorious)", ("gladiator_1",), "allies", one("fighter"), {"carrier": "glorious"},
        {"air_cv": 1, "range": 1}, ("air_cv", "range", "vp")),
    # 5.2 "Bristol Blenheim": 2 bombers (T1 A-5), CV and range `?`; default 2, range 2.
    Row("Bristol Blenheim", numbered("blenheim", 2), "allies", one("bomber"), {},
        {"cv": 2, "range": 2, "reroll": False}, ("cv", "range", "reroll", "vp")),
    # 5.2 "He-111": 3 bombers, CV 2, range 2 (N:343, 385).
    Row("He-111", numbered("he111", 3), "axis", one("bomber"), {"cv": 2, "range": 2}, {}, ("reroll", "vp")),
    # 5.2 "Ju-88": 3 bombers, CV 2 (derived, N:399), range 2 (N:343).
    Row("Ju-88", numbered("ju88", 3), "axis", one("bomber"), {"cv": 2, "range": 2}, {}, ("reroll", "vp")),
    # 5.2 "Bf-110": 1 fighter (T1), (2), range 2 (N:343, 385).
    Row("Bf-110", ("bf110_1",), "axis", one("fighter"), {"air_cv": 2, "range": 2}, {}, ("reroll", "vp")),
    # 5.2 "Bf-109": 3 fighters, bracketed CV `?`, range 2 (N:343); default (3).
    Row("Bf-109", numbered("bf109", 3), "axis", one("fighter"), {"range": 2}, {"air_cv": 3},
        ("air_cv", "vp")),
    # 5.2 "Ju-87 Stuka": 3 dive bombers (T1), CV and range `?`; default underlined 2, range 2.
    Row("Ju-87 Stuka", numbered("ju87", 3), "axis", one("bomber"), {},
        {"cv": 2, "reroll": True, "range": 2}, ("cv", "reroll", "range", "vp")),
)
# fmt: on

# 5.2 "Count" column (totals over the game).
ROSTER_COUNTS: dict[str, int] = {
    "Cruiser Sqn": 4, "Destroyer Flot": 5, "Submarine Flot": 2, "Warship Group": 4, "U-Boat Group": 6,
    "Swordfish": 3, "Bristol Blenheim": 2, "He-111": 3, "Ju-88": 3, "Bf-109": 3, "Ju-87 Stuka": 3,
}  # fmt: skip

# 5.1: exactly six battleships.
BATTLESHIPS = frozenset({"resolution", "rodney", "valiant", "warspite", "scharnhorst", "gneisenau"})

# 2.1 set-up table, as map-strategic.toml ids (Rosyth is A6; harbours are `<town>_harbour`).
SETUP: dict[str, str] = {
    "uboat_1": "B1", "warship_1": "narvik_harbour", "gneisenau": "B2", "scharnhorst": "B2", "uboat_2": "B2",
    "hipper": "trondheim_harbour", "uboat_3": "B4", "uboat_4": "B4", "warship_2": "bergen_harbour",
    "warship_3": "stavanger_harbour", "warship_4": "C6", "uboat_5": "C6", "uboat_6": "C6",
    "bf109_1": "B7", "bf109_2": "B7", "he111_1": "B7", "he111_2": "B7", "ju88_1": "B7", "ju88_2": "B7",
    "warspite": "A1", "destroyer_1": "A1", "renown": "A2", "repulse": "A2", "destroyer_2": "A2",
    "resolution": "A3", "cruiser_1": "A3", "destroyer_3": "A3", "hurricane_1": "A5", "skua_1": "A5",
    "cruiser_2": "A6", "cruiser_3": "A6",
    "rodney": "B4", "valiant": "B4", "furious": "B4", "swordfish_1": "B4", "cruiser_4": "B4",
    "aa_cruiser": "B4", "submarine_1": "B4", "destroyer_4": "B4", "submarine_2": "C6",
}  # fmt: skip
# 2.1 rows read with OCR doubt (11.29): the U-boat in B-2 and the Home Fleet in B-4.
OCR_STARTS = frozenset({
    "uboat_2", "rodney", "valiant", "furious", "swordfish_1", "cruiser_4", "aa_cruiser", "submarine_1",
    "destroyer_4",
})  # fmt: skip

# 3.2 (T1: B-7 and A-5), 3.3 (T2: A-4) and 3.4 (T3: C-1) counter arrivals.
ARRIVALS: dict[str, int] = {
    "ju87_1": 1, "ju87_2": 1, "ju87_3": 1, "he111_3": 1, "ju88_3": 1, "bf109_3": 1, "bf110_1": 1,
    "blenheim_1": 1, "blenheim_2": 1,
    "glorious": 2, "gladiator_1": 2, "swordfish_2": 2, "ark_royal": 2, "skua_2": 2, "swordfish_3": 2,
    "french_cruiser": 2, "destroyer_5": 2,
    "hurricane_2": 3,
}  # fmt: skip

# 3.3, 5.2 and 5.3: each carrier aircraft and its carrier.
CARRIER_OF: dict[str, str] = {
    "swordfish_1": "furious", "gladiator_1": "glorious", "swordfish_2": "glorious",
    "skua_2": "ark_royal", "swordfish_3": "ark_royal",
}  # fmt: skip


@cache
def counters() -> dict[str, dict[str, Any]]:
    with COUNTERS_FILE.open("rb") as fh:
        rows: list[dict[str, Any]] = tomllib.load(fh)["counter"]
    return {str(row["id"]): row for row in rows}


@cache
def location_ids() -> frozenset[str]:
    with MAP_FILE.open("rb") as fh:
        areas: list[dict[str, Any]] = tomllib.load(fh)["area"]
    return frozenset(str(area["id"]) for area in areas)


def names_key(assumption: str, key: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(key)}=", assumption) is not None


def test_ids_are_unique_and_ascii() -> None:
    with COUNTERS_FILE.open("rb") as fh:
        rows: list[dict[str, Any]] = tomllib.load(fh)["counter"]
    ids = [str(row["id"]) for row in rows]
    dupes = [cid for cid, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate counter ids: {dupes}"
    bad = [cid for cid in ids if not ID_RE.fullmatch(cid)]
    assert not bad, f"ids not short lower-case ascii: {bad}"


GUNFIRE = {"group": {"Cruiser Sqn": 3, "French Cruiser Sqn": 3, "Destroyer Flot": 2}}


def test_every_counter_has_exactly_the_schema_keys() -> None:
    for cid, c in counters().items():
        assert KEYS <= set(c) <= KEYS | OPTIONAL, f"{cid}: keys differ from the schema: {sorted(set(c) ^ KEYS)}"
        assert ("arrive_at" in c) == (c["start"] == "offmap"), f"{cid}: arrive_at is for offmap counters only"


def test_only_allied_cruisers_and_destroyers_give_naval_gunfire() -> None:
    """Digest 10: Cruiser naval gunfire +3, Destroyer +2; digest 11.33: Allied ships only."""
    for cid, c in counters().items():
        stem = str(c["name"]).rsplit(" ", 1)[0] if str(c["name"])[-1].isdigit() else str(c["name"])
        expected = GUNFIRE.get(str(c["type"]), {}).get(stem, 0) if c["side"] == "allies" else 0
        assert c.get("gunfire", 0) == expected, cid


def test_field_types_sides_and_types() -> None:
    for cid, c in counters().items():
        for key in ("cv", "air_cv", "aa", "range", "arrives", "vp"):
            assert type(c[key]) is int, f"{cid}: {key} must be an integer"
        assert type(c["reroll"]) is bool, f"{cid}: reroll must be a boolean"
        for key in ("name", "carrier", "start", "assumption"):
            assert isinstance(c[key], str), f"{cid}: {key} must be a string"
        assert c["side"] in SIDES, f"{cid}: bad side {c['side']!r}"
        assert c["type"] in TYPES, f"{cid}: bad type {c['type']!r}"


@pytest.mark.parametrize("row", ROSTER, ids=[row.unit for row in ROSTER])
def test_roster_row_present_with_printed_values(row: Row) -> None:
    all_counters = counters()
    for cid in row.ids:
        assert cid in all_counters, f"{row.unit}: counter {cid!r} missing"
        c = all_counters[cid]
        assert c["side"] == row.side, f"{cid}: side"
        assert c["type"] in row.types, f"{cid}: type {c['type']!r}"
        for key, value in row.printed.items():
            assert c[key] == value, f"{cid}: printed {key} is {value!r}, data has {c[key]!r}"
        for key, value in row.default.items():
            assert c[key] == value, f"{cid}: provisional default {key} is {value!r}, data has {c[key]!r}"
            assert key in row.assumed, f"{row.unit}: a default value must be listed as assumed"


@pytest.mark.parametrize("row", ROSTER, ids=[row.unit for row in ROSTER])
def test_every_unprinted_value_has_an_assumption(row: Row) -> None:
    for cid in row.ids:
        c = counters()[cid]
        text = str(c["assumption"])
        assumed = set(row.assumed) | ({"start"} if cid in OCR_STARTS else set())
        if not assumed:
            continue
        assert text.startswith("provisional:"), f"{cid}: assumption must start 'provisional:'"
        missing = [key for key in sorted(assumed) if not names_key(text, key)]
        assert not missing, f"{cid}: assumption does not name {missing}"
        if set(row.assumed) - {"vp"}:
            assert SHEET in text, f"{cid}: assumption must cite the missing counter sheet"


def test_roster_covers_every_counter_and_counts() -> None:
    listed = [cid for row in ROSTER for cid in row.ids]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(counters()), f"not in the 5.2 roster: {sorted(set(counters()) - set(listed))}"
    for row in ROSTER:
        if row.unit in ROSTER_COUNTS:
            assert len(row.ids) == ROSTER_COUNTS[row.unit], row.unit
    sides = Counter(str(c["side"]) for c in counters().values())
    assert sides == {"allies": 32, "axis": 26}


def test_exactly_the_six_battleships() -> None:
    found = {cid for cid, c in counters().items() if c["type"] == "battleship"}
    assert found == BATTLESHIPS
    # 11.35: Renown and Repulse are named ships, not battleships.
    assert counters()["renown"]["type"] == counters()["repulse"]["type"] == "named"


def test_start_locations_exist() -> None:
    valid = location_ids() | {"offmap"}
    for cid, c in counters().items():
        assert c["start"] in valid, f"{cid}: start {c['start']!r} is not a Strategic Map location"


def test_setup_and_arrivals() -> None:
    assert not set(SETUP) & set(ARRIVALS)
    assert set(SETUP) | set(ARRIVALS) == set(counters())
    for cid, where in SETUP.items():
        c = counters()[cid]
        assert (c["start"], c["arrives"]) == (where, 1), f"{cid}: set-up (digest 2.1)"
    for cid, turn in ARRIVALS.items():
        c = counters()[cid]
        assert (c["start"], c["arrives"]) == ("offmap", turn), f"{cid}: arrival (digest 3.2-3.4)"


def test_carrier_aircraft() -> None:
    all_counters = counters()
    with_carrier = {cid: str(c["carrier"]) for cid, c in all_counters.items() if c["carrier"]}
    assert with_carrier == CARRIER_OF
    for cid, carrier_id in with_carrier.items():
        plane, ship = all_counters[cid], all_counters.get(carrier_id)
        assert ship is not None and ship["type"] == "carrier", f"{cid}: {carrier_id!r} is not a carrier"
        assert plane["type"] in AIRCRAFT
        assert (plane["start"], plane["arrives"]) == (ship["start"], ship["arrives"]), cid
        assert plane["side"] == ship["side"]


def test_aircraft_and_ship_values() -> None:
    for cid, c in counters().items():
        assert c["aa"] == (2 if cid == "aa_cruiser" else 1), f"{cid}: aa"
        if c["type"] in AIRCRAFT:
            assert c["range"] >= 1, f"{cid}: an aircraft needs a range"
            assert c["air_cv"] >= 1, f"{cid}: an aircraft fights aircraft with at least 1 die"
        else:
            assert (c["range"], c["air_cv"], c["carrier"]) == (0, 0, ""), f"{cid}: ship with aircraft values"
            assert c["reroll"] is False, f"{cid}: only aircraft are underlined"
            assert c["cv"] >= 1, f"{cid}: a ship needs surface dice"
        if c["type"] == "fighter":
            # 5.1: a bracketed value is air-to-air only.
            assert c["air_cv"] >= 1 and c["cv"] == 0 and c["reroll"] is False, cid
        if c["type"] == "bomber":
            # 5.1: a plain (unbracketed) number fights aircraft with 1.
            assert c["cv"] >= 1 and c["air_cv"] == 1, cid


def test_unit_vp() -> None:
    # 9.1: battleships 15; other German ships 10; all other counters 10 (11.11 suggestion, the plan).
    for cid, c in counters().items():
        assert c["vp"] == (15 if c["type"] == "battleship" else 10), f"{cid}: vp"
