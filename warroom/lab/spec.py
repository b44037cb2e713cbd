"""A balance-lab sweep, as a designer writes it (`warroom lab run SPEC.toml`), read and checked with every problem
named (`warroom validate SPEC.toml` says the same).

    [lab]
    name = "Caen: how much does the stacking limit matter?"
    scenarios = ["caen"]          # one or more, sharing their sides
    games = 1000                  # a cell
    seed = 7
    chunk = 1000                  # games a task carries (optional)
    params = {}                   # the game parameters of every game (optional)

    [[lab.pairing]]               # the bots playing each side (a side not named plays randomly)
    allies = "heuristic"
    axis = "random"

    [lab.sweep]                   # scenario data paths (lab.overrides) and their values: a list or a range
    "scenario.toml:rules.stacking" = [2, 3, 4]
    "scenario.toml:rules.move_range" = { from = 2, to = 4 }     # step 1 unless given

A cell is one scenario, one pairing and one value of every swept path: every combination is a cell. Its seed comes
from the spec's seed and what the cell is, never from its place in the order, so a cell gives the same games
whatever else is swept beside it, however many workers play them and however the games are chunked.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warroom import rulesets
from warroom.ai.bots import bot_problem
from warroom.core.errors import ProblemsError, ScenarioError, UnknownNameError, shown
from warroom.lab.overrides import PathError, checked, parse_path, source_of, value_at, variant
from warroom.scenarios.loader import bundled_ids, load_game_path

KEYS = {"name", "scenarios", "games", "seed", "chunk", "params", "pairing", "sweep", "tune"}
TUNE_KEYS = {"target", "goal", "tolerance", "trials", "games", "confirm", "scenario", "bots", "search"}
TARGETS = ("draw", "balance", "margin", "length", "lead_changes", "drama", "decided_share")
"""The metrics a tune may aim at, besides each camp's win rate ('wins.<camp>')."""
MOST_CELLS = 100_000
MOST_VALUES = 1_000
MOST_GAMES = 10_000_000
MOST_SWEEP = 1_000_000_000
MOST_TASKS = 1_000_000


class LabSpecError(ProblemsError):
    """A sweep spec that cannot be run; `problems` names every one found."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One combination of the sweep: its games are `Spec.games` games of `scenario` with `changes` made, `bots`
    playing, dice from `seed`."""

    scenario: str
    bots: tuple[tuple[str, str], ...]
    changes: tuple[tuple[str, Any], ...]
    seed: int
    id: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "scenario": self.scenario, "bots": dict(self.bots),
                "changes": {p: v for p, v in self.changes}, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class Tune:
    """A search for the values of some scenario data that bring a metric to a goal ([lab.tune])."""

    target: str
    """A metric of `lab.metrics`: 'wins.<camp>', 'draw', 'balance', 'margin', 'length', 'lead_changes', 'drama' or
    'decided_share'."""
    goal: float
    tolerance: float
    trials: int
    games: int
    """Games a trial plays (every trial the same seeds: candidates compare on the same luck)."""
    confirm: int
    """Games on fresh seeds that confirm the best candidate."""
    scenario: str
    bots: tuple[tuple[str, str], ...]
    search: tuple[tuple[str, tuple[Any, ...]], ...]


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    seed: int
    games: int
    chunk: int
    params: dict[str, Any]
    sides: tuple[str, ...]
    swept: tuple[str, ...]
    cells: tuple[Cell, ...]
    text: str = field(repr=False)
    """The spec as written: stored with its results, so that a resumed run is known to be the same sweep."""
    tune: Tune | None = None
    """What `lab tune` searches for ([lab.tune]), if the spec says."""


def is_spec(path: Path) -> bool:
    """Whether a file is a lab spec (a TOML file with a [lab] table) rather than a scenario."""
    if not path.is_file() or path.suffix != ".toml":
        return False
    try:
        return "lab" in tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def cell_of(spec_seed: int, scenario: str, bots: tuple[tuple[str, str], ...],
            changes: tuple[tuple[str, Any], ...]) -> Cell:
    """A cell, its id and seed made from what it is (never from its place in a sweep)."""
    key = json.dumps({"scenario": scenario, "bots": bots, "changes": changes}, sort_keys=True)
    digest = hashlib.sha256(f"{spec_seed}|{key}".encode()).hexdigest()
    return Cell(scenario, bots, changes, int(digest[:15], 16), digest[:12])


