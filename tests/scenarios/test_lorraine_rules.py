"""Firestorm: Lorraine acceptance cases (shared/rules/firestorm-lorraine.md section 7) and the Lorraine
special rules (section 4: Panzer Units, weather, fortifications, supply depots, German Success).

Each case is written as input state -> forced dice -> expected state. Positions start from the turn 1
set-up and are adjusted by moving troops in `st.loc` and changing control; single battles are entered at
the initiative roll with `st.flow.enter(st, "initiative")`, and every die is forced with a `Roll`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from warroom.ai import make_bot
from warroom.core.dice import Roll, d3
from warroom.core.errors import IllegalActionError
from warroom.core.game import play
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import AIR, PASS, Advance, Arrow, Commit, Move, Place, Report, Retreat
from warroom.rulesets.firestorm.battle import ATTACKER, DEFENDER, Battle
from warroom.rulesets.firestorm.state import CAPTURED, POOL
from warroom.scenarios import load_scenario

ALLIES = "allies"
AXIS = "axis"
PANZERS = ("pz_106", "pz_111", "pz_112", "pz_113")


# ----- helpers --------------------------------------------------------------------------------------------


def position(turn: int = 1, mode: str = "gw", *, pool: Iterable[str] = (), **moves: str) -> FirestormState:
    """The turn 1 set-up, with `pool` troops taken off to the pool and `moves` (unit=area) applied."""
    st = new_game(load_scenario("lorraine"), {"mode": mode})
    assert st.step == "battles" and st.current_player() == CHANCE
    st.turn = turn
    for unit in pool:
        st.loc[unit] = POOL
    for unit, area in moves.items():
        st.loc[unit] = area
    return st


def control(st: FirestormState, side: str, *areas: str) -> None:
    for a in areas:
        st.set_control(a, side)


def roll(st: FirestormState, *faces: int) -> None:
    assert st.current_player() == CHANCE, f"not a chance node: {st.step}"
    assert st.dice_needed() == len(faces), f"step {st.step} rolls {st.dice_needed()} dice, not {len(faces)}"
    st.apply_action(Roll(tuple(faces)))


def initiative(st: FirestormState, allied_die: int, german_die: int) -> None:
    """One battle left in the turn; enter the initiative roll and force both dice (Allies first)."""
    st.battles_left = st.battles_total = 1
    st.flow.enter(st, "initiative")
    roll(st, allied_die, german_die)


def commit_of(st: FirestormState, *units: str) -> Commit:
    """The legal commit holding exactly `units` (whatever their order)."""
    for action in st.legal_actions():
        if isinstance(action, Commit) and sorted(action.units) == sorted(units):
            return action
    raise AssertionError(f"no legal commit of {units}: {st.legal_actions()}")


def commit(st: FirestormState, *units: str) -> None:
    st.apply_action(commit_of(st, *units))


def commits(st: FirestormState) -> set[frozenset[str]]:
    return {frozenset(a.units) for a in st.legal_actions() if isinstance(a, Commit)}


def arrows(st: FirestormState) -> set[tuple[str, str]]:
    return {(a.frm, a.to) for a in st.legal_actions() if isinstance(a, Arrow)}


def battle(st: FirestormState) -> Battle:
    assert st.battle is not None, f"no open battle at step {st.step}"
    return st.battle


def places(st: FirestormState) -> set[str]:
    return {a.area for a in st.legal_actions() if isinstance(a, Place)}


def moves_of(st: FirestormState, unit: str) -> set[str]:
    return {a.to for a in st.legal_actions() if isinstance(a, Move) and a.unit == unit}


# ----- 7.1 D3 and the number of battles ---------------------------------------------------------------------


def test_d3_turn2_battles_from_faces_2_and_5() -> None:
    """Case 1: T2 battles = 3 + 2D3; d6 rolls 2 and 5 -> 1 + 3 -> 7 battles."""
    st = position(2)
    st.flow.enter(st, "turn_start")
    while st.step == "plan_place":  # T2 arrivals: French tank at D2, Panther at E4
        st.apply_action(st.legal_actions()[0])
    assert st.step == "battles"
    roll(st, 2, 5)
    assert st.battles_total == 7
    assert st.battles_left == 7
    assert st.step == "initiative"
    assert (2, "Number of battles: 3 + 2D3 (d6 [2] [5] -> 1 + 3) = 7") in st.events


@pytest.mark.parametrize(("turn", "low", "high"), [(1, 4, 6), (2, 5, 9), (3, 4, 6)])
def test_battle_count_ranges(turn: int, low: int, high: int) -> None:
    """L 3: T1 3 + 1D3 (4-6), T2 3 + 2D3 (5-9), T3 3 + 1D3 (4-6); a D3 reads 1-2/3-4/5-6 as 1/2/3."""
    st = position(turn)
    st.flow.enter(st, "turn_start")
    while st.step == "plan_place":
        st.apply_action(st.legal_actions()[0])
    seen = set()
    for outcome, p in st.chance_outcomes():
        assert p == pytest.approx(1 / 6 ** st.dice_needed())
        node = st.clone()
        node.apply_action(outcome)
        assert node.battles_total == 3 + sum(d3(v) for v in outcome.values)
        seen.add(node.battles_total)
    assert min(seen) == low and max(seen) == high


# ----- 7.2 Initiative and the Panzer Units ------------------------------------------------------------------


def test_initiative_t3_tie_goes_to_germans() -> None:
    """Case 2: T3, Allies roll 4, Germans 3 + 1 = 4 -> tie -> the Germans attack."""
    st = position(3)
    initiative(st, 4, 3)
    assert st.attacker == AXIS
    assert st.current_player() == AXIS
    assert st.events[-1][1].endswith("-> Germans")


@pytest.mark.parametrize("turn", [1, 2])
def test_initiative_t1_t2_ties_go_to_allies(turn: int) -> None:
    """T1 and T2: the Allies have +1 and win ties (Allies 3 + 1 = 4 vs Germans 4)."""
    st = position(turn)
    initiative(st, 3, 4)
    assert st.attacker == ALLIES


@pytest.mark.parametrize(("turn", "allied", "german", "winner"),
                         [(1, 2, 4, AXIS), (2, 4, 6, AXIS), (2, 5, 6, ALLIES), (3, 6, 4, ALLIES),
                          (3, 5, 4, AXIS), (3, 1, 1, AXIS), (2, 1, 1, ALLIES)])
def test_initiative_higher_total_wins(turn: int, allied: int, german: int, winner: str) -> None:
    st = position(turn, pool=["pz_106"])
    initiative(st, allied, german)
    assert st.attacker == winner


def test_panther_next_to_allies_must_attack_alone() -> None:
    """Case 2 (continued): a Panther in E3 borders Allied D3 and E2: the German arrow must start in a
    Panzer area and the Panzer Unit fights alone (L 4.1), even with infantry beside it."""
    st = position(3, pool=["pz_106"], pz_112="E3")
    assert st.units_at("E3") == ["vg_559", "pz_112"]
    initiative(st, 4, 3)
    assert st.attacker == AXIS
    assert arrows(st) == {("E3", "D3"), ("E3", "E2")}
    with pytest.raises(IllegalActionError):
        st.apply_action(Arrow("D4", "D3"))  # other forces may not attack while the Panther can
    st.apply_action(Arrow("E3", "D3"))
    assert st.step == "attack_commit"
    assert st.legal_actions() == [Commit(("pz_112",))]
    for bad in (("vg_559",), ("pz_112", "vg_559"), ("vg_559", "pz_112")):
        with pytest.raises(IllegalActionError):
            st.apply_action(Commit(bad))
    st.apply_action(Commit(("pz_112",)))
    assert battle(st).att == ("pz_112",)


def test_every_panzer_area_next_to_the_enemy_may_supply_the_arrow() -> None:
    """FHH (A3, next to Allied A2/B3) and a Panther (E3) both qualify: arrows only from those areas."""
    st = position(3, pz_112="E3")
    initiative(st, 1, 6)
    assert {frm for frm, _ in arrows(st)} == {"A3", "E3"}
    assert ("A3", "A2") in arrows(st) and ("A3", "B3") in arrows(st)


def test_panzer_far_from_the_enemy_does_not_force_the_attack() -> None:
    """A Panther in E4 has no Allied neighbour: the Germans may attack from any area with troops."""
    st = position(3, pool=["pz_106"], pz_111="E4")
    initiative(st, 1, 6)
    froms = {frm for frm, _ in arrows(st)}
    assert froms == {"A4", "B5", "C4", "D4", "D5", "E3"}
    st.apply_action(Arrow("D4", "D3"))
    assert commits(st) == {frozenset({"vg_553"}), frozenset({"flak_88"}), frozenset({"vg_553", "flak_88"})}


def test_panzer_fights_alone_in_defence() -> None:
    """L 4.1 / ambiguity 11: a Panzer Unit chosen to defend may have no second troop."""
    st = position(2, vg_462="A3")
    initiative(st, 6, 1)
    st.apply_action(Arrow("A2", "A3"))
    commit(st, "us_inf_5", "us_art_1")
    assert commits(st) == {frozenset(), frozenset({"pz_106"}), frozenset({"vg_462"})}
    with pytest.raises(IllegalActionError):
        st.apply_action(Commit(("pz_106", "vg_462")))


# ----- 7.3 GW Metz ------------------------------------------------------------------------------------------


def test_gw_metz_example() -> None:
    """Case 3: the US attacks Metz with 4th AD Tank (+3) and Artillery (+3); the Germans defend with
    SS-PzGr (+3), Infantry (roll 5 -> +2) and Metz (+4), no river bonus although C3-B5 crosses the
    Moselle. US 6 + 6 = 12, Germans 2 + 9 = 11: the US wins by 1, so 6 is needed to destroy on both
    sides; the Germans retreat and the US advances up to 4 troops, the battle troops first."""
    st = position(2, cca_4="C3", us_art_1="C3")
    assert st.sc.rivers[frozenset(("C3", "B5"))] == "Moselle"
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "B5"))
    commit(st, "cca_4", "us_art_1")
    commit(st, "ss_pzgr_17", "vg_462")
    assert st.step == "gw_roll"
    roll(st, 6, 2, 5)  # US die, German die, then the German infantry's variable die
    b = battle(st)
    assert (b.att_total, b.def_total) == (12, 11)
    assert b.winner == ATTACKER
    assert sum(v for _, v in b.modifiers[ALLIES]) == 6
    assert sorted(v for _, v in b.modifiers[AXIS]) == [2, 3, 4]
    assert ("fortifications", 4) in b.modifiers[AXIS]
    assert not any("Moselle" in label for label, _ in b.modifiers[AXIS])
    assert sorted((u, need) for u, _, need in b.targets) == [
        ("cca_4", 6), ("ss_pzgr_17", 6), ("us_art_1", 6), ("vg_462", 6)]
    roll(st, 5, 5, 5, 5)
    assert b.destroyed == []
    # the Germans retreat, each troop to an adjacent German area of its owner's choice
    assert st.step == "retreat" and st.current_player() == AXIS
    assert {a.to for a in st.legal_actions() if isinstance(a, Retreat)} == {"A4", "B6", "C4"}
    st.apply_action(Retreat(b.retreating[0], "B6"))
    st.apply_action(Retreat(b.retreating[0], "C4"))
    assert st.control["B5"] == ALLIES
    # the US advances: the troops that fought first, then others from adjacent areas, up to 4
    assert st.step == "advance" and st.current_player() == ALLIES
    assert set(st.legal_actions()) == {Advance("cca_4"), Advance("us_art_1"), PASS}
    with pytest.raises(IllegalActionError):
        st.apply_action(Advance("us_inf_7"))
    st.apply_action(Advance("cca_4"))
    assert set(st.legal_actions()) == {Advance("us_art_1")}
    st.apply_action(Advance("us_art_1"))
    others = {a.unit for a in st.legal_actions() if isinstance(a, Advance)}
    assert others == {"us_inf_7", "us_at_607", "cc_7b", "us_inf_35"}
    st.apply_action(Advance("us_inf_7"))
    st.apply_action(Advance("cc_7b"))
    assert st.step != "advance"  # the cap of 4 is reached
    assert sorted(st.units_at("B5")) == ["cc_7b", "cca_4", "us_art_1", "us_inf_7"]
    assert st.battle is None
    assert st.area_vp(ALLIES) == 120 + 70


def test_moselle_river_bonus_without_fortress() -> None:
    """Defending across the Moselle (not Metz) gives the defender +1 in GW (L 6)."""
    st = position(2)
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "C4"))
    commit(st, "us_inf_35")
    commit(st, "pzgr_3")
    roll(st, 3, 3)
    b = battle(st)
    assert b.modifiers[AXIS] == [("3. Panzergrenadier-Division", 2), ("defending across the Moselle", 1)]
    assert (b.att_total, b.def_total) == (5, 6)
    assert b.winner == DEFENDER


def test_gw_draw_holds_and_rolls_six_against_both() -> None:
    """Core 7.2/7.3: equal totals are a draw: 6 to destroy on both sides, nobody retreats or advances."""
    st = position(2)
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "C4"))
    commit(st, "us_inf_35")
    commit(st, "pzgr_3")
    roll(st, 4, 3)  # 4 + 2 = 6 vs 3 + 2 + 1 (Moselle) = 6
    b = battle(st)
    assert b.winner == "draw"
    assert sorted(b.targets) == [("pzgr_3", AXIS, 6), ("us_inf_35", ALLIES, 6)]
    roll(st, 5, 5)
    assert st.battle is None
    assert st.control["C4"] == AXIS
    assert (st.loc["pzgr_3"], st.loc["us_inf_35"]) == ("C4", "C3")


def test_metz_fortifications_are_a_german_defence_only() -> None:
    """L 4.3 / L 6: 'Metz German defensive bonus +4'; the fortifications are added to the German defence
    when the US attacks Metz. Once the Allies hold Metz, a German attack on it gets no fortress bonus."""
    st = position(2, pool=["pz_106", "vg_462", "ss_pzgr_17"], cca_4="B5")
    control(st, ALLIES, "B5")
    initiative(st, 1, 6)
    st.apply_action(Arrow("C4", "B5"))  # C4-B5 is not a Moselle border
    commit(st, "pzgr_3")
    commit(st, "cca_4")
    roll(st, 3, 3)
    b = battle(st)
    assert b.modifiers[ALLIES] == [("CCA, 4th Armored Division", 3)]
    assert (b.att_total, b.def_total) == (5, 6)


# ----- 7.4 Panzer captured when destroyed -------------------------------------------------------------------


def panther_attack_lost_by_five(destroy_face: int) -> FirestormState:
    """A Panther (+5) attacks D3 from E3 and loses by 5 (1 + 5 = 6 vs 6 + 2 + 3 = 11)."""
    st = position(3, pool=["pz_106"], pz_112="E3")
    initiative(st, 1, 6)
    st.apply_action(Arrow("E3", "D3"))
    commit(st, "pz_112")
    commit(st, "us_inf_80", "us_art_2")
    roll(st, 1, 6)
    b = battle(st)
    assert (b.att_total, b.def_total, b.winner) == (6, 11, DEFENDER)
    assert b.targets == [("pz_112", AXIS, 4)]  # loser's troops need 4+; none rolled against the winner
    roll(st, destroy_face)
    return st


def test_panther_destroyed_is_captured_and_never_returns() -> None:
    """Case 4: roll 4 -> the Panther is destroyed and captured: Allies +10 VP, and it never returns."""
    st = panther_attack_lost_by_five(4)
    assert st.loc["pz_112"] == CAPTURED
    assert st.unit_vp == {ALLIES: 10, AXIS: 0}
    assert st.total_vp(ALLIES) == 120 + 10
    assert any("counts as captured" in text for _, text in st.events)
    # play the campaign out: the Panther is never placed, moved or committed again
    seen: list[str] = []

    def watch(who: str, action: Action) -> None:
        if "pz_112" in action.to_str().split():
            seen.append(who)

    bots = {ALLIES: make_bot("random", random.Random(1)), AXIS: make_bot("random", random.Random(2))}
    play(st, bots, random.Random(3), on_action=watch)
    assert st.current_player() == TERMINAL
    assert st.loc["pz_112"] == CAPTURED
    assert seen == []
    assert st.unit_vp[ALLIES] >= 10


def test_panther_surviving_the_roll_stays_in_play() -> None:
    st = panther_attack_lost_by_five(3)
    assert st.loc["pz_112"] == "E3"
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}


def test_surrounded_panzer_destroyed_by_the_roll_scores_ten_once() -> None:
    """A Panzer Unit destroyed by the roll to destroy in a surrounded area is captured once: +10, not +20."""
    st = position(2, pool=["inf_16"])
    control(st, ALLIES, "A4", "A5")
    initiative(st, 6, 1)
    st.apply_action(Arrow("A2", "A3"))
    commit(st, "us_inf_5", "us_art_1")
    commit(st, "pz_106")
    roll(st, 6, 1)  # 6 + 5 = 11 vs 1 + 3 - 2 (cut off) = 2
    assert battle(st).targets == [("pz_106", AXIS, 4)]
    roll(st, 6)
    assert st.loc["pz_106"] == CAPTURED
    assert st.unit_vp == {ALLIES: 10, AXIS: 0}


def test_destroyed_non_panzer_goes_to_the_pool_for_no_vp() -> None:
    """L 4.5: other destroyed troops go to the Reinforcement Pool and score nothing."""
    st = position(2, pool=["pz_106"])
    initiative(st, 1, 6)
    st.apply_action(Arrow("C4", "C3"))
    commit(st, "pzgr_3")
    commit(st, "us_inf_35")
    roll(st, 1, 6)  # 1 + 2 = 3 vs 6 + 2 = 8: the Germans lose by 5
    roll(st, 6)
    assert st.loc["pzgr_3"] == POOL
    assert st.unit_vp == {ALLIES: 0, AXIS: 0}


# ----- 7.5 Capture VP when surrounded ----------------------------------------------------------------------


@pytest.mark.parametrize("destroy_faces", [(1, 1), (6, 1), (6, 6)])
def test_surrounded_german_infantry_and_panzergrenadiers_are_captured(destroy_faces: tuple[int, int]) -> None:
    """Case 5: a surrounded German Infantry + Panzergrenadiers -> Allies +5 + 5, whether or not the
    roll to destroy hit them first (core 7.4: 'including those just destroyed')."""
    st = position(2, pool=["flak_88", "pzgr_15"], pzgr_3="D4")
    control(st, ALLIES, "C4", "D5")
    assert all(st.control[n] == ALLIES for n in st.sc.adjacency["D4"])
    initiative(st, 6, 1)
    st.apply_action(Arrow("D3", "D4"))
    commit(st, "us_inf_80", "us_art_2")
    commit(st, "vg_553", "pzgr_3")
    roll(st, 6, 1, 1)  # 6 + 5 = 11 vs 1 + 1 + 2 + 1 (Moselle) - 2 (cut off: out of supply) = 3
    b = battle(st)
    assert not b.def_supplied
    assert (b.att_total, b.def_total) == (11, 3)
    assert [need for _, _, need in b.targets] == [4, 4]
    roll(st, *destroy_faces)
    assert st.loc["vg_553"] == CAPTURED and st.loc["pzgr_3"] == CAPTURED
    assert st.unit_vp == {ALLIES: 10, AXIS: 0}
    assert st.control["D4"] == ALLIES


def test_surrounded_us_artillery_is_captured_for_ten() -> None:
    """Case 5: a surrounded US Artillery -> Germans +10."""
    st = position(2, pool=["pz_106", "us_inf_79", "us_inf_80"])
    control(st, AXIS, "D2", "E2")
    assert st.units_at("D3") == ["us_art_2"]
    initiative(st, 1, 6)
    st.apply_action(Arrow("E3", "D3"))
    commit(st, "vg_559")
    commit(st, "us_art_2")
    b = battle(st)
    assert not b.def_supplied
    roll(st, 6, 1, 6)  # Germans 6 + 2 = 8; Allies 1 + 3 - 2 (out of supply) = 2
    assert (b.att_total, b.def_total) == (8, 2)
    roll(st, 1)  # the artillery survives the roll to destroy, but has nowhere to go
    assert st.loc["us_art_2"] == CAPTURED
    assert st.unit_vp == {ALLIES: 0, AXIS: 10}


def test_capture_vp_values_by_troop_type() -> None:
    """L 4.7: Panzer Units, Allied tanks (French too) and artillery 10; every other troop 5."""
    troops = load_scenario("lorraine").troops
    tens = {t.id for t in troops.values() if t.capture_vp == 10}
    assert tens == {"pz_106", "pz_111", "pz_112", "pz_113", "us_art_1", "us_art_2", "cca_4", "ccb_4", "cc_7a",
                    "cc_7b", "fr_2db"}
    assert all(t.capture_vp == 5 for t in troops.values() if t.id not in tens)


# ----- 7.6 German Success ----------------------------------------------------------------------------------


def end_of_turn(turn: int, german: Iterable[str] = (), pool: Iterable[str] = ()) -> FirestormState:
    st = position(turn, pool=pool)
    control(st, AXIS, *german)
    st.flow.enter(st, "turn_end")
    return st


def test_german_success_once_at_the_end() -> None:
    """Case 6: at the end of T3 the Germans hold C2 and B2 -> +100 once (not per area)."""
    st = end_of_turn(3, ["B2", "C2"], pool=["cc_7a", "cca_4", "ccb_4"])
    assert st.is_terminal()
    assert st.bonus_vp == {ALLIES: 0, AXIS: 100}
    assert st.total_vp(AXIS) == st.area_vp(AXIS) + 100
    assert any(text.startswith("German Success") for _, text in st.events)


def units_starting_in(area: str) -> list[str]:
    return [t.id for t in load_scenario("lorraine").troops.values() if t.start == area]


@pytest.mark.parametrize("area", ["A2", "B2", "C1", "C2"])
def test_german_success_any_listed_area(area: str) -> None:
    st = end_of_turn(3, [area], pool=units_starting_in(area))
    assert st.bonus_vp[AXIS] == 100


def test_no_german_success_without_a_listed_area() -> None:
    """Holding none of A2, B2, C1, C2 scores nothing (A1/B1 are not in the operative VP-section list)."""
    st = end_of_turn(3, ["A1", "B1"])
    assert st.is_terminal()
    assert st.bonus_vp == {ALLIES: 0, AXIS: 0}


def test_no_german_success_before_the_last_turn() -> None:
    st = end_of_turn(2, ["B2", "C2"], pool=["cc_7a", "cca_4", "ccb_4"])
    assert not st.is_terminal()
    assert st.bonus_vp == {ALLIES: 0, AXIS: 0}


# ----- 7.7 Weather (tabletop) and 7.8 short of fuel ---------------------------------------------------------


def open_c3_c4(mode: str, attackers: tuple[str, ...]) -> FirestormState:
    st = position(2, mode)
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "C4"))
    commit(st, *attackers)
    commit(st, "pzgr_3")
    return st


MOSELLE_BRIEFING = [
    "The Moselle runs through no-man's land: at least one crossing every 60 cm, 30 cm apart; infantry may wade "
    "anywhere.",
    "Moselle bank fortifications: the Germans add a strongpoint (two HMG nests, three trench lines) given to an "
    "infantry platoon.",
]


def test_weather_die_in_tabletop_with_aircraft() -> None:
    """Case 7 / L 4.2: before a tabletop battle with aircraft the Weather table is rolled; face 1 is
    Heavy Rains (assumed bands 1 / 2 / 3 / 4-6). The rain-stop rolls inside the tabletop game are played
    on the table; the engine records the weather result for the players."""
    st = open_c3_c4("tabletop", ("us_inf_35", AIR))
    assert st.step == "tabletop_prep" and st.dice_needed() == 1
    roll(st, 1)
    assert st.current_player() == REPORT
    b = battle(st)
    assert b.notes[0].startswith("Weather [1]: heavy rains") and "3rd turn" in b.notes[0]
    assert b.notes[1:] == MOSELLE_BRIEFING, "an attack across the Moselle: the crossing and the bank defences"


@pytest.mark.parametrize(("face", "effect"), [(1, "heavy rains"), (2, "overcast"), (3, "light rain"),
                                              (4, "clear skies"), (5, "clear skies"), (6, "clear skies")])
def test_weather_bands(face: int, effect: str) -> None:
    st = open_c3_c4("tabletop", ("us_inf_35", AIR))
    roll(st, face)
    assert battle(st).notes[0].startswith(f"Weather [{face}]: {effect}")


def test_no_weather_die_in_tabletop_without_aircraft() -> None:
    st = open_c3_c4("tabletop", ("us_inf_35",))
    assert st.current_player() == REPORT
    assert battle(st).notes == MOSELLE_BRIEFING


def test_weather_die_for_defending_aircraft() -> None:
    """Ambiguity 20: the roll is made whenever either side has aircraft in the battle."""
    st = position(3, "tabletop", pool=["pz_106"])
    initiative(st, 1, 6)
    st.apply_action(Arrow("C4", "C3"))
    commit(st, "pzgr_3")
    commit(st, "us_inf_35", AIR)
    assert st.step == "tabletop_prep" and st.dice_needed() == 1
    roll(st, 4)
    assert battle(st).notes == ["Weather [4]: clear skies: aircraft and AOP as normal",
                                "The Moselle runs through no-man's land: at least one crossing every 60 cm, 30 cm "
                                "apart; infantry may wade anywhere."], "a German attack: no bank defences"


@pytest.mark.parametrize("mode", ["gw", "mixed"])
def test_no_weather_die_in_gw(mode: str) -> None:
    """GW: no weather roll; the P-47's variable bonus (which includes the weather) is rolled instead."""
    st = open_c3_c4(mode, ("us_inf_35", AIR))
    if mode == "mixed":
        assert st.current_player() == ALLIES
        st.apply_action(st.parse_action("mode gw"))
        assert st.current_player() == AXIS, "the defender may claim the battle next"
        st.apply_action(st.parse_action("mode gw"))
    assert st.step == "gw_roll" and st.dice_needed() == 3
    roll(st, 4, 4, 6)  # the third die is the P-47: 6 -> +3
    b = battle(st)
    assert b.modifiers[ALLIES] == [("35th Infantry Division", 2), ("P-47 sortie (roll [6])", 3)]
    assert b.notes == []
    assert not any("Weather" in text for _, text in st.events)


