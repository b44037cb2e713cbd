"""The Kampen om Norge board: land and sea areas, borders, coasts, airfields and air ranges.

The map is data (`scenarios/data/kampen/board.toml`); this module checks it and answers what the rules ask
of it. Stated facts carry a `source`, reconstructed ones an `assumption`. A land area may go without an
assumption only when the rulebook names it, it has a source, and each of its borders is sourced and carries
no assumption; every other entry needs a source or an assumption. Every problem is reported at once.
"""

from __future__ import annotations

import math
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import warroom
from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.core.geometry import inside, outline_of
from warroom.core.schema import Reader

DATA = Path(warroom.__file__).resolve().parent / "scenarios" / "data" / "kampen"
"""The bundled data: found from the `warroom` package, not from this module's file, which is in the overlay when
the engine runs compiled (`warroom/compiled.py`)."""
BUNDLED_BOARD = DATA / "board.toml"
LAND_AREAS = 44  # digest 2.3
SEA_IDS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")  # digest 2.3: numbered I-VIII
POINT_CITIES = 6  # digest 2.3
MOBILISATION_POINTS = 12  # digest 2.3
MIN_GAP = 40  # drawing units between the points of two land areas
INACCESSIBLE_KINDS = ("foreign", "mountain")
TOP_KEYS = {"board", "raid_box", "land", "sea", "border", "airfield_range", "inaccessible"}
PROVENANCE = {"source", "assumption"}


class BorderKind(StrEnum):
    """How two land areas meet. Mjøsa, a lake, counts as a fjord for every rule (digest 2.3)."""

    LAND = "land"
    FJORD = "fjord"
    LAKE = "lake"

    @property
    def is_water(self) -> bool:
        """A fjord or a lake: attacks over it are halved, Germans and Allies may not retreat over it."""
        return self is not BorderKind.LAND


@dataclass(frozen=True, slots=True)
class LandArea:
    """A land area: what battalions move through and hold."""

    id: str
    name: str
    x: int
    y: int
    point_city: bool
    mobilisation: bool
    airfield: bool
    seas: frozenset[str]  # the sea areas its coast (or a fjord's mouth) faces; empty inland
    source: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class SeaArea:
    """A sea area; `mined` ones are closed to the Allies, `allied_zone` ones take Allied reinforcements."""

    id: str
    name: str
    x: int
    y: int
    adjacent: frozenset[str]
    mined: bool
    allied_zone: bool
    raid: bool  # German raiders may leave from here, and the raid box lies next to it
    source: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class Border:
    """A border between two land areas."""

    a: str
    b: str
    kind: BorderKind
    source: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class AirRange:
    """An airfield's range line: the land areas inside it, and sea areas it adds to its own coast."""

    airfield: str
    name: str
    covers: frozenset[str]
    sea_range: frozenset[str]
    source: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class Inaccessible:
    """Land no one may enter: a foreign country or a mountain block; `next_to` is for drawing."""

    id: str
    name: str
    kind: str
    x: int
    y: int
    next_to: frozenset[str]
    source: str = ""
    assumption: str = ""


