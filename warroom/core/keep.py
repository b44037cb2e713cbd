"""What the bots keep between decisions: answers made once per scenario object, or for the last position asked.

Both check identity or currency before they answer, so nothing kept outlives what it was made from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

K = TypeVar("K")
V = TypeVar("V")

KEPT_SCENARIOS = 16
"""At most this many scenarios' tables are kept (scenarios loaded from files anew each game must not pile up)."""


class PerObject(Generic[K, V]):
    """`make(key)` kept per key object, by identity, for at most `KEPT_SCENARIOS` keys."""

    def __init__(self, make: Callable[[K], V]) -> None:
        self.make = make
        self.kept: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        got = self.kept.get(id(key))
        if got is None or got[0] is not key:
            if len(self.kept) >= KEPT_SCENARIOS:
                self.kept.clear()
            got = self.kept[id(key)] = (key, self.make(key))
        return got[1]


class Current(Protocol):
    def current(self, st: Any) -> bool:
        """Whether these answers still hold for `st`."""
        ...


C = TypeVar("C", bound=Current)


class Latest(Generic[C]):
    """`make(st)` for the last position asked about, kept while its `current(st)` says it still holds."""

    def __init__(self, make: Callable[[Any], C]) -> None:
        self.make = make
        self.kept: C | None = None

    def __call__(self, st: Any) -> C:
        kept = self.kept
        if kept is not None and kept.current(st):
            return kept
        made = self.kept = self.make(st)
        return made
