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
  difference of their results, at `estimates.drop_z`: a plan as good as the best is dropped in at most 5% of all
  advice), or at `most` rollouts.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warroom.ai.estimates import Estimate, Z, drop_z, mean, paired, result, share
from warroom.ai.rollout import Ending, Progress, Roller
from warroom.core.errors import IllegalActionError, UnknownNameError, clipped, shown
from warroom.core.state import Action
from warroom.rulesets import heuristic, of

BATCH = 32
"""Rollouts per candidate per round."""
LEAST = 64
"""No candidate is judged on fewer rollouts (unless `most` is lower)."""
LONGEST_PLAN = 400
"""No run of one player's decisions is longer (a guard: every rule system hands the turn on long before)."""


_COPY = re.compile(r"#\d+$")


def canonical(data: Any) -> Any:
    """A view with its lists of names sorted and the copy numbers of cards dropped (`Advisor.reached`)."""
    if isinstance(data, dict):
        return {str(k): canonical(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        items = [canonical(x) for x in data]
        return sorted(items) if all(isinstance(x, str) for x in items) else items
    return _COPY.sub("", data) if isinstance(data, str) else data


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
    """The expected score difference as the side counts it (its camp's minus the other's), or where the score is a
    count (`RuleSystem.score_label`: Kampen om Norge's German point cities) that count, the same for every side."""
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

    def written(self, text: str, which: str = "the plan") -> Plan:
        """A plan the player wrote: actions separated by ';', each checked in turn on the side's twin. Raises
        `ValueError` naming the first action that cannot be played, and why (`which` plan: 'plan 2')."""
        world = self.twin()
        items = [t.strip() for t in text.split(";") if t.strip()]
        if not items:
            raise ValueError(f"{which} is empty: a plan is one or more actions separated by ';', e.g. "
                             "'arrow A2 B2; commit arm_7'")
        acts: list[str] = []
        words: list[str] = []
        for n, item in enumerate(items, start=1):
            if not self.mine(world):
                raise ValueError(f"action {n} of {which}, {shown(item)}: by then it is no longer this side's "
                                 "decision")
            try:
                action = world.parse_action(item)
                world.clone().apply_action(action)  # the rules say whether it is legal, and why not
            except (IllegalActionError, UnknownNameError) as exc:
                raise ValueError(f"action {n} of {which}, {shown(item)}, cannot be played: "
                                 f"{clipped(str(exc), 300)}") from exc  # the rules may quote the input whole
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
        mine = [self.written(text, f"plan {k}" if len(written) > 1 else "the plan")
                for k, text in enumerate(written, start=1)]
        for plan in [*mine, *self.candidates()]:
            if len(plans) >= self.limit + len(written):
                break
            if plan.actions not in {p.actions for p in plans} and plan.words not in {p.words for p in plans}:
                plans.append(plan)  # the same actions, or actions that read the same, are one plan
        tallies = [Tally(p) for p in plans]
        roller, side = self.roller, self.side
        done = looks = 0
        stopped = f"every candidate within ±{self.target * 100:g} points or clearly behind"
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
            looks += 1
            self.drop(tallies, looks)
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

    def best(self, tallies: Sequence[Tally]) -> Tally:
        """The best candidate not dropped: the highest mean result over the rollouts every such candidate has (a
        candidate whose interval reached the target earlier stops earlier; comparing over the same rollout numbers
        keeps the common random numbers' sharpness), then the one with more rollouts."""
        alive = [t for t in tallies if not t.dropped and t.scores] or [t for t in tallies if t.scores]
        common = min(len(t.scores) for t in alive)
        return max(alive, key=lambda t: (sum(t.scores[:common]), len(t.scores)))

    def drop(self, tallies: list[Tally], look: int) -> None:
        """Stop candidates that the best is clearly ahead of at this `look` (1, 2, ...): by the paired difference
        of their results, at `estimates.drop_z` standard errors, so that a plan as good as the best is dropped in
        at most 5% of all advice, however many rounds it takes."""
        best = self.best(tallies)
        z = drop_z(look, len(tallies))
        for t in tallies:
            if t is best or t.dropped or len(t.scores) < LEAST:  # never on a handful of rollouts
                continue
            if paired(best.scores, t.scores, z).low > 0:
                t.dropped = True

    def rate(self, tallies: list[Tally], done: int, stopped: str) -> Advice:
        """The candidates best first: the best (`best`), then the others by how much they give up against it
        (paired over the rollouts both have), those dropped early last."""
        best = self.best(tallies)
        behind = {id(t): Estimate(0.0, 0.0, 0.0) if t is best else paired(best.scores, t.scores) for t in tallies}
        order = sorted(tallies, key=lambda t: (t is not best, t.dropped, behind[id(t)].value, -len(t.scores)))
        rated = []
        for t in order:
            n = len(t.scores)
            rated.append(Rated(
                t.plan, n, t.win(), result(t.scores),
                {label: share(t.outcomes[label], n) for label in
                 self.roller.order({k: t.reach[k] / v for k, v in t.outcomes.items()}, self.side)},
                mean([float(m) for m in t.margins]), behind[id(t)], t.dropped))
        system = self.roller.system
        return Advice(self.side, int(getattr(self.root, "turn", 0)), tuple(rated), done, stopped,
                      dict(self.roller.bots), self.seed, self.target, system.score_label)