@dataclass(frozen=True, slots=True)
class Board:
    """The whole board, checked. Build it with `load_board` or `parse_board`."""

    width: int
    height: int
    telegraph: str  # the land area the telegraph line to Britain starts from
    southern_tip: str
    from_germany: frozenset[str]  # south of the "Fra Tyskland" line: always in German air range
    named_in_rules: frozenset[str]
    land: Mapping[str, LandArea]
    seas: Mapping[str, SeaArea]
    borders: tuple[Border, ...]
    air_ranges: Mapping[str, AirRange]  # by airfield land area
    inaccessible: Mapping[str, Inaccessible]
    raid_box: tuple[int, int]
    adjacency: Mapping[str, tuple[str, ...]]
    kinds: Mapping[frozenset[str], BorderKind]
    outline: tuple[tuple[int, int], ...] = ()  # drawing only: the land's outline ([board] land); () all land
    outline_assumption: str = ""
    _points: tuple[frozenset[str], frozenset[str], frozenset[str]] = field(init=False, repr=False, compare=False)
    land_by_name: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The land areas' ids, sorted."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "land_by_name", tuple(sorted(self.land)))
        lands = self.land.values()
        object.__setattr__(self, "_points", (frozenset(a.id for a in lands if a.point_city),
                                             frozenset(a.id for a in lands if a.mobilisation),
                                             frozenset(a.id for a in lands if a.airfield)))

    def _area(self, area: str) -> LandArea:
        try:
            return self.land[area]
        except KeyError:
            raise UnknownNameError(f"unknown land area {area!r}") from None

    def _sea(self, sea: str) -> SeaArea:
        try:
            return self.seas[sea]
        except KeyError:
            raise UnknownNameError(f"unknown sea area {sea!r} (known: {', '.join(SEA_IDS)})") from None

    @property
    def point_cities(self) -> frozenset[str]:
        return self._points[0]

    @property
    def mobilisation_points(self) -> frozenset[str]:
        return self._points[1]

    @property
    def airfields(self) -> frozenset[str]:
        return self._points[2]

    def neighbours(self, area: str) -> tuple[str, ...]:
        """The land areas bordering `area`, over land, fjord or lake."""
        self._area(area)
        return self.adjacency[area]

    def border_kind(self, a: str, b: str) -> BorderKind | None:
        """How `a` and `b` meet, or None if they do not border."""
        self._area(a)
        self._area(b)
        return self.kinds.get(frozenset((a, b)))

    def crosses_water(self, a: str, b: str) -> bool:
        """Whether going from `a` to `b` crosses a fjord or a lake; they must border."""
        kind = self.border_kind(a, b)
        if kind is None:
            raise ValueError(f"{a!r} and {b!r} do not border")
        return kind.is_water

    def coast(self, area: str) -> frozenset[str]:
        """The sea areas the coast of `area` faces (empty inland)."""
        return self._area(area).seas

    def touches(self, area: str, seas: Iterable[str]) -> bool:
        """Whether the coast of `area` faces any of `seas`."""
        return not self.coast(area).isdisjoint(seas)

    def coastal(self, seas: Iterable[str]) -> frozenset[str]:
        """The land areas whose coast faces any of `seas`."""
        wanted = frozenset(seas)
        for s in wanted:
            self._sea(s)
        return frozenset(a.id for a in self.land.values() if not a.seas.isdisjoint(wanted))

    def sea_adjacent(self, a: str, b: str) -> bool:
        """Whether two sea areas border each other."""
        self._sea(b)
        return b in self._sea(a).adjacent

    def in_air_range(self, area: str, airfields_held: Iterable[str]) -> bool:
        """Whether German air cards reach `area`: south of "Fra Tyskland" always, else inside the range
        line of an airfield Germany holds. `airfields_held` may name any held areas; those without an
        airfield are ignored."""
        self._area(area)
        if area in self.from_germany:
            return True
        return any(area in self.air_ranges[f].covers for f in airfields_held if f in self.air_ranges)

    def sea_in_air_range(self, sea: str, airfields_held: Iterable[str]) -> bool:
        """Whether Bombefly may be used in `sea`: a held airfield faces it, or adds it (digest 5.1)."""
        self._sea(sea)
        return any(sea in self.land[f].seas or sea in self.air_ranges[f].sea_range
                   for f in airfields_held if f in self.air_ranges)

    def assumptions(self) -> list[str]:
        """Every reconstruction in the data, labelled with its entry."""
        out = [f"land {a.id}: {a.assumption}" for a in self.land.values() if a.assumption]
        out += [f"sea {s.id}: {s.assumption}" for s in self.seas.values() if s.assumption]
        out += [f"border {b.a}-{b.b}: {b.assumption}" for b in self.borders if b.assumption]
        out += [f"airfield {r.airfield}: {r.assumption}" for r in self.air_ranges.values() if r.assumption]
        out += [f"inaccessible {i.id}: {i.assumption}" for i in self.inaccessible.values() if i.assumption]
        out += [f"the land's outline: {self.outline_assumption}"] if self.outline_assumption else []
        return out


