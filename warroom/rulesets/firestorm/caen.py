"""Caen's German Tactical Reserve (Caen 4.3, hook `tactical_reserve`), and the withdrawal at the end of turn 3
(Caen 3.4). The D-Day turn and the Caumont Gap are in `dday.py`, the stacking limit while moving in `moves.py`.

In the Strategic Phase the Germans may place troops off-map in the Tactical Reserve, up to the next turn's limit
(1 for turn 2, then 2: `reserve_limit` in the turn table). During a turn they may commit one or both to any
battle, attacking or defending, as if they stood in its area; each counts as one of the two Firestorm Troops.
After the battle the troop stays in that area.

assumption: (digest 4.3 suggestions) a reserve troop joins only where the stacking limit leaves it room to stay,
and reserves not committed stay in reserve into the next turn, counting against that turn's limit.

Each decision has one "why not" here, which serves both the legal actions and the refusal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warroom.rulesets.firestorm.state import CAPTURED, RESERVE, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.battle import Battle
    from warroom.rulesets.firestorm.state import FirestormState

SPOT = "reserve"
"""Where a `place` action puts a troop into the Tactical Reserve ('place UNIT reserve')."""
NAME = "the Tactical Reserve"


def in_play(st: FirestormState) -> bool:
    return st.sc.has("tactical_reserve")


def troops_in_reserve(st: FirestormState, side: str | None = None) -> list[str]:
    """The troops (of `side`, or all) waiting in the Tactical Reserve."""
    if not in_play(st):
        return []
    troops = st.sc.troops
    return [u for u, where in st.loc.items() if where == RESERVE and (side is None or troops[u].side == side)]


def entry_problem(st: FirestormState, unit: str) -> str:
    """Why `unit` may not be placed into the Tactical Reserve now ('' if it may)."""
    sc = st.sc
    if not in_play(st):
        return f"{sc.title} has no Tactical Reserve (a Caen rule)"
    if sc.troops[unit].side != sc.sides[1]:
        return f"only the {sc.side_names[sc.sides[1]]} put troops into {NAME}"
    if st.turn >= len(sc.turns):
        return f"{NAME} serves the next turn, and this is the last"
    limit = sc.turn(st.turn + 1).reserve_limit
    if st.loc.counts.get(RESERVE, 0) >= limit:
        return f"{NAME} for turn {st.turn + 1} is full ({limit} troop{'s' * (limit != 1)})"
    return ""


def has_room(st: FirestormState, unit: str) -> bool:
    """Whether `unit` may be placed into the Tactical Reserve now."""
    return not entry_problem(st, unit)


def enter(st: FirestormState, unit: str) -> None:
    st.loc[unit] = RESERVE


def joining_problem(st: FirestormState, area: str, joining: int) -> str:
    """Why `joining` reserve troops may not join the battle fought from or in `area` ('' if they may): they
    stay there after it, so the stacking limit must leave them room."""
    limit = st.sc.rules.stacking
    if joining and limit and st.stack_count(area) + joining > limit:
        return (f"stacking leaves no room for {joining} troop{'s' * (joining != 1)} from {NAME} to join in "
                f"{st.area_label(area)} ({limit} at most)")
    return ""


def join(st: FirestormState, b: Battle, unit: str, area: str) -> None:
    """A reserve troop committed to battle `b` comes onto the map in `area` and stays there."""
    st.loc[unit] = area
    b.from_reserve.append(unit)
    if st.record_events:
        st.note(f"{st.name(unit)} joins from {NAME}")


# ----- the withdrawal at the end of turn 3 (3.4) ------------------------------------------------------------
def withdraw(st: FirestormState, units: Sequence[str]) -> None:
    """Caen end of T3: listed units leave for good, for no VP; captured ones stay captured (C 3.4)."""
    for u in units:
        if st.loc[u] != CAPTURED:
            st.loc[u] = WITHDRAWN
            st.note(f"{st.name(u)} is withdrawn from the campaign")

