"""Every step handler names the actions it takes (issue 13, typed state): random games of every system and
variant check, at every decision, that the action applied is of the type the step's handler declares."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

from warroom import rulesets
from warroom.core.state import CHANCE
from warroom.scenarios import bundled_ids, load_game


def declared(apply: Any) -> Any:
    """The type a step's `apply` declares for its action (its second parameter), or None (a lambda, a handler
    of any action)."""
    if not isinstance(apply, types.FunctionType) or apply.__name__ == "<lambda>":
        return None
    second = apply.__code__.co_varnames[1] if apply.__code__.co_argcount > 1 else ""
    text = apply.__annotations__.get(second)
    if text is None or text == "Any":
        return None
    return eval(text, apply.__globals__)  # the annotation's names are imported where the handler lives


@pytest.mark.parametrize("scenario", bundled_ids())
def test_every_action_is_of_the_type_its_handler_declares(scenario: str) -> None:
    sc = load_game(scenario)
    system = rulesets.of(sc)
    checked = 0
    for seed, variant in enumerate(system.variants):
        if system.bot_game_problem(variant.params):
            continue  # battles at the table: people report their results
        st = rulesets.new_game(sc, dict(variant.params))
        rng = random.Random(seed)
        while not st.is_terminal():
            roll = st.current_player() == CHANCE
            action = st.chance_dice().sample(rng) if roll else rng.choice(list(st.legal_actions()))
            kind = declared(st.flow.steps[st.step].apply)
            if kind is not None:
                assert isinstance(action, kind), (st.step, action, kind)
                checked += 1
            st.apply_action(action)
    assert checked > 100
