"""Analysis after a game: the first camp's expected result at every point of the campaign (a win-probability
graph, after KataGo's win-rate graph), the decisions that cost each camp the most, and how much the dice gave or
took, turn by turn.

Every position of the game is replayed from its log and judged by `rollouts` rollouts with the chosen bots, all
from the same rollout numbers. A camp's *expected result* counts a win 1 and a draw 1/2 (its win probability
where draws cannot happen); the two camps' add up to 1. Then:

- a **decision's cost** to its camp is the expected result before it (the bots deciding) less the one after it;
- a **roll's luck** for a camp is the expected result after the roll less the one before it, whose rollouts
  averaged over every roll the dice might have made; a result from the table counts the same way, apart.

Both are measured rollout by rollout on the same streams (common random numbers): the rollouts after a roll take
the dice that those before it met after their own first roll, so the two differ by that roll alone and the
difference is far sharper than the two values are. A camp's luck summed over the game, against the final result,
says how much of the result the dice decided. Every estimate carries its 95% interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from warroom import rulesets
from warroom.ai.estimates import Estimate, Z, paired
from warroom.ai.estimates import result as expected
from warroom.ai.rollout import EVERYTHING, Progress, Roller
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT


@dataclass(frozen=True, slots=True)
class Point:
    """The position before log entry `index` (the last one is the end), and who acted there with what."""

    index: int
    turn: int
    who: str
    """The side that acted, `CHANCE` for a roll, `REPORT` for a result from the table, '' at the end."""
    text: str
    """The action in words, as the analysis's reader may read it."""
    first: Estimate
    """The first camp's expected result here."""

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "who": self.who, "text": self.text,
                "first": self.first.to_json()}


@dataclass(frozen=True, slots=True)
class Swing:
    """What one action moved: the change in its camp's (for a decision) or the first camp's (for a roll) expected
    result, with the interval of the difference."""

    index: int
    turn: int
    who: str
    camp: str
    text: str
    change: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "who": self.who, "camp": self.camp, "text": self.text,
                "change": self.change.to_json()}


@dataclass(frozen=True, slots=True)
class Analysis:
    camps: tuple[str, str]
    points: tuple[Point, ...]
    costly: dict[str, tuple[Swing, ...]]
    """Per camp, its decisions that lost it the most, worst first (only those that lost it anything)."""
    luck: dict[int, dict[str, float]]
    """Per turn, per camp: what the dice added to its expected result."""
    luck_half: dict[int, float]
    """Per turn, how far the 95% interval of that reaches on either side (many rolls a turn, each measured by a few
    rollouts: a turn's luck is far less sure than one roll's)."""
    table: dict[int, dict[str, float]]
    """Per turn, per camp: what results from the table added to it (tabletop campaigns)."""
    final: float
    """The first camp's actual result: 1, 1/2 or 0."""
    start: float
    """The first camp's expected result at the start, as the accounts take it (`balance`): `start`, plus what
    every decision added (`decided`), plus the luck of the dice and the table, is `final` exactly."""
    decided: float
    """What all decisions together added to the first camp's expected result."""
    outcome: str
    rollouts: int
    seed: int
    bots: dict[str, str]

    @staticmethod
    def from_json(data: dict[str, Any]) -> Analysis:
        """An analysis back from `to_json` (a worker process sends it so)."""
        def est(d: dict[str, float]) -> Estimate:
            return Estimate(d["value"], d["low"], d["high"])

        points = tuple(Point(p["index"], p["turn"], p["who"], p["text"], est(p["first"])) for p in data["points"])
        costly = {c: tuple(Swing(s["index"], s["turn"], s["who"], s["camp"], s["text"], est(s["change"]))
                           for s in v) for c, v in data["costly"].items()}
        first, second = data["camps"]
        return Analysis((first, second), points, costly, {int(t): per for t, per in data["luck"].items()},
                        {int(t): half for t, half in data["luck_half"].items()},
                        {int(t): per for t, per in data["table"].items()}, data["final"], data["start"],
                        data["decided"], data["outcome"], data["rollouts"], data["seed"], data["bots"])

    def total_luck(self, camp: str) -> float:
        return sum(per.get(camp, 0.0) for per in self.luck.values())

    def to_json(self) -> dict[str, Any]:
        return {"camps": list(self.camps), "outcome": self.outcome, "final": self.final,
                "start": round(self.start, 4), "decided": round(self.decided, 4), "rollouts": self.rollouts,
                "seed": self.seed, "bots": self.bots, "points": [p.to_json() for p in self.points],
                "costly": {c: [s.to_json() for s in v] for c, v in self.costly.items()},
                "luck": {str(t): {c: round(v, 4) for c, v in per.items()} for t, per in self.luck.items()},
                "luck_half": {str(t): round(half, 4) for t, half in self.luck_half.items()},
                "table": {str(t): {c: round(v, 4) for c, v in per.items()} for t, per in self.table.items()},
                "total_luck": {c: round(self.total_luck(c), 4) for c in self.camps}}


