"""The plan advisor: a side's candidate plans for what it decides now, each judged by playing the campaign on many
times, best first (after GNU Backgammon's hint window, which does this for one move of its game).

- **A plan** is everything the side decides before anyone else answers: its decisions from now until the dice, the
  enemy or the table act next (a Firestorm battle's arrow and its Firestorm troops, a strategic phase's placements
  and moves, a Strategic Game action from activation to its last leg, a Kampen om Norge round's moves). What comes
  after depends on that answer, so the side decides it then, as the rollout bot does.
  assumption: a plan ends where another player or the dice act; a plan that reached past them would have to say
  what to do for every answer they might give.
- **Candidates**: the heuristic's plan, then plans that change one of its decisions to the heuristic's next choice
  (the second best at each decision, then the third ...), then any the player writes. They are drawn up on a twin of
  the position dealt for the side (`ai.rollout`), so they too depend only on what it may know.
- **Judging**: rollout i of every candidate starts from the same twin with the same dice and bot streams (common
  random numbers), so the differences between candidates are measured more sharply than the candidates
  themselves. Rollouts go in rounds of `BATCH`; after each round a candidate stops when its win probability's
  interval is at most `target` wide on each side, or when the best is clearly ahead of it (by the paired
  difference of their scores, at `Z_DROP`), or at `most` rollouts.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warroom.ai.rollout import Ending, Roller
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.state import Action
from warroom.core.stats import wilson_cc
from warroom.rulesets import heuristic, of

BATCH = 32
"""Rollouts per candidate per round."""
LEAST = 64
"""No candidate is judged on fewer rollouts (unless `most` is lower)."""
Z = 1.959964
"""95% intervals."""
Z_DROP = 2.807
"""A candidate is dropped when the best's score beats its own by more than this many standard errors of their paired
difference (99.5%: a candidate is tested after every round, so each test must be stricter than the intervals)."""
LONGEST_PLAN = 400
"""No run of one player's decisions is longer (a guard: every rule system hands the turn on long before)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A measured share or mean, with its 95% interval."""

    value: float
    low: float
    high: float

    def half(self) -> float:
        """How far the interval reaches from the value on its wider side (a share's interval is lopsided)."""
        return max(self.high - self.value, self.value - self.low)

    def to_json(self) -> dict[str, float | None]:
        """Rounded; a bound not known (fewer than two values) is null."""
        return {"value": round(self.value, 4), "low": bound(self.low), "high": bound(self.high)}


def bound(x: float) -> float | None:
    return round(x, 4) if math.isfinite(x) else None


def share(count: int, n: int) -> Estimate:
    """A proportion with its Wilson interval, continuity-corrected: it holds its 95% for rare outcome levels too
    (tests/property/test_advisor_calibration.py; the plain Wilson interval covered a 0.25% level 86% of the time
    at 48 rollouts)."""
    low, high = wilson_cc(count, n)
    return Estimate(count / n if n else 0.0, low, high)


def mean(values: Sequence[float], z: float = Z, within: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """A mean with its normal interval at `z` standard errors, kept `within` the values' possible range (the whole
    range below two values, where nothing measures the spread)."""
    n = len(values)
    m = sum(values) / n if n else 0.0
    lo, hi = within
    if n < 2:
        return Estimate(m, lo, hi)
    half = z * math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n)
    return Estimate(m, max(lo, m - half), min(hi, m + half))


_COPY = re.compile(r"#\d+$")


