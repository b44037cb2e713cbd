"""The registry of rule systems: the one place an adapter finds a system (after OpenSpiel's `register_game`).

Each system declares itself once, as a `core.system.RuleSystem` in its own package, and is registered by one
line of `REGISTERED`; a system from another installed package registers itself instead as an entry point of
the group `warroom.systems` ('module:attribute'). The CLI, the simulator, the bots, the club server and the
scenario loader look systems up here, by id, or by the type of a scenario or a state, and nowhere else.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from warroom.core.errors import UnknownNameError
from warroom.core.system import FastFinish, FastGame, Heuristic, RuleSystem

REGISTERED = {
    "firestorm": "warroom.rulesets.firestorm.system:SYSTEM",
    "kampen": "warroom.rulesets.kampen.system:SYSTEM",
    "narvik": "warroom.rulesets.narvik.system:SYSTEM",
}
"""The built-in systems by id. Each is imported only when first asked for (a command that plays Caen never
loads Kampen om Norge); asking for every system also reads the installed entry points."""
ENTRY_POINTS = "warroom.systems"
DEFAULT = "firestorm"
"""The system of a scenario that names none: the first campaign files, from before there was a second system."""


def entry_points(group: str) -> Any:
    """The installed entry points of `group` (importlib.metadata is loaded only when the registry is first read)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def resolve(spec: str) -> Any:
    """The object an entry point 'package.module:attribute' (or 'module:object.attribute') names."""
    module, _, attribute = spec.partition(":")
    found: Any = importlib.import_module(module)
    for name in attribute.split(".") if attribute else ():
        found = getattr(found, name)
    return found


@cache
def _builtin(system_id: str) -> RuleSystem:
    """A built-in system (one that fails to load is a bug of this package: it raises)."""
    spec = REGISTERED[system_id]
    system = resolve(spec)
    if not isinstance(system, RuleSystem) or system.id != system_id:
        raise TypeError(f"{spec} is not the RuleSystem {system_id!r}")
    return system


@cache
def _registry() -> tuple[dict[str, RuleSystem], tuple[str, ...]]:
    found: dict[str, RuleSystem] = {sid: _builtin(sid) for sid in REGISTERED}
    ignored: list[str] = []
    for ep in entry_points(group=ENTRY_POINTS):  # another package's: a broken one is set aside, and said so
        try:
            plugged = ep.load()
        except Exception as exc:  # whatever its import raises, the other systems still work
            ignored.append(f"{ep.name} = {ep.value!r} does not load: {type(exc).__name__}: {exc}")
            continue
        if not isinstance(plugged, RuleSystem):
            ignored.append(f"{ep.name} = {ep.value!r} is not a RuleSystem but {type(plugged).__name__}")
        elif plugged.id in found:
            ignored.append(f"{ep.name} = {ep.value!r} declares the id {plugged.id!r}, which another system has")
        else:
            found[plugged.id] = plugged
    return found, tuple(ignored)


def systems() -> dict[str, RuleSystem]:
    """Every registered system by id, the built-in ones first."""
    return _registry()[0]


def ignored() -> tuple[str, ...]:
    """Why each entry point of the group `warroom.systems` that is not registered was set aside."""
    return _registry()[1]


def find(system_id: str) -> RuleSystem | None:
    if system_id in REGISTERED:
        return _builtin(system_id)
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
    if system is None:  # the system whose type is the nearest ancestor (a plug-in may subclass a built-in)
        mro = kind.__mro__
        package = kind.__module__.split(".")
        own = package[2] if package[:2] == ["warroom", "rulesets"] and len(package) > 2 else ""
        candidates = [_builtin(own)] if own in REGISTERED else list(systems().values())  # a built-in type: its own
        near = [(mro.index(t), i, s) for i, s in enumerate(candidates)
                for t in (s.scenario_type, s.state_type) if t in mro]
        if not near:
            raise UnknownNameError(f"{kind.__name__} belongs to no registered rule system")
        system = _BY_TYPE[kind] = min(near, key=lambda n: (n[0], n[1]))[2]
    return system


def new_game(scenario: Any, params: dict[str, Any] | None = None) -> Any:
    """A new game of the scenario's rule system, at its very start."""
    return of(scenario).new_game(scenario, params)


def heuristic(system: RuleSystem) -> Heuristic | None:
    """The system's heuristic bot's choice function, or None (it plays at random)."""
    return _function(system.heuristic) if system.heuristic else None


def kernel_heuristic(system: RuleSystem) -> Heuristic | None:
    """The system's heuristic on its simulation kernel's positions, or None."""
    return _function(system.kernel_heuristic) if system.kernel_heuristic else None


def fast_game(system: RuleSystem) -> FastGame | None:
    """The system's simulation kernel playing whole bot games, or None."""
    return _function(system.fast_game) if system.fast_game else None


def kernel_finish(system: RuleSystem) -> FastFinish | None:
    """The system's simulation kernel playing one of its positions on to the end with bots, or None."""
    return _function(system.kernel_finish) if system.kernel_finish else None


@cache
def _function(spec: str) -> Any:
    fn = resolve(spec)
    if not callable(fn):
        raise TypeError(f"{spec} is not a function")
    return fn


def camps(scenario: Any, params: Any) -> dict[str, str]:
    """Each side's camp: what a game's summary names as the winner when that side wins (`RuleSystem.score_sides`).
    A side's camp is the side itself or, where it is none of them, the one camp that is no side's id: Kampen om
    Norge's Norway and Allies win together, as 'norway_allies'. Raises `ValueError` where that finds none."""
    system = of(scenario)
    sides = system.seats(scenario, {**system.sim_params, **dict(params)})
    named = system.score_sides(scenario)
    joint = [c for c in named if c not in sides]
    out: dict[str, str] = {}
    for side in sides:
        if side in named:
            out[side] = side
        elif len(joint) == 1:
            out[side] = joint[0]
        else:
            raise ValueError(f"no camp among {named} is the side {side!r}'s")
    return out
