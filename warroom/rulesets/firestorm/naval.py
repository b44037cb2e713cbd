"""Strategic Game arithmetic (Firestorm: Norway digest sections 5.1, 6.3-6.9): pure functions with no
state, so each rule can be tested and its probabilities computed exactly.

>>> interception_split(6, 3)
(3, 3)
>>> interception_split(7, 2)
(2, 5)
>>> half_up(7)
4
"""

from __future__ import annotations

from collections.abc import Sequence

HIT = 6
"""A six destroys its target (5.1)."""


def half_up(n: int) -> int:
    """Half of `n`, rounded up: retreat fire, voluntary retreat and passing submarine replies (6.4, 6.5, 6.8)."""
    return (n + 1) // 2


def interception_split(bomber_cv: int, bombers: int) -> tuple[int, int]:
    """Bomber dice against defending aircraft and against the ships (6.7): half against aircraft, the
    odd die against the ships.

    assumption: no more dice against aircraft than there are bomber counters, since a plain-CV bomber
    has CV 1 against aircraft (digest 6.7 suggestion, 11.13); both worked examples fit this reading.
    """
    vs_air = min(bomber_cv // 2, bombers)
    return vs_air, bomber_cv - vs_air


def deal(alloc: Sequence[tuple[str, int]]) -> list[str]:
    """The target of each die, in allocation order: [("a", 2), ("b", 1)] -> ["a", "a", "b"]."""
    return [target for target, n in alloc for _ in range(n)]


def tally(targets: Sequence[str], faces: Sequence[int]) -> dict[str, int]:
    """Hits per target for dice rolled in `deal` order."""
    hits: dict[str, int] = {}
    for target, face in zip(targets, faces, strict=True):
        if face == HIT:
            hits[target] = hits.get(target, 0) + 1
    return hits


def battleship_sunk(hits: int, reroll: int | None) -> bool:
    """The battleship rule (5.1): one hit is re-rolled at the owner's request and sinks only on a six;
    two or more hits sink it. `reroll` is the re-rolled die (None when there was nothing to re-roll)."""
    if hits >= 2:
        return True
    if hits == 1:
        return reroll == HIT
    return False


def p_battleship_sunk(n: int) -> float:
    """Exact chance that `n` dice sink a battleship whose owner re-rolls a single hit (EX-9).

    >>> round(p_battleship_sunk(1), 6) == round(1 / 36, 6)
    True
    """
    miss = 5 / 6
    none = miss ** n
    one = n * (1 / 6) * miss ** (n - 1)
    return 1 - none - one + one * (1 / 6)


def p_any_hit_with_reroll(n: int) -> float:
    """Exact chance that `n` dice, each miss re-rolled once, score a hit (the harbour target, 6.9)."""
    return 1 - (25 / 36) ** n
