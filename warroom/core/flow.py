"""Turn flow as data (after boardgame.io).

A `Flow` is a table of named `Step`s. Each step names who acts, which actions it allows, what
happens on entry, when it ends and which step follows. One loop (`Flow.settle`) runs after every
action: it checks for the end of the game, then ends finished steps and enters their successors,
so automatic steps run without any player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from warroom.core.errors import IllegalActionError


class FlowState(Protocol):
    step: str

    def is_terminal(self) -> bool: ...


S = TypeVar("S", bound=FlowState)


def _always(_state: Any) -> bool:
    return True


def _nobody(_state: Any) -> str:
    return ""


def _no_actions(_state: Any) -> Sequence[Any]:
    return ()


def _reject(_state: Any, action: Any) -> None:
    raise IllegalActionError(f"no action is taken in this step ({action.to_str()})")


@dataclass(frozen=True)
class Step(Generic[S]):
    """One row of the flow table.

    `actor` says who decides (a side id, CHANCE or REPORT). A step with no actor is automatic:
    its `on_begin` does the work and it ends at once unless `end_if` says otherwise.
    """

    name: str
    phase: str
    actor: Callable[[S], str] = _nobody
    legal: Callable[[S], Sequence[Any]] = _no_actions
    apply: Callable[[S, Any], None] = _reject
    on_begin: Callable[[S], None] | None = None
    end_if: Callable[[S], bool] = _always
    next: Callable[[S], str] = field(default=lambda _s: "")
    problem: Callable[[S, Any], str] | None = None
    """The step's "why not": the reason an action is not legal now, '' when it is. Where a step has one, it
    decides legality and words the refusal, and `legal` lists exactly the actions it finds nothing against."""

    def is_legal(self, state: S, action: Any) -> bool:
        """No `problem` with `action`, if the step has one; else membership in `legal(state)`."""
        if self.problem is not None:
            return not self.problem(state, action)
        return action in self.legal(state)


class Flow(Generic[S]):
    """A table of steps and the loop that moves a state through it."""

    def __init__(self, steps: Sequence[Step[S]]) -> None:
        self.steps: dict[str, Step[S]] = {}
        for step in steps:
            if step.name in self.steps:
                raise ValueError(f"duplicate step {step.name!r} in flow table")
            self.steps[step.name] = step

    def enter(self, state: S, name: str) -> None:
        """Move `state` to step `name`, run its `on_begin`, then settle."""
        self._enter(state, name)
        self.settle(state)

    def _enter(self, state: S, name: str) -> None:
        step = self.steps[name]
        state.step = name
        if step.on_begin is not None:
            step.on_begin(state)

    def settle(self, state: S) -> None:
        """End every finished step and enter its successor, until a decision is needed."""
        steps = self.steps
        for _ in range(10_000):
            if state.is_terminal():
                return
            step = steps[state.step]
            if not step.end_if(state):
                return
            nxt = step.next(state)
            if not nxt:
                return
            self._enter(state, self.entering(state, nxt))
        raise RuntimeError(f"flow did not settle (stuck around step {state.step!r})")

    def entering(self, state: S, name: str) -> str:
        """The step actually entered when the flow moves on to `name`: `name` itself, unless a rule system
        breaks in between (a subclass may return another step, and arrange to come back to `name`)."""
        return name

    def apply(self, state: S, action: Any) -> None:
        """Apply `action` in the current step, then settle."""
        self.steps[state.step].apply(state, action)
        self.settle(state)

    def phase(self, state: S) -> str:
        return self.steps[state.step].phase


def goto(name: str) -> Callable[[Any], str]:
    """A constant `next`."""
    return lambda _s: name