def slug(name: str) -> str:
    """The id a name gets: lower case ascii, æ -> ae, ø -> o, å -> a, spaces -> '_'.

    >>> slug("Mo i Rana"), slug("Bjørnfjell"), slug("Åndalsnes")
    ('mo_i_rana', 'bjornfjell', 'andalsnes')
    """
    return name.lower().replace("æ", "ae").replace("ø", "o").replace("å", "a").replace(" ", "_")


@cache
def bundled_board() -> Board:
    """The board shipped with warroom, loaded once."""
    return load_board(BUNDLED_BOARD)


def load_board(path: Path | str = BUNDLED_BOARD) -> Board:
    """Read and check a board file. Raises `ScenarioError` listing every problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError([f"{path}: no such board file"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError([f"{path}: not valid TOML: {exc}"]) from None
    except UnicodeDecodeError:
        raise ScenarioError([f"{path}: not UTF-8 text"]) from None
    return parse_board(data, str(path))


def _read_outline(head: Reader, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """`[board] land`: the land's outline as x, y pairs inside the board, checked (`core.geometry`)."""
    flat = head.integers("land")
    if not flat:
        return ()
    points, problem = outline_of(flat, width, height, "board")
    if problem:
        head.fail(f"'land' {problem}")
    return points


def parse_board(data: dict[str, Any], where: str) -> Board:
    """Build and check a board from parsed TOML. Raises `ScenarioError` listing every problem."""
    problems: list[str] = []
    root = Reader(where, data, problems)
    root.unknown_keys(TOP_KEYS)
    head = root.table("board", required=True)
    head.unknown_keys({"width", "height", "telegraph", "southern_tip", "from_germany", "named_in_rules", "land",
                       "land_assumption", *PROVENANCE})
    width = head.integer("width", lo=1)
    height = head.integer("height", lo=1)
    telegraph = head.text("telegraph")
    southern_tip = head.text("southern_tip")
    from_germany = head.texts("from_germany")
    named = head.texts("named_in_rules")
    _need_provenance(head, "the table")
    outline = _read_outline(head, width, height)
    raid = root.table("raid_box", required=True)
    raid.unknown_keys({"name", "x", "y", *PROVENANCE})
    raid_box = (raid.integer("x"), raid.integer("y"))

    land = _read_land(root)
    seas = _read_seas(root)
    borders = _read_borders(root)
    ranges = _read_ranges(root)
    blocks = _read_inaccessible(root)

    check = _Checker(problems, where, land, seas)
    for aid in {*land, *seas} & set(blocks):
        problems.append(f"{where}: id {aid!r} names both an inaccessible area and another area")
    for aid in set(land) & set(seas):
        problems.append(f"{where}: id {aid!r} names both a land and a sea area")
    check.counts()
    for a in land.values() if outline else ():  # the drawing must show each area where the rules have it
        if not inside(outline, a.x, a.y):
            problems.append(f"{where}: land area {a.id!r} (x = {a.x}, y = {a.y}) lies outside [board] 'land': move "
                            "it, or the outline")
    for sea in seas.values() if outline else ():
        if inside(outline, sea.x, sea.y):
            problems.append(f"{where}: sea area {sea.id!r} (x = {sea.x}, y = {sea.y}) lies on [board] 'land': move "
                            "it, or the outline")
    check.references("[board] telegraph", [telegraph], land)
    check.references("[board] southern_tip", [southern_tip], land)
    check.references("[board] from_germany", from_germany, land, unique=True)
    check.references("[board] named_in_rules", named, land, unique=True)
    check.seas()
    adjacency, kinds = check.borders(borders)
    check.airfields(ranges)
    for block in blocks.values():
        check.references(f"inaccessible {block.id!r} next_to", sorted(block.next_to), land)
    check.drawing(width, height, raid_box, blocks)
    check.assumptions(set(named), borders)
    if problems:
        raise ScenarioError(problems)
    return Board(
        width=width, height=height, telegraph=telegraph, southern_tip=southern_tip,
        from_germany=frozenset(from_germany), named_in_rules=frozenset(named),
        land=MappingProxyType(land), seas=MappingProxyType(seas), borders=tuple(borders),
        air_ranges=MappingProxyType({r.airfield: r for r in ranges}), inaccessible=MappingProxyType(blocks),
        raid_box=raid_box, adjacency=MappingProxyType(adjacency), kinds=MappingProxyType(kinds),
        outline=outline, outline_assumption=head.text("land_assumption", ""),
    )


