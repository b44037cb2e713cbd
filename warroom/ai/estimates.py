"""What many rollouts measure, each with its 95% interval: a share (an outcome level's chance), a campaign result
(a win 1, a draw 1/2, a loss 0), a mean (a VP margin), and the paired difference of two results over the same
rollouts. The plan advisor, the forecast and the analysis (`ai.advisor`, `ai.forecast`, `ai.analysis`) all report
through these, so every interval means the same thing wherever it is shown.

Every interval stays within what is possible, and none collapses to a point because a few rollouts happened to
agree (a handful of rollouts that all ended alike prove little): that is what the plain normal interval does near 0
and 1, and what `tests/unit/test_estimates.py` measures against. A VP mean is the one exception: `FEW` or more
rollouts that all agree give it an interval of that single value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from warroom.core.stats import wilson_cc

Z = 1.959964
"""95% intervals."""
FEW = 30
"""Fewer values than this that all agree do not measure a mean's spread (`mean`)."""


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


def share(count: float, n: int) -> Estimate:
    """A proportion with its Wilson interval, continuity-corrected: it holds its 95% for rare outcome levels too
    (tests/property/test_advisor_calibration.py; the plain Wilson interval covered a 0.25% level 86% of the time
    at 48 rollouts)."""
    low, high = wilson_cc(count, n)
    return Estimate(count / n if n else 0.0, low, high)


def result(values: Sequence[float]) -> Estimate:
    """The expected campaign result of rollouts that each scored 1, 1/2 or 0, with the interval of a share of that
    sum. A result with mean p varies no more than a win-or-lose one with chance p, so this interval is at least
    as wide as it needs to be, and it stays sensible where a normal interval does not: 400 wins in 400 rollouts
    still leave room below 100%."""
    return share(sum(values), len(values))


def mean(values: Sequence[float], z: float = Z, within: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """A mean with its normal interval at `z` standard errors, kept `within` the values' possible range. Below two
    values nothing measures the spread, nor in fewer than `FEW` values that are all the same (eight rollouts
    that all ended with 6 point cities German say little of the next eight): the interval is then the whole
    range (unknown, where that is unbounded)."""
    n = len(values)
    m = sum(values) / n if n else 0.0
    lo, hi = within
    spread = sum((v - m) ** 2 for v in values) / (n - 1) if n >= 2 else 0.0
    if n < 2 or (spread == 0.0 and n < FEW):
        return Estimate(m, lo, hi)
    half = z * math.sqrt(spread / n)
    return Estimate(m, max(lo, m - half), min(hi, m + half))


def paired(a: Sequence[float], b: Sequence[float], z: float = Z) -> Estimate:
    """The mean of a[i] - b[i] over the rollouts both have (results from 0 to 1, so their differences lie within
    -1 and 1), with its interval at `z` standard errors.

    The interval is Agresti and Min's for matched pairs (2005): half a rollout more in each of the two discordant
    cells (one where a won and b lost, one the other way) and one where they agreed, so two plans that happened
    to agree in every rollout so far are not declared exactly equal, nor one certainly ahead after three
    rollouts. The value is the plain mean of the differences."""
    d = [x - y for x, y in zip(a, b, strict=False)]
    n = len(d)
    if n == 0:
        return Estimate(0.0, -1.0, 1.0)
    value = sum(d) / n
    m = n + 2  # the pseudo-rollouts: +1 and -1 at half weight each, and one 0
    centre = sum(d) / m
    spread = (sum(x * x for x in d) + 1.0) / m - centre * centre
    half = z * math.sqrt(max(spread, 0.0) / m)
    return Estimate(value, max(-1.0, min(value, centre - half)), min(1.0, max(value, centre + half)))


ALPHA_DROP = 0.05
"""The chance, over a whole piece of advice, that any plan as good as the best is dropped as clearly behind."""


def drop_z(look: int, plans: int) -> float:
    """How many standard errors the best plan must lead another by to drop it at the `look`-th check (1, 2, ...)
    among `plans` plans. The advice's `ALPHA_DROP` is spent over the checks as 6 / (pi^2 look^2) of it at each
    (these shares sum to 1 over any number of checks) and split over every ordered pair of plans (the best is
    chosen from the same data), so repeating the test after every round cannot wear the guarantee down. At the
    first check with 8 plans this is 3.27 standard errors, at the twelfth 4.48."""
    pairs = max(1, plans * (plans - 1))
    alpha = ALPHA_DROP * 6 / (math.pi ** 2 * look ** 2) / pairs
    return NormalDist().inv_cdf(1 - alpha)
