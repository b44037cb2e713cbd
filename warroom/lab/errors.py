"""The balance lab's errors when a sweep is played."""

from __future__ import annotations

from warroom.core.errors import WarroomError


class LabRunError(WarroomError, RuntimeError):
    """A sweep that cannot go on: a game that failed, a scenario variant refused, a Ray cluster that cannot be
    joined."""


class LabStopped(LabRunError):
    """A sweep stopped by something outside its games (a worker or a Ray head lost), which running it again may
    get past: the caller says what was kept (`lab run` stores every finished task; a tune stores nothing)."""
