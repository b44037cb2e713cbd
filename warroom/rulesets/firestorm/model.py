"""The Firestorm scenario model: maps, troops, turns and tables, read and validated from data.

Numbers, maps and orders of battle are data; the rules that use them are code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from warroom.core.errors import ScenarioError
from warroom.core.schema import Reader
from warroom.core.state import NOT_SIDES
from warroom.rulesets.firestorm.counters import CounterDef, parse_counters
from warroom.rulesets.firestorm.maps import TERRAINS, AreaDef, BorderDef, StratAreaDef, parse_maps

TROOP_FLAGS = ("panzer",)
HOOKS = (
    "dday", "german_defence", "tactical_reserve", "beach_defence", "carpet_bombing", "caumont_gap",
    "panzer_units", "fortifications", "weather", "t1_moselle_restriction", "german_success", "norway_supply",
    "strategic_game", "ofotfjord", "evacuation", "naval_gunfire", "norway_air", "norway_turns", "norway_briefing",
)
POOL_RULES = ("any", "beach", "depot")
NATIONS = ("norwegian", "british", "french", "polish", "german", "american")
VALUE_DEFAULTS: dict[str, Any] = {
    "carpet_gw": 2,  # Caen: carpet bombing GW bonus
    "beach_gw": 2,  # Caen: Allies defending a beach
    "fortified_gw": 4,  # Lorraine: Metz
    "terrain_defence": {},  # Caen: defending in bocage or Caen
    "defence_variable": [1, 1, 1, 1, 2, 2],  # Caen German Defence troop GW bonus by d6
    "defence_tabletop": [],  # ... and its tabletop force by d6
    "defence_max_regular": 3,  # ... not beside this many regular German troops
    "defence_from_turn": 2,  # ... from this turn on
    "t1_open_targets": [],  # Lorraine: turn 1 US targets allowed without crossing the Moselle
    "arrival_fallback": "pool",  # new unit's area enemy-held: "pool" or "adjacent" friendly area
    "german_success_areas": [],  # Lorraine German Success
    "german_success_vp": 0,
    "caumont": {},  # Caen Caumont Gap: turn, trigger, gap, target, attacker, defender
    "narvik_map": "",  # Norway: the land map whose German supply is a die roll before each battle
    "narvik_supply": [],  # ... the roll needed per turn (0 = automatic)
    "evade_side": "",  # Norway Strategic Game: the side that may declare a voluntary retreat (6.5)
    "bombing_targets": {},  # ... side -> harbours open to special bombing missions (6.9)
    "home_airfields": {},  # ... side -> home airfield (aircraft over a limit re-base there)
    "rail_hub": "",  # ... the land area airfields trace rail supply to (7.6)
    "sub_strategic_move": 2,  # ... areas a submarine moves in the Strategic Phase (11.6)
    "allied_ports": {},  # ... Allied supply source area -> the harbour whose sea lane and bombing govern it
    "naval_infantry": {},  # ... counter, harbour, turn, map and troops of the Marine Regiment Berger rule
    "fjord_harbour": "",  # Norway (ofotfjord): the Strategic Map harbour whose holder may cross fjord areas
    "evacuation_ports": [],  # Norway (evacuation): land areas whose harbour may take a beaten garrison off
    "evacuation_stay": [],  # ... nations that retreat normally instead
    "gunfire_map": "",  # Norway (naval_gunfire): the land map whose battles ships may support
    "gunfire_harbour": "",  # ... the harbour the supporting ships must be in
    "land_air": {},  # Norway (norway_air): side -> list of sortie rules (maps, turns, counter, intercept)
    "bodo": {},  # Norway (norway_turns): map, port and trace_to of the Bodø airfield rule
    "map_closure": {},  # ... map, ports, capture_nations, vp, bar_bodo: the end-of-turn map closure
    "wrapup": {},  # ... map, harbour, nations: who leaves by sea (or is captured) at the end
    "warriors": [],  # Norway (norway_briefing): tabletop Warriors: name, side, map, cost, joins
    "force_points": [],  # ... the suggested force before Firestorm Troops: [low, high]
    "reduced_faces": [],  # ... out-of-supply die faces meaning "strength reduced"
    "reduced_percent": 100,  # ... what is left of the force then
}
"""Named campaign numbers a scenario may set in `[rules.values]`, with their one default each."""
LOCATIONS = ("pool", "offmap")


def gw_bonus(bonus: dict[str, int], variable: tuple[int, ...], terrain: str, face: int) -> int:
    """A General's Wargame bonus: from a d6 table if variable, else by terrain ('*' = any terrain)."""
    if variable:
        return variable[face - 1]
    return bonus.get(terrain, bonus.get("*", 0))