# ----- reading ---------------------------------------------------------------------------------------------


def _need_provenance(r: Reader, label: str) -> None:
    if not r.text("source", "").strip() and not r.text("assumption", "").strip():
        r.fail(f"{label} states no source and no assumption: say where its facts come from")


def _unique(r: Reader, seen: dict[str, Any], key: str, kind: str) -> None:
    if key in seen:
        r.fail(f"duplicate {kind} id {key!r}")


def _read_land(root: Reader) -> dict[str, LandArea]:
    out: dict[str, LandArea] = {}
    for r in root.tables("land"):
        r.unknown_keys({"id", "name", "x", "y", "point_city", "mobilisation", "airfield", "seas", *PROVENANCE})
        aid, name = r.text("id"), r.text("name")
        _unique(r, out, aid, "land area")
        if aid and name and slug(name) != aid:
            r.fail(f"id {aid!r} does not match its name {name!r} (expected {slug(name)!r})")
        seas = r.texts("seas")
        if len(set(seas)) != len(seas):
            r.fail(f"key 'seas' lists a sea area twice: {list(seas)}")
        area = LandArea(aid, name, r.integer("x"), r.integer("y"), r.flag("point_city", False),
                        r.flag("mobilisation", False), r.flag("airfield", False), frozenset(seas),
                        r.text("source", ""), r.text("assumption", "").strip())
        out.setdefault(aid, area)
    return out


def _read_seas(root: Reader) -> dict[str, SeaArea]:
    out: dict[str, SeaArea] = {}
    for r in root.tables("sea"):
        r.unknown_keys({"id", "name", "x", "y", "adjacent", "mined", "allied_zone", "raid", *PROVENANCE})
        sid = r.text("id")
        _unique(r, out, sid, "sea area")
        if sid and sid not in SEA_IDS:
            r.fail(f"sea area id {sid!r} is not one of {', '.join(SEA_IDS)}")
        _need_provenance(r, f"sea area {sid!r}")
        sea = SeaArea(sid, r.text("name", sid), r.integer("x"), r.integer("y"), frozenset(r.texts("adjacent")),
                      r.flag("mined", False), r.flag("allied_zone", False), r.flag("raid", False),
                      r.text("source", ""), r.text("assumption", "").strip())
        out.setdefault(sid, sea)
    return out


def _read_borders(root: Reader) -> list[Border]:
    out: list[Border] = []
    for r in root.tables("border", label="a"):
        r.unknown_keys({"a", "b", "kind", *PROVENANCE})
        kind = r.text("kind", choices=tuple(k.value for k in BorderKind))
        a, b = r.text("a"), r.text("b")
        _need_provenance(r, f"border {a}-{b}")
        if kind in tuple(BorderKind):
            out.append(Border(a, b, BorderKind(kind), r.text("source", ""), r.text("assumption", "").strip()))
    return out


