"""The Narvik scenario read from `scenarios/data/narvik/`: the hex map, the forces, the designed charts and the
victory conditions, each validated with every problem named (file, entry, key)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

import warroom
from warroom.core.errors import ScenarioError
from warroom.core.schema import Reader
from warroom.core.tomlfiles import read_toml_tree
from warroom.rulesets.narvik.hexes import hex_id, is_hex_id, neighbours, side

DATA = Path(warroom.__file__).resolve().parent / "scenarios" / "data" / "narvik"
"""The bundled data, found from the package (a compiled copy of this module lives elsewhere)."""
GERMAN, ALLIED = "german", "allied"
SIDES = (GERMAN, ALLIED)
LAND = ("clear", "forest", "rough", "mountain", "glacier")
SEA, LAKE, NEUTRAL = "sea", "lake", "neutral"
NATIONS = ("german", "norwegian", "british", "french", "polish")
KINDS = ("infantry", "mountain", "parachute", "ski", "cavalry", "machine_gun", "naval_infantry", "artillery",
         "mountain_artillery", "antiaircraft", "antitank", "tank", "headquarters", "truck", "supply_depot")
HQ_KINDS = ("division", "brigade", "regiment", "group")
SIZES = ("company", "battery", "battalion", "regiment", "brigade", "division", "group")
CLASSES = ("foot", "mountain", "motorized")
RESULTS = ("AE", "AR", "AD", "EX", "DD", "DR", "DE")
PLACE_KINDS = ("port", "victory_port", "city", "town", "airfield", "mobilization_centre", "artillery_store")
LIST_KEYS = ("place", "rail", "fjord", "ridge", "sea_zone", "unit", "air", "ship", "turn")


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    hex: str
    kinds: tuple[str, ...]
    sea: str = ""


@dataclass(frozen=True, slots=True)
class HQ:
    kind: str
    mountain: bool
    motorized: bool


@dataclass(frozen=True, slots=True)
class UnitType:
    """A counter as printed (its ratings) with when and where it enters."""

    id: str
    name: str
    short: str
    side: str
    nation: str
    kind: str
    size: str
    attack: int
    defense: int
    movement: int
    motorized: bool
    designation: str
    key_vp: int = 0
    setup: str = ""
    arrives: tuple[int, str] | None = None
    mobilises: tuple[int, str] | None = None
    breaks_into: tuple[str, ...] = ()
    part_of: str = ""
    hq: HQ | None = None
    condition: str = ""
    substitute: UnitType | None = None
    """The artillery-formed infantry battalion received instead when this unit's artillery store is lost."""

    @property
    def enters(self) -> tuple[int, str]:
        """(turn, place) it enters at; turn 0: on the map at the start."""
        if self.arrives is not None:
            return self.arrives
        if self.mobilises is not None:
            return self.mobilises
        return 0, self.setup


AIR_KINDS = ("fighter", "bomber", "dive_bomber", "transport")
OFF_MAP = ("Germany", "Denmark", "Britain", "carrier")


@dataclass(frozen=True, slots=True)
class AirType:
    id: str
    name: str
    short: str
    side: str
    nation: str
    kind: str
    strength: int
    range: int
    base: str
    """An airfield place, or an off-map base (`OFF_MAP`)."""
    arrives: int


@dataclass(frozen=True, slots=True)
class NarvikMap:
    columns: int
    rows: int
    terrain: dict[str, str]
    """Every hex on the map: a land terrain (`LAND`), 'sea', 'lake' or 'neutral'."""
    zone: dict[str, str]
    """Sea hexes -> their sea zone."""
    places: dict[str, Place]
    at: dict[str, tuple[str, ...]]
    """Hex -> the places in it."""
    rails: dict[str, tuple[str, ...]]
    rail_sides: frozenset[tuple[str, str]]
    fjord_sides: frozenset[tuple[str, str]]
    zones: dict[str, str]
    """Sea zone id -> name."""
    assumption: str = ""
    mountain_sides: frozenset[tuple[str, str]] = frozenset()
    """Hexsides along a mountain ridge ([[ridge]])."""

    def is_land(self, hid: str) -> bool:
        return self.terrain.get(hid, "") in LAND

    def place_hex(self, name: str) -> str:
        return self.places[name].hex

    def kinds_at(self, hid: str) -> set[str]:
        return {k for p in self.at.get(hid, ()) for k in self.places[p].kinds}

    def name_of(self, hid: str) -> str:
        """A hex in words: its first place's name and its id, or its id alone."""
        names = self.at.get(hid, ())
        return f"{names[0]} ({hid})" if names else hid