@dataclass(frozen=True, slots=True)
class TroopDef:
    """A Firestorm Troop counter (core digest section 1)."""

    id: str
    name: str
    side: str
    category: str
    bonus: dict[str, int]
    variable: tuple[int, ...]
    points: int
    rating: str
    capture_vp: int
    flags: frozenset[str]
    start: str
    assumption: str = ""
    tabletop: tuple[tuple[int, str], ...] = ()  # a variable troop's tabletop table: (highest face, force)
    nation: str = ""  # Norway: supply and evacuation rules depend on it
    platoon: str = ""  # its tabletop platoon, for the briefing (Norway digest 4)

    def gw_bonus(self, terrain: str, face: int = 0) -> int:
        """The General's Wargame bonus in `terrain`; `face` is the d6 of a variable troop."""
        return gw_bonus(self.bonus, self.variable, terrain, face)

    @property
    def is_panzer(self) -> bool:
        return "panzer" in self.flags


@dataclass(frozen=True, slots=True)
class AirDef:
    """A side's air sorties: a bonus (flat, by terrain or a d6 table) and sorties per turn."""

    side: str
    name: str
    bonus: dict[str, int]
    variable: tuple[int, ...]
    sorties: tuple[int, ...]

    def gw_bonus(self, terrain: str, face: int = 0) -> int:
        return gw_bonus(self.bonus, self.variable, terrain, face)


@dataclass(frozen=True, slots=True)
class Arrival:
    """A new unit entering play; `areas` empty means wherever the side's pool rule allows."""

    unit: str
    areas: tuple[str, ...]
    when: str  # "planning" | "strategic"
    landing: str = ""  # Norway: a landing through this Strategic Map harbour, made only with sea control
    on_fail: str = "lost"  # ... and if control fails: "lost" for good, or "wait" one turn and try again
    seize: bool = False  # an air drop: takes its listed area if no enemy troop holds it, else lands next door


BONUS_KINDS = ("capture", "hold", "clear")


@dataclass(frozen=True, slots=True)
class BonusDef:
    """A turn's bonus VP (Norway 9.3): `capture` pays when `side` takes `area` in a battle of the turn;
    `hold` when it holds `area` at the end of the turn; `clear` when no enemy troop is left on `map`
    then. Bonuses sharing a `key` are paid once per campaign."""

    when: str
    side: str
    vp: int
    key: str
    area: str = ""
    map: str = ""


@dataclass(frozen=True, slots=True)
class TurnDef:
    number: int
    name: str
    battles_base: int
    battles_d3: int
    initiative_side: str
    initiative_bonus: int
    tie_side: str
    arrivals: tuple[Arrival, ...]
    reserve_limit: int = 0
    carpet: int = 0
    special: frozenset[str] = frozenset()
    withdraw: tuple[str, ...] = ()
    actions: int = 0  # Norway: Strategic Actions this turn (shared, alternating)
    first: str = ""  # ... and the side that takes the first
    landing_vp: int = 0  # ... VP to the Allies for each harbour where a landing was made this turn
    sunk_vp: int = 0  # ... extra VP to the enemy for each Allied surface ship sunk this turn
    bonus: tuple[BonusDef, ...] = ()


