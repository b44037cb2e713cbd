"""Narvik's stated rules (seed: shared/seeds/narvik-europa.txt), each on the small test board of
`narvik_support` with forced dice: a test per rule that fails if the rule is broken. The seed passage of each is
in docs/narvik.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from narvik_support import act, game, play_random, roll, to_allied_turn, unit

from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.narvik.movement import movement_points, overstacked_in, reach
from warroom.rulesets.narvik.state import NarvikState

HQ = {"kind": "division", "mountain": False, "motorized": False}


def end_movement(st: NarvikState) -> None:
    """End the phasing player's movement (and the regrouping after it, if asked)."""
    act(st, "end")
    if st.step == "regroup":
        act(st, "end")


def to_exploitation(st: NarvikState) -> None:
    end_movement(st)
    assert st.step == "exploit", st.step


# ----- movement ------------------------------------------------------------------------------------------------
def test_terrain_costs_differ_by_class_and_a_fjord_is_never_crossed(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("foot", movement=4, setup="Hamar"), unit("alp", kind="mountain", movement=4,
                                                                         setup="Hamar")])
    foot, alp = reach(st, "foot", False), reach(st, "alp", False)
    assert foot["0503"] == 2  # rough: two points
    assert "0603" not in foot  # mountain: 1 + 1 + 3 for foot troops
    assert alp["0603"] == 4  # 1 + 1 + 2 for mountain troops
    assert foot["0403"] == 2  # the fjord between 0404 and 0403 is not crossed: round by 0303


def test_a_mountain_ridge_costs_a_mountain_to_cross_and_vehicles_cross_it_only_by_the_railway(tmp_path: Path) -> None:
    # the ridge runs round 0407, parting it from Oslo (0507) and 0506, then between Oslo and 0506, where the
    # railway's hexside is the pass
    st = game(tmp_path, [unit("foot", movement=3), unit("alp", kind="mountain", movement=3),
                         unit("tank", kind="tank", motorized=True, movement=2)],
              ridge=[("0407", "0507"), ("0506", "0407"), ("0506", "0507")])
    assert st.sc.map.mountain_sides == {("0407", "0507"), ("0407", "0506"), ("0506", "0507")}
    foot, alp, tank = (reach(st, u, False) for u in ("foot", "alp", "tank"))
    assert foot["0407"] == 3 and alp["0407"] == 2  # clear beyond, but the ridge costs a mountain: 3, or 2
    assert foot["0506"] == 1 == tank["0506"]  # along the railway: the pass, one point
    assert "0407" not in tank and tank["0406"] == 2  # no vehicle crosses a ridge off the railway: it goes round
    plain = game(tmp_path / "plain", [unit("foot", movement=3)])
    assert reach(plain, "foot", False)["0407"] == 1


def test_glaciers_are_for_mountain_troops_and_mountains_are_closed_to_vehicles(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("foot", movement=9, setup="Elverum"), unit("alp", kind="mountain", movement=4,
                                                                           setup="Elverum"),
                         unit("tank", kind="tank", motorized=True, movement=9, setup="Elverum")])
    assert "0703" not in reach(st, "foot", False)  # glacier, not even by the one-hex move
    assert reach(st, "alp", False)["0703"] == 4
    assert "0704" not in reach(st, "tank", False) and "0603" not in reach(st, "tank", False)


def test_units_enter_an_enemy_hex_only_to_stop(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=2, setup="Kristiansand"), unit("n", side="allied", setup="Stavanger")])
    got = reach(st, "g", False)
    assert got["0203"] == 1  # Stavanger: entered, to stop there
    assert "0202" not in got  # Bergen lies beyond it: never through the enemy


def test_a_unit_leaving_an_enemy_hex_may_not_go_straight_into_another(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=5, setup="Hamar"), unit("n1", side="allied", setup="Hamar"),
                         unit("n2", side="allied", setup="Sola")])
    got = reach(st, "g", False)
    assert got["0303"] == 2  # Sola, next door and held by the enemy: only by way of 0304, not straight in
    assert got["0304"] == 1 and "0504" in got


def test_a_unit_may_always_move_one_hex_as_its_whole_move(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=1, setup="Hamar")])
    got = reach(st, "g", False)
    assert got["0503"] == 1  # rough costs 2; the one-hex move spends the unit's 1 point
    assert "0603" not in got and "0604" not in got


def test_halved_movement_keeps_its_fractions(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=5, setup="Hamar")])
    st.disrupted["g"] = 9
    assert movement_points(st, "g") == 2.5
    got = reach(st, "g", False)
    assert got["0605"] == 2  # by 0504, two clear hexes
    assert "0705" not in got  # a third clear hex needs 3 points: 2.5 is not rounded up
    st.disrupted.clear()
    st.types["g"] = st.types["g"].__class__(**{**{f: getattr(st.types["g"], f) for f in st.types["g"].__slots__},
                                               "movement": 3})
    assert reach(st, "g", False)["0705"] == 3


