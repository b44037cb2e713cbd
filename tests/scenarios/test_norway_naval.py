"""The Strategic Game's worked examples (Norway digest section 8, EX-1 to EX-9) with forced dice, on
positions built from the bundled scenario."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState
from warroom.rulesets.firestorm.actions import PASS, Order
from warroom.rulesets.firestorm.naval_combat import fight as combat
from warroom.rulesets.firestorm.navy import sea_control
from warroom.rulesets.firestorm.positions import apply_orders as do
from warroom.rulesets.firestorm.positions import roll, strategic_position
from warroom.rulesets.firestorm.sea import air_steps
from warroom.rulesets.firestorm.sea import navy_of as nav
from warroom.rulesets.firestorm.state import GONE
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"


def position(counters: Mapping[str, str], player: str = ALLIES, turn: int = 2) -> FirestormState:
    """Strategic Actions of `turn` with only `counters` on the map, `player` to act."""
    return strategic_position(load_scenario("norway"), counters, player, turn)




def test_ex1_activation_path_and_forced_stop() -> None:
    st = position({"warspite": "A1", "destroyer_1": "A1", "warship_1": "narvik_harbour"})
    assert Order("activate", "A1", "ships") in st.legal_actions()
    do(st, "activate A-1 ships", "take warspite", "take destroyer_1")
    assert st.step == "sa_move"  # the group launched by itself once every unit was taken
    assert not any(isinstance(a, Order) and a.verb == "take" for a in st.legal_actions())
    do(st, "sail B-1")
    assert Order("sail", "narvik_harbour") in st.legal_actions()
    do(st, "sail narvik_harbour")
    assert st.step == "nv_evade" and st.current_player() == AXIS  # enemy ships: stop and fight
    do(st, "fight")
    c = combat(st)
    assert [v.dice for v in c.volleys] == [6, 3]  # 4 + 2; Warship Group 2 + Narvik harbour 1
    assert c.volleys[0].alloc == {"warship_1": 6}
    with pytest.raises(IllegalActionError):
        do(st, "allocate warship_1 2")  # the Germans fire at Allied ships
    do(st, "allocate warspite 3")
    roll(st, 6, 1, 1, 1, 1, 1, 1, 1, 1)
    assert nav(st).where["warship_1"] == GONE
    assert st.unit_vp[ALLIES] == 10
    assert {"warspite", "destroyer_1"} <= nav(st).activated
    assert st.step == "sa_choose" and nav(st).player == AXIS
    nav(st).player = ALLIES
    assert not [a for a in st.legal_actions() if isinstance(a, Order) and a.arg == "narvik_harbour"]
    assert [a for a in st.legal_actions() if isinstance(a, Order)] == []


def test_ex1_variant_activating_only_warspite_leaves_the_destroyers_free() -> None:
    st = position({"warspite": "A1", "destroyer_1": "A1"})
    do(st, "activate A1 ships", "take warspite", "launch", "sail B1", "halt")
    assert nav(st).activated == {"warspite"}
    nav(st).player = ALLIES
    do(st, "activate A1 ships")
    assert st.step == "sa_move" and nav(st).group == ["destroyer_1"]


def test_ex2_air_range_counts_areas_entered() -> None:
    sc = load_scenario("norway")
    assert air_steps(sc, "B7", "A3") == 2  # B-7 -> B-5 -> A-3
    st = position({"he111_1": "B7", "he111_2": "B7", "bf110_1": "B7", "ju88_1": "B7", "ju88_2": "B7",
                   "bf109_1": "B7", "rodney": "A3", "cruiser_1": "A3"}, player=AXIS)
    do(st, "activate B7 air", "take he111_1", "take he111_2", "take bf110_1", "launch")
    assert Order("fly", "A3") in st.legal_actions()
    do(st, "fly A3")
    assert combat(st).kind == "air"
    while st.current_player() != CHANCE:
        st.apply_action(st.legal_actions()[0])
    roll(st, *[1] * 6)  # 4 bomber dice at the ships, 2 ship AA dice; the Bf-110 has no aircraft to fight
    navy = nav(st)
    assert all(navy.where[u] == "B7" for u in ("he111_1", "he111_2", "bf110_1"))  # home again
    assert navy.activated == {"he111_1", "he111_2", "bf110_1"}
    navy.player = AXIS
    do(st, "activate B7 air")
    assert sorted(navy.pool) == ["bf109_1", "ju88_1", "ju88_2"]


def ex3(evade: bool) -> FirestormState:
    st = position({"resolution": "B3", "rodney": "B3", "cruiser_1": "B3", "cruiser_2": "B3",
                   "gneisenau": "B2", "scharnhorst": "B2"})
    do(st, "activate B3 ships", "take resolution", "take rodney", "take cruiser_1", "take cruiser_2", "sail B2")
    do(st, "evade" if evade else "fight")
    return st


def test_ex3_surface_combat_gneisenau_sunk_and_germans_retreat() -> None:
    st = ex3(evade=False)
    assert [v.dice for v in combat(st).volleys] == [14, 6]
    do(st, "allocate gneisenau 7")
    assert combat(st).volleys[0].alloc == {"gneisenau": 7, "scharnhorst": 7}
    do(st, "allocate rodney 6")
    roll(st, 1, 1, 3, 4, 5, 6, 6, 1, 2, 2, 3, 4, 4, 5, 1, 2, 4, 4, 4, 6)
    assert st.step == "nv_bship" and combat(st).pending == ["rodney"]  # Gneisenau's 2 hits need no re-roll
    roll(st, 4)
    navy = nav(st)
    assert navy.where["gneisenau"] == GONE and navy.where["scharnhorst"] == "B2" and navy.where["rodney"] == "B2"
    assert st.unit_vp[ALLIES] == 15
    assert st.step == "nv_retreat" and st.current_player() == AXIS  # surviving CV 14 against 3
    options = {a.arg for a in st.legal_actions() if isinstance(a, Order)}
    assert options == {"A1", "A2", "B1", "B3", "bodo_harbour", "namsos_harbour"}
    do(st, "withdraw B1")
    assert navy.where["scharnhorst"] == "B1"
    assert "scharnhorst" not in navy.activated  # a passive retreat marks nothing (11.36)


def test_ex4_voluntary_retreat_germans_roll_nothing_allies_half() -> None:
    st = ex3(evade=True)
    volleys = combat(st).volleys
    assert len(volleys) == 1 and volleys[0].side == ALLIES and volleys[0].dice == 7
    do(st, "allocate scharnhorst 7")
    roll(st, *[2] * 7)
    assert st.step == "nv_retreat" and st.current_player() == AXIS
    do(st, "withdraw A1")
    assert nav(st).where["gneisenau"] == "A1" and nav(st).where["scharnhorst"] == "A1"


def test_ex4_an_active_german_group_that_evades_moves_on_but_may_not_fight() -> None:
    st = position({"gneisenau": "B1", "scharnhorst": "B1", "rodney": "B2", "valiant": "B2", "renown": "A2"},
                  player=AXIS)
    do(st, "activate B1 ships", "take gneisenau", "take scharnhorst", "sail B2", "evade")
    do(st, "allocate gneisenau 4")
    roll(st, 1, 1, 1, 1)
    assert st.step == "nv_retreat"
    do(st, "withdraw A1")
    assert st.step == "sa_move" and nav(st).no_fight
    assert Order("sail", "A2") not in st.legal_actions()  # Renown is there: no more fighting


def test_ex5_interception_split_five_at_aircraft_three_at_the_carrier() -> None:
    st = position({"he111_1": "B7", "he111_2": "B7", "he111_3": "B7", "bf110_1": "B7",
                   "ark_royal": "B5", "skua_2": "B5", "swordfish_3": "B5"}, player=AXIS)
    do(st, "activate B7 air", "take he111_1", "take he111_2", "take he111_3", "take bf110_1", "fly B5")
    vs_ships, vs_air, defence = combat(st).volleys
    assert (vs_ships.dice, vs_ships.targets) == (3, ("ark_royal",))
    assert vs_air.dice == 5 and set(vs_air.targets) == {"skua_2", "swordfish_3"}
    assert defence.dice == 3 and defence.side == ALLIES


def test_ex6_namsos_bombing_closes_the_port() -> None:
    sc = load_scenario("norway")
    assert air_steps(sc, "oslo_airfield", "namsos_harbour") == 2  # Oslo -> C-3 -> C-2
    assert air_steps(sc, "oslo_airfield", "B2") == 3
    fleet = {u: "B2" for u in ("rodney", "valiant", "renown", "repulse", "cruiser_3", "cruiser_4")}
    st = position({"he111_1": "oslo_airfield", "he111_2": "oslo_airfield", "ju88_1": "oslo_airfield",
                   "bf110_1": "oslo_airfield", "cruiser_1": "namsos_harbour", "destroyer_1": "namsos_harbour",
                   "glorious": "B2", "gladiator_1": "B2", "swordfish_2": "B2",
                   "ark_royal": "B2", "swordfish_3": "B2", "skua_2": "B2", **fleet}, player=AXIS)
    do(st, "activate oslo_airfield air", "take he111_1", "take he111_2", "take ju88_1", "take bf110_1")
    assert Order("bomb", "namsos_harbour") in st.legal_actions()
    do(st, "bomb namsos_harbour")
    vs_port, vs_air, defence = combat(st).volleys
    assert vs_port.dice == 3 and vs_port.reroll == 3
    assert vs_air.dice == 5 and len(vs_air.targets) == 4
    assert defence.dice == 7  # harbour 1 + 2 ships + 4 carrier aircraft
    do(st, "allocate swordfish_2 2", "allocate gladiator_1 1", "allocate swordfish_3 1")
    do(st, "allocate he111_1 2", "allocate he111_2 2", "allocate ju88_1 2")
    roll(st, 1, 2, 3,  6, 1, 2, 3, 4,  6, 1, 2, 3, 4, 5, 1)
    assert st.step == "nv_reroll"
    roll(st, 6, 6, 2)  # every bomb that missed the harbour is re-rolled once
    navy = nav(st)
    assert "namsos_harbour" in navy.closed_harbours
    assert navy.where["he111_1"] == GONE and navy.where["swordfish_2"] == GONE
    assert st.unit_vp == {ALLIES: 10, AXIS: 10}
    assert navy.where["he111_2"] == "oslo_airfield"  # survivors fly home


def test_ex7_submarine_ambush_and_reply() -> None:
    group = {u: "A3" for u in ("valiant", "ark_royal", "cruiser_1", "destroyer_1", "destroyer_2")}
    st = position({**group, "uboat_3": "B4", "uboat_4": "B4", "uboat_5": "B4"})
    do(st, "activate A3 ships", *[f"take {u}" for u in group], "sail B4")
    assert st.step == "nv_alloc" and st.current_player() == AXIS
    do(st, "allocate ark_royal 1", "allocate cruiser_1 1", "allocate destroyer_1 1")
    roll(st, 4, 6, 1)
    navy = nav(st)
    assert navy.where["cruiser_1"] == GONE and st.unit_vp[AXIS] == 10
    assert st.step == "nv_reply"
    do(st, "stand")
    assert combat(st).volleys[0].dice == 4
    do(st, "allocate uboat_3 1", "allocate uboat_4 1")
    assert combat(st).volleys[0].alloc["uboat_5"] == 2
    roll(st, 1, 2, 3, 4)
    assert not {"uboat_3", "uboat_4", "uboat_5"} & navy.activated
    assert navy.where["uboat_3"] == "B4" and navy.where["valiant"] == "B4"


def test_ex7_variant_passing_through_halves_the_reply() -> None:
    group = {u: "A3" for u in ("valiant", "ark_royal", "cruiser_1", "destroyer_1", "destroyer_2")}
    st = position({**group, "uboat_3": "B4", "uboat_4": "B4", "uboat_5": "B4"})
    do(st, "activate A3 ships", *[f"take {u}" for u in group], "sail B4")
    do(st, "allocate ark_royal 1", "allocate cruiser_1 1", "allocate destroyer_1 1")
    roll(st, 4, 6, 1)
    do(st, "press")
    assert combat(st).volleys[0].dice == 2
    do(st, "allocate uboat_3 2")
    roll(st, 6, 1)
    assert nav(st).where["uboat_3"] == GONE
    assert st.step == "sa_move"  # the group sails on
    do(st, "sail B3")
    assert nav(st).where["valiant"] == "B3"


def test_submarines_may_hold_fire() -> None:
    st = position({"valiant": "A3", "uboat_3": "B4"})
    do(st, "activate A3 ships", "sail B4")
    assert PASS in st.legal_actions()
    st.apply_action(PASS)
    assert st.step == "sa_move" and nav(st).where["valiant"] == "B4"


def test_active_submarine_attack_and_full_reply() -> None:
    st = position({"uboat_1": "B1", "renown": "B2", "repulse": "B2"}, player=AXIS)
    do(st, "activate B1 subs", "dive B2", "attack", "allocate renown 1")
    roll(st, 6)
    assert nav(st).where["renown"] == GONE
    assert combat(st).kind == "reply" and combat(st).volleys[0].dice == 1  # Repulse alone replies
    roll(st, 2)
    assert "uboat_1" in nav(st).activated


def test_ex8_sea_lane_control_ignores_submarines() -> None:
    st = position({"cruiser_1": "B3", "destroyer_1": "B3", "destroyer_2": "B3", "destroyer_3": "B3",
                   "uboat_4": "B3"})
    assert sea_control(st, "andalsnes_harbour", ALLIES)
    assert not sea_control(st, "namsos_harbour", ALLIES)  # nobody's ships in B-2
    nav(st).where["hipper"] = "andalsnes_harbour"
    assert not sea_control(st, "andalsnes_harbour", ALLIES)


@pytest.mark.parametrize(("hits", "reroll", "sunk"), [(1, 5, False), (1, 6, True), (2, None, True)])
def test_ex9_battleship_rule_in_combat(hits: int, reroll: int | None, sunk: bool) -> None:
    st = position({"rodney": "B3", "scharnhorst": "B2", "warship_4": "B2"}, player=AXIS)
    do(st, "activate B2 ships", "take scharnhorst", "take warship_4", "sail B3", "fight", "allocate scharnhorst 4")
    faces = [6] * hits + [1] * (5 - hits)
    roll(st, *faces, 1, 1, 1, 1)
    if reroll is not None:
        assert combat(st).pending == ["rodney"]
        roll(st, reroll)
    assert (nav(st).where["rodney"] == GONE) is sunk


# ----- 6.8 mixed defence: the entering side aims each counter at the submarines or at the surface ships ---------
def mixed_defence() -> FirestormState:
    """Valiant and two destroyers sail into B4, where a U-Boat Group waits beside German surface ships."""
    group = {u: "A3" for u in ("valiant", "destroyer_1", "destroyer_2")}
    st = position({**group, "uboat_3": "B4", "scharnhorst": "B4"})
    do(st, "activate A3 ships", *[f"take {u}" for u in group], "sail B4")
    assert st.step == "nv_alloc" and combat(st).kind == "sub"
    do(st, "allocate destroyer_2 1")
    roll(st, 2)  # the submarine misses
    return st


def test_mixed_defence_each_counter_chooses_the_submarines_or_the_ships() -> None:
    st = mixed_defence()
    assert st.step == "nv_aim" and st.current_player() == ALLIES
    assert [a.to_str() for a in st.legal_actions()] == ["aim valiant subs", "aim valiant ships"]
    with pytest.raises(IllegalActionError, match="aim"):
        do(st, "fight")
    do(st, "aim valiant ships", "aim destroyer_1 subs", "aim destroyer_2 subs")
    reply = combat(st)
    assert reply.kind == "reply" and reply.volleys[0].dice == 2 and reply.defenders == ("uboat_3",)
    roll(st, 1, 3)  # the two destroyers miss the U-boats
    assert st.step == "nv_evade" and st.current_player() == AXIS  # the Germans may still evade (6.5)
    do(st, "fight")
    surface = combat(st)
    assert surface.kind == "surface"
    valiant_cv = st.sc.counters["valiant"].cv
    assert surface.volleys[0].dice == valiant_cv, "only the counter aimed at the ships adds its CV"
    assert set(surface.defenders) == {"scharnhorst"}
    assert set(surface.volleys[1].targets) == {"valiant", "destroyer_1", "destroyer_2"}


def test_mixed_defence_all_at_the_ships_fights_as_before() -> None:
    st = mixed_defence()
    do(st, "aim valiant ships", "aim destroyer_1 ships", "aim destroyer_2 ships", "fight")
    surface = combat(st)
    assert surface.kind == "surface"
    assert surface.volleys[0].dice == sum(st.sc.counters[u].cv for u in ("valiant", "destroyer_1", "destroyer_2"))


def test_an_aim_is_read_and_refused_with_its_reason() -> None:
    st = mixed_defence()
    with pytest.raises(IllegalActionError, match="submarines or the surface ships"):
        st.parse_action("aim valiant planes")
    with pytest.raises(IllegalActionError):
        do(st, "aim destroyer_1 subs")  # Valiant is asked first


def test_aims_out_of_turn_or_by_the_wrong_counter_are_refused_with_the_reason() -> None:
    st = mixed_defence()
    cases = {
        "aim destroyer_1 subs": "Valiant is asked first",
        "aim scharnhorst ships": "belongs to the Germans",
        "aim uboat_3 ships": "belongs to the Germans",
        "aim rodney ships": "not among the ships that entered here",
        "aim nelson ships": "unknown counter 'nelson'",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            do(st, text)
    do(st, "aim valiant ships")
    with pytest.raises(IllegalActionError, match="already aims at the surface ships"):
        do(st, "aim valiant subs")