def _read_ranges(root: Reader) -> list[AirRange]:
    out: list[AirRange] = []
    for r in root.tables("airfield_range", label="airfield"):
        r.unknown_keys({"airfield", "name", "covers", "sea_range", *PROVENANCE})
        field = r.text("airfield")
        _need_provenance(r, f"airfield range {field!r}")
        out.append(AirRange(field, r.text("name", field), frozenset(r.texts("covers")),
                            frozenset(r.texts("sea_range")), r.text("source", ""),
                            r.text("assumption", "").strip()))
    return out


def _read_inaccessible(root: Reader) -> dict[str, Inaccessible]:
    out: dict[str, Inaccessible] = {}
    for r in root.tables("inaccessible"):
        r.unknown_keys({"id", "name", "kind", "x", "y", "next_to", *PROVENANCE})
        iid = r.text("id")
        _unique(r, out, iid, "inaccessible area")
        _need_provenance(r, f"inaccessible area {iid!r}")
        block = Inaccessible(iid, r.text("name", iid), r.text("kind", choices=INACCESSIBLE_KINDS),
                             r.integer("x"), r.integer("y"), frozenset(r.texts("next_to")),
                             r.text("source", ""), r.text("assumption", "").strip())
        out.setdefault(iid, block)
    return out


# ----- checking ------------------------------------------------------------------------------------------