@dataclass(frozen=True, slots=True)
class Rules:
    stacking: int
    advance_cap: int
    move_range: int
    redeploy_returned: bool
    reinforce_order: tuple[str, ...]
    move_order: tuple[str, ...]
    pool_areas: dict[str, str]
    destroyed_to: str  # "pool" | "gone"
    oos_gw: int
    river_gw: int
    hooks: frozenset[str]
    fow_destroy: tuple[tuple[int, int], ...]  # (min own VP, roll needed), best first
    gw_destroy: tuple[tuple[int, int, int], ...]  # (min difference, vs loser, vs winner); 0 = no roll
    out_of_supply: tuple[tuple[int, str], ...]  # (highest face, effect)
    thresholds: tuple[tuple[int, str], ...]  # (min VP difference, level)
    values: dict[str, Any] = field(default_factory=dict)  # named campaign numbers for hooks

    def value(self, name: str) -> Any:
        """A campaign number from `[rules.values]`, or its default (VALUE_DEFAULTS)."""
        return self.values.get(name, VALUE_DEFAULTS[name])


# a plug-in may subclass it (rulesets.of finds the nearest ancestor's system), compiled too (scripts/compile.py)
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(slots=True)
class FirestormScenario:
    id: str
    version: str
    title: str
    system: str
    sides: tuple[str, str]
    side_names: dict[str, str]
    description: str
    status: str  # "ready" | "draft" (validates, but is not offered for play)
    maps: dict[str, dict[str, Any]]
    areas: dict[str, AreaDef]
    borders: list[BorderDef]
    troops: dict[str, TroopDef]
    air: dict[str, AirDef]
    turns: list[TurnDef]
    rules: Rules
    tables: dict[str, Any]
    adjacency: dict[str, tuple[str, ...]] = field(default_factory=dict)
    rivers: dict[frozenset[str], str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)
    strat_areas: dict[str, StratAreaDef] = field(default_factory=dict)  # Norway's Strategic Map
    counters: dict[str, CounterDef] = field(default_factory=dict)  # its ships, submarines and aircraft
    sea_adj: dict[str, tuple[str, ...]] = field(default_factory=dict)
    air_adj: dict[str, tuple[str, ...]] = field(default_factory=dict)
    strat_borders: list[tuple[str, str, str]] = field(default_factory=list)  # (a, b, kind), for drawing the map
    no_stop: frozenset[str] = frozenset()  # pass-through areas (Norway's Ofotfjord, hook ofotfjord)
    replays: dict[str, dict[str, Any]] = field(default_factory=dict)  # older version -> the params that replay it
    side_adjectives: dict[str, str] = field(default_factory=dict)  # 'German' for the Germans, in outcome labels

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def area_id(self, text: str) -> str | None:
        """The canonical area id for `text` (case-insensitive, legacy codes accepted)."""
        return self.aliases.get(text.strip().upper().replace(" ", ""))

    def turn(self, number: int) -> TurnDef:
        return self.turns[number - 1]

    def has(self, hook: str) -> bool:
        return hook in self.rules.hooks


def _bonus(r: Reader, key: str) -> dict[str, int]:
    if not r.has(key):
        return {}
    raw = r.data[key]
    if isinstance(raw, int) and not isinstance(raw, bool):
        return {"*": raw}
    if isinstance(raw, dict) and all(k in TERRAINS and isinstance(v, int) for k, v in raw.items()):
        return dict(raw)
    r.fail(f"key {key!r}: expected an integer or a table of {', '.join(TERRAINS)} -> integer, got {raw!r}")
    return {}


"""Who else may be to act: never a side's id."""


