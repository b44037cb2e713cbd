"""Unit tests for the Firestorm battle tables (core rules 6.1, 7.1-7.3) with Caen's numbers."""

from __future__ import annotations

import pytest

from warroom.rulesets.firestorm.battle import (
    ATTACKER,
    DEFENDER,
    DRAW,
    Battle,
    fow_destroy_need,
    gw_destroy_needs,
    gw_winner,
    out_of_supply_effect,
    tabletop_winner,
)
from warroom.rulesets.firestorm.model import Rules
from warroom.scenarios import load_scenario


def caen_rules() -> Rules:
    return load_scenario("caen").rules


# ----- tabletop winner (core 7.1) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("att", "dfn", "winner"),
    [
        (3, 3, DEFENDER),  # tie at 3: nobody defeated, the defender holds
        (2, 1, DEFENDER),  # nobody reaches 3: the defender holds
        (4, 3, ATTACKER),
        (3, 2, ATTACKER),
        (6, 1, ATTACKER),
        (6, 5, ATTACKER),
        (3, 0, ATTACKER),
        (1, 5, DEFENDER),
        (3, 4, DEFENDER),
        (2, 2, DEFENDER),
        (0, 0, DEFENDER),
        (6, 6, DEFENDER),
        (2, 0, DEFENDER),  # more VP but below 3
    ],
)
def test_tabletop_winner(att: int, dfn: int, winner: str) -> None:
    assert tabletop_winner(att, dfn) == winner


def test_tabletop_attacker_needs_three_and_more() -> None:
    for att in range(7):
        for dfn in range(7):
            expected = ATTACKER if att >= 3 and att > dfn else DEFENDER
            assert tabletop_winner(att, dfn) == expected, (att, dfn)


# ----- General's Wargame winner (core 7.2) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("att", "dfn", "winner"),
    [(11, 9, ATTACKER), (9, 11, DEFENDER), (7, 7, DRAW), (0, 0, DRAW), (1, -1, ATTACKER), (-3, -2, DEFENDER)],
)
def test_gw_winner(att: int, dfn: int, winner: str) -> None:
    assert gw_winner(att, dfn) == winner


def test_gw_tie_is_a_draw_not_an_attacker_win() -> None:
    assert gw_winner(5, 5) == DRAW
    assert gw_winner(5, 5) not in (ATTACKER, DEFENDER)


# ----- roll to destroy (core 7.3) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("difference", "needs"),
    [(0, (6, 6)), (1, (6, 6)), (2, (6, 6)), (3, (5, 0)), (4, (5, 0)), (5, (4, 0)), (6, (4, 0)), (7, (4, 0)),
     (8, (4, 0))],
)
def test_gw_destroy_needs_caen(difference: int, needs: tuple[int, int]) -> None:
    assert gw_destroy_needs(difference, caen_rules()) == needs


def test_gw_destroy_needs_beyond_the_table_uses_the_last_row() -> None:
    assert gw_destroy_needs(20, caen_rules()) == (4, 0)


@pytest.mark.parametrize(
    ("own_vp", "need"), [(7, 4), (6, 4), (5, 5), (4, 6), (3, 6), (2, 0), (1, 0), (0, 0)]
)
def test_fow_destroy_need(own_vp: int, need: int) -> None:
    assert fow_destroy_need(own_vp, caen_rules()) == need


def test_destroy_tables_agree_between_caen_and_lorraine() -> None:
    caen, lorraine = caen_rules(), load_scenario("lorraine").rules
    for vp in range(7):
        assert fow_destroy_need(vp, caen) == fow_destroy_need(vp, lorraine)
    for diff in range(9):
        assert gw_destroy_needs(diff, caen) == gw_destroy_needs(diff, lorraine)


# ----- out of supply (core 6.1, Caen bands) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "start"),
    [(1, "morale reduced"), (2, "morale reduced"), (3, "strength reduced"), (4, "strength reduced"),
     (5, "no effect"), (6, "fight to the death")],
)
def test_out_of_supply_bands(face: int, start: str) -> None:
    assert out_of_supply_effect(face, caen_rules()).startswith(start)


def test_out_of_supply_strength_cut_is_twenty_percent() -> None:
    assert "20%" in out_of_supply_effect(3, caen_rules())


def test_out_of_supply_faces_beyond_the_table_use_the_last_row() -> None:
    assert out_of_supply_effect(7, caen_rules()).startswith("fight to the death")


# ----- the battle record ----------------------------------------------------------------------------------


def test_battle_clone_is_independent() -> None:
    b = Battle("normal", "allies", "axis", "C3", "D4", att=("arm_11",), dfn=("tiger_101",))
    b.modifiers = {"allies": [("11th Armoured Division", 3)], "axis": []}
    b.targets = [("tiger_101", "axis", 6)]
    b.destroyed = ["tiger_101"]
    c = b.clone()
    assert c == b
    c.modifiers["allies"].append(("carpet bombing", 2))
    c.targets.clear()
    c.destroyed.append("arm_11")
    c.notes.append("note")
    assert b.modifiers["allies"] == [("11th Armoured Division", 3)]
    assert b.targets == [("tiger_101", "axis", 6)]
    assert b.destroyed == ["tiger_101"]
    assert b.notes == []