class _Checker:
    """The cross-checks between tables; each appends to `problems`."""

    def __init__(self, problems: list[str], where: str, land: dict[str, LandArea],
                 seas: dict[str, SeaArea]) -> None:
        self.problems = problems
        self.where = where
        self.land = land
        self.sea_areas = seas

    def fail(self, message: str) -> None:
        self.problems.append(f"{self.where}: {message}")

    def references(self, label: str, ids: Iterable[str], known: Mapping[str, object], unique: bool = False) -> None:
        ids = list(ids)
        for i in ids:
            if i not in known:
                self.fail(f"{label}: {i!r} is not a defined area")
        if unique and len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            self.fail(f"{label}: listed twice: {', '.join(twice)}")

    def counts(self) -> None:
        n_cities = sum(a.point_city for a in self.land.values())
        n_points = sum(a.mobilisation for a in self.land.values())
        if len(self.land) != LAND_AREAS:
            self.fail(f"expected {LAND_AREAS} land areas, got {len(self.land)}")
        if n_cities != POINT_CITIES:
            self.fail(f"expected {POINT_CITIES} point cities, got {n_cities}")
        if n_points != MOBILISATION_POINTS:
            self.fail(f"expected {MOBILISATION_POINTS} mobilisation points, got {n_points}")
        missing = [s for s in SEA_IDS if s not in self.sea_areas]
        if missing:
            self.fail(f"expected {len(SEA_IDS)} sea areas {SEA_IDS[0]}-{SEA_IDS[-1]}; missing {', '.join(missing)}")

    def seas(self) -> None:
        for area in self.land.values():
            for s in sorted(area.seas):
                if s not in self.sea_areas:
                    self.fail(f"land area {area.id!r}: its coast faces {s!r}, which is not a sea area")
        for sea in self.sea_areas.values():
            if sea.mined and sea.allied_zone:
                self.fail(f"sea area {sea.id!r} is both mined (closed to the Allies) and an Allied zone")
            for n in sorted(sea.adjacent):
                if n == sea.id:
                    self.fail(f"sea area {sea.id!r} lists itself as adjacent")
                elif n not in self.sea_areas:
                    self.fail(f"sea area {sea.id!r}: adjacent {n!r} is not a sea area")
                elif sea.id not in self.sea_areas[n].adjacent:
                    self.fail(f"sea adjacency {sea.id}-{n} is not symmetric: {n!r} does not list {sea.id!r}")

    def borders(self, borders: list[Border]) -> tuple[dict[str, tuple[str, ...]], dict[frozenset[str], BorderKind]]:
        adj: dict[str, list[str]] = {aid: [] for aid in self.land}
        kinds: dict[frozenset[str], BorderKind] = {}
        for b in borders:
            if b.a == b.b:
                self.fail(f"border {b.a}-{b.b} joins an area to itself")
                continue
            missing = [end for end in (b.a, b.b) if end not in self.land]
            for end in missing:
                self.fail(f"border {b.a}-{b.b}: {end!r} is not a defined land area")
            if missing:
                continue
            pair = frozenset((b.a, b.b))
            if pair in kinds:
                self.fail(f"border {b.a}-{b.b} is listed twice")
                continue
            kinds[pair] = b.kind
            adj[b.a].append(b.b)
            adj[b.b].append(b.a)
        if self.land:
            self._connected(adj)
        return {k: tuple(v) for k, v in adj.items()}, kinds

    def _connected(self, adj: dict[str, list[str]]) -> None:
        start = next(iter(adj))
        seen = {start}
        queue = deque([start])
        while queue:
            for n in adj[queue.popleft()]:
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        cut = sorted(set(adj) - seen)
        if cut:
            self.fail(f"the land areas are not all connected: {', '.join(cut)} cannot be reached from {start!r}")

    def airfields(self, ranges: list[AirRange]) -> None:
        fields = {a.id for a in self.land.values() if a.airfield}
        ranged: set[str] = set()
        for r in ranges:
            if r.airfield in ranged:
                self.fail(f"airfield range {r.airfield!r} is listed twice")
            ranged.add(r.airfield)
            if r.airfield not in fields:
                self.fail(f"airfield range {r.airfield!r}: no land area of that id has an airfield")
            elif r.airfield not in r.covers:
                self.fail(f"airfield range {r.airfield!r} does not cover its own area")
            self.references(f"airfield range {r.airfield!r} covers", sorted(r.covers), self.land)
            for s in sorted(r.sea_range):
                if s not in self.sea_areas:
                    self.fail(f"airfield range {r.airfield!r}: sea_range {s!r} is not a sea area")
        for f in sorted(fields - ranged):
            self.fail(f"land area {f!r} has an airfield but no [[airfield_range]]")

    def drawing(self, width: int, height: int, raid_box: tuple[int, int], blocks: dict[str, Inaccessible]) -> None:
        points = [(f"land area {a.id!r}", a.x, a.y) for a in self.land.values()]
        points += [(f"sea area {s.id!r}", s.x, s.y) for s in self.sea_areas.values()]
        points += [(f"inaccessible area {b.id!r}", b.x, b.y) for b in blocks.values()]
        points.append(("the raid box", *raid_box))
        for label, x, y in points:
            if not (0 <= x <= width and 0 <= y <= height):
                self.fail(f"{label}: point ({x}, {y}) lies outside the {width} x {height} drawing")
        areas = sorted(self.land.values(), key=lambda a: a.id)
        for i, a in enumerate(areas):
            for b in areas[i + 1:]:
                if math.dist((a.x, a.y), (b.x, b.y)) < MIN_GAP:
                    self.fail(f"land areas {a.id!r} and {b.id!r} are drawn closer than {MIN_GAP} units")

    def assumptions(self, named: set[str], borders: list[Border]) -> None:
        touching: dict[str, list[Border]] = {aid: [] for aid in self.land}
        for b in borders:
            for end in (b.a, b.b):
                if end in touching:
                    touching[end].append(b)
        for area in self.land.values():
            if area.assumption:
                continue
            reasons = []
            if area.id not in named:
                reasons.append("its name is not in [board] named_in_rules")
            if not area.source.strip():
                reasons.append("it has no source")
            reasons += [f"border {b.a}-{b.b} is reconstructed" for b in touching[area.id]
                        if b.assumption or not b.source.strip()]
            if reasons:
                self.fail(f"land area {area.id!r} needs an assumption: {'; '.join(reasons)}")