@dataclass(frozen=True, slots=True)
class Charts:
    """The designed charts of rules.toml."""

    classes: dict[str, str]
    cost: dict[str, dict[str, int]]
    along_rail: int
    rail_move_hexes: int
    ridge_cost: dict[str, int]
    columns: tuple[str, ...]
    ratios: tuple[float, ...]
    """The lowest attack-to-defence ratio of each column, read from its label ('1:3' -> 1/3)."""
    results: tuple[tuple[str, ...], ...]
    terrain_shift: dict[str, int]
    disruption: float
    first_turn_roll: frozenset[int]
    option_roll: frozenset[int]
    ground_units: int
    artillery_battalions: int
    artillery_batteries: int
    artillery_kinds: frozenset[str]
    free_kinds: frozenset[str]
    norwegian_limit: dict[str, int]
    general_hexes: int
    attack_hexes: int
    hq_hexes: int
    air_bases: dict[str, str]
    support_most: int
    abort_roll: frozenset[int]
    anti_aircraft_roll: frozenset[int]
    bomb_roll: frozenset[int]
    dive_bomb_roll: frozenset[int]
    interdict_roll: frozenset[int]
    landing_from: int
    landing_lifts: int
    landing_range: int


# a plug-in may subclass it (rulesets.of finds the nearest ancestor's system)
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class NarvikScenario:
    id: str
    title: str
    version: str
    status: str
    sides: tuple[str, ...]
    names: dict[str, str]
    adjectives: dict[str, str]
    turns: int
    map: NarvikMap
    units: dict[str, UnitType]
    charts: Charts
    victory_ports: tuple[str, ...]
    levels: tuple[tuple[int, str], ...]
    vp_shift: int
    dates: dict[int, str]
    destroyers: dict[str, tuple[str, ...]]
    """Port -> the German destroyers in it at the start."""
    air: dict[str, AirType]
    assumption_count: int = 0
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def side_names(self) -> dict[str, str]:
        """The sides' names without the article ('Germans'): a sentence adds it where it reads well."""
        return {s: n.removeprefix("the ").removeprefix("The ") for s, n in self.names.items()}

    def unit_name(self, uid: str) -> str:
        u = self.units.get(uid)
        return u.name if u is not None else uid


def _place_hex(r: Reader, places: dict[str, Place], name: str, what: str) -> str:
    if name not in places:
        r.fail(f"{what}: unknown place {name!r}")
        return ""
    return places[name].hex


