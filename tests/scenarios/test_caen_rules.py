"""Firestorm: Caen acceptance cases (shared/rules/firestorm-caen.md section 7, plus the special rules of
section 4), each written as input state -> forced dice -> expected state.

Dice are forced by applying `Roll` actions at chance nodes (the FixedDice mechanism: the test picks the
faces). Positions for single battles are built by clearing the map, placing troops, setting control and
entering the flow at the initiative roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import pytest

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE, REPORT
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    PASS,
    Advance,
    Arrow,
    Commit,
    Place,
    Report,
    Retreat,
)
from warroom.rulesets.firestorm.arrows import arrow_options
from warroom.rulesets.firestorm.battle import ATTACKER, DEFENDER, DRAW, Battle
from warroom.rulesets.firestorm.state import CAPTURED, GONE, POOL, RESERVE, WITHDRAWN, Flags
from warroom.scenarios import load_scenario

ALLIES = "allies"
AXIS = "axis"
BEACHES = (("A2", "inf_50", "bde_8"), ("A3", "can_3", "bde_2can"), ("A5", "inf_3", "bde_27"))


# ----- helpers --------------------------------------------------------------------------------------------


def game(mode: str = "gw") -> FirestormState:
    return new_game(load_scenario("caen"), {"mode": mode})


def position(
    *,
    turn: int = 2,
    mode: str = "gw",
    allied: Iterable[str] = (),
    units: Mapping[str, str] | None = None,
    battles: int = 2,
    caumont_done: bool = True,
) -> FirestormState:
    """A cleared Caen map: every area German except `allied`, only `units` in play (the rest parked
    off the board), `battles` battles left in `turn`, no air sorties or carpet bombing."""
    st = game(mode)
    for u in st.loc:
        st.loc[u] = GONE
    for a in st.control:
        st.control[a] = AXIS
    for a in allied:
        st.control[a] = ALLIES
    st.loc.update(units or {})
    st._derived = {}
    st.turn = turn
    st.flags = Flags(caumont_done=True) if caumont_done else Flags()
    st.battles_left = st.battles_total = battles
    st.air_left = {ALLIES: 0, AXIS: 0}
    st.carpet_left = 0
    st.events.clear()
    return st


def roll(st: FirestormState, *faces: int) -> None:
    assert st.current_player() == CHANCE, f"not a chance node: {st.step}"
    assert st.dice_needed() == len(faces), f"step {st.step} rolls {st.dice_needed()} dice, not {len(faces)}"
    st.apply_action(Roll(faces))


def act(st: FirestormState, text: str) -> None:
    st.apply_action(st.parse_action(text))


def commit(st: FirestormState, *units: str) -> None:
    """Commit exactly these troops (in whatever order the legal action lists them)."""
    want = Counter(units)
    for a in st.legal_actions():
        if isinstance(a, Commit) and Counter(a.units) == want:
            st.apply_action(a)
            return
    raise AssertionError(f"no legal commit of {units}; legal: {st.legal_actions()}")


def commits(st: FirestormState) -> set[frozenset[str]]:
    return {frozenset(a.units) for a in st.legal_actions() if isinstance(a, Commit)}


def battle(
    st: FirestormState, arrow: str, att: Iterable[str], dfn: Iterable[str], init: tuple[int, int] = (6, 1)
) -> None:
    """Roll initiative, place the arrow and commit both sides' troops."""
    st.flow.enter(st, "initiative")
    roll(st, *init)
    act(st, arrow)
    commit(st, *att)
    commit(st, *dfn)


def current_battle(st: FirestormState) -> Battle:
    assert st.battle is not None, f"no open battle at step {st.step}"
    return st.battle


def text(st: FirestormState) -> str:
    return "\n".join(e for _, e in st.events)


def dday(st: FirestormState, tonga: int, gold: int, juno: int, sword: int) -> None:
    roll(st, tonga)
    for face in (gold, juno, sword):
        roll(st, face)


def place_first(st: FirestormState, until_side: str | None = None) -> None:
    """Place reinforcements on the first legal spot until `until_side` must place (or the step ends)."""
    while st.step == "reinforce" and st.current_player() != until_side:
        st.apply_action(st.legal_actions()[0])


def pass_moves(st: FirestormState) -> None:
    while st.step == "moves":
        st.apply_action(PASS)


# ----- (1) Operation Tonga --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "where", "b5", "german_vp"),
    [
        (1, CAPTURED, AXIS, 10),  # disaster: the Germans capture 6 Airborne
        (2, POOL, AXIS, 0),  # failure: scattered, destroyed
        (3, POOL, ALLIES, 0),  # marginal: B5 taken, 6 Airborne destroyed
        (4, "B5", ALLIES, 0),
        (5, "B5", ALLIES, 0),
        (6, "B5", ALLIES, 0),
    ],
)
def test_tonga_gw_rows(face: int, where: str, b5: str, german_vp: int) -> None:
    st = game()
    assert st.step == "dday_tonga" and st.current_player() == CHANCE and st.dice_needed() == 1
    roll(st, face)
    assert st.loc["abn_6"] == where
    assert st.control["B5"] == b5
    assert st.unit_vp == {ALLIES: 0, AXIS: german_vp}
    assert st.step == "dday_neptune"
    assert f"Operation Tonga: row {face}" in text(st)


@pytest.mark.parametrize(
    ("allied_vp", "german_vp", "where", "b5"),
    [
        (6, 1, "B5", ALLIES),
        (5, 2, "B5", ALLIES),
        (4, 3, "B5", ALLIES),
        (3, 4, POOL, ALLIES),
        (2, 5, POOL, AXIS),
        (1, 6, CAPTURED, AXIS),
        (2, 2, POOL, ALLIES),  # neither side reaches 3: row 3 (Caen ambiguity 7)
        (0, 1, POOL, ALLIES),
        (5, 1, "B5", ALLIES),
    ],
)
def test_tonga_tabletop_report_rows(allied_vp: int, german_vp: int, where: str, b5: str) -> None:
    st = game("tabletop")
    assert st.current_player() == REPORT and st.legal_actions() == ()
    st.apply_action(Report(allied_vp, german_vp))
    assert st.loc["abn_6"] == where
    assert st.control["B5"] == b5
    assert st.unit_vp[AXIS] == (10 if where == CAPTURED else 0)
    assert st.step == "dday_neptune" and st.current_player() == REPORT


def test_tonga_tabletop_rejects_dice_and_bad_scores() -> None:
    st = game("tabletop")
    with pytest.raises(IllegalActionError, match="tabletop result must be reported"):
        st.apply_action(Roll((6,)))
    with pytest.raises(IllegalActionError, match="from 0 to 6"):
        st.apply_action(Report(7, 0))
    assert st.step == "dday_tonga" and st.loc["abn_6"] == "offmap"


