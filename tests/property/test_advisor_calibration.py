"""The advisor's numbers are right: on positions near a campaign's end, whose odds are found by brute force, its 95%
intervals hold the true chances about 95% of the time.

The position is the first decision of a Lorraine campaign's last turn, with bots playing at random in the
rollouts. Its odds for the heuristic's plan are measured by `TRUTH` rollouts on streams of their own (a standard
error under half a point, against the advisor's ±11 or so at `ROLLOUTS`). The advisor is then asked `RUNS` times
with different seeds, and the share of its intervals that hold the true value (for the win, and for every outcome
level) is tested against 95% with a binomial bound.

assumption: brute force stands in for exact enumeration. An exact sum over every roll and every choice of the
random bots was tried: the last turn's strategic moves branch too widely to enumerate before the outcome is
settled, and once only moves are left every outcome is already certain.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from warroom import rulesets
from warroom.ai.advisor import Advisor, Plan
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.stats import wilson_cc
from warroom.sim.runner import play_one

RANDOM = {"allies": "random", "axis": "random"}
TRUTH = 8000
RUNS = 120
"""Advice asked this many times, with seeds 1 to RUNS."""
ROLLOUTS = 48
FEWEST = 104
"""Of RUNS intervals of a 95% rate, at least this many hold the truth (P(X < 104) < 0.5% for Binomial(120, 0.95))."""


def last_turn() -> tuple[Any, Plan, float, Counter[str]]:
    """The first decision of a Lorraine campaign's last turn whose heuristic plan wins between 10% and 90% of the
    time: the position, the plan, and its true win chance and outcome levels (brute force)."""
    for seed in range(1, 20):
        game = play_one("lorraine", seed, RANDOM)
        sc = game.sc
        last = max(e.turn for e in game.log)
        k = next(i for i, e in enumerate(game.log) if e.turn == last and e.side in sc.sides)
        record = GameRecord("lorraine", sc.version, dict(game.params), seed, game.log[:k])
        params = dict(game.params)
        st: Any = replay(record, partial(rulesets.new_game, sc, params))
        judge = Advisor(st, RANDOM, 10**9 + seed, candidates=1)  # streams no advice below uses
        plan = judge.candidates()[0]
        levels: Counter[str] = Counter()
        wins = 0
        for i in range(TRUTH):
            ending = judge.rollout(plan, i)
            levels[ending.outcome] += 1
            wins += judge.roller.score(ending, judge.side) == 1.0
        if 0.1 < wins / TRUTH < 0.9:
            return st, plan, wins / TRUTH, Counter({k: v / TRUTH for k, v in levels.items()})
    raise AssertionError("no last turn with an uncertain outcome")


def test_the_advisors_intervals_hold_the_true_odds_at_their_stated_rate() -> None:
    st, plan, win, levels = last_turn()
    held = Counter[str]()
    for seed in range(1, RUNS + 1):
        advice = Advisor(st, RANDOM, seed, candidates=1, most=ROLLOUTS, target=0.001).advise()
        (best,) = advice.candidates
        assert best.rollouts == ROLLOUTS and best.plan.actions == plan.actions
        held["win"] += best.win.low <= win <= best.win.high
        for label, p in levels.items():
            e = best.levels.get(label)  # a level no rollout reached is 0 of n, with its interval
            low, high = (e.low, e.high) if e is not None else wilson_cc(0, ROLLOUTS)
            held[label] += low <= p <= high
    assert held["win"] >= FEWEST, (held, win)
    for label in levels:
        assert held[label] >= FEWEST, (label, held, levels)
