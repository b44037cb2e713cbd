"""Play many campaigns with bots and aggregate the results.

Each worker plays a chunk of seeds and returns one partial `Summary`; partials merge, so memory
stays flat however many games run. Backends: in-process, local processes, or Ray.
"""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from warroom import rulesets
from warroom.ai import make_bot
from warroom.ai.mcts import squashed_returns
from warroom.core.game import play
from warroom.core.stats import percentile, wilson
from warroom.core.system import GameSummary
from warroom.scenarios import load_game


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a simulation run."""
    return random.Random(run_seed * 1_000_003 + index).getrandbits(62)


class TurnTrace:
    """Follows a game being played (`core.game.play`'s `on_action`): the first camp's lead (`RuleSystem.lead`)
    each time an action ends a turn, and at the end (`GameSummary.trace`)."""

    def __init__(self, st: Any) -> None:
        system = rulesets.of(st)
        self.st = st
        self.camp = system.score_sides(st.sc)[0]
        value = system.value or squashed_returns
        self.lead: Callable[[Any], float] = system.lead or (lambda s: value(s)[self.camp] - 0.5)
        self.turn = st.turn
        self.seen: list[float] = []

    def __call__(self, _who: str, _action: Any) -> None:
        if self.st.turn != self.turn:
            self.turn = self.st.turn
            self.seen.append(float(self.lead(self.st)))

    def done(self) -> tuple[float, ...]:
        return (*self.seen, float(self.lead(self.st)))


def play_one(scenario: str, seed: int, bots: Mapping[str, str], params: dict[str, Any] | None = None,
             record_events: bool = False, sc: Any = None, trace: list[TurnTrace] | None = None) -> Any:
    """Play one bot-against-bot game with dice from `random.Random(seed)`; returns the final state. `bots` names
    each side's bot kind (random by default); `params` None plays the system's default for bot games. `sc`: the
    scenario, when already loaded (a designer's variant of `scenario`); `trace`, when given, gets the game's
    `TurnTrace`.

    Bots play whole games only: a Firestorm battle at the table needs people, so bot games use the General's
    Wargame.
    """
    if sc is None:
        sc = load_game(scenario)
    system = rulesets.of(sc)
    params = dict(system.sim_params) if params is None else params
    problem = system.bot_game_problem(params)
    if problem:
        raise ValueError(problem)
    st = system.new_game(sc, params)
    st.record_events = record_events
    seeds = system.bot_seeds(seed, tuple(sc.sides))
    made = {side: make_bot(bots.get(side, "random"), random.Random(seeds[side])) for side in sc.sides}
    seats = system.seats(sc, st.params)  # sides one person holds together share that seat's bot
    follow = None
    if trace is not None:
        follow = TurnTrace(st)
        trace.append(follow)
    play(st, {side: made[seats[side]] for side in sc.sides}, random.Random(seed), trusted=True, on_action=follow)
    return st


def summarise(st: Any) -> GameSummary:
    """A finished game as its rule system counts it."""
    return rulesets.of(st).summarise(st)


@dataclass(slots=True)
class Summary:
    """Aggregates of many games; `merge` combines partial summaries."""

    games: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    diff_hist: dict[int, int] = field(default_factory=dict)
    diff_sum: int = 0
    held: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, g: GameSummary) -> None:
        self.games += 1
        self.outcomes[g.outcome] = self.outcomes.get(g.outcome, 0) + 1
        key = g.winner or "draw"
        self.wins[key] = self.wins.get(key, 0) + 1
        self.diff_hist[g.diff] = self.diff_hist.get(g.diff, 0) + 1
        self.diff_sum += g.diff
        for area, side in g.held.items():
            per = self.held.setdefault(area, {})
            per[side] = per.get(side, 0) + 1

    def merge(self, other: Summary) -> None:
        self.games += other.games
        self.diff_sum += other.diff_sum
        for src, dst in ((other.outcomes, self.outcomes), (other.wins, self.wins)):
            for k, v in src.items():
                dst[k] = dst.get(k, 0) + v
        for k2, v2 in other.diff_hist.items():
            self.diff_hist[k2] = self.diff_hist.get(k2, 0) + v2
        for area, per in other.held.items():
            mine = self.held.setdefault(area, {})
            for side, n in per.items():
                mine[side] = mine.get(side, 0) + n

    def report(self, sides: tuple[str, str], difference: str = "") -> dict[str, Any]:
        n = self.games
        return {
            "games": n,
            "outcomes": {k: {"count": v, "rate": round(v / n, 4) if n else 0.0, "ci95": list(wilson(v, n))}
                         for k, v in sorted(self.outcomes.items(), key=lambda kv: -kv[1])},
            "wins": {k: {"count": self.wins.get(k, 0), "rate": round(self.wins.get(k, 0) / n, 4) if n else 0.0,
                         "ci95": list(wilson(self.wins.get(k, 0), n))} for k in (*sides, "draw")},
            "vp_difference": {
                "of": difference or f"{sides[0]} minus {sides[1]}",
                "mean": round(self.diff_sum / n, 2) if n else 0.0,
                "percentiles": {str(q): percentile(self.diff_hist, q / 100) for q in (5, 25, 50, 75, 95)},
            },
            "held_at_end": {area: {s: round(per.get(s, 0) / n, 4) if n else 0.0 for s in sides}
                            for area, per in sorted(self.held.items())},
        }


def play_summary(scenario: str, seed: int, bots: Mapping[str, str],
                 params: dict[str, Any] | None = None, sc: Any = None) -> GameSummary:
    """The summary of the game `play_one` plays, played in the rule system's simulation kernel where it has one
    that plays it (`RuleSystem.fast_game`): the same game, faster. `sc`: the scenario, when already loaded."""
    if sc is None:
        sc = load_game(scenario)
    system = rulesets.of(sc)
    fast = rulesets.fast_game(system)
    if fast is not None:
        game_params = dict(system.sim_params) if params is None else params
        system.check_params(game_params)  # refused as `play_one` would refuse them, before the kernel sees them
        if not system.bot_game_problem(game_params):
            got = fast(sc, game_params, seed, bots)
            if got is not None:
                return got
    return reference_summary(scenario, seed, bots, params, sc)


def reference_summary(scenario: str, seed: int, bots: Mapping[str, str], params: dict[str, Any] | None = None,
                      sc: Any = None) -> GameSummary:
    """The summary of the game `play_one` plays, played on the reference engine and followed turn by turn."""
    followed: list[TurnTrace] = []
    st = play_one(scenario, seed, bots, params, sc=sc, trace=followed)
    return dataclasses.replace(summarise(st), trace=followed[0].done())


def run_chunk(scenario: str, seed: int, start: int, stop: int, bots: dict[str, str],
              params: dict[str, Any] | None = None) -> Summary:
    """Games `start` to `stop` of a run; every game is made with the same `params` (None: the default)."""
    out = Summary()
    sc = load_game(scenario)
    for i in range(start, stop):
        out.add(play_summary(scenario, game_seed(seed, i), bots, dict(params) if params is not None else None, sc))
    return out


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


def simulate(scenario: str, games: int, seed: int, bots: dict[str, str], jobs: int = 1,
             backend: str = "local", progress: Callable[[int], None] | None = None,
             chunk: int = 25, params: dict[str, Any] | None = None) -> Summary:
    """Play `games` campaigns; results depend only on (scenario, games, seed, bots, params), not on `jobs`.
    `params` are the game parameters of every game (e.g. Kampen om Norge's {"advanced": True}); None plays each
    rule system's default."""
    total = Summary()
    parts = list(_chunks(games, chunk))
    if backend == "ray":
        from warroom.sim.ray_backend import run_ray

        for part in run_ray(scenario, seed, parts, bots, run_chunk, params):
            total.merge(part)
            if progress:
                progress(part.games)
        return total
    if jobs <= 1:
        for start, stop in parts:
            part = run_chunk(scenario, seed, start, stop, bots, params)
            total.merge(part)
            if progress:
                progress(part.games)
        return total
    window = jobs * 4  # chunks in flight: bounded, so memory stays flat for any number of games
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        todo = iter(parts)
        inflight: deque[Future[Summary]] = deque()
        for start, stop in todo:
            inflight.append(pool.submit(run_chunk, scenario, seed, start, stop, bots, params))
            if len(inflight) >= window:
                break
        while inflight:
            part = inflight.popleft().result()
            total.merge(part)
            if progress:
                progress(part.games)
            nxt = next(todo, None)
            if nxt is not None:
                inflight.append(pool.submit(run_chunk, scenario, seed, nxt[0], nxt[1], bots, params))
    return total