# ----- (2)-(5) Operation Neptune --------------------------------------------------------------------------


@pytest.mark.parametrize("row", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("beach_no", [0, 1, 2])
def test_neptune_gw_rows(beach_no: int, row: int) -> None:
    beach, division, brigade = BEACHES[beach_no]
    faces = [4, 4, 4]
    faces[beach_no] = row
    st = game()
    dday(st, 4, *faces)
    assert st.control[beach] == ALLIES, "the beach is always captured"
    assert st.loc[division] == beach
    expected_brigade = {1: CAPTURED, 2: CAPTURED, 3: POOL}.get(row, beach)
    assert st.loc[brigade] == expected_brigade
    assert st.unit_vp[AXIS] == (10 if row <= 2 else 0)
    assert st.flags.no_attack_from[beach] == (2 if row == 1 else 1)
    for other, other_div, other_bde in BEACHES:
        if other != beach:
            assert (st.loc[other_div], st.loc[other_bde]) == (other, other)
    if row >= 5:
        assert st.step == "dday_exploit" and st.current_player() == ALLIES
        arrows = [a for a in st.legal_actions() if isinstance(a, Arrow)]
        assert arrows and all(a.frm == beach for a in arrows)
        assert PASS in st.legal_actions()
        st.apply_action(arrows[0])
        sizes = {len(c) for c in commits(st)}
        assert sizes == ({1, 2} if row == 6 else {1}), "row 6: up to 2 troops; row 5: exactly one"
    else:
        assert st.step == "dday_pz21", "no follow-up attack from this beach"
        assert st.current_player() == AXIS


def test_neptune_gold_5_lands_both_and_allows_one_attack_with_one_troop() -> None:
    st = game()
    dday(st, 4, 5, 4, 4)
    assert st.units_at("A2") == ["inf_50", "bde_8"] and st.control["A2"] == ALLIES
    assert st.flags.exploits == [("A2", 1)]
    act(st, "arrow A2 B2")
    assert commits(st) == {frozenset({"inf_50"}), frozenset({"bde_8"})}


def test_neptune_sword_2_loses_the_brigade_for_good() -> None:
    st = game()
    dday(st, 4, 4, 4, 2)
    assert st.units_at("A5") == ["inf_3"]
    assert st.loc["bde_27"] == CAPTURED
    assert st.unit_vp[AXIS] == 10
    assert "27th Armoured Brigade is captured: Germans +10 VP" in text(st)
    assert not st.flags.exploits


def test_neptune_sword_3_brigade_returns_as_a_reinforcement() -> None:
    st = game()
    dday(st, 4, 4, 4, 3)
    assert st.loc["bde_27"] == POOL and st.unit_vp[AXIS] == 0
    act(st, "pass")  # 21. Pz does not counter-attack
    assert st.step == "reinforce"
    place_first(st, until_side=AXIS)
    assert st.loc["bde_27"] in ("A2", "A3", "A5"), "the pooled brigade lands again at the end of turn 1"


def test_neptune_juno_1_blocks_attacks_from_juno_in_turn_2_too() -> None:
    st = game()
    dday(st, 4, 4, 1, 4)
    assert st.units_at("A3") == ["can_3"] and st.loc["bde_2can"] == CAPTURED
    assert st.unit_vp[AXIS] == 10
    act(st, "pass")  # no 21. Pz attack
    place_first(st)
    pass_moves(st)
    assert st.turn == 2 and st.step == "battles"
    roll(st, 1)  # 2 + D3 -> 3 battles
    assert st.battles_total == 3
    roll(st, 6, 1)  # the Allies attack
    assert st.attacker == ALLIES and st.step == "arrow"
    froms = {a.frm for a in st.legal_actions() if isinstance(a, Arrow)}
    assert "A3" not in froms
    assert {"A2", "A5"} <= froms
    assert any(u in st.units_at("A3") for u in ("can_3", "inf_51", "agra_5"))
    later = st.clone()
    later.turn = 3
    assert "A3" in {a.frm for a in arrow_options(later, ALLIES)}, "the ban ends after turn 2"


def test_neptune_row_2_allows_attacks_from_the_beach_in_turn_2() -> None:
    st = game()
    dday(st, 4, 4, 2, 4)
    act(st, "pass")
    place_first(st)
    pass_moves(st)
    roll(st, 1)
    roll(st, 6, 1)
    assert "A3" in {a.frm for a in st.legal_actions() if isinstance(a, Arrow)}


def test_exploitation_attack_is_resolved_as_a_battle() -> None:
    st = game()
    dday(st, 4, 6, 4, 4)
    act(st, "arrow A2 B2")
    commit(st, "inf_50", "bde_8")
    assert st.legal_actions() == [Commit(())], "no German Defence troop in turn 1"
    commit(st)
    roll(st, 6, 1)  # 6 +1 +2 = 9 vs 1: win by 8, no German troops to roll for
    assert st.control["B2"] == ALLIES
    assert st.battles_left == 0, "exploitation attacks are not counted battles"
    assert set(st.legal_actions()) == {Advance("inf_50"), Advance("bde_8"), PASS}


def test_21_panzer_counter_attack_cancelled_when_destroyed() -> None:
    st = game()
    dday(st, 4, 4, 4, 6)
    act(st, "arrow A5 B4")
    commit(st, "inf_3", "bde_27")
    commit(st, "pz_21")
    roll(st, 6, 1)  # 9 vs 3: win by 6, 4+ to destroy 21. Pz
    roll(st, 6)
    assert st.loc["pz_21"] == POOL and st.unit_vp == {ALLIES: 0, AXIS: 0}
    act(st, "pass")  # no advance
    assert st.step == "reinforce", "Step IV is skipped"
    assert "21. Panzerdivision cannot counter-attack" in text(st)


def test_21_panzer_counter_attack_must_use_21_panzer_and_beach_defence_applies() -> None:
    st = game()
    dday(st, 4, 4, 4, 4)
    assert st.step == "dday_pz21"
    assert set(st.legal_actions()) == {Arrow("B4", "A5"), Arrow("B4", "B5"), PASS}
    act(st, "arrow B4 A5")
    assert commits(st) == {frozenset({"pz_21"})}
    commit(st, "pz_21")
    commit(st, "inf_3", "bde_27")
    roll(st, 3, 1)  # Germans 3 +2 = 5; Allies 1 +1 +2 +2 (naval artillery) = 6
    b = current_battle(st)
    assert b.def_total == 6 and b.att_total == 5 and b.winner == DEFENDER
    assert ("naval artillery off the beach", 2) in b.modifiers[ALLIES]


def test_21_panzer_retakes_sword_and_its_reinforcements_wait_in_the_pool() -> None:
    st = game()
    dday(st, 4, 4, 4, 4)
    act(st, "arrow B4 A5")
    commit(st, "pz_21")
    commit(st, "inf_3")
    roll(st, 6, 1)  # Germans 6 +2 = 8; Allies 1 +1 +2 (naval artillery) = 4: win by 4
    roll(st, 2)  # 5+ to destroy 3 Div: survives
    assert current_battle(st).retreating == ["inf_3", "bde_27"], "every troop in the area retreats"
    act(st, "retreat inf_3 B5")
    act(st, "retreat bde_27 B5")
    act(st, "advance pz_21")  # no other German troop could follow: the advance ends by itself
    assert st.control["A5"] == AXIS and st.loc["pz_21"] == "A5"
    assert sorted(st.units_at("B5")) == ["abn_6", "bde_27", "inf_3"]
    assert not st.in_supply("B5", ALLIES), "Sword was the bridgehead's only supply beach"
    assert st.step == "reinforce"
    place_first(st, until_side=AXIS)
    assert st.loc["agra_4"] == POOL, "4 AGRA cannot land on a German-held Sword"
    assert "4 AGRA has no room to be placed and waits in the Reinforcement Pool" in text(st)


# ----- (6) stacking on landing ----------------------------------------------------------------------------


def test_5_agra_waits_in_the_pool_when_gold_and_juno_are_full() -> None:
    st = game()
    dday(st, 4, 4, 4, 4)
    act(st, "pass")
    assert st.step == "reinforce" and st.current_player() == ALLIES
    assert st.legal_actions() == [Place("arm_7", "A2")]
    act(st, "place arm_7 A2")
    assert st.stack_count("A2") == 3
    assert st.legal_actions() == [Place("inf_51", "A3")]
    act(st, "place inf_51 A3")
    assert st.stack_count("A3") == 3
    assert st.loc["agra_5"] == POOL
    assert "5 AGRA has no room to be placed and waits in the Reinforcement Pool" in text(st)
    assert st.legal_actions() == [Place("agra_4", "A5")]


def test_5_agra_lands_on_juno_when_only_juno_has_room() -> None:
    st = game()
    dday(st, 4, 4, 3, 4)  # Juno 3: the Canadian brigade goes to the pool
    act(st, "pass")
    act(st, "place arm_7 A2")
    act(st, "place inf_51 A3")
    assert st.legal_actions() == [Place("agra_5", "A3")]


# ----- (7) retreat and capture ----------------------------------------------------------------------------


def test_retreat_blocked_by_stacking_destroys_without_vp() -> None:
    full = {"pz_12ss": "C2", "pz_2": "C2", "pz_lehr": "C2", "flak_3": "C4", "tiger_101": "C4",
            "tiger_102": "C4", "pz_1ss": "D4", "pz_2ss": "D4", "pz_9ss": "D4"}
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "bde_2can": "B3", "pz_21": "C3", **full})
    battle(st, "arrow B3 C3", ["can_3", "bde_2can"], ["pz_21", DEFENCE])
    roll(st, 6, 1, 1)  # Allies 6 +1 +2 = 9; Germans 1 +2 +1 (Defence roll 1) = 4: win by 5
    assert st.dice_needed() == 1, "only 21. Pz is rolled for; the Defence troop never"
    roll(st, 1)  # survives the roll to destroy ...
    assert st.loc["pz_21"] == POOL  # ... but cannot retreat: every German neighbour holds 3
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}
    assert "cannot retreat" in text(st)
    assert st.control["C3"] == ALLIES
    assert all(st.loc[u] == a for u, a in full.items())


