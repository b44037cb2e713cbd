"""Building Strategic Game positions by hand: for tests, worked examples and what-if studies of a plan.

A position is a normal campaign state, so everything after it runs through the state API.

>>> from warroom.scenarios import load_scenario
>>> st = strategic_position(load_scenario("norway"), {"rodney": "B3", "scharnhorst": "B2"}, "allies")
>>> apply_orders(st, "activate B3 ships", "sail B2", "fight")
>>> st.step, st.current_player()
('nv_roll', 'chance')
"""

from __future__ import annotations

from collections.abc import Mapping

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.state import GONE


def with_counters(sc: FirestormScenario, counters: Mapping[str, str] | None, turn: int = 2) -> FirestormState:
    """A new game at `turn` in which only `counters` (counter -> location) are on the Strategic Map; all
    others are gone. `None` keeps the scenario's set-up."""
    st = new_game(sc)
    navy = st.navy
    if navy is None:
        raise ValueError(f"scenario {sc.id!r} has no Strategic Game")
    if counters is not None:
        for c in navy.where:
            navy.where[c] = GONE
        navy.where.update(counters)
    st.turn = turn
    return st


def strategic_position(sc: FirestormScenario, counters: Mapping[str, str], player: str,
                       turn: int = 2) -> FirestormState:
    """The Strategic Actions of `turn` with only `counters` on the map and `player` to choose an action
    (after the Germans' Stuka step, if Ju-87s stand on airfields)."""
    st = with_counters(sc, counters, turn)
    st.flow.enter(st, "sa_start")
    assert st.navy is not None
    st.navy.player = player
    if st.step not in ("sa_choose", "sa_stuka"):
        raise IllegalActionError(f"the position starts at step {st.step!r}, not at a choice of action")
    return st


def apply_orders(st: FirestormState, *texts: str) -> None:
    """Apply actions written as text, each checked like a player's."""
    for text in texts:
        st.apply_action(st.parse_action(text))


def roll(st: FirestormState, *faces: int) -> None:
    """Force the dice of the current chance node."""
    if st.current_player() != CHANCE:
        raise IllegalActionError(f"step {st.step!r} is not a chance node")
    st.apply_action(Roll(tuple(faces)))