def test_exploitation_moves_only_motorised_units_without_rail_and_not_into_a_defended_hex(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("inf", setup="Oslo"), unit("tank", kind="tank", motorized=True, movement=6,
                                                         setup="Oslo"),
                         unit("n", side="allied", setup="Rena"), unit("truck", side="allied", kind="truck",
                                                                        defense=0, attack=0, motorized=True,
                                                                        setup="Elverum")])
    to_exploitation(st)
    legal = {a.to_str() for a in st.legal_actions()}
    assert not any(t.startswith("move inf") for t in legal)
    assert not any(t.startswith("rail") for t in legal)
    assert "move tank 0605" not in legal  # Rena: an enemy unit that can defend
    assert "move tank 0604" in legal  # Elverum: only a truck with no defence
    with pytest.raises(IllegalActionError, match="combat/motorised"):
        act(st, "move inf 0506")


def test_rail_movement_runs_along_connected_railway_hexes_free_of_the_enemy(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=1, setup="Oslo"), unit("n", side="allied", setup="Rena")])
    legal = {a.to_str() for a in st.legal_actions()}
    assert {"rail g 0506", "rail g 0505"} <= legal
    assert "rail g 0605" not in legal and "rail g 0604" not in legal  # the enemy at Rena cuts the line


def test_a_non_mountain_division_headquarters_keeps_out_of_mountains(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("hq", kind="headquarters", movement=6, setup="Elverum", hq=HQ),
                         unit("mhq", kind="headquarters", movement=6, setup="Elverum",
                              hq={"kind": "division", "mountain": True, "motorized": False})])
    assert "0603" not in reach(st, "hq", False) and "0704" not in reach(st, "hq", False)
    assert "0603" in reach(st, "mhq", False)


# ----- headquarters ------------------------------------------------------------------------------------------
def test_a_headquarters_absorbs_its_own_units_and_moves_at_the_slowest(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("hq", kind="headquarters", movement=6, setup="Hamar", hq=HQ, designation="3 Geb"),
                         unit("mine", movement=3, setup="Hamar", designation="3 Geb"),
                         unit("other", movement=5, setup="Hamar", designation="69 ID")])
    legal = {a.to_str() for a in st.legal_actions()}
    assert "absorb mine hq" in legal and "absorb other hq" not in legal
    act(st, "absorb mine hq")
    assert movement_points(st, "hq") == 3
    act(st, "move hq 0504")
    assert st.pos["mine"] == "0504"  # carried along, in its headquarters' hex for every purpose
    assert "absorb other hq" not in {a.to_str() for a in st.legal_actions()}  # only at the phase's beginning


def test_a_norwegian_headquarters_takes_a_norwegian_unit_before_an_allied_one(tmp_path: Path) -> None:
    nhq = {"kind": "regiment", "mountain": False, "motorized": False}
    st = game(tmp_path, [unit("g", setup="Narvik"),
                         unit("hq", side="allied", kind="headquarters", setup="Hamar", hq=nhq),
                         unit("brit", side="allied", nation="british", setup="Hamar"),
                         unit("nor", side="allied", setup="Hamar")])
    to_allied_turn(st)  # the German player turn passes (nothing to fight)
    legal = {a.to_str() for a in st.legal_actions()}
    assert "absorb nor hq" in legal and "absorb brit hq" not in legal
    act(st, "absorb nor hq")
    assert "absorb brit hq" in {a.to_str() for a in st.legal_actions()}


# ----- stacking ------------------------------------------------------------------------------------------------
def test_two_ground_units_and_one_artillery_battalion_stack_and_more_are_flipped(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("a", defense=3), unit("b", defense=2), unit("c", defense=1),
                         unit("art", kind="artillery"), unit("tank", kind="tank", motorized=True),
                         unit("coy", size="company"), unit("n", side="allied", setup="Oslo", defense=1)])
    assert overstacked_in(st, "0507", "german") == ["c"]  # the least defence is flipped; enemies never count


def test_two_batteries_fill_the_artillery_allowance_and_a_third_counts_as_a_ground_unit(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("a"), unit("b1", kind="artillery", size="battery"),
                         unit("b2", kind="artillery", size="battery"),
                         unit("b3", kind="artillery", size="battery", defense=1)])
    assert overstacked_in(st, "0507", "german") == []
    st.pos["z"] = "0507"
    st.types["z"] = st.types["a"].__class__(**{**{f: getattr(st.types["a"], f) for f in st.types["a"].__slots__},
                                               "id": "z", "defense": 0})
    assert overstacked_in(st, "0507", "german") == ["z"]