def test_surrounded_defenders_are_captured_including_those_just_destroyed() -> None:
    st = position(
        allied=["A3", "B3", "C2", "C4", "D4"],
        units={"can_3": "B3", "bde_2can": "B3", "inf_50": "C2", "arm_7": "C4",
               "pz_21": "C3", "pz_12ss": "C3"},
    )
    battle(st, "arrow B3 C3", ["can_3", "bde_2can"], ["pz_12ss", DEFENCE])
    roll(st, 6, 1, 5)  # 9 vs 1 +3 +2 -2 (out of supply) = 4: win by 5
    assert st.battle is not None and not st.battle.def_supplied
    roll(st, 6)  # 12. SS destroyed
    assert {st.loc[u] for u in ("pz_21", "pz_12ss")} == {CAPTURED}
    assert st.unit_vp == {ALLIES: 20, AXIS: 0}, "10 VP per troop; the Defence troop is never captured"
    assert "surrounded" in text(st)


def test_defeated_defender_retreats_every_troop_in_the_area() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "bde_2can": "B3", "pz_21": "C3", "pz_2": "C3"})
    battle(st, "arrow B3 C3", ["can_3", "bde_2can"], ["pz_21"])
    roll(st, 6, 1)  # 9 vs 3: win by 6
    roll(st, 1)  # 21. Pz survives
    assert st.step == "retreat" and st.current_player() == AXIS
    assert st.battle is not None and st.battle.retreating == ["pz_2", "pz_21"]
    assert {a.to for a in st.legal_actions() if isinstance(a, Retreat)} == {"C2", "C4", "D4"}
    act(st, "retreat pz_2 D4")
    act(st, "retreat pz_21 C2")
    assert (st.loc["pz_2"], st.loc["pz_21"]) == ("D4", "C2")
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}


def test_defeated_attacker_stays_in_its_from_area() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    roll(st, 1, 6)  # 2 vs 8: lose by 6
    roll(st, 3)  # 4+ to destroy 3 Can Div: survives
    assert st.loc["can_3"] == "B3" and st.control["C3"] == AXIS and st.loc["pz_21"] == "C3"
    assert st.step == "initiative" and st.battles_left == 1


def test_gw_draw_both_sides_roll_six_and_nobody_moves() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    roll(st, 4, 3)  # 4 +1 = 5 vs 3 +2 = 5
    assert st.battle is not None and st.battle.winner == DRAW
    assert st.battle.targets == [("pz_21", AXIS, 6), ("can_3", ALLIES, 6)]
    roll(st, 5, 6)
    assert st.loc["pz_21"] == "C3" and st.loc["can_3"] == POOL
    assert st.control["C3"] == AXIS
    assert "draw: the defender holds" in text(st)


# ----- (8) the GW roll-off example ------------------------------------------------------------------------


