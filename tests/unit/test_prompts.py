"""What each Firestorm step asks, in words (issue 16): the sentence above the choices on the club pages and in the
terminal, and the words of a battle's way of being fought."""

from __future__ import annotations

import random

from warroom import rulesets
from warroom.cli.session import HELP, NAVAL_HELP, help_for
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm.actions import Order
from warroom.rulesets.firestorm.describe import describe, place_words
from warroom.rulesets.firestorm.prompts import asking, mode_words
from warroom.rulesets.firestorm.state import outcome_label_of
from warroom.scenarios import load_scenario


def test_caens_opening_says_what_tonga_and_neptune_are() -> None:
    st = rulesets.new_game(load_scenario("caen"), {"seed": 1, "mode": "tabletop"})
    assert st.step == "dday_tonga"
    text = asking(st)
    assert text.startswith("D-Day opens with Operation Tonga: 6th Airborne Division drops on B5 Bréville.")
    assert "neither side reaches 3 VP counts as row 3" in text
    assert rulesets.of(st).asking is asking, "the rule system offers it to every adapter"


def test_the_arrow_step_names_the_side_and_the_battle_count() -> None:
    st = rulesets.new_game(load_scenario("lorraine"), {"seed": 3})
    rng = random.Random(3)
    while st.step != "arrow":  # the first battle's initiative is rolled: someone has an arrow to draw
        if st.current_player() == CHANCE:
            outcomes = st.chance_outcomes()
            st.apply_action(rng.choices([o for o, _p in outcomes], [p for _o, p in outcomes])[0])
        else:
            st.apply_action(rng.choice(list(st.legal_actions())))
    text = asking(st)
    side = st.sc.side_names[st.current_player()]
    assert text.startswith(f"The {side} have the initiative (battle {st.battle_no} of {st.battles_total} this turn)")


def test_a_battle_is_said_to_be_rolled_only_once_that_is_so() -> None:
    st = rulesets.new_game(load_scenario("lorraine"), {"seed": 1, "mode": "tabletop"})
    st.step = "attack_commit"
    assert mode_words(st, "gw") == "fought at the table", "a tabletop campaign's battle, before its mode is set"
    st.mode = "mixed"
    assert mode_words(st, "gw") == "", "a mixed campaign has not chosen yet"
    st.step = "retreat"
    assert mode_words(st, "gw") == "rolled by the General's Wargame"


def test_outcomes_name_the_side_as_the_scenario_does() -> None:
    sc = load_scenario("caen")
    assert outcome_label_of(sc, -500).startswith("German "), "not 'Axis': the side is the Germans everywhere"
    assert outcome_label_of(sc, 500).startswith("Allied ")


def test_the_terminal_help_lists_the_strategic_game_only_where_there_is_one() -> None:
    caen = rulesets.new_game(load_scenario("caen"), {"seed": 1})
    norway = rulesets.new_game(load_scenario("norway"), {"seed": 1})
    assert "activate LOC" not in help_for(HELP, caen) and "arrow FROM TO" in help_for(HELP, caen)
    assert NAVAL_HELP in help_for(HELP, norway)


def test_leaving_a_mixed_battle_to_the_dice_says_the_defender_may_still_claim_it() -> None:
    st = rulesets.new_game(load_scenario("lorraine"), {"seed": 2, "mode": "mixed"})
    rng = random.Random(2)
    while st.step != "mode_choice":
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
        else:
            st.apply_action(rng.choice(list(st.legal_actions())))
    b = st.battle
    assert b is not None and st.current_player() == b.attacker
    words = {a.to_str(): describe(st, a) for a in st.legal_actions()}
    defender = st.sc.side_names[b.defender]
    assert words["mode gw"] == f"leave it to the General's Wargame (the {defender} may still take it to the table)"
    assert words["mode tabletop"].startswith("take it to the table")
    assert "attacker first, then the defender" in asking(st)


def test_strategic_map_places_are_named_not_typed() -> None:
    st = rulesets.new_game(load_scenario("norway"), {"seed": 1})
    assert place_words(st, "namsos_harbour") == "Namsos harbour"
    assert place_words(st, "trondheim_airfield") == "Trondheim airfield"
    assert place_words(st, "scapa_flow") == "Scapa Flow"
    assert place_words(st, "B4").startswith("B4 Northern North Sea")
    assert describe(st, Order("bomb", "namsos_harbour")) == "bomb Namsos harbour"
