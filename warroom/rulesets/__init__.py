"""Rule systems hosted on the core: Firestorm (Caen, Lorraine, Norway) and Kampen om Norge.

`new_game` starts a game of whichever system a loaded scenario belongs to, so the CLI, the simulator and
replay need not know which one it is.
"""

from __future__ import annotations

from typing import Any


def system_of(scenario: Any) -> str:
    """'kampen' for a Kampen om Norge scenario, else 'firestorm'."""
    from warroom.rulesets.kampen.scenario import KampenScenario

    return "kampen" if isinstance(scenario, KampenScenario) else "firestorm"


def new_game(scenario: Any, params: dict[str, Any] | None = None) -> Any:
    """A new game of the scenario's rule system, at its very start."""
    if system_of(scenario) == "kampen":
        from warroom.rulesets import kampen

        return kampen.new_game(scenario, params)
    from warroom.rulesets import firestorm

    return firestorm.new_game(scenario, params)