def read_map(data: dict[str, Any], where: str, problems: list[str]) -> NarvikMap:
    r = Reader(where, data, problems)
    head = r.table("map", required=True)
    columns = head.integer("columns", lo=1, hi=99)
    rows = head.integer("rows", lo=1, hi=99)
    legend_raw = head.data.get("legend", {})
    legend: dict[str, str] = {}
    if not isinstance(legend_raw, dict):
        head.fail("key 'legend': expected a table of characters")
    else:
        for ch, meaning in legend_raw.items():
            word = str(meaning)
            if word.startswith("sea: "):
                legend[ch] = word
            elif word.startswith("lake"):
                legend[ch] = LAKE
            elif word.startswith("neutral"):
                legend[ch] = NEUTRAL
            elif word in LAND:
                legend[ch] = word
            else:
                head.fail(f"legend {ch!r}: {word!r} is not a sea zone, lake, neutral or one of {', '.join(LAND)}")
    terrain: dict[str, str] = {}
    zone: dict[str, str] = {}
    lines = head.texts("terrain")
    if len(lines) != rows:
        head.fail(f"key 'terrain': {len(lines)} rows, but rows = {rows}")
    for y, line in enumerate(lines, start=1):
        if len(line) != columns:
            head.fail(f"terrain row {y}: {len(line)} characters, but columns = {columns}")
        for x, ch in enumerate(line[:columns], start=1):
            meaning = legend.get(ch)
            if meaning is None:
                head.fail(f"terrain row {y}, column {x}: {ch!r} is not in the legend")
                continue
            hid = hex_id(x, y)
            if meaning.startswith("sea: "):
                terrain[hid] = SEA
                zone[hid] = meaning.removeprefix("sea: ")
            else:
                terrain[hid] = meaning
    zones = {}
    for z in r.tables("sea_zone"):
        z.unknown_keys({"id", "name"})
        zones[z.text("id")] = z.text("name")
    for hid, zid in zone.items():
        if zid not in zones:
            r.fail(f"hex {hid}: sea zone {zid!r} has no [[sea_zone]]")
    places: dict[str, Place] = {}
    at: dict[str, list[str]] = {}
    for p in r.tables("place", label="name"):
        p.unknown_keys({"name", "hex", "kinds", "sea", "lat", "lon", "source"})
        name, hid = p.text("name"), p.text("hex")
        kinds = p.texts("kinds")
        for k in kinds:
            if k not in PLACE_KINDS:
                p.fail(f"kind {k!r} is not one of {', '.join(PLACE_KINDS)}")
        sea = p.text("sea", default="")
        if name in places:
            p.fail(f"a second place named {name!r}")
        if terrain.get(hid, "") not in LAND:
            p.fail(f"hex {hid!r} is not a land hex of the map")
        if "port" in kinds and (sea not in zones or not any(zone.get(n) == sea for n in neighbours(hid))):
            p.fail(f"a port must name its sea zone and touch a sea hex of it (sea = {sea!r})")
        places[name] = Place(name, hid, kinds, sea)
        at.setdefault(hid, []).append(name)
    rails: dict[str, tuple[str, ...]] = {}
    rail_sides: set[tuple[str, str]] = set()
    for rl in r.tables("rail", label="name"):
        rl.unknown_keys({"name", "hexes", "source"})
        hexes = rl.texts("hexes")
        for a, b in itertools.pairwise(hexes):
            if b not in neighbours(a):
                rl.fail(f"hexes {a} and {b} are not neighbours")
            rail_sides.add(side(a, b))
        for i, h in enumerate(hexes):
            at_border = i in (0, len(hexes) - 1) and terrain.get(h, "") == NEUTRAL  # where it crosses into Sweden
            if terrain.get(h, "") not in LAND and not at_border:
                rl.fail(f"hex {h!r} is not a land hex (only a line's first or last hex may be neutral, at the border)")
        rails[rl.text("name")] = hexes
    return NarvikMap(columns, rows, terrain, zone, places, {h: tuple(n) for h, n in at.items()}, rails,
                     frozenset(rail_sides), hexsides(r, "fjord"), zones, head.text("assumption", default=""),
                     hexsides(r, "ridge"))


def hexsides(r: Reader, key: str) -> frozenset[tuple[str, str]]:
    """The hexsides of every [[fjord]] or [[ridge]]: each a pair of neighbouring hex ids."""
    out: set[tuple[str, str]] = set()
    for t in r.tables(key, label="name"):
        t.unknown_keys({"name", "hexsides", "source", "assumption"})
        pairs = t.data.get("hexsides", [])
        if not isinstance(pairs, list):
            t.fail("key 'hexsides': expected a list of [hex, hex] pairs")
            continue
        for pair in pairs:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(h, str) and is_hex_id(h)
                                                                      for h in pair)):
                t.fail(f"hexside {pair!r}: expected two hex ids")
            elif pair[1] not in neighbours(pair[0]):
                t.fail(f"hexside {pair!r}: the hexes are not neighbours")
            else:
                out.add(side(pair[0], pair[1]))
    return frozenset(out)