@pytest.mark.parametrize(("face", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_gw_air_support_variable_table(face: int, bonus: int) -> None:
    st = open_c3_c4("gw", ("us_inf_35", AIR))
    roll(st, 4, 4, face)
    assert battle(st).att_total == 4 + 2 + bonus


def test_short_of_fuel_when_out_of_supply_on_the_tabletop() -> None:
    """Case 8: an out-of-supply tank attacks on the tabletop; the Out-of-Supply die 3 -> short of fuel
    (assumed Caen bands 1-2 / 3-4 / 5 / 6). The per-vehicle fuel rolls happen on the table."""
    st = position(2, "tabletop", cca_4="C3")
    control(st, AXIS, "C2", "D2", "B4")
    st.loc["cc_7b"] = POOL
    st.loc["us_inf_79"] = POOL
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "C4"))
    commit(st, "cca_4")
    commit(st, "pzgr_3")
    b = battle(st)
    assert not b.att_supplied and b.def_supplied
    assert st.dice_needed() == 1
    roll(st, 3)
    assert b.notes == ["Allies out of supply [3]: short of fuel: each vehicle moving in the Movement Step is "
                       "immobilised on a roll of 1", *MOSELLE_BRIEFING]
    st.apply_action(Report(2, 4))
    assert b.winner == DEFENDER
    assert b.targets == [("cca_4", ALLIES, 6)]  # the Germans scored 4 VP: 6 needed


