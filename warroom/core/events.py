"""Typed events: what the rules say happened, for the adapters to render (after cosmicpython's domain events).

The rules still write a line of prose per event for the log (`state.note`); an adapter that needs a fact (a chart
of the score, a battle's result) reads the typed event instead, never the prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Event:
    turn: int
    """The game's clock when it happened (a Firestorm turn, a Kampen om Norge round)."""


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """A turn is over: each side's score after it (Firestorm: total VP)."""

    score: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BattleResolved(Event):
    """A battle's result: where (the area's id and its name), who attacked whom, how it was settled (e.g. "General's
    Wargame", "tabletop", "dice", "bluff") and who won: "attacker", "defender", or "" when neither did (a
    Firestorm draw: the defender holds)."""

    area: str = ""
    place: str = ""
    attacker: str = ""
    defenders: tuple[str, ...] = ()
    how: str = ""
    winner: str = ""