def charnwood_attack(destroy: tuple[int, int]) -> FirestormState:
    """T4: 11 Armd + Typhoon + carpet bombing attack Hill 112 across the Odon; Tiger + Defence (roll 5)."""
    st = position(turn=4, allied=["A3", "B3", "C3"], units={"arm_11": "C3", "tiger_101": "D4"})
    st.flow.enter(st, "turn_start")
    roll(st, 1)  # 5 + D3 -> 6 battles
    assert st.battles_total == 6 and st.air_left[ALLIES] == 3 and st.carpet_left == 1
    roll(st, 1, 1)  # tie: Allies +2 win anyway
    act(st, "arrow C3 D4")
    assert commits(st) >= {frozenset({"arm_11", AIR, CARPET})}
    commit(st, "arm_11", AIR, CARPET)
    commit(st, "tiger_101", DEFENCE)
    assert st.dice_needed() == 3, "two battle dice and the Defence troop's die"
    roll(st, 4, 2, 5)
    b = st.battle
    assert b is not None
    assert b.modifiers[ALLIES] == [
        ("11th Armoured Division", 3), ("Typhoon sortie", 2), ("carpet bombing", 2),
    ]
    assert b.modifiers[AXIS] == [
        ("101. schwere SS-Panzerabteilung", 3), ("German Defence troop (roll [5])", 2),
        ("defending across the Odon", 2),
    ]
    assert (b.att_total, b.def_total, b.winner) == (11, 9, ATTACKER)
    assert b.targets == [("tiger_101", AXIS, 6), ("arm_11", ALLIES, 6)], "no rolls for Typhoon or Defence"
    assert st.dice_needed() == 2
    roll(st, *destroy)
    return st


def test_gw_roll_off_example_totals_and_advance() -> None:
    st = charnwood_attack((5, 5))
    assert st.air_left[ALLIES] == 2 and st.carpet_left == 0
    assert st.step == "retreat"
    act(st, "retreat tiger_101 D3")
    assert st.control["D4"] == ALLIES
    assert st.legal_actions() == [Advance("arm_11"), PASS]
    act(st, "advance arm_11")
    assert st.loc["arm_11"] == "D4" and st.loc["tiger_101"] == "D3"
    assert st.step == "initiative" and st.battles_left == 5, "no other troop next to Hill 112: advance over"
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}


def test_gw_roll_off_example_sixes_destroy_both() -> None:
    st = charnwood_attack((6, 6))
    assert st.loc["tiger_101"] == POOL and st.loc["arm_11"] == POOL
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}
    assert st.control["D4"] == ALLIES
    assert st.step == "initiative", "nothing left next to Hill 112 to advance: no decision is asked"


def test_carpet_bombing_only_in_turns_4_and_5() -> None:
    for turn, expected in ((2, 0), (3, 0), (4, 1), (5, 1)):
        st = position(turn=turn, allied=["A3", "B3", "C3"], units={"arm_11": "C3", "tiger_101": "D4"})
        st.flow.enter(st, "turn_start")
        assert st.carpet_left == expected
        assert st.air_left[ALLIES] == (2 if turn == 2 else 3)


# ----- (9) Caumont Gap ------------------------------------------------------------------------------------


def caumont_start(battles_face: int) -> FirestormState:
    st = position(turn=2, allied=["A1", "A2"], units={"arm_7": "A2", "inf_50": "A2", "pz_lehr": "B1"},
                  caumont_done=False)
    st.loc["tiger_101"] = "offmap"  # SS 101 has not entered play yet
    st.flow.enter(st, "turn_start")
    roll(st, battles_face)
    return st


def test_caumont_gap_at_turn_2_start() -> None:
    st = caumont_start(3)  # 2 + D3 [3] = 4 battles
    assert st.battles_total == 4
    assert st.control["B1"] == ALLIES, "B1 becomes Allied at once"
    assert st.loc["pz_lehr"] == "C1", "German troops in the gap fall back"
    b = st.battle
    assert b is not None and b.kind == "caumont"
    assert (b.frm, b.to, b.att, b.dfn) == ("B1", "D1", ("arm_7",), ("tiger_101",))
    assert st.loc["arm_7"] == "B1" and st.loc["tiger_101"] == "D1"
    assert st.step == "gw_roll" and st.dice_needed() == 2
    roll(st, 1, 6)  # Allies 1 +2 = 3; Germans 6 +2 +1 (bocage) = 9
    assert st.battle is not None
    assert st.battle.modifiers == {ALLIES: [("7th Armoured Division", 2)],
                                   AXIS: [("101. schwere SS-Panzerabteilung", 2), ("defending in bocage", 1)]}
    assert st.battle.winner == DEFENDER
    roll(st, 3)  # 4+ to destroy 7 Armd: survives
    assert st.loc["arm_7"] == "B1", "7 Armd falls back to B1"
    assert st.control["D1"] == AXIS
    assert st.step == "initiative"
    assert st.battles_left == st.battles_total == 4, "the Caumont battle does not count"


def test_caumont_gap_allied_win() -> None:
    st = caumont_start(1)
    roll(st, 6, 1)  # 8 vs 4: win by 4, 5+ against the Tiger
    roll(st, 2)
    assert st.step == "retreat"
    assert {a.to for a in st.legal_actions() if isinstance(a, Retreat)} == {"C1", "D2"}
    act(st, "retreat tiger_101 D2")
    assert st.legal_actions() == [Advance("arm_7"), PASS]
    act(st, "advance arm_7")
    assert st.loc["arm_7"] == "D1" and st.control["D1"] == ALLIES
    assert st.battles_left == st.battles_total == 3


def test_caumont_gap_triggered_by_taking_bayeux_during_turn_2() -> None:
    st = position(turn=2, allied=["A2"], units={"inf_50": "A2", "arm_7": "A3"}, caumont_done=False,
                  battles=3)
    st.control["A3"] = ALLIES
    st._derived = {}
    battle(st, "arrow A2 A1", ["inf_50"], [])
    roll(st, 6, 1)  # 6 +2 = 8 vs 1 +1 (bocage) = 2
    act(st, "advance inf_50")
    assert st.control["A1"] == ALLIES
    assert st.battle is not None and st.battle.kind == "caumont"
    assert st.control["B1"] == ALLIES and st.loc["arm_7"] == "B1"
    assert st.battles_left == 2


def test_no_caumont_gap_without_bayeux() -> None:
    st = position(turn=2, allied=["A2"], units={"arm_7": "A2"}, caumont_done=False)
    st.flow.enter(st, "turn_start")
    roll(st, 2)
    assert st.step == "initiative" and st.control["B1"] == AXIS and "Caumont" not in text(st)


# ----- (11) turn 3 withdrawal -----------------------------------------------------------------------------