# ----- 7.9 The turn 1 US attack restriction -----------------------------------------------------------------


def expected_t1_arrows(st: FirestormState) -> set[tuple[str, str]]:
    """T1 US arrows from the rule text: across the Moselle, into Luxembourg, or to retake an Allied area."""
    sc = st.sc
    out = set()
    froms = {where for u, where in st.loc.items() if where in sc.areas and sc.troops[u].side == ALLIES}
    for frm in froms:
        for to in sc.adjacency[frm]:
            if st.control[to] == ALLIES:
                continue
            across = sc.rivers.get(frozenset((frm, to))) == "Moselle"
            if across or to == "A3" or sc.areas[to].control == ALLIES:
                out.add((frm, to))
    return out


def test_t1_us_attack_restriction() -> None:
    """Case 9: C3 -> C4 across the Moselle is legal in T1; D3 -> E3 (not across the Moselle, not
    Luxembourg, never Allied) is not offered and is refused; it is legal from T2."""
    st = position(1)
    initiative(st, 6, 1)
    assert st.attacker == ALLIES
    legal = arrows(st)
    assert ("C3", "C4") in legal
    assert ("A2", "A3") in legal and ("B3", "A3") in legal  # Luxembourg
    assert ("D3", "E3") not in legal
    assert legal == expected_t1_arrows(st)
    with pytest.raises(IllegalActionError):
        st.apply_action(Arrow("D3", "E3"))
    st.apply_action(Arrow("C3", "C4"))
    assert battle(st).to == "C4"

    later = position(2)
    initiative(later, 6, 1)
    assert ("D3", "E3") in arrows(later)


