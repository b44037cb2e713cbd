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
