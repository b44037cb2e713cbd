"""The rules-agnostic core: ids, dice, the state protocol, flow tables, logs and saves.

This package imports nothing outside the Python standard library.
"""

from warroom.core.dice import Dice, Roll, d3
from warroom.core.errors import IllegalActionError, SaveError, ScenarioError, WarroomError
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action, GameState

__all__ = [
    "CHANCE",
    "REPORT",
    "TERMINAL",
    "Action",
    "Dice",
    "GameState",
    "IllegalActionError",
    "Roll",
    "SaveError",
    "ScenarioError",
    "WarroomError",
    "d3",
]