def test_turn_3_withdrawal() -> None:
    units = {"inf_50": "A2", "pz_lehr": "D1", "pz_2": POOL, "pz_2ss": CAPTURED, "pz_12ss": RESERVE,
             "tiger_101": "D3"}
    st = position(turn=3, allied=["A2"], units=units)
    st.unit_vp[ALLIES] = 10  # Das Reich was captured earlier
    st.flow.enter(st, "strategic_start")
    assert st.loc["pz_lehr"] == WITHDRAWN
    assert st.loc["pz_2"] == WITHDRAWN
    assert st.loc["pz_2ss"] == CAPTURED, "a captured unit keeps its VP and nothing else is removed"
    assert (st.loc["pz_12ss"], st.loc["tiger_101"]) == (RESERVE, "D3")
    assert st.unit_vp == {ALLIES: 10, AXIS: 0}
    assert "Panzer-Lehr-Division is withdrawn" in text(st)


def test_no_withdrawal_in_other_turns() -> None:
    st = position(turn=2, units={"pz_lehr": "D1", "pz_2": "D3"})
    st.flow.enter(st, "strategic_start")
    assert (st.loc["pz_lehr"], st.loc["pz_2"]) == ("D1", "D3")


# ----- tabletop mode --------------------------------------------------------------------------------------