def test_t1_us_may_retake_lost_territory() -> None:
    """T1: an attack to retake an area the Allies held at the start is legal without crossing."""
    st = position(1, pool=["cc_7b"])
    control(st, AXIS, "B4")
    initiative(st, 6, 1)
    legal = arrows(st)
    assert {("B3", "B4"), ("C2", "B4"), ("C3", "B4"), ("B2", "B4")} <= legal
    assert legal == expected_t1_arrows(st)


def test_t1_restriction_does_not_bind_the_germans() -> None:
    st = position(1, pool=["pz_106"])
    initiative(st, 1, 6)
    assert st.attacker == AXIS
    assert ("E3", "D3") in arrows(st) and ("E3", "E2") in arrows(st)


# ----- reinforcements, redeployment and strategic moves (L 4.6) ---------------------------------------------


def test_pool_troops_return_to_depots_then_redeploy_anywhere_friendly_in_supply() -> None:
    """Strategic Phase: the Germans first, then the US, put pool troops into a depot they hold; a
    returned troop may then redeploy anywhere friendly and in supply, others move one step."""
    st = position(1, pool=["vg_559"])
    control(st, ALLIES, "F5")  # a friendly area cut off from every Allied depot
    st.flow.enter(st, "strategic_start")
    assert st.step == "reinforce" and st.current_player() == AXIS
    assert places(st) == {"D7", "E4"}
    st.apply_action(Place("vg_559", "D7"))
    assert st.current_player() == ALLIES
    assert places(st) == {"A1", "B1", "C1"}  # the sixth US infantry starts in the pool
    st.apply_action(Place("us_inf_90", "A1"))
    assert st.step == "moves" and st.current_player() == AXIS
    german_supplied = {a for a, side in st.control.items() if side == AXIS} - {"D7"}
    assert moves_of(st, "vg_559") == german_supplied
    assert moves_of(st, "inf_16") == {"A3", "A5", "B5", "B6"}  # one step from A4
    st.apply_action(Move("vg_559", "E3"))
    with pytest.raises(IllegalActionError):
        st.apply_action(Move("vg_559", "D4"))  # it has moved this phase
    st.apply_action(PASS)
    assert st.current_player() == ALLIES
    allied = {a for a, side in st.control.items() if side == ALLIES}
    assert moves_of(st, "us_inf_90") == allied - {"A1", "F5"}
    assert moves_of(st, "us_inf_80") == {"D2", "E2"}
    with pytest.raises(IllegalActionError):
        st.apply_action(Move("us_inf_80", "D1"))  # two steps
    st.apply_action(Move("us_inf_90", "D3"))
    assert st.loc["us_inf_90"] == "D3"


