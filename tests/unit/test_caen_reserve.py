"""Caen's German Tactical Reserve has one home (`rulesets/firestorm/caen.py`, Caen 4.3): one "why not" per
decision serves both the legal actions and the refusal, so the two cannot drift apart."""

from __future__ import annotations

from warroom import rulesets
from warroom.rulesets.firestorm import caen
from warroom.rulesets.firestorm.actions import Commit, Place
from warroom.scenarios import load_game
from warroom.sim.walk import decisions


def test_every_placement_into_the_reserve_is_legal_exactly_when_the_rule_has_no_objection() -> None:
    placed = refused = joined = 0
    for seed in range(6):
        for st in decisions(rulesets.new_game(load_game("caen")), seed):
            legal = list(st.legal_actions())
            for unit in {a.unit for a in legal if isinstance(a, Place)}:
                into = Place(unit, caen.SPOT)
                why = caen.entry_problem(st, unit)
                assert (into in legal) == (why == ""), (unit, why)
                if why:
                    refused += 1
                    assert why in st.explain_illegal(into)
                else:
                    placed += 1
            for a in legal:
                if isinstance(a, Commit) and any(u in caen.troops_in_reserve(st) for u in a.units):
                    joined += 1
    assert placed and refused and joined, "the reserve was offered, refused and committed from"


def test_the_reserve_is_german_and_serves_the_next_turn_up_to_its_limit() -> None:
    sc = load_game("caen")
    st = rulesets.new_game(sc)
    allied = next(u for u, t in sc.troops.items() if t.side == sc.sides[0])
    german = [u for u, t in sc.troops.items() if t.side == sc.sides[1]]
    assert caen.entry_problem(st, allied) == "only the Germans put troops into the Tactical Reserve"
    assert caen.entry_problem(st, german[0]) == "", "turn 2's reserve takes one troop (Caen 4.3)"
    caen.enter(st, german[0])
    assert caen.troops_in_reserve(st, sc.sides[1]) == [german[0]]
    assert caen.entry_problem(st, german[1]) == "the Tactical Reserve for turn 2 is full (1 troop)"
    st.turn = len(sc.turns)
    assert caen.entry_problem(st, german[1]) == "the Tactical Reserve serves the next turn, and this is the last"


def test_no_other_campaign_has_a_tactical_reserve() -> None:
    for name in ("lorraine", "norway"):
        st = rulesets.new_game(load_game(name))
        unit = next(iter(st.sc.troops))
        assert caen.entry_problem(st, unit) == f"{st.sc.title} has no Tactical Reserve (a Caen rule)"
        assert caen.troops_in_reserve(st) == []