REVISION = 2
"""The revision of the Firestorm rules a new game is played under (its `params["revision"]`):
1. before issue 13: a strategic move never enters a full area; ships meeting submarines and surface ships together
   always fight the surface ships;
2. Caen 4.1 (stacking may be exceeded while moving) and Norway 6.8 (each counter aims at the submarines or the
   ships).
A game keeps the revision it began with, so saves and club campaigns from before a rule fix replay exactly."""


def parse_replays(head: Reader) -> dict[str, dict[str, Any]]:
    """`[scenario] replays`: each older version of the scenario whose saves still replay, with the parameters
    that replay them (e.g. `replays = { "1.0.0" = { revision = 1 } }`)."""
    raw = head.data.get("replays", {})
    if not isinstance(raw, dict):
        head.fail(f"key 'replays': expected a table of versions, got {type(raw).__name__}")
        return {}
    out: dict[str, dict[str, Any]] = {}
    current = head.data.get("version")
    for version, params in raw.items():
        if version == current:
            head.fail(f"key 'replays.{version}': that is this scenario's own version (its saves replay as they are)")
            continue
        if not isinstance(params, dict) or set(params) != {"revision"} or not isinstance(params["revision"], int) \
                or isinstance(params["revision"], bool) or not 1 <= params["revision"] < REVISION:
            head.fail(f"key 'replays.{version}': expected {{ revision = N }} with N from 1 to {REVISION - 1}, "
                      f"got {params!r}")
            continue
        out[str(version)] = dict(params)
    return out


