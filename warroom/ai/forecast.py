"""Forecasts for clubs: each camp's chances of each outcome level from the position as everyone sees it, and, for
a battle at the table, the question its players ask: "what result do we need?" (the chances after each result
they might report).

A forecast is public: its rollouts start from twins dealt for a spectator (`ai.rollout.SPECTATOR`), so it says
nothing that a side's secrets decide. Results that change the game alike (`Tabletop.effect`: in Firestorm, who is
defeated and the rolls to destroy that each side's VP set; for a D-Day landing, the row of its table) are rolled
out once, as one kind.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from warroom.ai.estimates import Estimate, mean, share
from warroom.ai.rollout import SPECTATOR, Ending, Progress, Roller
from warroom.core.system import Question


@dataclass(frozen=True, slots=True)
class Chances:
    """What many rollouts from one position found: each outcome level's chance, each camp's chance of winning
    ('' is a draw), and the expected score difference (the first camp's minus the second's)."""

    rollouts: int
    levels: dict[str, Estimate]
    wins: dict[str, Estimate]
    diff: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"rollouts": self.rollouts, "levels": {k: v.to_json() for k, v in self.levels.items()},
                "wins": {k or "draw": v.to_json() for k, v in self.wins.items()}, "diff": self.diff.to_json()}


def chances(endings: list[Ending], camps: tuple[str, str], roller: Roller) -> Chances:
    """The chances the endings show; the levels ordered from the first camp's best to its worst (`Roller.order`)."""
    n = len(endings)
    levels: dict[str, int] = {}
    reach: dict[str, int] = {}
    wins = dict.fromkeys((*camps, ""), 0)
    for e in endings:
        levels[e.outcome] = levels.get(e.outcome, 0) + 1
        reach[e.outcome] = reach.get(e.outcome, 0) + e.diff
        wins[e.winner] = wins.get(e.winner, 0) + 1
    return Chances(n, {k: share(levels[k], n) for k in roller.order({k: reach[k] / v for k, v in levels.items()},
                                                                     None)},
                   {k: share(v, n) for k, v in wins.items()}, mean([float(e.diff) for e in endings]))


@dataclass(frozen=True, slots=True)
class ResultKind:
    """Results of one battle at the table that change the game alike, and the chances after them."""

    results: tuple[tuple[int, int], ...]
    """(attacker's VP, defender's VP) pairs."""
    winner: str
    """The side a result of this kind makes the battle's winner ('' where nobody wins one: a D-Day landing, or a
    system that does not say beforehand)."""
    meaning: str
    """What a result of this kind does, in words ('Allies win; to destroy Firestorm troops: Allies 4+, Germans 6')."""
    chances: Chances

    def to_json(self) -> dict[str, Any]:
        return {"results": [list(r) for r in self.results], "winner": self.winner, "meaning": self.meaning,
                "chances": self.chances.to_json()}


@dataclass(frozen=True, slots=True)
class Need:
    """"What result do we need?" for one battle at the table."""

    question: Question
    kinds: tuple[ResultKind, ...]

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {"battle": q.no, "title": q.title, "attacker": q.attacker, "defender": q.defender,
                "kinds": [k.to_json() for k in self.kinds]}


@dataclass(frozen=True, slots=True)
class Forecast:
    turn: int
    camps: tuple[str, str]
    now: Chances
    needs: tuple[Need, ...]
    seed: int
    bots: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "camps": list(self.camps), "now": self.now.to_json(),
                "needs": [n.to_json() for n in self.needs], "seed": self.seed, "bots": self.bots}


def forecast(root: Any, bots: Mapping[str, str], seed: int, rollouts: int = 400,
             progress: Progress | None = None, seconds: float | None = None) -> Forecast:
    """The forecast of `root`: `rollouts` for the chances now, and as many for each kind of result of each battle
    the table owes a result (the same rollout numbers for every kind, so that they compare on the same luck).
    `seconds` caps the CPU time: the first line stops at its share of it (at least one rollout), and every other
    line plays as many rollouts as it did (a long game's forecast on a server: Narvik's rollouts take seconds)."""
    if rollouts < 1:
        raise ValueError("a forecast needs at least one rollout")
    if seconds is not None and not seconds > 0:  # nan too
        raise ValueError("a forecast's time limit must be above 0 seconds")
    roller = Roller(root, SPECTATOR, bots, seed)
    system = roller.system
    camps: tuple[str, str] = system.score_sides(root.sc)
    tabletop = system.tabletop
    jobs: list[tuple[Question | None, tuple[tuple[int, int], ...], str, str]] = [(None, (), "", "")]
    if tabletop is not None and not root.is_terminal():
        for asked in tabletop.questions(root).values():
            kinds: dict[Hashable, list[tuple[int, int]]] = {}
            said: dict[Hashable, tuple[str, str]] = {}
            for a in tabletop.vp:
                for d in tabletop.vp:
                    role, key, meaning = tabletop.effect(root, asked, a, d) if tabletop.effect is not None else \
                        ("", (a, d), "")
                    kinds.setdefault(key, []).append((a, d))
                    said[key] = role, meaning
            jobs.extend((asked, tuple(group), *said[key]) for key, group in kinds.items())
    total = rollouts * len(jobs)
    done = 0
    until = time.process_time() + seconds / len(jobs) if seconds is not None else math.inf
    now: Chances | None = None
    needs: dict[int, list[ResultKind]] = {}
    questions: dict[int, Question] = {}
    for q, group, role, meaning in jobs:
        owed: tuple[Any, ...] = ()
        if q is not None:
            assert tabletop is not None
            owed = (tabletop.report(q.no, *group[0]),)  # reported as soon as the rules take it (after any roll)
        endings = []
        for i in range(rollouts):
            endings.append(roller.play(i, owed=owed))
            done += 1
            stop = q is None and i + 1 < rollouts and time.process_time() > until  # its share of the time is used
            if stop:
                rollouts = i + 1
                total = rollouts * len(jobs)
            if progress is not None and (done % 16 == 0 or done == total):
                progress(done, total)
            if stop:
                break
        got = chances(endings, camps, roller)
        if q is None:
            now = got
            continue
        questions[q.no] = q
        winner = {"attacker": q.attacker, "defender": q.defender}.get(role) or ""
        needs.setdefault(q.no, []).append(ResultKind(group, winner, meaning, got))
    assert now is not None
    return Forecast(int(getattr(root, "turn", 0)), camps, now,
                    tuple(Need(questions[no], tuple(kinds)) for no, kinds in sorted(needs.items())), seed,
                    dict(roller.bots))