UNIT_KEYS = {"id", "name", "short", "side", "nation", "kind", "size", "attack", "defense", "movement", "motorized",
             "designation", "key_vp", "setup", "arrives", "mobilises", "breaks_into", "part_of", "hq", "condition",
             "if_store_captured", "source", "assumption"}


def read_unit(u: Reader, places: dict[str, Place], turns: int) -> UnitType:
    u.unknown_keys(UNIT_KEYS)
    uid = u.text("id")
    side_ = u.text("side", choices=SIDES)
    nation = u.text("nation", choices=NATIONS)
    kind = u.text("kind", choices=KINDS)
    short = u.text("short")
    if len(short) > 7:
        u.fail(f"short name {short!r} is longer than 7 characters")
    entries = [k for k in ("setup", "arrives", "mobilises") if u.has(k)]
    if len(entries) != 1:
        u.fail(f"a unit enters by exactly one of setup, arrives or mobilises (it has {', '.join(entries) or 'none'})")
    setup = u.text("setup", default="")
    if setup:
        _place_hex(u, places, setup, "setup")
    arrives = mobilises = None
    if u.has("arrives"):
        a = u.table("arrives")
        a.unknown_keys({"turn", "at"})
        arrives = (a.integer("turn", lo=1, hi=turns), a.text("at"))
        _place_hex(u, places, arrives[1], "arrives")
    if u.has("mobilises"):
        m = u.table("mobilises")
        m.unknown_keys({"turn", "centre"})
        mobilises = (m.integer("turn", lo=1, hi=turns), m.text("centre"))
        if _place_hex(u, places, mobilises[1], "mobilises") and \
                "mobilization_centre" not in places[mobilises[1]].kinds:
            u.fail(f"mobilises at {mobilises[1]!r}, which is not a mobilization centre")
        if nation != "norwegian":
            u.fail("only Norwegian units mobilise")
    hq = None
    if u.has("hq"):
        h = u.table("hq")
        h.unknown_keys({"kind", "mountain", "motorized"})
        hq = HQ(h.text("kind", choices=HQ_KINDS), h.flag("mountain", False),
                h.flag("motorized", False))
        if kind != "headquarters":
            u.fail("only a headquarters has an [hq] table")
    elif kind == "headquarters":
        u.fail("a headquarters needs hq = { kind = ..., mountain = ..., motorized = ... }")
    substitute = None
    if u.has("if_store_captured"):
        s = u.table("if_store_captured")
        s.unknown_keys({"name", "short", "attack", "defense", "movement"})
        at = arrives[1] if arrives else ""
        if not at or "artillery_store" not in places.get(at, Place("", "", ())).kinds:
            u.fail("if_store_captured is for artillery arriving at an artillery store")
        substitute = UnitType(f"{uid}_inf", s.text("name"), s.text("short"), side_, nation, "infantry", "battalion",
                              s.integer("attack", lo=0), s.integer("defense", lo=0), s.integer("movement", lo=1),
                              False, u.text("designation"), arrives=arrives)
    return UnitType(uid, u.text("name"), short, side_, nation, kind, u.text("size", choices=SIZES),
                    u.integer("attack", lo=0, hi=99), u.integer("defense", lo=0, hi=99),
                    u.integer("movement", lo=0, hi=99), u.flag("motorized", False), u.text("designation"),
                    u.integer("key_vp", default=0, lo=0, hi=99), setup, arrives, mobilises, u.texts("breaks_into"),
                    u.text("part_of", default=""), hq, u.text("condition", default="", choices=("", "destroyers_sunk")),
                    substitute)