def test_british_naval_troops_stack_freely_in_ports_only(tmp_path: Path) -> None:
    marines = [unit(f"rm{i}", side="allied", nation="british", kind="naval_infantry", setup="Bergen")
               for i in range(4)]
    st = game(tmp_path, [unit("g"), unit("n1", side="allied", setup="Bergen"),
                         unit("n2", side="allied", setup="Bergen"), *marines])
    assert overstacked_in(st, "0202", "allied") == []
    for m in marines:
        st.pos[m["id"]] = "0404"  # Hamar is no port
    assert len(overstacked_in(st, "0404", "allied")) == 2


def test_overstacked_units_add_nothing_to_the_defence_but_share_its_fate(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", attack=6, setup="Narvik"),
                         *(unit(f"n{i}", side="allied", defense=3 - i, setup="Hamar") for i in range(3))])
    act(st, "move g 0404")
    end_movement(st)
    assert st.view("german")["battle"]["defense"] == 5  # 3 + 2; the third unit (1) is flipped
    roll(st, 4)  # the first turn's retreat roll: 4-6, the Norwegians stand
    roll(st, 6)  # 6:5 on clear ground is the 1:1 column: 6 is EX
    assert not any(f"n{i}" in st.pos for i in range(3))  # all three eliminated, the flipped one too


# ----- ownership -----------------------------------------------------------------------------------------------
def test_a_place_belongs_to_the_last_side_to_hold_its_hex_alone(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", movement=6, setup="Narvik"), unit("n", side="allied", setup="Trondheim")])
    view = st.view(None)
    assert view["owners"]["0205"] == "allied" and view["owners"]["0707"] == "german"
    assert view["owners"]["0202"] == "allied"  # everything in Norway is Norway's at the start
    act(st, "move g 0205")
    assert st.view(None)["owners"]["0205"] == "allied"  # both there: still the last sole holder's


# ----- combat --------------------------------------------------------------------------------------------------
def test_the_phasing_player_must_attack_in_every_shared_hex(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g1", setup="Kristiansand"), unit("g2", setup="Oslo", movement=9),
                         unit("n1", side="allied", setup="Stavanger"), unit("n2", side="allied", setup="Hamar")])
    act(st, "move g1 0203")
    act(st, "move g2 0404")
    end_movement(st)
    assert st.current_player() == CHANCE and st.fighting == "0203"
    assert st.combats == ["0404"]


def test_a_battle_is_fought_on_the_odds_column_with_terrain_and_the_die(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", attack=4, setup="Oslo", movement=9), unit("n", side="allied", defense=2,
                                                                              setup="Hamar")])
    act(st, "move g 0404")
    end_movement(st)
    battle = st.view(None)["battle"]
    assert (battle["attack"], battle["defense"], battle["column"]) == (4, 2, "2:1")
    roll(st, 4)  # the first turn's retreat roll: they stand
    roll(st, 6)  # 2:1, die 6: DE
    assert "n" not in st.pos and "n" in st.gone and st.pos["g"] == "0404"


def test_ad_and_dd_disrupt_halving_strength_until_the_owners_next_player_turn_ends(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", attack=2, setup="Oslo", movement=9), unit("n", side="allied", defense=2,
                                                                              setup="Hamar")])
    act(st, "move g 0404")
    end_movement(st)
    roll(st, 4)  # the first turn's retreat roll: they stand
    roll(st, 3)  # 1:1, die 3: AD
    assert "g" in st.disrupted and st.attack_of("g") == 1.0
    while st.phasing == "german":
        act(st, "end")
    assert "g" in st.disrupted  # through the Allied player turn
    while st.phasing == "allied":
        if st.current_player() == CHANCE:
            roll(st, 1)
        elif st.legal_actions():
            act(st, "stand 0404" if st.step == "combat" else "end")
    while st.phasing == "german" and st.game_turn == 2:
        if st.current_player() == CHANCE:
            roll(st, 1)
        else:
            act(st, "stand 0404" if st.step == "combat" else "end")
    assert "g" not in st.disrupted  # recovered at the end of the German player turn of turn 2


def test_on_the_first_turn_attacked_norwegians_may_have_to_fall_back_on_the_die(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9), unit("n", side="allied", setup="Hamar"),
                         unit("g2", setup="Kristiansand"), unit("n2", side="allied", setup="Bergen")])
    act(st, "move g 0404")
    act(st, "move g2 0202")
    end_movement(st)
    roll(st, 2)  # Bergen (0202) first: 1-3, the Norwegians fall back before combat
    assert st.pos["n2"] != "0202" and st.view(None)["owners"]["0202"] == "german"
    roll(st, 5)  # Hamar: 4-6, they stand
    assert st.pending == "combat" and st.fighting == "0404"