def tabletop_battle(allied: list[str]) -> FirestormState:
    st = position(mode="tabletop", allied=allied, units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    return st


def test_tabletop_report_step() -> None:
    st = tabletop_battle(["A3", "B3"])
    assert st.step == "report" and st.current_player() == REPORT
    assert st.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        st.apply_action(Roll((6, 1)))
    with pytest.raises(IllegalActionError, match="from 0 to 6"):
        st.apply_action(Report(3, -1))
    st.apply_action(Report(4, 3))
    assert st.battle is not None and st.battle.winner == ATTACKER
    assert st.battle.targets == [("pz_21", AXIS, 6), ("can_3", ALLIES, 6)]
    roll(st, 6, 5)
    assert st.loc["pz_21"] == POOL and st.loc["can_3"] == "B3" and st.control["C3"] == ALLIES
    assert "Tabletop result reported: Allies 4 VP, Germans 3 VP -> Allies win" in text(st)


@pytest.mark.parametrize(
    ("att_vp", "def_vp", "winner", "needs"),
    [(3, 3, DEFENDER, (6, 6)), (6, 1, ATTACKER, (4, 0)), (5, 4, ATTACKER, (5, 6)), (1, 5, DEFENDER, (0, 5))],
)
def test_tabletop_roll_to_destroy_uses_own_vp(att_vp: int, def_vp: int, winner: str,
                                              needs: tuple[int, int]) -> None:
    st = tabletop_battle(["A3", "B3"])
    st.apply_action(Report(att_vp, def_vp))
    b = st.battle
    assert b is not None and b.winner == winner
    want = [("pz_21", AXIS, needs[0])] if needs[0] else []
    if needs[1]:
        want.append(("can_3", ALLIES, needs[1]))
    assert b.targets == want


def test_tabletop_no_one_reaches_three_no_rolls() -> None:
    st = tabletop_battle(["A3", "B3"])
    st.apply_action(Report(2, 1))
    assert st.step == "initiative" and st.battles_left == 1
    assert st.control["C3"] == AXIS and st.loc["can_3"] == "B3" and st.loc["pz_21"] == "C3"


@pytest.mark.parametrize(
    ("face", "effect"),
    [(1, "morale reduced"), (2, "morale reduced"), (3, "strength reduced"), (4, "strength reduced"),
     (5, "no effect"), (6, "fight to the death")],
)
def test_tabletop_out_of_supply_roll_is_shown(face: int, effect: str) -> None:
    st = tabletop_battle(["B3"])  # B3 is cut off from the beaches
    assert st.step == "tabletop_prep" and st.dice_needed() == 1
    roll(st, face)
    assert st.step == "report"
    assert st.battle is not None
    assert len(st.battle.notes) == 1
    assert st.battle.notes[0].startswith(f"Allies out of supply [{face}]: {effect}")
    assert f"Allies out of supply [{face}]: {effect}" in text(st)


def test_tabletop_both_sides_out_of_supply_roll_two_dice() -> None:
    st = position(mode="tabletop", allied=["B3", "C2", "C4", "D4"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    assert st.dice_needed() == 2
    roll(st, 1, 6)
    assert st.battle is not None and len(st.battle.notes) == 2
    assert st.battle.notes[1].startswith("Germans out of supply [6]: fight to the death")


def test_gw_out_of_supply_is_minus_two() -> None:
    st = position(allied=["B3"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    roll(st, 6, 1)
    assert st.battle is not None
    assert st.battle.modifiers[ALLIES] == [("3rd Canadian Infantry Division", 1), ("out of supply", -2)]
    assert st.battle.att_total == 5


def test_mixed_mode_lets_the_attacker_choose() -> None:
    st = position(mode="mixed", allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    assert st.step == "mode_choice" and st.current_player() == ALLIES
    act(st, "mode tabletop")
    assert st.current_player() == REPORT


# ----- beach naval defence (Caen 4.4) ---------------------------------------------------------------------


def test_beach_naval_defence_when_allies_defend_a_beach() -> None:
    st = position(allied=["A2"], units={"inf_50": "A2", "pz_21": "B2"})
    battle(st, "arrow B2 A2", ["pz_21"], ["inf_50"], init=(1, 6))  # Germans win initiative
    assert st.battle is not None and st.battle.attacker == AXIS
    roll(st, 6, 3)
    b = st.battle
    assert b is not None
    assert b.modifiers[ALLIES] == [("50th (Northumbrian) Division", 1), ("naval artillery off the beach", 2)]
    assert (b.att_total, b.def_total, b.winner) == (8, 6, ATTACKER)


def test_beach_naval_defence_applies_with_no_troops() -> None:
    st = position(allied=["A2", "A3"], units={"inf_50": "A3", "pz_21": "B2"})
    battle(st, "arrow B2 A2", ["pz_21"], [], init=(1, 6))
    roll(st, 2, 1)
    b = current_battle(st)
    assert b.modifiers[ALLIES] == [("naval artillery off the beach", 2)]
    assert (b.att_total, b.def_total) == (4, 3)


def test_no_naval_defence_away_from_beaches_or_for_germans() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    battle(st, "arrow C3 B3", ["pz_21"], ["can_3"], init=(1, 6))
    roll(st, 3, 3)
    b = current_battle(st)
    assert b.modifiers[ALLIES] == [("3rd Canadian Infantry Division", 1)]
    st2 = position(allied=["A2", "A3", "A4"], units={"inf_50": "A4", "pz_21": "A5"})
    battle(st2, "arrow A4 A5", ["inf_50"], ["pz_21"])
    roll(st2, 3, 3)
    b2 = current_battle(st2)
    assert b2.modifiers[AXIS] == [("21. Panzerdivision", 2)]


# ----- German Defence troop (Caen 4.2) --------------------------------------------------------------------


def test_no_german_defence_troop_in_turn_1() -> None:
    st = game()
    dday(st, 4, 6, 4, 4)
    st.loc["pz_lehr"] = "B2"
    act(st, "arrow A2 B2")
    commit(st, "inf_50")
    assert commits(st) == {frozenset(), frozenset({"pz_lehr"})}


@pytest.mark.parametrize(("n_german", "offered"), [(0, True), (1, True), (2, True), (3, False)])
def test_german_defence_troop_from_turn_2_unless_three_troops(n_german: int, offered: bool) -> None:
    germans = ["pz_21", "pz_2", "pz_12ss"][:n_german]
    st = position(allied=["A3", "B3"], units={"can_3": "B3", **dict.fromkeys(germans, "C3")})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    act(st, "arrow B3 C3")
    commit(st, "can_3")
    options = commits(st)
    assert (frozenset({DEFENCE}) in options) == offered
    assert all(len(o) <= 2 for o in options), "the Defence troop counts as one of the two"
    if offered and germans:
        assert frozenset({germans[0], DEFENCE}) in options
    assert not any(DEFENCE in o and len(o - {DEFENCE}) == 2 for o in options)


def test_german_defence_troop_is_defence_only() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    st.flow.enter(st, "initiative")
    roll(st, 1, 6)
    act(st, "arrow C3 B3")
    assert commits(st) == {frozenset({"pz_21"})}
    commit(st, "pz_21")
    assert all(DEFENCE not in o for o in commits(st)), "no Defence troop for the Allies"


@pytest.mark.parametrize(("face", "bonus"), [(1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_german_defence_troop_gw_roll(face: int, bonus: int) -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3"})
    battle(st, "arrow B3 C3", ["can_3"], [DEFENCE])
    roll(st, 1, 1, face)
    b = current_battle(st)
    assert b.modifiers[AXIS] == [(f"German Defence troop (roll [{face}])", bonus)]


def test_german_defence_troop_not_with_a_reserve_troop_making_three() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_2": "C3", "pz_12ss": RESERVE})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    act(st, "arrow B3 C3")
    commit(st, "can_3")
    assert frozenset({"pz_12ss", DEFENCE}) not in commits(st)


# ----- advance (core 7.5, Caen 4.1) -----------------------------------------------------------------------


def test_advance_cap_three_and_survivors_first() -> None:
    st = position(allied=["A3", "B3", "C2"], units={"can_3": "B3", "bde_2can": "B3", "inf_50": "C2",
                                                   "inf_51": "C2", "agra_5": "C2"})
    battle(st, "arrow B3 C3", ["can_3", "bde_2can"], [])
    roll(st, 6, 1)
    assert set(st.legal_actions()) == {Advance("can_3"), Advance("bde_2can"), PASS}
    act(st, "advance bde_2can")
    assert st.legal_actions() == [Advance("can_3")], "the other survivor must move in next"
    with pytest.raises(IllegalActionError):
        act(st, "advance inf_50")
    act(st, "advance can_3")
    assert set(st.legal_actions()) == {Advance("inf_50"), Advance("inf_51"), Advance("agra_5"), PASS}
    act(st, "advance inf_51")
    assert st.step == "initiative", "the cap of 3 ends the advance"
    assert sorted(st.units_at("C3")) == ["bde_2can", "can_3", "inf_51"]
    assert sorted(st.units_at("C2")) == ["agra_5", "inf_50"]


def test_advance_is_optional_and_excludes_aircraft() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "bde_2can": "B3"})
    st.air_left[ALLIES] = 1
    battle(st, "arrow B3 C3", ["can_3", AIR], [])
    roll(st, 6, 1)
    assert set(st.legal_actions()) == {Advance("can_3"), PASS}
    act(st, "pass")
    assert st.control["C3"] == ALLIES and st.units_at("C3") == []
    assert st.air_left[ALLIES] == 0


# ----- Tactical Reserve (Caen 4.3) ------------------------------------------------------------------------


def test_tactical_reserve_limit_at_end_of_turn_1() -> None:
    st = game()
    dday(st, 4, 4, 4, 4)
    act(st, "pass")
    place_first(st, until_side=AXIS)
    assert st.current_player() == AXIS
    first = st.placing[0]
    assert Place(first, "reserve") in st.legal_actions()
    act(st, f"place {first} reserve")
    assert st.loc[first] == RESERVE
    assert st.current_player() == AXIS
    assert all(a.area != "reserve" for a in st.legal_actions() if isinstance(a, Place)), "only 1 for turn 2"


def test_tactical_reserve_limit_two_from_turn_3() -> None:
    st = position(turn=2, units={"pz_lehr": RESERVE})
    for u in ("pz_1ss", "pz_9ss", "pz_10ss"):
        st.loc[u] = "offmap"  # end-of-turn-2 arrivals
    st.flow.enter(st, "strategic_start")
    assert st.step == "reinforce" and st.current_player() == AXIS
    assert st.placing == ["pz_1ss", "pz_9ss", "pz_10ss"]
    act(st, "place pz_1ss reserve")
    assert all(a.area != "reserve" for a in st.legal_actions() if isinstance(a, Place))
    assert sum(1 for w in st.loc.values() if w == RESERVE) == 2


def test_no_tactical_reserve_placement_in_the_last_turn() -> None:
    st = position(turn=5, units={"pz_lehr": POOL})
    st.flow.enter(st, "strategic_start")
    assert st.current_player() == AXIS
    assert Place("pz_lehr", "reserve") not in st.legal_actions()
    assert Place("pz_lehr", "D1") in st.legal_actions()


def test_reserve_troop_joins_a_battle_and_stays() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_12ss": RESERVE})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21", "pz_12ss"])
    assert st.loc["pz_12ss"] == "C3"
    assert "joins from the Tactical Reserve" in text(st)


def test_reserve_troop_cannot_join_a_full_area() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_2": "C3", "pz_lehr": "C3",
                                             "pz_12ss": RESERVE})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    act(st, "arrow B3 C3")
    commit(st, "can_3")
    assert all("pz_12ss" not in o for o in commits(st))
    assert frozenset({"pz_21", "pz_2"}) in commits(st)


# ----- initiative (core 4, Caen turns) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn", "faces", "winner"),
    [(2, (3, 4), ALLIES), (2, (2, 4), AXIS), (2, (2, 3), ALLIES), (4, (1, 3), ALLIES), (4, (1, 4), AXIS),
     (3, (5, 6), ALLIES)],
)
def test_initiative_bonus_and_ties(turn: int, faces: tuple[int, int], winner: str) -> None:
    st = position(turn=turn, allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3"})
    st.flow.enter(st, "initiative")
    roll(st, *faces)
    assert st.attacker == winner and st.current_player() == winner


def test_initiative_goes_to_the_other_side_without_a_legal_attack() -> None:
    st = position(allied=["A3"], units={"pz_21": "B3"})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    assert st.attacker == AXIS
    assert st.legal_actions() == [Arrow("B3", "A3"), PASS], "the other side may attack, or decline"
    assert "Allies have no legal attack; Germans may attack instead" in text(st)
    act(st, "pass")
    assert st.step == "initiative" and st.battles_left == 1, "a declined battle still counts"


# ----- engine bugs found while writing these cases --------------------------------------------------------


def test_follow_up_attack_not_offered_from_an_empty_beach() -> None:
    st = game()
    dday(st, 4, 6, 5, 4)  # follow-up attacks from Gold (2 FT) and Juno (1 FT)
    act(st, "arrow A2 B2")
    commit(st, "inf_50")
    commit(st)
    roll(st, 6, 1)
    for u in ("inf_50", "can_3", "bde_2can"):  # Juno's troops advance into Creully too
        act(st, f"advance {u}")
    assert st.units_at("A3") == []
    assert st.step == "dday_pz21", "Juno's follow-up attack is dropped: no troop left to attack with"
    assert st.current_player() == AXIS and st.legal_actions()


def test_no_possible_battle_in_turn_2_after_a_21_panzer_attack_keeps_the_turn_going() -> None:
    st = game()
    dday(st, 4, 4, 4, 4)
    act(st, "arrow B4 A5")
    commit(st, "pz_21")
    commit(st, "inf_3", "bde_27")
    roll(st, 1, 6)
    roll(st, 1)
    place_first(st)
    pass_moves(st)
    assert st.turn == 2
    roll(st, 1)  # 3 battles
    for u in st.loc:  # nobody left on the map: neither side can attack
        if st.loc[u] in st.control:
            st.loc[u] = GONE
    roll(st, 1, 1)
    assert "Neither side can attack" in text(st)
    assert st.battles_left == 2
    assert st.step == "initiative", "two battles are still to be rolled"


def test_commit_accepts_troops_in_any_order() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_12ss": "C3"})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    act(st, "arrow B3 C3")
    commit(st, "can_3")
    act(st, "commit pz_12ss pz_21")
    assert st.battle is not None and set(st.battle.dfn) == {"pz_12ss", "pz_21"}
    st2 = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_12ss": "C3"})
    st2.flow.enter(st2, "initiative")
    roll(st2, 6, 1)
    act(st2, "arrow B3 C3")
    commit(st2, "can_3")
    act(st2, "commit pz_21 pz_12ss")
    assert st2.battle is not None and set(st2.battle.dfn) == {"pz_12ss", "pz_21"}



@pytest.mark.parametrize(
    ("face", "force"),
    [(1, "two sniper teams"), (2, "an HMG nest and two minefields"), (3, "a Grenadier mortar platoon"),
     (4, "a Grenadier platoon"), (5, "a Grenadier platoon"), (6, "an assault gun platoon")],
)
def test_tabletop_german_defence_troop_force_is_rolled(face: int, force: str) -> None:
    """Caen 4.2: on the table, the German Defence troop's force comes from its d6 table."""
    st = position(mode="tabletop", allied=["A3", "B3"], units={"can_3": "B3"})
    battle(st, "arrow B3 C3", ["can_3"], [DEFENCE])
    assert st.step == "tabletop_prep" and st.dice_needed() == 1
    roll(st, face)
    assert st.step == "report"
    assert current_battle(st).notes[0].startswith(f"German Defence troop [{face}]: {force}")


def test_tabletop_briefing_names_beach_guns_and_the_river() -> None:
    st = position(mode="tabletop", allied=["A5"], units={"inf_3": "A5", "pz_21": "B4"})
    battle(st, "arrow B4 A5", ["pz_21"], ["inf_3"], init=(1, 6))
    assert current_battle(st).notes == [
        "Naval gunfire support defends the beach for the Allies (an observer and four naval guns), extra to the "
        "two troops."
    ]
    river = position(mode="tabletop", allied=["B4", "A5"], units={"inf_3": "B4"})
    battle(river, "arrow B4 B5", ["inf_3"], [])
    assert current_battle(river).notes == [
        "The Orne runs through no-man's land: place at least one crossing every 40-60 cm."
    ]


# ----- choices the owner makes (review fixes) --------------------------------------------------------------


def test_retreating_side_chooses_which_troop_takes_the_last_room() -> None:
    """Core ambiguity 9: the owner chooses for each troop. With room for one only, the one it moves
    survives and the other is destroyed (Caen 4.1)."""
    full = {"pz_lehr": "C2", "pz_2": "C2", "flak_3": "C2", "tiger_101": "D4", "tiger_102": "D4",
            "pz_1ss": "D4", "pz_2ss": "C4", "pz_9ss": "C4"}
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "pz_21": "C3", "pz_12ss": "C3", **full})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_21"])
    roll(st, 6, 1)  # Allies 6 +1 = 7; Germans 1 +2 = 3: win by 4
    roll(st, 1)  # 21. Pz survives the roll to destroy
    assert st.step == "retreat" and st.current_player() == AXIS
    assert {a.to_str() for a in st.legal_actions()} == {"retreat pz_21 C4", "retreat pz_12ss C4"}
    act(st, "retreat pz_12ss C4")
    assert st.loc["pz_12ss"] == "C4" and st.loc["pz_21"] == POOL
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}


