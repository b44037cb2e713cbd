"""Turn flow as data (after boardgame.io).

A `Flow` is a table of named `Step`s. Each step names who acts, which actions it allows, what
happens on entry, when it ends and which step follows. One loop (`Flow.settle`) runs after every
action: it checks for the end of the game, then ends finished steps and enters their successors,
so automatic steps run without any player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Final, Generic, Protocol, TypeVar

from mypy_extensions import mypyc_attr

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


def draw_until(rng: Random, slots: int, pick: Callable[[int], Any]) -> Any:
    """A step's uniform draw by rejection (`Step.sample`): slot numbers drawn uniformly from `slots` until
    `pick(slot)` names an action (None: that slot holds no legal action now, draw again). Each legal action must
    own exactly one slot, and some slot must always hold one."""
    while True:
        got = pick(int(rng.random() * slots))
        if got is not None:
            return got


def _no_next(_state: Any) -> str:
    return ""


class Step(Generic[S]):
    """One row of the flow table: a plain class rather than a frozen dataclass, so that compiled it is a native one
    (mypyc cannot build a frozen generic dataclass natively) and the flow reads its fields directly; its fields
    are `Final`, set once.

    `actor` says who decides (a side id, CHANCE or REPORT). A step with no actor is automatic:
    its `on_begin` does the work and it ends at once unless `end_if` says otherwise.

    `problem` is the step's "why not": the reason an action is not legal now, '' when it is. Where a step has one,
    it decides legality and words the refusal, and `legal` lists exactly the actions it finds nothing against.

    `sample` draws one of `legal`'s actions uniformly at random without listing them all, where that is much
    cheaper (a search's random playouts use it): each legal action exactly as likely as any other.
    """

    __slots__ = ("actor", "apply", "end_if", "legal", "name", "next", "on_begin", "phase", "problem", "sample")

    def __init__(self, name: str, phase: str, actor: Callable[[S], str] = _nobody,
                 legal: Callable[[S], Sequence[Any]] = _no_actions, apply: Callable[[S, Any], None] = _reject,
                 on_begin: Callable[[S], None] | None = None, end_if: Callable[[S], bool] = _always,
                 next: Callable[[S], str] = _no_next, problem: Callable[[S, Any], str] | None = None,
                 sample: Callable[[S, Random], Any] | None = None) -> None:
        self.name: Final = name
        self.phase: Final = phase
        self.actor: Final = actor
        self.legal: Final = legal
        self.apply: Final = apply
        self.on_begin: Final = on_begin
        self.end_if: Final = end_if
        self.next: Final = next
        self.problem: Final = problem
        self.sample: Final = sample

    def __repr__(self) -> str:
        return f"Step({self.name!r}, {self.phase!r})"

    def is_legal(self, state: S, action: Any) -> bool:
        """No `problem` with `action`, if the step has one; else membership in `legal(state)`."""
        if self.problem is not None:
            return not self.problem(state, action)
        return action in self.legal(state)


# a rule system's flow may subclass it uncompiled (a system being written, or the pure engine's fallback)
@mypyc_attr(allow_interpreted_subclasses=True)
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