def timed(kind: str) -> bool:
    """Whether a bot's budget is a search time ('mcts:1.5s')."""
    name, _, budget = kind.partition(":")
    return name == "mcts" and budget.split("/")[0].endswith("s")


def values_of(path: str, given: Any, problems: list[str]) -> list[Any]:
    """A swept path's values: a non-empty list, or a range {from, to, step}."""
    if isinstance(given, list):
        if not given:
            problems.append(f"{path!r}: no values")
        if len(given) > MOST_VALUES:
            problems.append(f"{path!r}: {len(given)} values; at most {MOST_VALUES}")
            return []
        twice = sorted({repr(v) for v in given if sum(1 for w in given if w == v and type(w) is type(v)) > 1})
        if twice:
            problems.append(f"{path!r}: {', '.join(twice)} given more than once (each value is one cell)")
            return []
        return list(given)
    if isinstance(given, dict):
        extra = set(given) - {"from", "to", "step"}
        if extra and not {"from", "to"} & set(given):
            problems.append(f"{path!r} reads as a table ({', '.join(sorted(given))}): a path with dots must be "
                            f"quoted, \"{path}.{next(iter(given))}\" = [...]")
            return []
        numbers = [v for v in (given.get("from"), given.get("to"), given.get("step", 1))
                   if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)]
        if extra or len(numbers) != 3 or numbers[2] <= 0 or numbers[1] < numbers[0]:
            problems.append(f"{path!r}: a range is {{ from = A, to = B, step = S }} with finite numbers, A <= B "
                            f"and S above 0 (step 1 when left out), got {shown(given, 80)}")
            return []
        start, stop, step = numbers
        span = (stop - start) / step
        if not span < MOST_VALUES:  # also a span too large to count
            problems.append(f"{path!r}: more than {MOST_VALUES} values; at most {MOST_VALUES}")
            return []
        count = int(span + 1e-9) + 1
        whole = all(isinstance(v, int) for v in (start, stop, step))
        values = [start + i * step if whole else round(start + i * step, 10) for i in range(count)]
        if len(set(values)) != len(values):
            problems.append(f"{path!r}: the step {step!r} is too small to tell the values apart")
            return []
        return values
    problems.append(f"{path!r}: give a list of values or a range {{ from = A, to = B, step = S }}, "
                    f"got {shown(given, 80)}")
    return []


def canonical(path: str) -> str:
    """A path as one text, whether or not it names scenario.toml."""
    return path if ":" in path else f"scenario.toml:{path}"


def axes_of(table: Any, where: str, names: list[str], bad: Callable[[str], None]) -> list[list[tuple[str, Any]]]:
    """Each path of a table of path = values ([lab.sweep], [lab.tune.search]) with its values, each checked in every
    scenario: the path exists, the value is of its kind, and the scenario's loader takes the value alone."""
    if not isinstance(table, dict):
        bad(f"{where} must be a table of path = values, got {table!r}")
        return []
    axes: list[list[tuple[str, Any]]] = []
    seen: set[str] = set()
    for text_path, given in table.items():
        if canonical(text_path) in seen:
            bad(f"{where}: {text_path!r} is given twice (with and without scenario.toml:)")
            continue
        seen.add(canonical(text_path))
        said: list[str] = []
        values = values_of(text_path, given, said)
        for problem in said:
            bad(f"{where} {problem}")
        try:
            dp = parse_path(text_path)
        except PathError as exc:
            bad(f"{where}: {exc}")
            continue
        ok = bool(values)
        for n in names:
            try:
                now = value_at(source_of(n), dp)
                values = [checked(dp, now, v) for v in values]
            except PathError as exc:
                bad(f"{where} in {n!r}: {exc}")
                ok = False
                continue
            for v in values:  # each value alone, as the scenario's own loader checks it
                try:
                    variant(n, [(text_path, v)])
                except (PathError, ScenarioError) as exc:
                    bad(f"{where} in {n!r}: " + "; ".join(getattr(exc, "problems", [str(exc)])))
                    ok = False
        if ok:
            axes.append([(text_path, v) for v in values])
    return axes