def read_units(r: Reader, places: dict[str, Place], turns: int) -> dict[str, UnitType]:
    units: dict[str, UnitType] = {}
    for u in r.tables("unit"):
        unit = read_unit(u, places, turns)
        if unit.id in units:
            u.fail(f"a second unit with id {unit.id!r}")
        units[unit.id] = unit
    for unit in units.values():
        for part in unit.breaks_into:
            if part not in units or units[part].part_of != unit.id:
                r.fail(f"unit {unit.id!r} breaks into {part!r}, which is not a unit that is part of it")
            elif units[part].enters != unit.enters:
                r.fail(f"unit {part!r} enters otherwise than {unit.id!r}, which it is part of")
        if unit.part_of and (unit.part_of not in units or unit.id not in units[unit.part_of].breaks_into):
            r.fail(f"unit {unit.id!r} is part of {unit.part_of!r}, which does not break into it")
    return units


def read_charts(data: dict[str, Any], where: str, problems: list[str]) -> Charts:
    r = Reader(where, data, problems)
    mv = r.table("movement", required=True)
    classes = mv.data.get("classes", {})
    if not isinstance(classes, dict) or set(classes) != set(KINDS) or not set(classes.values()) <= set(CLASSES):
        mv.fail(f"key 'classes': every unit kind ({', '.join(KINDS)}) needs a class ({', '.join(CLASSES)})")
        classes = {k: "foot" for k in KINDS}
    cost_raw = mv.data.get("cost", {})
    cost: dict[str, dict[str, int]] = {}
    for terrain in LAND:
        row = cost_raw.get(terrain) if isinstance(cost_raw, dict) else None
        if not isinstance(row, dict) or set(row) != set(CLASSES) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in row.values()):
            mv.fail(f"cost of {terrain!r}: expected a whole number from 0 to 20 for each of {', '.join(CLASSES)}")
            row = {c: 1 for c in CLASSES}
        cost[terrain] = dict(row)
    ridge = mv.data.get("ridge_cost", {})
    if not isinstance(ridge, dict) or set(ridge) != set(CLASSES) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in ridge.values()):
        mv.fail(f"key 'ridge_cost': expected a whole number from 0 to 20 for each of {', '.join(CLASSES)}")
        ridge = {c: 1 for c in CLASSES}
    cb = r.table("combat", required=True)
    columns = cb.texts("columns")
    results_raw = cb.data.get("results", [])
    results: list[tuple[str, ...]] = []
    if not isinstance(results_raw, list) or len(results_raw) != 6:
        cb.fail("key 'results': expected six rows, one per die roll")
    else:
        for i, row in enumerate(results_raw, start=1):
            if not isinstance(row, list) or len(row) != len(columns) or not all(x in RESULTS for x in row):
                cb.fail(f"results row {i}: expected {len(columns)} results from {', '.join(RESULTS)}")
                row = ["AD"] * len(columns)
            results.append(tuple(row))
    shift_raw = cb.data.get("terrain_shift", {})
    if not isinstance(shift_raw, dict) or set(shift_raw) != set(LAND) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in shift_raw.values()):
        cb.fail(f"key 'terrain_shift': a whole number of columns for each of {', '.join(LAND)}")
        shift_raw = {t: 0 for t in LAND}
    ratios: list[float] = []
    for label in columns:
        a, _, b = label.partition(":")
        if not (a.isdigit() and b.isdigit() and int(a) > 0 and int(b) > 0):
            cb.fail(f"column {label!r}: odds are written attacker:defender, e.g. 1:2 or 3:1")
            continue
        ratios.append(int(a) / int(b))
    if ratios != sorted(set(ratios)):
        cb.fail("key 'columns': the odds must rise from left to right, each once")
    rt = r.table("retreat", required=True)
    st = r.table("stacking", required=True)
    hq = r.table("headquarters", required=True)
    limits = hq.data.get("norwegian_limit", {})
    if not isinstance(limits, dict) or set(limits) != set(HQ_KINDS) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in limits.values()):
        hq.fail(f"key 'norwegian_limit': a whole number from 0 to 20 for each of {', '.join(HQ_KINDS)}")
        limits = {}
    for key in ("artillery_kinds", "free_kinds"):
        for kind in st.texts(key):
            if kind not in KINDS:
                st.fail(f"key {key!r}: {kind!r} is not a unit kind ({', '.join(KINDS)})")
    sp = r.table("supply", required=True)
    air = r.table("air_missions", required=True)
    bases = air.data.get("bases", {})
    if not isinstance(bases, dict) or set(bases) != set(OFF_MAP) or not all(
            isinstance(h, str) and is_hex_id(h) for h in bases.values()):
        air.fail(f"key 'bases': a hex id for each off-map base ({', '.join(OFF_MAP)})")
        bases = {b: "0101" for b in OFF_MAP}
    nv = r.table("naval", required=True)
    factor = r.table("disruption", required=True).data.get("factor", 0.5)
    if not isinstance(factor, float) or not 0 < factor <= 1:
        r.fail("[disruption] factor: a number above 0 and at most 1")
        factor = 0.5
    return Charts(dict(classes), cost, mv.integer("along_rail", lo=1, hi=20), mv.integer("rail_move_hexes", lo=0),
                  dict(ridge),
                  columns, tuple(ratios), tuple(results), dict(shift_raw), factor, rolls(rt, "first_turn_roll"),
                  rolls(rt, "option_roll"), st.integer("ground_units", lo=1),
                  st.integer("artillery_battalions", lo=1, hi=9), st.integer("artillery_batteries", lo=1, hi=9),
                  frozenset(st.texts("artillery_kinds")), frozenset(st.texts("free_kinds")), dict(limits),
                  sp.integer("general_hexes", lo=1), sp.integer("attack_hexes", lo=1), sp.integer("hq_hexes", lo=0),
                  dict(bases), air.integer("support_most", lo=0, hi=6), rolls(air, "abort_roll"),
                  rolls(air, "anti_aircraft_roll"), rolls(air, "bomb_roll"), rolls(air, "dive_bomb_roll"),
                  rolls(nv, "interdict_roll"), nv.integer("landing_from_turn", lo=1),
                  nv.integer("landing_lifts", lo=0, hi=20), nv.integer("landing_range", lo=1, hi=30))


