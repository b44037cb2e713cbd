"""The club pages' words (warroom/server/words.py): choices grouped by what they share, never inside brackets, and
who acts named as in a sentence."""

from __future__ import annotations

import random

from warroom import rulesets
from warroom.core.state import CHANCE, REPORT
from warroom.scenarios import load_game, load_scenario
from warroom.server.words import GROUP_FROM, actor_words, choices, last_join


def test_a_join_inside_brackets_never_splits_a_choice() -> None:
    assert last_join("commit 21. Panzer + 12. SS (+5 in bocage)") == -1
    assert last_join("move Rodney from B4 (off Bergen) to A3 Orkney") == len("move Rodney from B4 (off Bergen)")
    assert last_join("attack Hamar with 2 battalions from Oslo") == len("attack Hamar")


def test_long_lists_are_grouped_and_every_action_stays_offered_once() -> None:
    st = rulesets.new_game(load_game("kampen"), {"seed": 1, "seats": 3})
    rng = random.Random(1)
    checked = 0
    for _ in range(600):
        if st.is_terminal():
            break
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
            continue
        legal = list(st.legal_actions())
        groups = choices(st, legal)
        offered = [o["action"] for g in groups for o in g["options"]]
        assert sorted(offered) == sorted(a.to_str() for a in legal), "each action once, none lost"
        if len(legal) > GROUP_FROM:
            checked += any(g["head"] for g in groups)
            for g in groups:
                if g["head"]:
                    assert len(g["options"]) >= 2 and all(o["words"].startswith(("to ", "in ", "with "))
                                                          for o in g["options"])
        st.apply_action(rng.choice(legal))
    assert checked > 5


def test_who_acts_is_named_as_in_a_sentence() -> None:
    caen = rulesets.new_game(load_scenario("caen"), {"seed": 1})
    kampen = rulesets.new_game(load_game("kampen"), {"seed": 1, "seats": 3})
    assert actor_words(caen, "axis") == "the Germans" and actor_words(caen, REPORT) == "the commanders at the table"
    assert actor_words(kampen, "germany") == "Germany" and actor_words(kampen, "allies") == "the Allies"
    assert actor_words(kampen, CHANCE) == "the dice"