def canonical(data: Any) -> Any:
    """A view with its lists of names sorted and the copy numbers of cards dropped (`Advisor.reached`)."""
    if isinstance(data, dict):
        return {str(k): canonical(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        items = [canonical(x) for x in data]
        return sorted(items) if all(isinstance(x, str) for x in items) else items
    return _COPY.sub("", data) if isinstance(data, str) else data


def paired(a: Sequence[float], b: Sequence[float], z: float = Z) -> Estimate:
    """The mean of a[i] - b[i] over the rollouts both have (results from 0 to 1, so their differences lie
    within -1 and 1), with its interval at `z` standard errors."""
    return mean([x - y for x, y in zip(a, b, strict=False)], z, (-1.0, 1.0))


@dataclass(frozen=True, slots=True)
class Plan:
    """A plan: its actions as text (as the log writes them), each in words, and where it came from."""

    actions: tuple[str, ...]
    words: tuple[str, ...]
    source: str


@dataclass(slots=True)
class Tally:
    """One candidate's rollouts so far, kept by rollout number so that two candidates pair up."""

    plan: Plan
    scores: list[float] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    reach: dict[str, int] = field(default_factory=dict)
    """The margins summed per outcome level: they order the levels from the side's best to its worst."""
    wins: int = 0
    dropped: bool = False

    def add(self, score: float, margin: int, outcome: str) -> None:
        self.scores.append(score)
        self.margins.append(margin)
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        self.reach[outcome] = self.reach.get(outcome, 0) + margin
        self.wins += score == 1.0

    def win(self) -> Estimate:
        return share(self.wins, len(self.scores))

    def score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


@dataclass(frozen=True, slots=True)
class Rated:
    """A candidate as the advisor judged it."""

    plan: Plan
    rollouts: int
    win: Estimate
    """The chance that the side's camp wins the campaign."""
    score: Estimate
    """Its expected result: a win 1, a draw 1/2, a loss 0."""
    levels: dict[str, Estimate]
    """The chance of each outcome level (the outcomes' labels), the side's best level first."""
    margin: Estimate
    """The expected score difference as the side counts it (its camp's minus the other's)."""
    behind: Estimate
    """How much expected result it gives up against the best (paired over the same rollouts; 0 for the best)."""
    dropped: bool
    """Stopped before reaching the target: clearly behind the best."""

    def to_json(self) -> dict[str, Any]:
        return {"plan": list(self.plan.actions), "words": list(self.plan.words), "source": self.plan.source,
                "rollouts": self.rollouts, "win": self.win.to_json(), "score": self.score.to_json(),
                "levels": {k: v.to_json() for k, v in self.levels.items()}, "margin": self.margin.to_json(),
                "behind": self.behind.to_json(), "dropped": self.dropped}


@dataclass(frozen=True, slots=True)
class Advice:
    """The advisor's answer: the candidates best first, and how it got there."""

    side: str
    turn: int
    candidates: tuple[Rated, ...]
    rollouts: int
    stopped: str
    bots: dict[str, str]
    seed: int
    target: float
    margin_of: str
    """What the margin counts, e.g. 'VP' or 'point cities'."""

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "turn": self.turn, "rollouts": self.rollouts, "stopped": self.stopped,
                "bots": self.bots, "seed": self.seed, "target": self.target, "margin_of": self.margin_of,
                "candidates": [c.to_json() for c in self.candidates]}


Progress = Callable[[int, int], None]
"""(rollouts done, rollouts expected in all) -> None; the expectation grows or shrinks as the rounds go."""


class Advisor:
    """Advice for the side to act at `root` (see the module's notes)."""

    def __init__(self, root: Any, bots: Mapping[str, str], seed: int, *, candidates: int = 8,
                 target: float = 0.05, most: int = 4000, seconds: float | None = None) -> None:
        who = root.current_player()
        system = of(root)
        if root.is_terminal():
            raise ValueError("the campaign is over: there is nothing left to decide")
        if who not in root.sc.sides:
            raise ValueError("nobody decides now: the position waits for "
                             + ("a result from the table" if system.tabletop is not None and
                                system.tabletop.questions(root) else "the dice"))
        if not 0 < target < 0.5:
            raise ValueError(f"the target half-width is a share above 0 and below 0.5, got {target}")
        if candidates < 1 or most < 1:
            raise ValueError("at least one candidate and one rollout are needed")
        self.root = root
        self.side: str = who
        self.seed = seed
        self.roller = Roller(root, who, bots, seed)
        self.limit = candidates
        self.target = target
        self.most = most
        self.seconds = seconds
        self.heuristic = heuristic(system)

    # ----- candidates -----------------------------------------------------------------------------------------
    def twin(self) -> Any:
        """The twin the candidates are drawn up on (rollout number -1's deal)."""
        return self.roller.world(-1)

    def mine(self, world: Any) -> bool:
        """Whether the side's player decides at `world` (the side itself, or a side its player also holds)."""
        seats = self.roller.seats
        return not world.is_terminal() and seats.get(world.current_player()) == seats[self.side]

    def choice(self, world: Any, legal: Sequence[Action], salt: int) -> Action:
        """The heuristic's choice among `legal` (a seeded draw where the system has none)."""
        rng = random.Random(self.seed * 31 + salt)
        if self.heuristic is None or len(legal) == 1:
            return legal[int(rng.random() * len(legal))]
        return self.heuristic(world, legal, rng)

    def run(self, world: Any, prefix: Sequence[Action], source: str) -> Plan:
        """The plan that plays `prefix` and then the heuristic until the player's run of decisions ends."""
        acts: list[str] = []
        words: list[str] = []
        describe = self.roller.system.describe
        while self.mine(world) and len(acts) < LONGEST_PLAN:
            legal = world.legal_actions()
            action = prefix[len(acts)] if len(acts) < len(prefix) else self.choice(world, legal, len(acts))
            words.append(describe(world, action))
            acts.append(action.to_str())
            world.apply_action(action)
        return Plan(tuple(acts), tuple(words), source)

    def candidates(self) -> list[Plan]:
        """The heuristic's plan, then single changes to it by rank, up to the limit (duplicates dropped)."""
        base_world = self.twin()
        base = self.run(base_world.clone(), (), "the heuristic's plan")
        found = [base]
        seen = {base.actions}
        reached = {self.reached(base_world, base.actions)}
        rank = 2
        while len(found) < self.limit and rank <= 6:
            grew = False
            for j in range(len(base.actions)):
                if len(found) >= self.limit:
                    break
                world = base_world.clone()
                prefix = [world.parse_action(text) for text in base.actions[:j]]
                for action in prefix:
                    world.apply_action(action)
                legal = [a for a in world.legal_actions() if a.to_str() != base.actions[j]]
                alternative = self.ranked(world, legal, rank - 1, j)
                if alternative is None:
                    continue
                grew = True
                plan = self.run(world, [alternative], "")
                actions = base.actions[:j] + plan.actions
                if actions in seen:
                    continue
                seen.add(actions)
                where = self.reached(base_world, actions)
                if where in reached:  # the same decisions in another order: the same plan
                    continue
                reached.add(where)
                which = {2: "next best", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}[rank]
                found.append(Plan(actions, base.words[:j] + plan.words,
                                  f"the heuristic's plan with its {which} choice at decision {j + 1}"))
            if not grew:
                break
            rank += 1
        return found

    def reached(self, world: Any, actions: Sequence[str]) -> str:
        """The position a plan leads to, as the side sees it, in a canonical form: two plans that reach the same
        one are the same plan.

        assumption: the same pieces in another order, or another copy of the same card, make the same plan for a
        player (a hand of 9 April cards chosen in another order; a Strategic Game group taken in another order),
        so lists of names are compared as sets and a card's copy number (`#n`) is ignored."""
        after = world.clone()
        for text in actions:
            after.apply_action(after.parse_action(text))
        return json.dumps(canonical(after.view(self.side)), sort_keys=True, default=str)

    def ranked(self, world: Any, legal: list[Action], rank: int, salt: int) -> Action | None:
        """The heuristic's `rank`-th choice among `legal` (asking it again without its earlier choices): the
        caller leaves out its first choice, so rank 1 here is its second."""
        left = list(legal)
        pick: Action | None = None
        for r in range(rank):
            if not left:
                return None
            pick = self.choice(world, left, salt * 7 + r)
            left.remove(pick)
        return pick

    def written(self, text: str) -> Plan:
        """A plan the player wrote: actions separated by ';', each checked in turn on the side's twin. Raises
        `ValueError` naming the first action that cannot be played, and why."""
        world = self.twin()
        items = [t.strip() for t in text.split(";") if t.strip()]
        if not items:
            raise ValueError("a plan is one or more actions separated by ';', e.g. 'arrow A2 B2; commit arm_7'")
        acts: list[str] = []
        words: list[str] = []
        for n, item in enumerate(items, start=1):
            if not self.mine(world):
                raise ValueError(f"action {n} of the plan, {item!r}: by then it is no longer this side's decision")
            try:
                action = world.parse_action(item)
                world.clone().apply_action(action)  # the rules say whether it is legal, and why not
            except (IllegalActionError, UnknownNameError) as exc:
                raise ValueError(f"action {n} of the plan, {item!r}, cannot be played: {exc}") from exc
            words.append(self.roller.system.describe(world, action))  # only a legal action is described
            world.apply_action(action)
            acts.append(action.to_str())
        partial = self.mine(world)  # the plan stops short: the rollout bot finishes the side's decisions
        return Plan(tuple(acts), tuple(words), "your plan, then the rollout bot's choices" if partial else "your plan")

    # ----- judging ----------------------------------------------------------------------------------------------
    def rollout(self, plan: Plan, index: int) -> Ending:
        def prepare(world: Any) -> None:
            for text in plan.actions:
                world.apply_action(world.parse_action(text))

        return self.roller.play(index, prepare)

    def advise(self, written: Sequence[str] = (), progress: Progress | None = None) -> Advice:
        """Judge the candidates (with the player's own plans, `written`, added) and rank them.

        Rollout i is played for every live candidate before rollout i + 1, so that candidates still running
        always have as many rollouts as each other, also when the time limit cuts a round short."""
        end = time.process_time() + self.seconds if self.seconds is not None else math.inf
        plans: list[Plan] = []
        for plan in [*(self.written(text) for text in written), *self.candidates()]:
            if len(plans) >= self.limit + len(written):
                break
            if plan.actions not in {p.actions for p in plans} and plan.words not in {p.words for p in plans}:
                plans.append(plan)  # the same actions, or actions that read the same, are one plan
        tallies = [Tally(p) for p in plans]
        roller, side = self.roller, self.side
        done = 0
        stopped = f"every candidate within ±{self.target:.0%} or clearly behind"
        while True:
            live = [t for t in tallies if self.needs(t)]
            if not live:
                break
            start = len(live[0].scores)
            for i in range(start, min(start + BATCH, self.most)):
                if time.process_time() >= end:
                    break
                for t in live:
                    ending = self.rollout(t.plan, i)
                    t.add(roller.score(ending, side), roller.margin(ending, side), ending.outcome)
                    done += 1
                if progress is not None:
                    progress(done, done + sum(self.still_needs(t) for t in tallies))
            if time.process_time() >= end:
                stopped = f"the time limit ({self.seconds:g} s of CPU) came first"
                break
            self.drop(tallies)
        if stopped.startswith("every") and any(
                len(t.scores) >= self.most and not t.dropped and t.win().half() > self.target for t in tallies):
            stopped = f"the rollout limit ({self.most} a candidate) came first"
        unmeasured = [t for t in tallies if not t.scores]
        if len(unmeasured) == len(tallies):
            raise ValueError(f"the time limit ({self.seconds:g} s of CPU) ran out before a single rollout: allow more")
        if unmeasured:
            stopped += f"; {len(unmeasured)} plan(s) got no rollout and are left out"
        return self.rate([t for t in tallies if t.scores], done, stopped)

    def needs(self, t: Tally) -> bool:
        n = len(t.scores)
        if t.dropped or n >= self.most:
            return False
        return n < min(LEAST, self.most) or t.win().half() > self.target

    def still_needs(self, t: Tally) -> int:
        """Roughly how many more rollouts the candidate needs to reach the target."""
        if not self.needs(t):
            return 0
        n = len(t.scores)
        p = min(max(t.win().value, 0.05), 0.95)
        return max(BATCH, min(self.most, math.ceil(Z * Z * p * (1 - p) / self.target ** 2)) - n)

    def drop(self, tallies: list[Tally]) -> None:
        """Stop candidates that the best is clearly ahead of (the paired difference of their scores)."""
        best = max(tallies, key=lambda t: (t.score(), len(t.scores)))
        for t in tallies:
            if t is best or t.dropped or len(t.scores) < LEAST:  # never on a handful of rollouts
                continue
            gap = paired(best.scores, t.scores, Z_DROP)
            if gap.low > 0:
                t.dropped = True

    def rate(self, tallies: list[Tally], done: int, stopped: str) -> Advice:
        order = sorted(tallies, key=lambda t: (-t.score(), -len(t.scores)))
        best = order[0]
        rated = []
        for t in order:
            n = len(t.scores)
            rated.append(Rated(
                t.plan, n, t.win(), mean(t.scores, Z, (0.0, 1.0)),
                {label: share(count, n) for label, count in
                 sorted(t.outcomes.items(), key=lambda kv: -t.reach[kv[0]] / kv[1])},
                mean([float(m) for m in t.margins]),
                Estimate(0.0, 0.0, 0.0) if t is best else paired(best.scores, t.scores), t.dropped))
        system = self.roller.system
        return Advice(self.side, int(getattr(self.root, "turn", 0)), tuple(rated), done, stopped,
                      dict(self.roller.bots), self.seed, self.target, system.score_label)

