"""Errors raised by the engine. Every message names the rule or the input at fault."""

from __future__ import annotations


class WarroomError(Exception):
    """Base class for every error warroom raises on purpose."""


class IllegalActionError(WarroomError, ValueError):
    """An action that `legal_actions()` does not offer; the message names the rule."""


class ProblemsError(WarroomError, ValueError):
    """An input that fails validation. `problems` lists every error found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))

    def __reduce__(self) -> tuple[type[ProblemsError], tuple[list[str]]]:  # across processes, as it was
        return (type(self), (self.problems,))


class ScenarioError(ProblemsError):
    """A scenario file that fails validation."""


class SaveError(WarroomError, ValueError):
    """A saved game that cannot be read or replayed."""


class UnknownNameError(WarroomError, ValueError):
    """An unknown scenario, area, unit or side named on input."""


def shown(value: object, limit: int = 40) -> str:
    """A value as an error message may quote it: its repr, cut to `limit` characters, so that a message never
    echoes a large input back.

    >>> shown("nuke")
    "'nuke'"
    >>> shown("x" * 100, 10)
    "'xxxxxx..."
    """
    return clipped(repr(value), limit)


def clipped(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, '...' marking the cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."
