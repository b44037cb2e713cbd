"""The one state API every ruleset offers (after OpenSpiel's `State`).

The CLI, the web app, the bots, the simulator and the tests drive games through these verbs only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self, runtime_checkable

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.core.errors import IllegalActionError
from warroom.core.events import Event
from warroom.core.flow import Flow
from warroom.core.log import GameRecord, LogEntry

CHANCE = "chance"
"""`current_player()` at a chance node: sample `chance_dice()` and apply the `Roll`."""
REPORT = "report"
"""`current_player()` when an outside result (a tabletop battle) must be reported."""
TERMINAL = "terminal"
"""`current_player()` once the game is over."""
NOT_SIDES = ("", CHANCE, REPORT, TERMINAL)
"""Words that are never a side's id: the state API's other players."""


@runtime_checkable
class Action(Protocol):
    """Actions are frozen dataclasses with a stable text form."""

    def to_str(self) -> str: ...


class GameState(Protocol):
    """The verbs of a game position."""

    def current_player(self) -> str:
        """A side id, or `CHANCE`, `REPORT` or `TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The single source of legality for the player to act."""
        ...

    def chance_dice(self) -> Dice | MixedDice:
        """The dice rolled at this chance node (`MixedDice` for dice of different sizes, e.g. a shuffle)."""
        ...

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        """Every outcome of this chance node with its probability."""
        ...

    def apply_action(self, action: Action, side: str | None = None) -> None:
        """Apply a legal action; raises `IllegalActionError` otherwise.

        `side`, when given, is who is acting: an action by anyone but `current_player()` is refused.
        """
        ...

    def parse_action(self, text: str) -> Action:
        """Read an action from its text form (the codec shared by logs, URLs and the CLI). The reading depends on
        the text and the scenario only, never on the position (the conformance harness reads each text once)."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> dict[str, float]:
        """Final score per side (VP difference for the winner, negative for the loser)."""
        ...

    def clone(self) -> Self: ...

    def view(self, side: str | None) -> dict[str, Any]:
        """What `side` may see (None: a spectator)."""
        ...


class _Recorded(Protocol):
    sc: Any

    @property
    def flow(self) -> Flow[Any]: ...  # read-only here: a system's state may hold a subclass of Flow

    step: str
    params: dict[str, Any]
    log: list[LogEntry]
    events: list[tuple[int, str]]
    happened: list[Event]
    record_events: bool

    @property
    def turn(self) -> int: ...


def vet(state: Any, action: Action, side: str | None) -> str:
    """Who acts on `state` now, once `action` passes the checks every flow-driven state makes: the game is not
    over, `side` (when given) is the one to act, a chance node gets a roll of its own dice, and a decision an
    action its step allows (refused with the flow's words, `flow.explain`). Raises `IllegalActionError`."""
    who: str = state.current_player()
    if who == TERMINAL:
        raise IllegalActionError("the game is over: no more actions")
    names = state.sc.names
    if side is not None and side != who:
        raise IllegalActionError(f"{names.get(side, side)} cannot act now: it is {names.get(who, who)}'s decision "
                                 f"(step {state.step})")
    if who == CHANCE:
        if not isinstance(action, Roll):
            raise IllegalActionError(f"dice must be rolled now (step {state.step}), not {action.to_str()!r}")
        state.chance_dice().check(action)
    elif not state.flow.steps[state.step].is_legal(state, action):
        raise IllegalActionError(state.flow.explain(state, action))
    return who


class FlowRecording:
    """What every state driven by a flow table shares: its phase, its event notes (stamped with the game's
    clock, `turn`) and the record that replays it."""

    def phase(self: _Recorded) -> str:
        return self.flow.steps[self.step].phase if self.step else ""

    def note(self: _Recorded, text: str) -> None:
        if self.record_events:
            self.events.append((self.turn, text))

    def emit(self: _Recorded, event: Event) -> None:
        """Record a typed event (when the state records events: the simulator turns them off)."""
        if self.record_events:
            self.happened.append(event)

    def record(self: _Recorded, seed: int) -> GameRecord:
        return GameRecord(self.sc.id, self.sc.version, dict(self.params), seed, list(self.log))