def parse_scenario(data: dict[str, Any], where: str) -> FirestormScenario:
    """Build and validate a Firestorm scenario. Raises `ScenarioError` listing every problem."""
    problems: list[str] = []
    root = Reader(where, data, problems)
    head = root.table("scenario", required=True)
    sides_t = head.texts("sides")
    sides: tuple[str, str] = (sides_t[0], sides_t[1]) if len(sides_t) == 2 else ("allies", "axis")
    if len(sides_t) != 2:
        head.fail("key 'sides': expected exactly two side ids")
    for side in sides_t:
        if side in NOT_SIDES:
            head.fail(f"key 'sides': {side!r} cannot be a side's id (it names who else may be to act)")
    if len(set(sides_t)) != len(sides_t):
        head.fail("key 'sides': the two sides need two different ids")
    side_names_r = head.table("side_names")
    side_names = {s: side_names_r.text(s, s.title()) for s in sides}
    adjectives_r = head.table("side_adjectives")
    side_adjectives = {s: adjectives_r.text(s, side_names[s]) for s in sides}
    n_turns = head.integer("turns", lo=1, hi=20)

    mapset = parse_maps(root, sides, problems, where)
    areas = mapset.areas
    assumptions = mapset.assumptions

    troops: dict[str, TroopDef] = {}
    for t in root.tables("troop"):
        tid = t.text("id")
        if tid in troops:
            t.fail(f"duplicate troop id {tid!r}")
        side = t.text("side", choices=sides)
        start = t.text("start", "offmap")
        if start not in LOCATIONS and start not in areas:
            t.fail(f"start {start!r} is not an area on the map (nor 'pool' or 'offmap')")
        flags = t.texts("flags")
        for f in flags:
            if f not in TROOP_FLAGS:
                t.fail(f"unknown troop flag {f!r} (known: {', '.join(TROOP_FLAGS)})")
        variable = t.integers("variable", length=6) if t.has("variable") else ()
        bonus = _bonus(t, "bonus")
        if not bonus and not variable:
            t.fail("a troop needs 'bonus' or 'variable' (its General's Wargame bonus)")
        troop = TroopDef(
            id=tid, name=t.text("name", tid), side=side, category=t.text("category", "infantry"),
            bonus=bonus, variable=variable, points=t.integer("points", 0, lo=0),
            rating=t.text("rating", ""), capture_vp=t.integer("capture_vp", 10, lo=0), flags=frozenset(flags),
            start=start, assumption=t.text("assumption", ""),
            tabletop=tuple((int(r[0]), str(r[1])) for r in _rows(t, "tabletop", 2, last_str=True))
            if t.has("tabletop") else (),
            nation=t.text("nation", "", NATIONS) if t.has("nation") else "",
            platoon=t.text("platoon", ""),
        )
        troops[tid] = troop
        if troop.assumption:
            assumptions.append(f"troop {tid}: {troop.assumption}")

    air: dict[str, AirDef] = {}
    for a in root.tables("air", label="side"):
        side = a.text("side", choices=sides)
        sorties = a.integers("sorties", length=n_turns)
        air[side] = AirDef(side, a.text("name", "air"), _bonus(a, "bonus"),
                           a.integers("variable", length=6) if a.has("variable") else (), sorties)

    rr = root.table("rules", required=True)
    hooks = rr.texts("hooks")
    for h in hooks:
        if h not in HOOKS:
            rr.fail(f"unknown hook {h!r} (known: {', '.join(HOOKS)})")
    pool_r = rr.table("pool_areas")
    pool_areas = {s: pool_r.text(s, "any", POOL_RULES) for s in sides}
    order_checks = []
    for key in ("reinforce_order", "move_order"):
        order = rr.texts(key, sides)
        if sorted(order) != sorted(sides):
            rr.fail(f"key {key!r}: must list both sides once, got {list(order)}")
            order = sides
        order_checks.append(order)
    tables_r = root.table("tables", required=True)
    # each table is stored in the order its reader expects, whatever order the file lists the rows in
    fow = tuple(sorted(((row[0], row[1]) for row in _rows(tables_r, "fow_destroy", 2)), reverse=True))
    gw = tuple(sorted((row[0], row[1], row[2]) for row in _rows(tables_r, "gw_destroy", 3)))
    oos = tuple(sorted((row[0], str(row[1])) for row in _rows(tables_r, "out_of_supply", 2, last_str=True)))
    thresholds = tuple(sorted(((row[0], str(row[1])) for row in _rows(tables_r, "outcome", 2, last_str=True)),
                              reverse=True))
    values_r = rr.table("values")
    values_r.unknown_keys(set(VALUE_DEFAULTS))
    values = dict(values_r.data)
    rules = Rules(
        stacking=rr.integer("stacking", 0, lo=0), advance_cap=rr.integer("advance_cap", 3, lo=0, hi=10),
        move_range=rr.integer("move_range", 1, lo=0, hi=50),
        redeploy_returned=rr.flag("redeploy_returned", False), reinforce_order=order_checks[0],
        move_order=order_checks[1], pool_areas=pool_areas,
        destroyed_to=rr.text("destroyed_to", "pool", ("pool", "gone")), oos_gw=rr.integer("oos_gw", -2),
        river_gw=rr.integer("river_gw", 2), hooks=frozenset(hooks), fow_destroy=fow, gw_destroy=gw,
        out_of_supply=oos, thresholds=thresholds, values=values,
    )

    turns: list[TurnDef] = []
    for i, t in enumerate(root.tables("turn", label="name"), start=1):
        number = t.integer("number")
        if number != i:
            t.fail(f"turns must be numbered 1, 2, ... in order; expected {i}, got {number}")
        init = t.table("initiative")
        arrivals: list[Arrival] = []
        for ar in t.tables("arrival", label="unit"):
            unit = ar.text("unit")
            if unit not in troops:
                ar.fail(f"unit {unit!r} in turn {i} arrivals is not a defined troop")
            places = ar.texts("areas")
            for p in places:
                if p not in areas:
                    ar.fail(f"area {p!r} in turn {i} arrivals is not on the map")
            landing = ar.text("landing", "")
            if landing and (landing not in mapset.strat_areas or mapset.strat_areas[landing].kind != "harbour"):
                ar.fail(f"key 'landing': {landing!r} is not a harbour of the Strategic Map")
            arrivals.append(Arrival(unit, places, ar.text("when", "strategic", ("planning", "strategic")),
                                    landing, ar.text("on_fail", "lost", ("lost", "wait")), ar.flag("seize", False)))
        special = t.texts("special")
        withdraw = t.texts("withdraw")
        for w in withdraw:
            if w not in troops:
                t.fail(f"unit {w!r} in turn {i} withdrawals is not a defined troop")
        bonuses: list[BonusDef] = []
        for br in t.tables("bonus", label="when"):
            when = br.text("when", choices=BONUS_KINDS)
            bside = br.text("side", choices=sides)
            barea, bmap = br.text("area", ""), br.text("map", "")
            if when in ("capture", "hold") and barea not in areas:
                br.fail(f"area {barea!r} in turn {i} bonus is not on the map")
            if when == "clear" and bmap not in mapset.maps:
                br.fail(f"map {bmap!r} in turn {i} bonus is not a map")
            bonuses.append(BonusDef(when, bside, br.integer("vp", 0, lo=0, hi=1000),
                                    br.text("key", f"t{i}:{when}:{barea or bmap}:{bside}"), barea, bmap))
        turns.append(TurnDef(
            number=i, name=t.text("name"), battles_base=t.integer("battles", 0, lo=0, hi=30),
            battles_d3=t.integer("battles_d3", 0, lo=0, hi=5),
            initiative_side=init.text("side", sides[0], sides), initiative_bonus=init.integer("bonus", 0, lo=0, hi=6),
            tie_side=init.text("ties", sides[0], sides), arrivals=tuple(arrivals),
            reserve_limit=t.integer("reserve_limit", 0, lo=0, hi=5), carpet=t.integer("carpet", 0, lo=0, hi=5),
            actions=t.integer("actions", 0, lo=0, hi=30),
            first=t.text("first", sides[0], sides),
            landing_vp=t.integer("landing_vp", 0, lo=0, hi=100),
            sunk_vp=t.integer("sunk_vp", 0, lo=0, hi=100),
            special=frozenset(special), withdraw=withdraw, bonus=tuple(bonuses),
        ))
    if len(turns) != n_turns:
        head.fail(f"key 'turns' says {n_turns} but {len(turns)} [[turn]] tables are given")

    scenario = FirestormScenario(
        id=head.text("id"), version=head.text("version", "1"), title=head.text("title"),
        system=head.text("system", "firestorm"), sides=sides, side_names=side_names, side_adjectives=side_adjectives,
        description=head.text("description", ""), status=head.text("status", "ready", ("ready", "draft")),
        maps=mapset.maps, areas=areas, borders=mapset.borders,
        troops=troops, air=air, turns=turns, rules=rules,
        tables={k: v for k, v in tables_r.data.items()},
        adjacency=mapset.adjacency, rivers=mapset.rivers, aliases=mapset.aliases,
        assumptions=assumptions + [f"rule: {a}" for a in rr.texts("assumptions")],
        strat_areas=mapset.strat_areas, sea_adj=mapset.sea_adj, air_adj=mapset.air_adj,
        strat_borders=mapset.strat_borders,
        counters=parse_counters(root, sides, mapset.strat_areas, max(n_turns, 1), problems),
        no_stop=frozenset(a.id for a in areas.values() if "fjord" in a.flags) if "ofotfjord" in hooks
        else frozenset(),
        replays=parse_replays(head),
    )
    _check_supply_sources(scenario, problems, where)
    _check_references(scenario, problems, where)
    _check_stacking(scenario, problems, where)
    if problems:
        raise ScenarioError(problems)
    return scenario