def test_pool_stays_when_every_depot_is_enemy_held() -> None:
    st = position(1)
    control(st, AXIS, "A1", "B1", "C1")
    st.flow.enter(st, "strategic_start")
    assert st.step == "moves"  # neither side has anything to place
    assert st.loc["us_inf_90"] == POOL


@pytest.mark.parametrize(("turn", "sorties"), [(1, 3), (2, 4), (3, 4)])
def test_air_sorties_per_turn_and_one_per_battle(turn: int, sorties: int) -> None:
    """L 4.2: P-47 sorties T1 3, T2 4, T3 4; only the US has aircraft; at most one per battle, and in attack
    only as the second troop."""
    st = position(turn, pool=["pz_106"])
    st.flow.enter(st, "turn_start")
    while st.step == "plan_place":
        st.apply_action(st.legal_actions()[0])
    assert st.air_left == {ALLIES: sorties, AXIS: 0}
    initiative(st, 6, 1)
    st.apply_action(Arrow("C3", "C4"))
    assert commits(st) == {frozenset({"us_inf_35"}), frozenset({"us_inf_35", AIR})}
    commit(st, "us_inf_35", AIR)
    assert st.air_left[ALLIES] == sorties - 1
    assert all(AIR not in a.units for a in st.legal_actions() if isinstance(a, Commit))  # German defence
    again = position(turn)
    again.air_left[ALLIES] = 0
    initiative(again, 6, 1)
    again.apply_action(Arrow("C3", "C4"))
    assert commits(again) == {frozenset({"us_inf_35"})}


