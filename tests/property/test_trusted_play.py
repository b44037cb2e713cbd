"""The simulator's unchecked fast path plays exactly the same games as the checked path."""

from __future__ import annotations

import random

import pytest

from warroom.ai import make_bot
from warroom.core.game import play
from warroom.rulesets.firestorm import new_game
from warroom.rulesets.firestorm.state import FirestormState
from warroom.scenarios import load_scenario


def played(scenario: str, seed: int, trusted: bool) -> FirestormState:
    sc = load_scenario(scenario)
    st = new_game(sc)
    players = {side: make_bot(kind, random.Random(seed * 10 + i))
               for i, (side, kind) in enumerate(zip(sc.sides, ("random", "heuristic"), strict=True))}
    play(st, players, random.Random(seed), trusted=trusted)
    return st


@pytest.mark.parametrize("scenario", ["caen", "lorraine"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_trusted_play_equals_checked_play(scenario: str, seed: int) -> None:
    checked, fast = played(scenario, seed, False), played(scenario, seed, True)
    assert fast.log == checked.log
    assert fast.control == checked.control and dict(fast.loc) == dict(checked.loc)
    assert fast.outcome_text() == checked.outcome_text()


def test_clones_share_no_mutable_state() -> None:
    """Bots clone a lot: playing on a clone must leave the original untouched (mixed mode included)."""
    sc = load_scenario("caen")
    st = new_game(sc, {"mode": "mixed", "allotment": 1})
    rng = random.Random(5)
    bots = {side: make_bot("random", random.Random(i)) for i, side in enumerate(sc.sides)}
    for _ in range(400):
        if st.is_terminal():
            break
        before = (list(st.log), dict(st.loc), dict(st.control), repr(st.flags), repr(st.battle))
        twin = st.clone()
        for _ in range(30):  # play ahead on the clone
            if twin.is_terminal():
                break
            who = twin.current_player()
            if who == "chance":
                twin.apply_action(twin.chance_dice().sample(rng))
            elif who == "report":
                twin.apply_action(twin.parse_action("report 4 1"))
            else:
                twin.apply_action(bots[who].choose(twin, twin.legal_actions()))
        assert (list(st.log), dict(st.loc), dict(st.control), repr(st.flags), repr(st.battle)) == before
        who = st.current_player()
        if who == "chance":
            st.apply_action(st.chance_dice().sample(rng))
        elif who == "report":
            st.apply_action(st.parse_action("report 2 4"))
        else:
            st.apply_action(bots[who].choose(st, st.legal_actions()))