def _rows(r: Reader, key: str, width: int, last_str: bool = False) -> list[tuple[Any, ...]]:
    raw = r.data.get(key)
    if raw is None:
        r.fail(f"missing key {key!r}")
        return []
    out: list[tuple[Any, ...]] = []
    if not isinstance(raw, list):
        r.fail(f"key {key!r}: expected a list of rows")
        return []
    for i, row in enumerate(raw):
        good = isinstance(row, list) and len(row) == width and all(
            isinstance(v, str) if (last_str and j == width - 1) else isinstance(v, int) for j, v in enumerate(row)
        )
        if not good:
            r.fail(f"key {key!r} row {i}: expected {width} values, got {row!r}")
            continue
        out.append(tuple(row))
    return out


def _check_references(s: FirestormScenario, problems: list[str], where: str) -> None:
    """Units and areas named by campaign tables and values must exist."""
    units: list[tuple[str, str]] = []
    areas: list[tuple[str, str]] = []
    if s.has("dday"):
        tonga = s.tables.get("tonga")
        neptune = s.tables.get("neptune")
        if not isinstance(tonga, dict) or not isinstance(neptune, dict):
            problems.append(f"{where}: hook 'dday' needs [tables.tonga] and [tables.neptune]")
        else:
            units.append(("[tables.tonga] unit", str(tonga.get("unit"))))
            areas.append(("[tables.tonga] area", str(tonga.get("area"))))
            units.append(("[tables.neptune] counter_attack", str(neptune.get("counter_attack"))))
            for row in neptune.get("beaches", []):
                if not (isinstance(row, list) and len(row) == 3):
                    problems.append(f"{where}: [tables.neptune] beaches row {row!r}: expected [area, unit, unit]")
                    continue
                areas.append(("[tables.neptune] beaches", str(row[0])))
                units.extend(("[tables.neptune] beaches", str(u)) for u in row[1:])
            for key in ("tonga", "neptune"):
                rows = s.tables[key].get("rows")
                if not isinstance(rows, list) or len(rows) != 6:
                    problems.append(f"{where}: [tables.{key}] rows: expected 6 rows, one per die face")
    if s.has("caumont_gap"):
        v = s.rules.value("caumont")
        if not isinstance(v, dict) or not v:
            problems.append(f"{where}: hook 'caumont_gap' needs [rules.values] caumont")
        else:
            areas.extend(("[rules.values] caumont", str(v.get(k))) for k in ("trigger", "gap", "target"))
            units.extend(("[rules.values] caumont", str(v.get(k))) for k in ("attacker", "defender"))
    if s.has("german_success"):
        areas.extend(("[rules.values] german_success_areas", str(a))
                     for a in s.rules.value("german_success_areas"))
    _check_norway(s, problems, where, units, areas)
    for label, unit in units:
        if unit not in s.troops:
            problems.append(f"{where}: {label}: unit {unit!r} is not a defined troop")
    for label, area in areas:
        if area not in s.areas:
            problems.append(f"{where}: {label}: area {area!r} is not on the map")


