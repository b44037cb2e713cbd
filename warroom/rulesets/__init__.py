"""The registry of rule systems: the one place an adapter finds a system (after OpenSpiel's `register_game`).

Each system declares itself once, as a `core.system.RuleSystem` in its own package, and is registered by one
line of `REGISTERED`; a system from another installed package registers itself instead as an entry point of
the group `warroom.systems` ('module:attribute'). The CLI, the simulator, the bots, the club server and the
scenario loader look systems up here, by id, or by the type of a scenario or a state, and nowhere else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from warroom.core.errors import UnknownNameError
from warroom.core.system import RuleSystem

REGISTERED = (
    "warroom.rulesets.firestorm.system:SYSTEM",
    "warroom.rulesets.kampen.system:SYSTEM",
)
ENTRY_POINTS = "warroom.systems"
DEFAULT = "firestorm"
"""The system of a scenario that names none: the first campaign files, from before there was a second system."""


def resolve(spec: str) -> Any:
    """The object an entry point 'package.module:attribute' names."""
    module, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(module), attribute)


@cache
def systems() -> dict[str, RuleSystem]:
    """Every registered system by id, the built-in ones first."""
    found: dict[str, RuleSystem] = {}
    specs = [*REGISTERED, *(ep.value for ep in entry_points(group=ENTRY_POINTS))]
    for spec in specs:
        system = resolve(spec)
        if not isinstance(system, RuleSystem):
            raise TypeError(f"{spec} is not a RuleSystem")
        found.setdefault(system.id, system)
    return found


def find(system_id: str) -> RuleSystem | None:
    return systems().get(system_id)


def get(system_id: str) -> RuleSystem:
    """The system with this id; `UnknownNameError` naming the known ones otherwise."""
    system = find(system_id)
    if system is None:
        raise UnknownNameError(f"unknown rule system {system_id!r} (known: {', '.join(systems())})")
    return system


_BY_TYPE: dict[type, RuleSystem] = {}


def of(thing: Any) -> RuleSystem:
    """The system a scenario or a game state belongs to."""
    kind = type(thing)
    system = _BY_TYPE.get(kind)
    if system is None:
        for candidate in systems().values():
            if issubclass(kind, (candidate.scenario_type, candidate.state_type)):
                system = _BY_TYPE[kind] = candidate
                break
        else:
            raise UnknownNameError(f"{kind.__name__} belongs to no registered rule system")
    return system


def new_game(scenario: Any, params: dict[str, Any] | None = None) -> Any:
    """A new game of the scenario's rule system, at its very start."""
    return of(scenario).new_game(scenario, params)


def heuristic(system: RuleSystem) -> Callable[..., Any] | None:
    """The system's heuristic bot's choice function, or None (it plays at random)."""
    return _heuristic(system.heuristic) if system.heuristic else None


@cache
def _heuristic(spec: str) -> Callable[..., Any]:
    fn = resolve(spec)
    if not callable(fn):
        raise TypeError(f"{spec} is not a function")
    return fn  # type: ignore[no-any-return]
