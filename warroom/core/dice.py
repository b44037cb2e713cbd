"""Dice as explicit chance nodes.

Rules never roll dice themselves. A state at a chance node describes the dice to roll with a
`Dice` spec; whoever drives the game samples them from an injected RNG and applies the result
as a `Roll` action, which the log records like any other action.

>>> Dice(2).outcomes()[0]
(Roll(values=(1, 1)), 0.027777777777777776)
>>> d3(5)
3
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
from dataclasses import dataclass
from typing import TypeVar

from warroom.core.errors import IllegalActionError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Roll:
    """The outcome of a chance node: the face of every die, in order."""

    values: tuple[int, ...]

    def to_str(self) -> str:
        return "roll " + " ".join(str(v) for v in self.values) if self.values else "roll -"

    @classmethod
    def parse(cls, words: list[str]) -> Roll:
        if words == ["-"]:
            return cls(())
        try:
            return cls(tuple(int(w) for w in words))
        except ValueError as exc:
            raise IllegalActionError(f"a roll is a list of die faces, got {' '.join(words)!r}") from exc


MAX_OUTCOMES = 6**6
"""The most outcomes `Dice.outcomes()` will list."""


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` faces, rolled together at one chance node."""

    count: int
    sides: int = 6

    def outcomes(self) -> list[tuple[Roll, float]]:
        """Every outcome with its exact probability (uniform, independent dice).

        Refuses nodes with more than `MAX_OUTCOMES` outcomes (a Norway naval fight can roll 20 dice at
        once): sample those with `sample`, or compute hit counts per target binomially.
        """
        if self.sides**self.count > MAX_OUTCOMES:
            raise ValueError(f"{self.count} d{self.sides} have {self.sides}^{self.count} outcomes, more than "
                             f"{MAX_OUTCOMES} to list; sample them instead")
        p = 1.0 / (self.sides**self.count)
        faces = range(1, self.sides + 1)
        return [(Roll(combo), p) for combo in itertools.product(faces, repeat=self.count)]

    def sample(self, rng: random.Random) -> Roll:
        """Sample one outcome; equivalent to drawing from `outcomes()`."""
        s = self.sides
        rnd = rng.random
        return Roll(tuple(int(rnd() * s) + 1 for _ in range(self.count)))

    def check(self, roll: Roll) -> None:
        """Raise `IllegalActionError` unless `roll` is a possible outcome."""
        if len(roll.values) != self.count or any(not 1 <= v <= self.sides for v in roll.values):
            raise IllegalActionError(
                f"this chance node rolls {self.count} d{self.sides}, got {roll.to_str()!r}"
            )


@dataclass(frozen=True, slots=True)
class MixedDice:
    """Dice of different sizes rolled together: die `i` has `sides[i]` faces. A shuffle of `n` cards is
    `MixedDice.shuffle(n)` (Fisher-Yates: n, n-1, ..., 2 faces), read back with `shuffled`.

    >>> MixedDice.shuffle(3).sides
    (3, 2)
    >>> shuffled(["a", "b", "c"], Roll((3, 1)))
    ['c', 'a', 'b']
    """

    sides: tuple[int, ...]

    @classmethod
    def shuffle(cls, n: int) -> MixedDice:
        return cls(tuple(range(n, 1, -1)))

    def outcomes(self) -> list[tuple[Roll, float]]:
        total = 1
        for s in self.sides:
            total *= s
        if total > MAX_OUTCOMES:
            raise ValueError(f"dice of {self.sides} faces have {total} outcomes, more than {MAX_OUTCOMES} to list; "
                             "sample them instead")
        p = 1.0 / total
        return [(Roll(combo), p) for combo in itertools.product(*(range(1, s + 1) for s in self.sides))]

    def sample(self, rng: random.Random) -> Roll:
        rnd = rng.random
        return Roll(tuple(int(rnd() * s) + 1 for s in self.sides))

    def check(self, roll: Roll) -> None:
        if len(roll.values) != len(self.sides) or any(not 1 <= v <= s for v, s in zip(roll.values, self.sides,
                                                                                      strict=True)):
            raise IllegalActionError(f"this chance node rolls dice of {list(self.sides)} faces, got {roll.to_str()!r}")


_D6S: dict[int, Dice] = {}


def d6s(count: int) -> Dice:
    """`Dice(count)`, one value per count (dice are immutable): what chance nodes that roll some d6 hand out."""
    got = _D6S.get(count)
    if got is None:
        got = _D6S[count] = Dice(count)
    return got


def shuffled(items: list[T], roll: Roll) -> list[T]:
    """`items` in the order a `MixedDice.shuffle(len(items))` roll gives: each die picks, from the cards not
    yet placed, the one that goes next on top."""
    rest = list(items)
    out = [rest.pop(v - 1) for v in roll.values]
    return out + rest


def keyed_rng(key: bytes, *context: object) -> random.Random:
    """A random stream that nobody can foretell without `key`: seeded with HMAC-SHA256(key, context).

    Each context (say a campaign's undo epoch and a log position) gets a stream of its own, so however many
    rolls of other contexts are published, they tell nothing about this one unless the key is known; and the
    same key and context always give the same stream (replay, restarts).

    >>> a, b = keyed_rng(b"k" * 32, "dice", 0, 7), keyed_rng(b"k" * 32, "dice", 0, 7)
    >>> a.random() == b.random()
    True
    >>> keyed_rng(b"k" * 32, "dice", 1, 7).random() == keyed_rng(b"k" * 32, "dice", 0, 7).random()
    False
    """
    message = "/".join(str(part) for part in context).encode()
    return random.Random(int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big"))


def d3(face: int) -> int:
    """A d6 read as a D3: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (Firestorm, every book)."""
    return (face + 1) // 2


class FixedDice:
    """A stand-in RNG for tests: `random()` replays the given d6 faces in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        if not self.faces:
            raise AssertionError("FixedDice ran out of faces")
        return (self.faces.pop(0) - 1) / 6 + 1e-9