def _check_stacking(s: FirestormScenario, problems: list[str], where: str) -> None:
    """The troops set up on the map keep within the stacking limit (Caen 4.1): the moves' rules let an area go over
    it only by a move that can be undone, so a start over it would leave the first mover with no legal action."""
    limit = s.rules.stacking
    if limit < 1:  # no limit (0), or one refused already
        return
    starts: dict[str, list[str]] = {}
    for t in s.troops.values():
        if t.start in s.areas:
            starts.setdefault(t.start, []).append(t.id)
    for area, here in starts.items():
        if len(here) > limit:
            problems.append(f"{where}: [rules] stacking = {limit}, but {len(here)} troops start in {area} "
                            f"({', '.join(here)})")
    neptune = s.tables.get("neptune") if s.has("dday") else None
    for row in neptune.get("beaches", []) if isinstance(neptune, dict) else []:
        if isinstance(row, list) and len(row) == 3 and len(row) - 1 > limit:
            problems.append(f"{where}: [rules] stacking = {limit}, but the D-Day landings put {len(row) - 1} troops "
                            f"on {row[0]} ({', '.join(map(str, row[1:]))}; [tables.neptune] beaches)")


def _check_supply_sources(s: FirestormScenario, problems: list[str], where: str) -> None:
    for side in s.sides:
        if not any(a.supply == side for a in s.areas.values()):
            problems.append(f"{where}: side {side!r} has no supply source area (set supply = {side!r})")