def analyse(record: GameRecord, new_state: Callable[[], Any], viewer: str | None, bots: Mapping[str, str],
            seed: int, rollouts: int = 48, costly: int = 5, progress: Progress | None = None) -> Analysis:
    """The analysis of a finished game, its log replayed from `new_state()`. `viewer`: whose knowledge the
    rollouts start from and the words are written for (`ai.rollout`; `EVERYTHING` once the secrets are out).
    Raises `ValueError` for a game not over and `SaveError` for a log that does not replay."""
    if rollouts < 2:
        raise ValueError("an analysis needs at least two rollouts a position")
    states: list[Any] = []
    end: Any = replay(record, new_state, lambda _i, st: states.append(cast(Any, st).clone()))
    if not end.is_terminal():
        raise ValueError("the game is not over yet: an analysis reads a finished game")
    system = rulesets.of(end)
    shown = list(record.log) if viewer is EVERYTHING else system.log_for(end, viewer or None, 0)
    camps: tuple[str, str] = system.score_sides(end.sc)
    summary = system.summarise(end)
    final = result(summary.winner, camps[0])
    positions = [*states, end]
    values: list[list[float]] = []
    """Per position, the first camp's result in each rollout from it."""
    points: list[Point] = []
    gains: list[Estimate] = []
    """Per log entry, what it added to the first camp's expected result (paired over the rollout numbers)."""
    noise: list[float] = []
    """Per log entry, the variance of that estimate (0 where every rollout agreed: a decision the bots make)."""
    total = 2 * rollouts * len(states)
    for k, st in enumerate(states):
        entry = shown[k]
        text = entry.action if entry.redacted or entry.side in (CHANCE, REPORT) else \
            system.describe(st, st.parse_action(entry.action))
        here = Roller(st, viewer, bots, seed)
        values.append([result(here.play(i).winner, camps[0]) for i in range(rollouts)])
        points.append(Point(k, entry.turn, entry.side, text, expected(values[k])))
        after = Roller(positions[k + 1], viewer, bots, seed)  # the same streams after the entry's own draws
        drew = entry.side == st.current_player()  # a result reported out of turn drew nothing from the streams
        later = [result(after.play(i, before=here.world(i) if drew else None).winner, camps[0])
                 for i in range(rollouts)]
        gains.append(paired(later, values[k]))
        noise.append(uncertainty([a - b for a, b in zip(later, values[k], strict=True)],
                                 entry.side in (CHANCE, REPORT)))
        if progress is not None:
            progress(2 * rollouts * (k + 1), total)
    points.append(Point(len(states), int(end.turn), "", "the end", Estimate(final, final, final)))
    start = points[0].first  # its variance from its interval: a few rollouts that all agreed prove little
    gains, begun = balance(gains, noise, start.value, ((start.high - start.low) / (2 * Z)) ** 2, final)
    return summarise(points, gains, noise, begun, camps, camps_of(end), final, summary.outcome, rollouts, seed,
                     dict(Roller(end, viewer, bots, seed).bots), costly)


