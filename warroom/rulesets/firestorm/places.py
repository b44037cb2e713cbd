"""Where a troop can be, besides an area of a map: the off-board places of every Firestorm campaign, and the
record of every troop's place with a live count per place (the bottom of the package: it imports nothing of it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

POOL = "pool"
OFFMAP = "offmap"
RESERVE = "reserve"
CAPTURED = "captured"
GONE = "gone"
WITHDRAWN = "withdrawn"
OFF_BOARD = frozenset({POOL, OFFMAP, RESERVE, CAPTURED, GONE, WITHDRAWN})


class Locations(dict[str, str]):
    """Troop -> location, keeping a live count of troops per location (stacking checks are O(1)), and a count of
    the writes (`version`), so that what was worked out from the locations can tell whether it still holds.

    Every write goes through `__setitem__` or `update`, so the counts never drift.
    """

    __slots__ = ("counts", "version")

    def __init__(self, items: dict[str, str]) -> None:
        super().__init__(items)
        counts: dict[str, int] = {}
        for where in self.values():
            counts[where] = counts.get(where, 0) + 1
        self.counts = counts
        self.version = 0

    def __setitem__(self, unit: str, where: str) -> None:
        self.version += 1
        counts = self.counts
        old = self.get(unit)
        if old is not None:
            counts[old] -= 1
        counts[where] = counts.get(where, 0) + 1
        super().__setitem__(unit, where)

    def update(self, *args: Any, **kwargs: str) -> None:
        for unit, where in dict(*args, **kwargs).items():
            self[unit] = where

    def __delitem__(self, unit: str) -> None:
        raise TypeError("a troop is always somewhere: move it, do not delete it")

    def __reduce__(self) -> tuple[Callable[[dict[str, str], int], Locations], tuple[dict[str, str], int]]:
        """Pickle and deepcopy rebuild the counts from the locations instead of replaying writes."""
        return (_rebuilt, (dict(self), self.version))

    def copy(self) -> Locations:
        new = Locations.__new__(Locations)
        dict.update(new, self)
        new.counts = dict(self.counts)
        new.version = self.version
        return new


def _rebuilt(items: dict[str, str], version: int) -> Locations:
    """`Locations.__reduce__`'s rebuild: the locations, their counts and the count of writes."""
    new = Locations(items)
    new.version = version
    return new