# ----- new units in the Planning Phase (L 3) ----------------------------------------------------------------


def test_t2_arrivals_french_tank_at_d2_and_panther_at_e4() -> None:
    st = position(2)
    st.flow.enter(st, "turn_start")
    assert st.current_player() == ALLIES and st.legal_actions() == [Place("fr_2db", "D2")]
    st.apply_action(Place("fr_2db", "D2"))
    assert st.current_player() == AXIS and st.legal_actions() == [Place("pz_111", "E4")]
    st.apply_action(Place("pz_111", "E4"))
    assert st.loc["pz_111"] == "E4" and st.loc["fr_2db"] == "D2"
    assert st.step == "battles"


def test_t2_panther_falls_back_to_an_adjacent_friendly_area() -> None:
    """If the enemy holds E4, the Panther is placed in any adjacent friendly area (L 3, ambiguity 19)."""
    st = position(2)
    control(st, ALLIES, "E4")
    st.flow.enter(st, "turn_start")
    st.apply_action(Place("fr_2db", "D2"))
    assert places(st) == {"D5", "D6", "E3", "E5", "F4"}
    with pytest.raises(IllegalActionError):
        st.apply_action(Place("pz_111", "E4"))
    st.apply_action(Place("pz_111", "D6"))
    assert st.loc["pz_111"] == "D6"