def _check_norway(s: FirestormScenario, problems: list[str], where: str, units: list[tuple[str, str]],
                  areas: list[tuple[str, str]]) -> None:
    """The Norway land hooks' data must name existing areas, maps, harbours, troops and counters."""
    value = s.rules.value

    def need_map(label: str, m: object) -> None:
        if m not in s.maps:
            problems.append(f"{where}: {label}: map {m!r} is not a map")

    def need_harbour(label: str, h: object) -> None:
        if h not in s.strat_areas or s.strat_areas[str(h)].kind not in ("harbour", "home_port"):
            problems.append(f"{where}: {label}: {h!r} is not a harbour of the Strategic Map")

    def table(key: str) -> dict[str, Any]:
        got = value(key)
        if not isinstance(got, dict) or not got:
            problems.append(f"{where}: [rules.values] {key}: expected a table")
            return {}
        return got

    if s.has("ofotfjord"):
        need_harbour("[rules.values] fjord_harbour", value("fjord_harbour"))
        if not s.no_stop:
            problems.append(f"{where}: hook 'ofotfjord' needs an area with the 'fjord' flag")
        for t in s.troops.values():
            if t.start in s.no_stop:
                problems.append(f"{where}: troop {t.id!r} starts in the pass-through area {t.start!r}")
        for turn in s.turns:
            for ar in turn.arrivals:
                bad = sorted(set(ar.areas) & s.no_stop)
                if bad:
                    problems.append(f"{where}: turn {turn.number} arrival {ar.unit!r}: {', '.join(bad)} "
                                    f"is a pass-through area")
    if s.has("evacuation"):
        for a in value("evacuation_ports"):
            areas.append(("[rules.values] evacuation_ports", str(a)))
            if a in s.areas and not any(h.land == a for h in s.strat_areas.values()):
                problems.append(f"{where}: [rules.values] evacuation_ports: {a!r} has no harbour")
    if s.has("naval_gunfire"):
        need_map("[rules.values] gunfire_map", value("gunfire_map"))
        need_harbour("[rules.values] gunfire_harbour", value("gunfire_harbour"))
    if s.has("norway_air"):
        for side, rows in value("land_air").items():
            label = f"[rules.values] land_air.{side}"
            if side not in s.sides or side not in s.air:
                problems.append(f"{where}: {label}: needs a side with an [[air]] table")
            for row in rows:
                for m in (*row.get("maps", []), *row.get("bodo_maps", [])):
                    need_map(label, m)
                if row.get("counter") and row["counter"] not in s.counters:
                    problems.append(f"{where}: {label}: counter {row['counter']!r} is not defined")
                units.extend((label, str(u)) for u in row.get("with_troops", []))
    if s.has("norway_turns"):
        bodo = table("bodo")
        if bodo:
            need_map("[rules.values] bodo", bodo.get("map"))
            areas.extend(("[rules.values] bodo", str(bodo.get(k))) for k in ("port", "trace_to"))
        closure = table("map_closure")
        if closure:
            need_map("[rules.values] map_closure", closure.get("map"))
            areas.extend(("[rules.values] map_closure", str(a)) for a in closure.get("ports", []))
        wrapup = table("wrapup")
        if wrapup:
            need_map("[rules.values] wrapup", wrapup.get("map"))
            need_harbour("[rules.values] wrapup", wrapup.get("harbour"))
    if s.has("norway_briefing"):
        for w in value("warriors"):
            if w.get("side") not in s.sides:
                problems.append(f"{where}: [rules.values] warriors: {w.get('name')!r} has no valid side")
            need_map("[rules.values] warriors", w.get("map"))