def test_player_chooses_which_troops_land_when_room_is_short() -> None:
    """Caen 4.8: reinforcements land within stacking and the rest wait. With one free place for three
    waiting troops, the Allies choose which one lands; with room for all, they go one by one."""
    ashore = {"inf_3": "A2", "inf_43": "A2", "inf_49": "A2", "inf_50": "A3", "inf_51": "A3", "inf_53": "A3",
              "can_2": "A5", "can_3": "A5"}
    st = position(turn=2, allied=["A2", "A3", "A5"],
                  units={"inf_15": POOL, "arm_11": POOL, "agra_8": POOL, **ashore})
    st.flow.enter(st, "strategic_start")
    assert st.step == "reinforce" and st.current_player() == ALLIES
    assert {a.to_str() for a in st.legal_actions()} == {"place inf_15 A5", "place arm_11 A5", "place agra_8 A5"}
    act(st, "place agra_8 A5")
    assert st.loc["agra_8"] == "A5" and st.loc["inf_15"] == POOL and st.loc["arm_11"] == POOL
    roomy = position(turn=2, allied=["A2", "A3", "A5"], units={"inf_15": POOL, "arm_11": POOL})
    roomy.flow.enter(roomy, "strategic_start")
    assert {a.unit for a in roomy.legal_actions() if isinstance(a, Place)} == {"inf_15"}, "queue order"


