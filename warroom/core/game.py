"""Driving a game: players, the seeded chance loop, and replay from a log."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from warroom.core.errors import IllegalActionError, SaveError, UnknownNameError
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT, Action


class Player(Protocol):
    """Anything that picks one of the legal actions."""

    def choose(self, state: Any, legal: Sequence[Action]) -> Action: ...


class DriveableState(Protocol):
    def current_player(self) -> str: ...
    def legal_actions(self) -> Sequence[Action]: ...
    def chance_dice(self) -> Any: ...
    def apply_action(self, action: Action, side: str | None = None) -> None: ...
    def is_terminal(self) -> bool: ...
    def parse_action(self, text: str) -> Action: ...


def play(
    state: DriveableState,
    players: Mapping[str, Player],
    rng: random.Random,
    *,
    on_action: Callable[[str, Action], None] | None = None,
    max_actions: int = 1_000_000,
    trusted: bool = False,
) -> None:
    """Play until the end. Chance nodes are sampled from `rng`; `REPORT` goes to `players[REPORT]`.

    `trusted=True` is the fast path for simulation: the players are known to return one of the
    actions `legal_actions()` just offered, and rolls come from the node's own dice, so the state's
    `apply_unchecked` skips the second legality check. Leave it off for any player that might not.
    """
    unchecked: Callable[[Action, str], None] | None = getattr(state, "apply_unchecked", None) if trusted else None
    for _ in range(max_actions):
        who = state.current_player()
        if state.is_terminal():
            return
        if who == CHANCE:
            action: Action = state.chance_dice().sample(rng)
        else:
            player = players.get(who)
            if player is None:
                raise KeyError(f"no player for {who!r}" + (" (a tabletop result)" if who == REPORT else ""))
            action = player.choose(state, state.legal_actions())
        if unchecked is not None:
            unchecked(action, who)
        else:
            state.apply_action(action)
        if on_action is not None:
            on_action(who, action)
    raise RuntimeError(f"game did not end within {max_actions} actions")


def replay(record: GameRecord, new_state: Callable[[], DriveableState],
           before: Callable[[int, DriveableState], None] | None = None) -> DriveableState:
    """Rebuild a game by applying its log to a fresh state. Raises `SaveError` on any mismatch. `before`, if
    given, sees the position before each entry (with the entry's number)."""
    state = new_state()
    for i, entry in enumerate(record.log):
        if before is not None:
            before(i, state)
        if state.is_terminal():
            raise SaveError(f"log entry {i} ({entry.action!r}) comes after the end of the game")
        who = state.current_player()
        if entry.side != who and entry.side != REPORT:  # a result may come out of turn: the state says if
            raise SaveError(f"log entry {i} ({entry.action!r}) is by {entry.side!r}, but {who!r} was to act")
        try:
            state.apply_action(state.parse_action(entry.action), entry.side)
        except (IllegalActionError, UnknownNameError) as exc:
            raise SaveError(f"log entry {i} ({entry.action!r}) is not legal on replay: {exc}") from exc
    return state