def tune_of(raw: Any, names: list[str], sc: Any, pairings: list[tuple[tuple[str, str], ...]], games: int,
            bad: Callable[[str], None], base: Path | None = None) -> Tune | None:
    """[lab.tune], checked (None when the spec has none)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        bad(f"[lab.tune] must be a table, got {raw!r}")
        return None
    for key in sorted(set(raw) - TUNE_KEYS):
        bad(f"[lab.tune] unknown key {key!r} (known: {', '.join(sorted(TUNE_KEYS))})")
    camps = rulesets.of(sc).score_sides(sc)
    targets = (*(f"wins.{c}" for c in camps), *TARGETS)
    target = raw.get("target")
    if target not in targets:
        bad(f"[lab.tune] target must be one of {', '.join(targets)}, got {target!r}")

    def number(key: str, default: float | None, lo: float) -> float:
        v = raw.get(key, default)
        if not isinstance(v, int | float) or isinstance(v, bool) or v < lo:
            bad(f"[lab.tune] {key} must be a number of at least {lo:g}, got {v!r}")
            return lo
        return float(v)

    def count(key: str, default: int, lo: int, hi: int) -> int:
        v = raw.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            bad(f"[lab.tune] {key} must be a whole number from {lo} to {hi}, got {v!r}")
            return lo
        return v

    goal = number("goal", None, -1e12)
    tolerance = number("tolerance", 0.0, 0.0)
    scenario = raw.get("scenario", names[0])
    scenario = scenario_name(scenario, base) if isinstance(scenario, str) else scenario
    if scenario not in names:
        bad(f"[lab.tune] scenario {scenario!r} is not one of [lab] scenarios ({', '.join(names)})")
        scenario = names[0]
    bots = raw.get("bots")
    if bots is None:
        chosen = pairings[0] if pairings else ()
    elif isinstance(bots, dict) and pairings and all(isinstance(v, str) for v in bots.values()):
        chosen = tuple((s, str(bots.get(s, "random"))) for s, _ in pairings[0])
        for side in sorted(set(bots) - {s for s, _ in pairings[0]}):
            bad(f"[lab.tune] bots: {side!r} is not a side")
        for side, kind in bots.items():
            problem = bot_problem(kind) or (f"{kind!r} searches for a time: give it rollouts" if timed(kind) else "")
            if problem:
                bad(f"[lab.tune] bots: {side}: {problem}")
    else:
        bad(f"[lab.tune] bots must be a table of side = bot, got {bots!r}")
        chosen = ()
    axes = axes_of(raw.get("search", {}), "[lab.tune.search]", [scenario], bad)
    if not axes:
        bad("[lab.tune.search]: name at least one path to search, with its candidate values")
    return Tune(str(target), goal, tolerance, count("trials", 30, 1, 10_000), count("games", games, 1, MOST_GAMES),
                count("confirm", 1000, 1, MOST_GAMES), scenario, chosen,
                tuple((axis[0][0], tuple(v for _, v in axis)) for axis in axes))


def read_spec(path: Path) -> Spec:
    """Read and check a sweep spec; raises `LabSpecError` naming every problem."""
    try:
        text = path.read_text(encoding="utf-8")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise LabSpecError([f"{path}: cannot be read ({exc})"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise LabSpecError([f"{path}: not valid TOML ({exc})"]) from exc
    return parse_spec(doc, text, path.stem, str(path), path.parent)


def scenario_name(name: str, base: Path | None) -> str:
    """A scenario as a spec names it: a bundled name, or a path, read from the spec's own folder when it is
    relative (so the spec means the same whatever folder it is run from)."""
    if base is None or name in bundled_ids(drafts=True) or Path(name).is_absolute():
        return name
    beside = base / name
    return str(beside.resolve()) if beside.exists() else name


def parse_spec(doc: dict[str, Any], text: str, default_name: str, where: str, base: Path | None = None) -> Spec:
    problems: list[str] = []

    def bad(message: str) -> None:
        problems.append(f"{where}: {message}")

    lab = doc.get("lab")
    if not isinstance(lab, dict):
        raise LabSpecError([f"{where}: a sweep spec needs a [lab] table"])
    for key in sorted(set(doc) - {"lab"}):
        bad(f"unknown table [{key}] (everything goes in [lab])")
    for key in sorted(set(lab) - KEYS):
        bad(f"[lab] unknown key {key!r} (known: {', '.join(sorted(KEYS))})")

    def whole(key: str, default: int | None, lo: int, hi: int) -> int:
        value = lab.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            bad(f"[lab] {key} must be a whole number from {lo} to {hi}, got {value!r}")
            return lo
        return value

    name = lab.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        bad(f"[lab] name must be a text, got {name!r}")
        name = default_name
    games = whole("games", None, 1, MOST_GAMES)
    seed = whole("seed", 0, 0, 2**62)
    chunk = whole("chunk", 1000, 1, MOST_GAMES)
    params = lab.get("params", {})
    if not isinstance(params, dict):
        bad(f"[lab] params must be a table of game parameters, got {params!r}")
        params = {}

    names = lab.get("scenarios")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise LabSpecError([*problems, f"{where}: [lab] scenarios must be a list of scenario names or paths, "
                                       f"got {names!r}"])
    names = [scenario_name(n, base) for n in names]
    if len(set(names)) != len(names):
        bad("[lab] scenarios: a scenario is named twice")
    loaded: dict[str, Any] = {}
    for n in names:
        try:
            loaded[n] = load_game_path(source_of(n))
        except (UnknownNameError, ScenarioError) as exc:
            bad(f"[lab] scenarios: {exc}".replace("\n", "; "))
    if len(loaded) != len(names):
        raise LabSpecError(problems)
    sides = tuple(next(iter(loaded.values())).sides)
    for n, sc in loaded.items():
        if tuple(sc.sides) != sides:
            bad(f"[lab] scenarios: {n!r} has the sides {', '.join(sc.sides)}, not {', '.join(sides)} as "
                f"{names[0]!r} has: one sweep compares scenarios of the same sides")
        system = rulesets.of(sc)
        game_params = {**system.sim_params, **params}
        unknown = sorted(set(params) - set(system.params))
        if unknown:
            bad(f"[lab] params for {n!r}: {', '.join(map(repr, unknown))} is not a parameter of {system.name} "
                f"(its parameters: {', '.join(system.params) or 'none'})")
        try:
            system.check_params(game_params)
        except ValueError as exc:
            bad(f"[lab] params for {n!r}: {exc}")
        else:
            problem = system.bot_game_problem(game_params)
            if problem:
                bad(f"[lab] params for {n!r}: {problem}")

    pairings_raw = lab.get("pairing")
    pairings: list[tuple[tuple[str, str], ...]] = []
    if not isinstance(pairings_raw, list) or not pairings_raw or not all(isinstance(p, dict) for p in pairings_raw):
        bad("[[lab.pairing]]: at least one table of side = bot (e.g. allies = \"heuristic\")")
    else:
        for i, p in enumerate(pairings_raw, start=1):
            for side in sorted(set(p) - set(sides)):
                bad(f"[[lab.pairing]] {i}: {side!r} is not a side ({', '.join(sides)})")
            for side, kind in p.items():
                problem = bot_problem(kind) if isinstance(kind, str) else f"{kind!r} is not a bot's name"
                if not problem and timed(kind):
                    problem = (f"{kind!r} searches for a time, so its games would depend on the machine's speed: "
                               "give it rollouts (e.g. mcts:800) and every cell replays from its seed")
                if problem:
                    bad(f"[[lab.pairing]] {i}: {side}: {problem}")
            first = loaded[names[0]]
            system = rulesets.of(first)
            try:
                seats = system.seats(first, {**system.sim_params, **params})
            except (ValueError, KeyError):
                seats = {s: s for s in sides}  # the params' problem is named above
            for side, seat in seats.items():
                if seat != side and side in p and p.get(seat, "random") != p[side]:
                    bad(f"[[lab.pairing]] {i}: {side} is decided by {seat}'s player in these games (one person "
                        f"holds both): give it {seat}'s bot, or leave it out")
            pairings.append(tuple((s, str(p.get(seats.get(s, s), p.get(s, "random")))) for s in sides))
        if len(set(pairings)) != len(pairings):
            bad("[[lab.pairing]]: a pairing is given twice")

    axes = axes_of(lab.get("sweep", {}), "[lab.sweep]", names, bad)
    tune = tune_of(lab.get("tune"), names, loaded[names[0]], pairings, games, bad, base)
    size = len(names) * max(1, len(pairings))
    for axis in axes:
        size *= len(axis)
    if size > MOST_CELLS:
        bad(f"the sweep makes {size:,} cells; at most {MOST_CELLS:,}")
    elif size * games > MOST_SWEEP:
        bad(f"the sweep makes {size * games:,} games; at most {MOST_SWEEP:,} in one spec")
    elif size * -(-games // chunk) > MOST_TASKS:
        bad(f"the sweep makes {size * -(-games // chunk):,} tasks of {chunk} games; at most {MOST_TASKS:,}: "
            "give a larger chunk")
    if problems:
        raise LabSpecError(problems)
    cells = tuple(cell_of(seed, n, bots, tuple(changes))
                  for n in names for bots in pairings for changes in itertools.product(*axes))
    return Spec(name.strip(), seed, games, chunk, dict(params), sides, tuple(axis[0][0] for axis in axes), cells,
                text, tune)
