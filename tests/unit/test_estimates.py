"""The intervals the advisor, the forecast and the analysis report (`ai.estimates`): within what is possible, never
a point because a few rollouts agreed, and holding their 95% where the plain normal interval does not (near 0 and
1, and for two plans that seldom disagree)."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

from warroom.ai.estimates import ALPHA_DROP, drop_z, mean, paired, result


def covered(trials: int, draw: random.Random, interval: object, truth: float, n: int, sample: object) -> float:
    """The share of `trials` intervals, each from `n` values drawn by `sample(draw)`, that hold `truth`."""
    hits = 0
    for _ in range(trials):
        values = [sample(draw) for _ in range(n)]  # type: ignore[operator]
        e = interval(values)  # type: ignore[operator]
        hits += e.low <= truth <= e.high
    return hits / trials


def test_a_result_near_certain_keeps_room_for_doubt() -> None:
    e = result([1.0] * 400)
    assert e.value == 1.0 and e.high == 1.0 and 0.98 < e.low < 1.0
    assert result([0.5] * 10).low < 0.5 < result([0.5] * 10).high  # ten draws: a result of 1/2, not certain
    assert mean([1.0] * 400, within=(0.0, 1.0)).low == 1.0  # what the plain interval says, wrongly


def test_the_result_interval_holds_its_rate_near_the_ends() -> None:
    """A side that wins 99.5% of the time, 100 rollouts: the plain normal interval holds the truth about 40% of the
    time (whenever every rollout is a win it is the point 1.0); this one at least 95%."""
    draw = random.Random(1)
    win = lambda r: 1.0 if r.random() < 0.995 else 0.0  # noqa: E731
    assert covered(400, draw, result, 0.995, 100, win) >= 0.95
    assert covered(400, draw, lambda v: mean(v, within=(0.0, 1.0)), 0.995, 100, win) < 0.6
    mixed = lambda r: (1.0, 0.5, 0.0)[min(2, int(r.random() / 0.3))]  # noqa: E731  wins 30%, draws 30%, loses 40%
    assert covered(400, draw, result, 0.3 + 0.15, 200, mixed) >= 0.95


def test_two_plans_that_seldom_disagree_are_not_declared_equal() -> None:
    """Two plans that differ in 2% of 64 rollouts, always the same way: often none of the 64 differs, and the plain
    interval of the difference is then the point 0."""
    draw = random.Random(2)

    def pair(r: random.Random) -> tuple[float, float]:
        base = float(r.random() < 0.5)
        return (1.0, 0.0) if r.random() < 0.02 else (base, base)

    hits = 0
    for _ in range(1000):
        a, b = zip(*(pair(draw) for _ in range(64)), strict=True)
        e = paired(a, b)
        assert -1.0 <= e.low <= e.value <= e.high <= 1.0
        hits += e.low <= 0.02 <= e.high
    assert hits >= 950
    same = paired([1.0, 0.0] * 32, [1.0, 0.0] * 32)
    assert same.value == 0.0 and same.low < 0.0 < same.high


def test_the_drop_rule_spends_its_error_over_every_round() -> None:
    """However many rounds the advice takes, the chance summed over them that a test drops a plan as good as the
    best, over every ordered pair of plans, stays within `ALPHA_DROP`."""
    for plans in (2, 3, 8):
        tail = sum(1 - NormalDist().cdf(drop_z(look, plans)) for look in range(1, 10_000))
        assert tail * plans * (plans - 1) <= ALPHA_DROP
    assert math.isclose(drop_z(1, 8), 3.27, abs_tol=0.01) and math.isclose(drop_z(12, 8), 4.48, abs_tol=0.01)
    assert drop_z(2, 8) > drop_z(1, 8) > drop_z(1, 2)