def test_t2_panther_waits_in_the_pool_when_surrounded_by_enemy_areas() -> None:
    st = position(2)
    control(st, ALLIES, "E4", "D5", "D6", "E3", "E5", "F4")
    for u in st.units_at("D5") + st.units_at("E3"):
        st.loc[u] = POOL
    st.flow.enter(st, "turn_start")
    st.apply_action(Place("fr_2db", "D2"))
    assert st.step == "battles"
    assert st.loc["pz_111"] == POOL


def test_t3_panthers_choose_among_d5_d6_e3_e4() -> None:
    st = position(3, pz_111="E4")
    st.flow.enter(st, "turn_start")
    for unit in ("pz_112", "pz_113"):
        assert st.current_player() == AXIS
        assert {a.unit for a in st.legal_actions() if isinstance(a, Place)} == {unit}
        assert places(st) == {"D5", "D6", "E3", "E4"}
        st.apply_action(Place(unit, "D6"))
    assert st.units_at("D6") == ["pz_112", "pz_113"]
    assert st.step == "battles"


def test_tabletop_german_infantry_force_is_rolled_and_metz_defences_shown() -> None:
    """Tabletop: the German infantry's force comes from its variable table (assumed bands 1-2 / 3-4 / 5-6),
    and an attack on Metz brings the Metz fortifications (L 4.3), not the Moselle bank defences."""
    st = position(2, "tabletop", pool=["pz_106", "ss_pzgr_17"])
    initiative(st, 6, 1)
    st.apply_action(Arrow("B4", "B5"))
    commit(st, "cc_7b")
    commit(st, "vg_462")
    assert st.step == "tabletop_prep" and st.dice_needed() == 1
    roll(st, 5)
    notes = battle(st).notes
    assert notes[0] == "462. Volksgrenadier-Division [5]: veterans: a Grenadier platoon, Confident Veteran"
    assert notes[1].startswith("Metz fortifications: the Germans add a fort battery")
    assert len(notes) == 2