def uncertainty(diffs: list[float], chance: bool) -> float:
    """How uncertain an entry's gain is, measured from its paired differences: the variance of their mean, on
    Agresti and Min's pseudo-rollouts (`estimates.paired`), so that a few rollouts that happened to agree still
    leave room for doubt. Only a decision whose rollouts all agreed exactly is certain: the same streams after it
    played the same game (the bots would have chosen it themselves)."""
    n = len(diffs)
    if not chance and not any(diffs):
        return 0.0
    m = n + 2
    centre = sum(diffs) / m
    return max(0.0, (sum(d * d for d in diffs) + 1.0) / m - centre * centre) / m


def balance(gains: list[Estimate], noise: list[float], start: float, start_noise: float,
            final: float) -> tuple[list[Estimate], float]:
    """The gains made to add up, and the start as the accounts take it. The expected result at the start plus
    what every entry added is exactly the final result, but the estimates of a long game's hundreds of entries do
    not quite sum so: their small errors add up, to more than a whole result in a long game at a few rollouts a
    position. What is missing is shared out among the estimates (the start's included) in proportion to their
    uncertainties: the least-squares adjustment of independent estimates to a sum known exactly. The start stays
    within 0 and 1 (what it cannot take goes to the gains). An entry that is certain (`uncertainty`) keeps its
    value. Each interval moves with its value."""
    total, spread = start_noise + sum(noise), sum(noise)
    added = sum(g.value for g in gains)
    if spread <= 0.0:  # every entry is certain: the start takes what is missing
        return gains, min(1.0, max(0.0, final - added))
    begun = min(1.0, max(0.0, start + (final - start - added) * start_noise / total))
    rest = final - begun - added
    out = []
    for g, v in zip(gains, noise, strict=True):
        shift = rest * v / spread
        out.append(Estimate(g.value + shift, max(-1.0, g.low + shift), min(1.0, g.high + shift)))
    return out, begun


def camps_of(st: Any) -> dict[str, str]:
    return rulesets.camps(st.sc, st.params)


def result(winner: str, camp: str) -> float:
    """A camp's result from the winner's name: 1, 1/2 for a draw, 0."""
    return 0.5 if not winner else 1.0 if winner == camp else 0.0


def lost(moved: Estimate) -> Estimate:
    """A gain turned into a loss."""
    return Estimate(-moved.value, -moved.high, -moved.low)


def summarise(points: list[Point], gains: list[Estimate], noise: list[float], start: float, camps: tuple[str, str],
              camp_of: Mapping[str, str], final: float, outcome: str, rollouts: int, seed: int, bots: dict[str, str],
              keep: int) -> Analysis:
    """The costly decisions and the luck, from the gains of every log entry."""
    swings: dict[str, list[Swing]] = {c: [] for c in camps}
    luck: dict[int, dict[str, float]] = {}
    spread: dict[int, float] = {}
    table: dict[int, dict[str, float]] = {}
    decided = 0.0
    for before, moved, var in zip(points[:-1], gains, noise, strict=True):  # the last point is the end
        if before.who in (CHANCE, REPORT):
            per = (luck if before.who == CHANCE else table).setdefault(before.turn, dict.fromkeys(camps, 0.0))
            per[camps[0]] += moved.value
            if before.who == CHANCE:
                spread[before.turn] = spread.get(before.turn, 0.0) + var
            per[camps[1]] -= moved.value
            continue
        decided += moved.value
        camp = camp_of.get(before.who)
        if camp is None:
            continue
        cost = lost(moved) if camp == camps[0] else moved
        if cost.value > 0:
            swings[camp].append(Swing(before.index, before.turn, before.who, camp, before.text, cost))
    costly = {c: tuple(sorted(v, key=lambda s: -s.change.value)[:keep]) for c, v in swings.items()}
    half = {turn: Z * math.sqrt(var) for turn, var in spread.items()}
    return Analysis(camps, tuple(points), costly, luck, half, table, final, start, decided, outcome, rollouts, seed,
                    bots)
