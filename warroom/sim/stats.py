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