def test_mixed_mode_tabletop_allotment_per_side_per_turn() -> None:
    """Caen 3.1 mini-campaign rule, available to every campaign: with an allotment of one tabletop
    battle per side per turn, the attacker may claim first, then the defender; a side whose allotment
    is spent is not asked."""
    st = new_game(load_scenario("lorraine"), {"mode": "mixed", "allotment": 1})
    st.apply_action(Roll((1,)))
    st.apply_action(Roll((6, 1)))
    st.apply_action(Arrow("C3", "C4"))
    commit(st, "us_inf_35")
    commit(st, "pzgr_3")
    assert st.current_player() == ALLIES
    st.apply_action(st.parse_action("mode tabletop"))
    assert battle(st).mode == "tabletop" and st.flags.tabletop_left == {ALLIES: 0, AXIS: 1}
    assert st.current_player() == REPORT
    st.apply_action(Report(2, 2))  # nobody reaches 3: the defender holds, no rolls
    st.apply_action(Roll((6, 1)))  # the next battle: the Allies attack again
    st.apply_action(Arrow("C3", "C4"))
    commit(st, "us_inf_35")
    commit(st, "pzgr_3")
    assert st.current_player() == AXIS, "the Allies' allotment is spent: only the Germans may claim"
    st.apply_action(st.parse_action("mode gw"))
    assert st.step == "gw_roll"