def test_from_the_second_turn_a_defender_may_try_to_withdraw(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9), unit("n", side="allied", setup="Elverum")])
    while st.game_turn == 1:
        act(st, "end")
    act(st, "move g 0604")
    end_movement(st)
    assert st.current_player() == "allied"
    with pytest.raises(IllegalActionError):
        act(st, "withdraw 0604", "german")
    act(st, "withdraw 0604", "allied")
    roll(st, 4)  # 4-6: away, no battle
    assert st.pos["n"] != "0604" and st.pos["g"] == "0604"


# ----- reinforcement and mobilisation --------------------------------------------------------------------------
def test_troops_mobilising_at_a_captured_centre_are_lost(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9),
                         unit("n", side="allied", mobilises={"turn": 1, "centre": "Elverum"}),
                         unit("n2", side="allied", mobilises={"turn": 2, "centre": "Elverum"})])
    act(st, "move g 0604")  # Elverum, alone: German now
    to_allied_turn(st)
    assert "n" not in st.pos and "n" in st.gone


def test_artillery_for_a_lost_store_comes_as_an_infantry_battalion_within_three_hexes(tmp_path: Path) -> None:
    sub = {"name": "I/AR2 (inf)", "short": "I/2i", "attack": 1, "defense": 2, "movement": 5}
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9),
                         unit("art", side="allied", kind="artillery", arrives={"turn": 1, "at": "Rena"},
                              if_store_captured=sub)])
    act(st, "rail g 0605")
    to_allied_turn(st)
    assert "art" not in st.pos and "art_inf" in st.pos
    from warroom.rulesets.narvik.hexes import distance

    assert 1 <= distance(st.pos["art_inf"], "0605") <= 3 and st.types["art_inf"].kind == "infantry"


# ----- breakdowns and trucks -----------------------------------------------------------------------------------
def test_german_regiments_start_broken_down_and_combine_and_break_again(tmp_path: Path) -> None:
    parts = [unit(f"r_{i}", part_of="r", designation="139") for i in (1, 2, 3)]
    units = [unit("r", size="regiment", attack=6, defense=6, breaks_into=["r_1", "r_2", "r_3"], designation="139"),
             *parts]
    st = game(tmp_path / "a", units)
    assert sorted(u for u in st.pos) == ["r_1", "r_2", "r_3"]
    act(st, "combine r")
    assert list(st.pos) == ["r"]
    assert "break r" not in {a.to_str() for a in st.legal_actions()}  # not back and forth in one phase
    whole = game(tmp_path / "b", units, broken_down=False)
    assert list(whole.pos) == ["r"]
    act(whole, "break r")
    assert sorted(whole.pos) == ["r_1", "r_2", "r_3"]


def test_a_truck_carries_one_battalion_with_it(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("truck", kind="truck", attack=0, defense=0, motorized=True, movement=10),
                         unit("inf", movement=3), unit("alp", kind="mountain")])
    legal = {a.to_str() for a in st.legal_actions()}
    assert "truck truck inf 0302" in legal and not any(t.startswith("truck truck alp") for t in legal)
    act(st, "truck truck inf 0302")
    assert st.pos["truck"] == st.pos["inf"] == "0302"


# ----- turns and victory ---------------------------------------------------------------------------------------
def test_a_game_is_fifteen_four_day_turns_german_then_allied(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Narvik"), unit("n", side="allied", setup="Hamar")])
    order: list[tuple[int, str]] = []
    while not st.is_terminal():
        if not order or order[-1] != (st.game_turn, st.phasing):
            order.append((st.game_turn, st.phasing))
        act(st, "end")
    assert order[:4] == [(1, "german"), (1, "allied"), (2, "german"), (2, "allied")]
    assert order[-1] == (15, "allied") and st.sc.dates[1] == "9–12 April 1940" if st.sc.dates else True
    assert st.result == "Allied decisive victory"  # one port (Narvik) German; no victory points


def test_key_units_destroyed_move_the_result_a_level(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", attack=9, setup="Oslo", movement=9),
                         unit("king", side="allied", kind="headquarters", defense=1, key_vp=10, setup="Hamar",
                              hq={"kind": "group", "mountain": False, "motorized": False})])
    act(st, "move g 0404")
    end_movement(st)
    roll(st, 4)  # they stand
    roll(st, 6)
    assert st.vp == {"german": 10, "allied": 0}
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            roll(st, 1)
        else:
            act(st, "end")
    assert st.result == "Allied marginal victory"  # one port is an Allied decisive victory, shifted once


def test_random_play_on_the_small_board_ends(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g1"), unit("g2", kind="mountain"), unit("n1", side="allied", setup="Hamar"),
                         unit("n2", side="allied", setup="Bergen")])
    assert play_random(st, 7) < 5000 and st.is_terminal()
