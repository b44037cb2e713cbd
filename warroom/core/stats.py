"""Streaming statistics for simulations: counts and histograms, never per-game lists.

>>> wilson(50, 100)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval for a proportion, rounded to 4 places."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def percentile(hist: dict[int, int], q: float) -> int:
    """The q-quantile (0..1) of the values counted in `hist` (nearest rank)."""
    total = sum(hist.values())
    if total == 0:
        return 0
    rank = max(1, math.ceil(q * total))
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    return max(hist)


def wilson_cc(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval with continuity correction (Newcombe 1998, method 4). Unlike the plain Wilson
    interval it keeps its coverage for a share near 0 or 1 (a rare outcome level seen once in a few dozen trials).
    `successes` may be fractional: a sum of results that each lie between 0 and 1 (a draw counting half).

    >>> wilson_cc(1, 48)
    (0.0011, 0.1247)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    zz = z * z
    denom = 2 * (n + zz)
    low = 0.0 if successes == 0 else \
        (2 * n * p + zz - 1 - z * math.sqrt(max(0.0, zz - 2 - 1 / n + 4 * p * (n * (1 - p) + 1)))) / denom
    high = 1.0 if successes == n else \
        (2 * n * p + zz + 1 + z * math.sqrt(max(0.0, zz + 2 - 1 / n + 4 * p * (n * (1 - p) - 1)))) / denom
    return (round(max(0.0, low), 4), round(min(1.0, high), 4))
