"""What each Kampen om Norge step asks, in words (issue 16): a sentence for every step a player decides in random
games of both rule sets, with the countries named as in a sentence."""

from __future__ import annotations

import random

from warroom import rulesets
from warroom.core.state import CHANCE
from warroom.rulesets.kampen.prompts import ASKED, asking
from warroom.scenarios import load_game


def test_every_step_a_player_decides_has_its_own_sentence() -> None:
    seen: set[str] = set()
    for advanced in (False, True):
        for seed in (1, 2, 3):
            st = rulesets.new_game(load_game("kampen"), {"seed": seed, "seats": 3, "advanced": advanced})
            rng = random.Random(seed)
            for _ in range(2500):
                if st.is_terminal():
                    assert asking(st).startswith("The game is over: ")
                    break
                who = st.current_player()
                if who == CHANCE:
                    assert asking(st) == "The dice are rolled next."
                    st.apply_action(st.chance_dice().sample(rng))
                    continue
                text = asking(st)
                seen.add(st.step)
                assert st.step in ASKED, f"no sentence for {st.step!r}: {text!r}"
                assert "The Germany" not in text and "the The" not in text and "{" not in text, text
                st.apply_action(rng.choice(list(st.legal_actions())))
    assert {"move", "pick", "place", "retreat", "april_choose"} <= seen
    assert rulesets.of(st).asking is asking, "offered to every adapter"