def test_neptune_block_binds_only_the_landing_force() -> None:
    """Caen ambiguity 20: Juno row 1 stops attacks from Juno in turn 2; a German force that retook
    Juno may still attack out of it."""
    st = position(turn=2, allied=["A2"], units={"pz_21": "A3", "inf_50": "A2"})
    st.flags.no_attack_from = {"A3": 2}
    assert any(a.frm == "A3" for a in arrow_options(st, AXIS))


def test_caumont_gap_troops_in_the_gap_destroyed_when_neighbours_are_full() -> None:
    units = {"arm_7": "A1", "flak_3": "B1", "pz_lehr": "C1", "pz_12ss": "C1", "pz_2": "C1",
             "pz_1ss": "D1", "pz_2ss": "D1", "pz_9ss": "D1"}
    st = position(turn=2, allied=["A1", "A2"], units=units, caumont_done=False)
    st.flow.enter(st, "caumont")
    assert st.control["B1"] == ALLIES
    assert st.loc["flak_3"] == POOL, "German neighbours exist but are full: destroyed, not captured"
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}
    assert st.battle is None, "Villers-Bocage is full: SS 101 cannot join, so no special battle"
    assert "does not take place" in text(st)


def test_caumont_gap_needs_room_in_the_gap_for_7_armd() -> None:
    st = position(turn=2, allied=["A1", "A2", "B1"], caumont_done=False,
                  units={"inf_15": "B1", "inf_43": "B1", "inf_49": "B1", "arm_7": "A2"})
    st.flow.enter(st, "caumont")
    assert st.battle is None and st.loc["arm_7"] == "A2"
    assert st.stack_count("B1") == 3


def test_tabletop_briefing_for_reserves_and_wittmann() -> None:
    st = position(mode="tabletop", allied=["A3", "B3"], units={"can_3": "B3", "pz_12ss": RESERVE})
    battle(st, "arrow B3 C3", ["can_3"], ["pz_12ss"])
    assert current_battle(st).from_reserve == ["pz_12ss"]
    assert ("Tactical Reserve (12. SS-Panzerdivision Hitlerjugend): arrives as reserves on the table, even "
            "when the Germans attack.") in current_battle(st).notes
    gap = position(turn=2, mode="tabletop", allied=["A1", "A2"], caumont_done=False, units={"arm_7": "A2"})
    gap.flow.enter(gap, "caumont")
    assert current_battle(gap).kind == "caumont"
    assert any("Wittmann" in line for line in current_battle(gap).notes)


# ----- error messages name the rule ------------------------------------------------------------------------


def test_illegal_commitments_name_the_broken_rule() -> None:
    st = position(allied=["A3", "B3"], units={"can_3": "B3", "bde_2can": "B3", "inf_50": "A3", "pz_21": "C3"})
    st.flow.enter(st, "initiative")
    roll(st, 6, 1)
    act(st, "arrow B3 C3")
    cases = {
        "commit inf_50": "inf_50 is in A3, not in the battle area B3",
        "commit pz_21": "pz_21 is not one of your troops",
        "commit can_3 can_3": "listed twice",
        "commit can_3 bde_2can @air": "at most 2 Firestorm Troops",
        "commit can_3 @air": "no air sortie is left this turn",
        "commit @air": "first troop must be a ground troop",
        "commit can_3 @carpet": "carpet bombing is only for an Allied attack",
    }
    for text_form, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            act(st, text_form)


def test_illegal_moves_name_the_broken_rule() -> None:
    st = position(turn=2, allied=["A2", "A3", "B3"],
                  units={"inf_50": "A2", "inf_51": "A3", "inf_3": "B3", "inf_15": "B3", "inf_43": "B3"})
    st.flow.enter(st, "strategic_start")
    assert st.step == "moves" and st.current_player() == ALLIES
    with pytest.raises(IllegalActionError, match="C3 is not held by your side"):
        act(st, "move inf_50 C3")
    st.moved.update({"inf_3", "inf_15", "inf_43"})  # none of B3's troops could make room (issue 13: before the
    with pytest.raises(IllegalActionError, match="B3 already holds 3 troops"):  # fix a full area was always refused)
        act(st, "move inf_50 B3")
    st.moved.clear()
    act(st, "move inf_50 A3")
    with pytest.raises(IllegalActionError, match="already made its strategic move"):
        act(st, "move inf_50 A2")


# ----- Caen 4.1: the stacking limit may be exceeded while moving, and must hold when the step ends --------------
def two_full_beaches() -> FirestormState:
    st = position(turn=2, allied=["A2", "A3", "B3"],
                  units={"inf_50": "A2", "inf_51": "A2", "inf_3": "A2",
                         "inf_15": "B3", "inf_43": "B3", "bde_8": "B3"})
    st.flow.enter(st, "strategic_start")
    assert st.step == "moves" and st.current_player() == ALLIES
    return st


def legal_texts(st: FirestormState) -> list[str]:
    return [a.to_str() for a in st.legal_actions()]


def test_two_full_areas_swap_troops_through_the_limit() -> None:
    st = two_full_beaches()
    assert "move inf_50 B3" in legal_texts(st), "a troop in B3 could then move out to make room"
    act(st, "move inf_50 B3")
    assert st.stack_count("B3") == 4 and st.stack_count("A2") == 2
    legal = legal_texts(st)
    assert "pass" not in legal, "the moves cannot end with B3 over the limit"
    assert legal and all(t.split()[1] in ("inf_15", "inf_43", "bde_8") for t in legal), legal
    with pytest.raises(IllegalActionError, match="B3 holds more than 3 troops"):
        act(st, "pass")
    with pytest.raises(IllegalActionError, match="B3 holds more than 3 troops after your last move"):
        act(st, "move inf_51 A3")
    act(st, "move inf_15 A2")
    assert (st.stack_count("A2"), st.stack_count("B3")) == (3, 3)
    assert st.loc["inf_50"] == "B3" and st.loc["inf_15"] == "A2"
    assert "pass" in legal_texts(st)


def test_a_full_area_whose_troops_cannot_leave_stays_closed() -> None:
    st = two_full_beaches()
    st.moved.update({"inf_15", "inf_43", "bde_8"})
    assert "move inf_50 B3" not in legal_texts(st)
    with pytest.raises(IllegalActionError, match="none of them could then move out to make room"):
        act(st, "move inf_50 B3")


def test_a_move_to_where_the_troop_stands_says_so() -> None:
    st = two_full_beaches()
    with pytest.raises(IllegalActionError, match="inf_50 is already in A2"):
        act(st, "move inf_50 A2")
