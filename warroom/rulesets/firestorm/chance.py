"""Chance nodes of the Firestorm flow tables: a step that rolls some d6, or resolves at once when none are due."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warroom.core.dice import Roll
from warroom.core.flow import Step
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm.state import FirestormState

St = FirestormState


def chance_step(name: str, phase: str, dice: Callable[[St], int], resolve: Callable[[St, tuple[int, ...]], None],
                nxt: Callable[[St], str]) -> Step[St]:
    """A chance node rolling `dice(st)` d6; with no dice it resolves at once without a roll."""

    def begin(st: St) -> None:
        n = dice(st)
        if n == 0:
            resolve(st, ())
            st.flags.dice = 0
        else:
            st.flags.dice = n

    def apply(st: St, roll: Any) -> None:
        assert isinstance(roll, Roll)
        st.flags.dice = 0
        resolve(st, roll.values)

    return Step(name, phase, actor=lambda st: CHANCE, apply=apply, on_begin=begin,
                end_if=lambda st: st.flags.dice == 0, next=nxt)