def rolls(r: Reader, key: str) -> frozenset[int]:
    """The faces of a die on which something happens: a list of whole numbers from 1 to 6."""
    faces = r.integers(key)
    if any(not 1 <= f <= 6 for f in faces) or len(set(faces)) != len(faces):
        r.fail(f"key {key!r}: the faces of a die, each from 1 to 6 and once, got {list(faces)}")
    return frozenset(faces)


def count_assumptions(data: Any) -> int:
    """Every `assumption` (or `*_assumption`) key with a text, anywhere in the data."""
    if isinstance(data, dict):
        return sum(1 for k, v in data.items() if (k == "assumption" or k.endswith("_assumption")) and v) + sum(
            count_assumptions(v) for v in data.values())
    if isinstance(data, list):
        return sum(count_assumptions(v) for v in data)
    return 0


def load_folder(folder: Path) -> NarvikScenario:
    """The scenario of a folder holding scenario.toml, rules.toml, map.toml and forces.toml (geography.toml, the
    source of the map, is not read)."""
    folder = Path(folder)
    problems: list[str] = []
    data: dict[str, Any] = {}
    for name in ("scenario.toml", "rules.toml", "map.toml", "forces.toml"):
        if not (folder / name).is_file():
            problems.append(f"{folder / name}: missing (a Narvik scenario folder holds scenario.toml, rules.toml, "
                            "map.toml and forces.toml)")
            continue
        try:
            part, _ = read_toml_tree(folder / name)
        except ScenarioError as exc:
            problems.extend(exc.problems)
            continue
        for key, value in part.items():
            if key in data:
                problems.append(f"{folder / name}: top-level key {key!r} is defined in another file too")
            data[key] = value
    if problems:
        raise ScenarioError(problems)
    where = str(folder)
    r = Reader(where, data, problems)
    head = r.table("scenario", required=True)
    turns = head.integer("turns", lo=1, hi=99)
    sides = head.texts("sides")
    if sides != SIDES:
        head.fail(f"key 'sides': the game has two sides, {', '.join(SIDES)}")
    names = head.data.get("names", {})
    adjectives = head.data.get("adjectives", {})
    if not isinstance(names, dict) or set(names) != set(SIDES) or not isinstance(adjectives, dict) \
            or set(adjectives) != set(SIDES):
        head.fail("keys 'names' and 'adjectives': a text for each side")
        names, adjectives = {s: s for s in SIDES}, {s: s for s in SIDES}
    nmap = read_map(data, f"{folder / 'map.toml'}", problems)
    units = read_units(Reader(f"{folder / 'forces.toml'}", data, problems), nmap.places, turns)
    charts = read_charts(data, f"{folder / 'rules.toml'}", problems)
    vic = r.table("victory", required=True)
    ports = vic.texts("ports")
    if len(set(ports)) != len(ports):
        vic.fail("key 'ports': a victory port is named twice")
    for p in ports:
        if p not in nmap.places or "port" not in nmap.places[p].kinds:
            vic.fail(f"victory port {p!r} is not a port of the map")
    levels_raw = vic.data.get("levels", [])
    levels: list[tuple[int, str]] = []
    for i, lv in enumerate(levels_raw if isinstance(levels_raw, list) else []):
        lr = Reader(f"{where}: [victory] levels[{i}]", lv, problems)
        levels.append((lr.integer("ports", lo=0, hi=len(ports)), lr.text("label")))
    if not levels or levels[-1][0] != 0 or any(a[0] <= b[0] for a, b in itertools.pairwise(levels)):
        vic.fail("key 'levels': from the most German-held ports down to 0, each with its label")
    dates: dict[int, str] = {}
    for t in r.tables("turn", label="no"):
        t.unknown_keys({"no", "dates"})
        dates[t.integer("no", lo=1, hi=turns)] = t.text("dates")
    destroyers: dict[str, list[str]] = {}
    for s in r.tables("ship"):
        s.unknown_keys({"id", "name", "side", "kind", "at", "source", "assumption"})
        at = s.text("at")
        if at not in nmap.places:
            s.fail(f"unknown place {at!r}")
        if s.text("kind") == "destroyer" and s.text("side", choices=SIDES) == GERMAN:
            destroyers.setdefault(at, []).append(s.text("id"))
    air: dict[str, AirType] = {}
    for a in r.tables("air"):
        a.unknown_keys({"id", "name", "short", "side", "nation", "kind", "strength", "range", "base", "arrives",
                        "source", "assumption"})
        base = a.text("base")
        if base not in OFF_MAP and ("airfield" not in nmap.places.get(base, Place("", "", ())).kinds):
            a.fail(f"base {base!r} is neither an airfield of the map nor one of {', '.join(OFF_MAP)}")
        if len(a.text("short")) > 7:
            a.fail("short name longer than 7 characters")
        unit_air = AirType(a.text("id"), a.text("name"), a.text("short"), a.text("side", choices=SIDES),
                           a.text("nation", choices=NATIONS), a.text("kind", choices=AIR_KINDS),
                           a.integer("strength", lo=0, hi=99), a.integer("range", lo=1, hi=99), base,
                           a.integer("arrives", lo=1, hi=turns))
        if unit_air.id in air or unit_air.id in units:
            a.fail(f"a second unit with id {unit_air.id!r}")
        air[unit_air.id] = unit_air
    r.unknown_keys({"scenario", "victory", "map", "place", "rail", "fjord", "ridge", "sea_zone", "unit", "air", "ship",
                    "turn", "ratings", "movement", "combat", "disruption", "retreat", "stacking", "headquarters",
                    "air_missions", "naval",
                    "supply"})
    if problems:
        raise ScenarioError(problems)
    return NarvikScenario(head.text("id"), head.text("title"), head.text("version"), head.text("status"), SIDES,
                          dict(names), dict(adjectives), turns, nmap, units, charts, ports, tuple(levels),
                          vic.integer("vp_shift", lo=1), dates, {p: tuple(d) for p, d in destroyers.items()}, air,
                          count_assumptions(data))

