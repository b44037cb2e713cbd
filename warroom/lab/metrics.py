"""A cell's metrics, each with its 95 % interval, from its stored games (after the measures of the Ludii and
Tabletop Games Framework studies of game balance):

- each outcome level's rate, and each camp's win rate (Wilson intervals);
- balance: 1 less the gap between the two camps' win rates (1: even; 0: one camp always wins);
- the score difference at the end (the margin): mean, percentiles and its histogram;
- game length in turns;
- decisiveness: the turn from which the eventual winner led at every turn's end, and that turn as a share of the
  game's length (late: the game stayed open);
- lead changes: how often the lead changed hands in a game;
- drama: how far behind the eventual winner was at worst (in the system's measure: Firestorm VP, outcome levels
  elsewhere), and how often it was behind at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from warroom.core.stats import percentile, wilson

Z = 1.959964


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean with a normal 95 % interval (the count too)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "ci95": [None, None], "n": 0}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z * math.sqrt(var / n)
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)], "n": n}


def rate(count: int, n: int) -> dict[str, Any]:
    """A share with its Wilson interval (none of either without games)."""
    if not n:
        return {"count": count, "rate": None, "ci95": [None, None]}
    return {"count": count, "rate": round(count / n, 4), "ci95": list(wilson(count, n))}


def balance(wins_a: int, wins_b: int, n: int) -> dict[str, Any]:
    """1 less the gap between two win rates, with the interval of the gap (the two rates are shares of the same
    games: the variance of their difference is (pa + pb - (pa - pb)^2) / n)."""
    if n == 0:
        return {"value": None, "ci95": [None, None]}
    pa_, pb = wins_a / n, wins_b / n
    d = pa_ - pb
    half = Z * math.sqrt(max(0.0, pa_ + pb - d * d) / n)
    lo, hi = d - half, d + half
    gap_lo, gap_hi = (0.0, max(-lo, hi)) if lo <= 0 <= hi else (min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
    return {"value": round(1 - abs(d), 4), "ci95": [round(max(0.0, 1 - gap_hi), 4), round(min(1.0, 1 - gap_lo), 4)]}


def counts(values: Sequence[int]) -> dict[str, int]:
    """How many times each value occurs, in value order (keys as text, for JSON)."""
    seen: dict[int, int] = {}
    for v in values:
        seen[v] = seen.get(v, 0) + 1
    return {str(k): n for k, n in sorted(seen.items())}


def cell_metrics(games: pa.Table, camps: tuple[str, str]) -> dict[str, Any]:
    """The metrics of one cell's games (rows of `lab.store.SCHEMA`); `camps` the two camps compared."""
    cols = games.to_pydict()
    n = len(cols["game"])
    outcomes: dict[str, int] = {}
    for o in cols["outcome"]:
        outcomes[o] = outcomes.get(o, 0) + 1
    winners = cols["winner"]
    wins = {c: sum(1 for w in winners if w == c) for c in camps}
    draws = sum(1 for w in winners if not w)
    diffs: dict[int, int] = {}
    for d in cols["diff"]:
        diffs[d] = diffs.get(d, 0) + 1
    decided = [(d, t) for d, t in zip(cols["decided"], cols["turns"], strict=True) if d is not None]
    drama = [x for x in cols["drama"] if x is not None]
    return {
        "games": n,
        "outcomes": {k: rate(v, n) for k, v in sorted(outcomes.items(), key=lambda kv: -kv[1])},
        "wins": {**{c: rate(wins[c], n) for c in camps}, "draw": rate(draws, n)},
        "balance": balance(wins[camps[0]], wins[camps[1]], n),
        "margin": {**mean_ci(cols["diff"]),
                   "percentiles": {str(q): percentile(diffs, q / 100) if n else None for q in (5, 25, 50, 75, 95)},
                   "histogram": counts(cols["diff"])},
        "length": {**mean_ci(cols["turns"]), "histogram": counts(cols["turns"])},
        "decided_turn": mean_ci([d for d, _ in decided]),
        "decided_share": mean_ci([d / t for d, t in decided]),
        "lead_changes": mean_ci(cols["lead_changes"]),
        "drama": {**mean_ci(drama), "behind": rate(sum(1 for x in drama if x > 0), len(drama))},
    }
