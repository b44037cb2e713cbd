"""Strategic Game rules one at a time (`sea.py`, `naval_combat.py`, `strategic.py`; Norway digest 1.3-1.4,
3.2-3.5, 5.3, 6.1-6.13, 7.6-7.7, 9.1, 11), on positions built from the bundled scenario with forced dice."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState
from warroom.rulesets.firestorm.actions import PASS, Move, Order
from warroom.rulesets.firestorm.fleet import SORTIE
from warroom.rulesets.firestorm.fleet_moves import check_airfields, fleet_move_options
from warroom.rulesets.firestorm.naval_combat import fight as combat
from warroom.rulesets.firestorm.positions import apply_orders as do
from warroom.rulesets.firestorm.positions import roll, strategic_position, with_counters
from warroom.rulesets.firestorm.sea import airfield_limit, lose
from warroom.rulesets.firestorm.sea import navy_of as nav
from warroom.rulesets.firestorm.state import GONE, OFFMAP, WITHDRAWN
from warroom.rulesets.firestorm.strategic import strategic_arrivals
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"


def fresh(turn: int = 2, counters: Mapping[str, str] | None = None) -> FirestormState:
    """A new Norway game at `turn` with only `counters` on the Strategic Map (all of them when None)."""
    return with_counters(load_scenario("norway"), counters, turn)


def position(counters: Mapping[str, str], player: str = ALLIES, turn: int = 2) -> FirestormState:
    """Strategic Actions of `turn` with only `counters` on the map, `player` to act."""
    return strategic_position(load_scenario("norway"), counters, player, turn)




def orders(st: FirestormState, verb: str) -> set[str]:
    return {a.arg for a in st.legal_actions() if isinstance(a, Order) and a.verb == verb}


# ----- carriers (5.3, 9.1) -------------------------------------------------------------------------
def test_a_sunk_carrier_takes_its_aircraft_and_each_scores() -> None:
    st = position({"ark_royal": "B3", "skua_2": "B3", "swordfish_3": "B3", "hipper": "B2"}, player=AXIS)
    do(st, "activate B2 ships", "sail B3", "fight")
    assert [v.dice for v in combat(st).volleys] == [3, 1]  # carrier aircraft do not fight ships (5.3)
    roll(st, 6, 1, 1, 1)
    navy = nav(st)
    assert {navy.where[u] for u in ("ark_royal", "skua_2", "swordfish_3")} == {GONE}
    assert st.unit_vp[AXIS] == 30  # 10 for the carrier and 10 for each aircraft aboard (9.1)


def test_carrier_aircraft_sail_with_their_carrier() -> None:
    st = position({"ark_royal": "B3", "skua_2": "B3", "swordfish_3": "B3"})
    do(st, "activate B3 ships", "sail B2", "halt")
    navy = nav(st)
    assert navy.where["skua_2"] == navy.where["swordfish_3"] == "B2"
    assert "skua_2" not in navy.activated  # activating the carrier does not activate its aircraft (5.3)


# ----- home ports (1.3, 6.8) -----------------------------------------------------------------------
def test_ships_never_sail_into_the_enemys_home_port() -> None:
    st = position({"cruiser_1": "C6"})
    do(st, "activate C6 ships")
    assert "oslo_harbour" not in orders(st, "sail") and "kiel" not in orders(st, "sail")
    assert "kristiansand_harbour" in orders(st, "sail")
    with pytest.raises(IllegalActionError):
        do(st, "sail kiel")
    st = position({"hipper": "A3"}, player=AXIS)
    do(st, "activate A3 ships")
    assert "scapa_flow" not in orders(st, "sail") and "B4" in orders(st, "sail")


def test_a_retreat_never_enters_the_enemys_home_port() -> None:
    st = position({"rodney": "A4", "valiant": "A4", "warship_2": "A3"})
    do(st, "activate A4 ships", "take rodney", "take valiant", "sail A3", "fight", "allocate rodney 2")
    roll(st, *[1] * 10)  # nobody hits; 8 against 2: the Germans retreat
    assert st.step == "nv_retreat" and st.current_player() == AXIS
    assert orders(st, "withdraw") == {"A2", "A4", "B4", "B5"}
    assert "scapa_flow" not in orders(st, "withdraw")


def test_submarines_cannot_attack_ships_in_home_ports() -> None:
    st = position({"submarine_1": "C6", "warship_4": "oslo_harbour", "hipper": "kiel"})
    do(st, "activate C6 subs")
    assert orders(st, "dive") == {"B5", "kristiansand_harbour"}
    assert Order("attack") not in st.legal_actions()
    # and German ships leaving a home port are not ambushed there, only at sea
    st = position({"submarine_1": "C6", "warship_4": "oslo_harbour"}, player=AXIS)
    do(st, "activate C6 ships")
    assert st.step == "sa_move" and nav(st).combat is None  # no ambush inside the home port
    do(st, "sail C6")
    assert st.step == "nv_alloc" and st.current_player() == ALLIES  # at sea the submarine may strike


# ----- harbour defence (1.3, 6.3, 6.6, 6.8) ---------------------------------------------------------
def test_harbour_defence_adds_dice_against_surface_attack() -> None:
    st = position({"cruiser_1": "B3", "hipper": "trondheim_harbour"})
    do(st, "activate B3 ships", "sail trondheim_harbour", "fight")
    assert [v.dice for v in combat(st).volleys] == [3, 3 + 1]


def test_harbour_defence_adds_dice_against_air_attack() -> None:
    st2 = position({"he111_1": "oslo_airfield", "cruiser_1": "kristiansand_harbour"}, player=AXIS)
    do(st2, "activate oslo_airfield air", "fly kristiansand_harbour")
    assert combat(st2).volleys[2].dice == 1 + 1  # the cruiser's AA and the harbour
    st3 = position({"he111_1": "oslo_airfield", "cruiser_1": "C6"}, player=AXIS)
    do(st3, "activate oslo_airfield air", "fly C6")
    assert combat(st3).volleys[2].dice == 1  # at sea: the AA die alone


def test_harbour_defence_never_helps_against_submarines() -> None:
    st = position({"submarine_2": "B3", "hipper": "trondheim_harbour"})
    do(st, "activate B3 subs", "dive trondheim_harbour", "attack", "allocate hipper 1")
    assert [v.dice for v in combat(st).volleys] == [1]
    roll(st, 1)
    assert combat(st).kind == "reply" and combat(st).volleys[0].dice == 1  # one die per ship, no harbour die
    # a reactive ambush inside a harbour: the same, no harbour dice either way
    st = position({"uboat_1": "narvik_harbour", "cruiser_1": "B1"})
    do(st, "activate B1 ships", "sail narvik_harbour")
    assert combat(st).kind == "sub" and [v.dice for v in combat(st).volleys] == [1]


# ----- retreats (6.4, 11.36) ------------------------------------------------------------------------
def test_a_passive_retreat_marks_nothing_activated() -> None:
    st = position({"rodney": "B3", "valiant": "B3", "hipper": "B2", "warship_2": "B2"})
    do(st, "activate B3 ships", "take rodney", "take valiant", "sail B2", "fight")
    do(st, "allocate hipper 4", "allocate rodney 5")
    roll(st, *[1] * 13)
    do(st, "withdraw A1")
    navy = nav(st)
    assert navy.where["hipper"] == navy.where["warship_2"] == "A1"
    assert not {"hipper", "warship_2"} & navy.activated
    assert st.step == "sa_choose" and navy.player == AXIS
    assert Order("activate", "A1", "ships") in st.legal_actions()  # the Germans may still act with them


def test_an_active_retreat_ends_the_action() -> None:
    st = position({"destroyer_1": "B3", "scharnhorst": "B2"})
    do(st, "activate B3 ships", "sail B2", "fight")
    roll(st, 1, 1, 1, 1, 1)  # 2 against 3: the active Allies retreat
    assert st.current_player() == ALLIES and st.step == "nv_retreat"
    do(st, "withdraw B3")
    assert "destroyer_1" in nav(st).activated and st.step == "sa_choose" and nav(st).player == AXIS


def test_a_tie_retreats_the_active_group() -> None:
    """assumption 11.7: equal surviving CV sends the active group back."""
    st = position({"cruiser_1": "B3", "hipper": "B2"})
    do(st, "activate B3 ships", "sail B2", "fight")
    roll(st, 1, 1, 1, 1, 1, 1)
    assert st.step == "nv_retreat" and st.current_player() == ALLIES


def test_a_retreat_that_cannot_go_anywhere_loses_the_ships() -> None:
    """Scharnhorst retreats into Namsos harbour past an Allied cruiser; from there its only way out is the
    area it came from, so it is lost (6.4: a retreat never turns back)."""
    st = position({"rodney": "B3", "valiant": "B3", "cruiser_1": "namsos_harbour", "scharnhorst": "B2"})
    do(st, "activate B3 ships", "take rodney", "take valiant", "sail B2", "fight", "allocate rodney 3")
    roll(st, *[1] * 11)
    do(st, "withdraw namsos_harbour")
    assert combat(st).kind == "retreat_fire" and combat(st).volleys[0].dice == 2  # half of the cruiser's 3
    roll(st, 1, 1)
    navy = nav(st)
    assert navy.where["scharnhorst"] == GONE and st.unit_vp[ALLIES] == 15
    assert st.step == "sa_choose" and navy.player == AXIS


def test_retreat_fire_is_half_the_blockers_cv_and_the_retreat_goes_on() -> None:
    st = position({"rodney": "B3", "valiant": "B3", "renown": "B1", "scharnhorst": "B2"})
    do(st, "activate B3 ships", "take rodney", "take valiant", "sail B2", "fight", "allocate rodney 3")
    roll(st, *[1] * 11)
    do(st, "withdraw B1")
    assert combat(st).volleys[0].dice == 2 and combat(st).volleys[0].side == ALLIES  # ceil(3 / 2)
    roll(st, 1, 1)
    assert st.step == "nv_retreat" and orders(st, "withdraw") == {"A1", "narvik_harbour"}


# ----- submarines (6.8) -----------------------------------------------------------------------------
def test_submarine_moves_one_area_in_an_action() -> None:
    """assumption 11.6: 1 area in an action."""
    st = position({"uboat_1": "B1", "cruiser_1": "A2"}, player=AXIS)
    do(st, "activate B1 subs", "dive A1")
    assert orders(st, "dive") == set() and Order("attack") not in st.legal_actions()


def test_ships_sunk_by_submarines_do_not_reply() -> None:
    st = position({"cruiser_1": "A3", "destroyer_1": "A3", "uboat_3": "B4", "uboat_4": "B4"})
    do(st, "activate A3 ships", "take cruiser_1", "take destroyer_1", "sail B4")
    do(st, "allocate cruiser_1 1", "allocate destroyer_1 1")
    roll(st, 6, 6)
    assert st.step == "sa_choose" and nav(st).player == AXIS  # nothing left to reply or move
    assert st.unit_vp[AXIS] == 20


# ----- airfields (1.4, 7.6, 11.20, 11.37) -------------------------------------------------------------
def test_denmark_is_a_german_airfield_from_turn_2_only() -> None:
    st = fresh(turn=1)
    assert airfield_limit(st, "B6", AXIS) == 0
    assert airfield_limit(st, "oslo_airfield", AXIS) == 0
    st.turn = 2
    assert airfield_limit(st, "B6", AXIS) is None
    assert airfield_limit(st, "B6", ALLIES) == 0


def test_norwegian_airfield_limit_4_or_2_without_rail_or_0_when_lost() -> None:
    st = fresh(turn=2)
    for area in ("E8", "E1", "D2", "D4"):  # the start: Trondheim's rail neighbours are all Norwegian
        assert st.control[area] == ALLIES
    assert airfield_limit(st, "trondheim_airfield", AXIS) == 2
    st.set_control("E8", AXIS)  # D3 - E8 - D10 by rail through German areas
    assert airfield_limit(st, "trondheim_airfield", AXIS) == 4
    st.set_control("D10", ALLIES)  # the rail hub itself lost
    assert airfield_limit(st, "trondheim_airfield", AXIS) == 2
    assert airfield_limit(st, "oslo_airfield", AXIS) == 0
    st.set_control("D10", AXIS)
    st.set_control("D3", ALLIES)
    assert airfield_limit(st, "trondheim_airfield", AXIS) == 0
    assert airfield_limit(st, "sola_airfield", AXIS) == 2  # Stavanger has no railway on the map


def test_bodo_airfield_only_with_the_bodo_flag() -> None:
    st = fresh(turn=3)
    assert airfield_limit(st, "bodo_airfield", AXIS) == 0
    st.flags.bodo = True
    assert airfield_limit(st, "bodo_airfield", AXIS) == 4


def test_c1_holds_one_allied_aircraft() -> None:
    st = fresh(turn=3)
    assert airfield_limit(st, "C1", ALLIES) == 1
    assert airfield_limit(st, "C1", AXIS) == 0
    assert airfield_limit(st, "A5", ALLIES) is None and airfield_limit(st, "B7", AXIS) is None


def test_aircraft_over_a_limit_rebase_home_at_the_end_of_the_strategic_phase() -> None:
    st = fresh(turn=2, counters={"he111_1": "trondheim_airfield", "he111_2": "trondheim_airfield",
                                 "ju88_1": "trondheim_airfield", "skua_1": "C1", "blenheim_1": "C1"})
    st.flow.enter(st, "fleet_moves")
    do(st, "pass", "pass")  # Allies, then Germans: then the limits are checked
    navy = nav(st)
    at_trondheim = sorted(u for u in ("he111_1", "he111_2", "ju88_1") if navy.where[u] == "trondheim_airfield")
    assert len(at_trondheim) == 2 and navy.where["ju88_1"] == "B7"  # limit 2 without rail (11.20)
    assert sorted(navy.where[u] for u in ("skua_1", "blenheim_1")) == ["A5", "C1"]


def test_aircraft_on_an_airfield_whose_area_is_lost_go_home() -> None:
    st = fresh(turn=2, counters={"he111_1": "sola_airfield"})
    st.set_control("D7", ALLIES)
    check_airfields(st)
    assert nav(st).where["he111_1"] == "B7"


def test_aircraft_at_bodo_go_home_when_bodo_closes_for_the_next_turn() -> None:
    """Bodø may be barred for the next turn at the end of one (7.6, 3.4): its aircraft re-base at once."""
    st = fresh(turn=3, counters={"he111_1": "bodo_airfield"})
    st.flags.bodo = False
    st.turn = 4
    st.flow.enter(st, "sa_start")
    assert nav(st).where["he111_1"] == "B7"


# ----- Stuka sorties (7.7, 11.26) ---------------------------------------------------------------------
def test_stuka_sortie_lends_a_ju87_for_the_turn() -> None:
    st = fresh(turn=2, counters={"ju87_1": "trondheim_airfield", "ju87_2": "B7", "he111_1": "B7"})
    st.air_left[AXIS] = 0
    st.flow.enter(st, "sa_start")
    assert st.step == "sa_stuka" and st.current_player() == AXIS
    assert {a.to_str() for a in st.legal_actions()} == {"sortie ju87_1", "sortie ju87_2", "pass"}
    do(st, "sortie ju87_1")
    navy = nav(st)
    assert navy.where["ju87_1"] == SORTIE and st.air_left[AXIS] == 1
    do(st, "pass")
    assert st.step == "sa_choose"
    st.turn = 3
    st.flow.enter(st, "sa_start")
    assert navy.where["ju87_1"] == "trondheim_airfield"  # back at its airfield next turn


def test_a_returning_stuka_goes_home_when_its_airfield_filled_up() -> None:
    st = fresh(turn=2, counters={"ju87_1": "trondheim_airfield"})
    st.flow.enter(st, "sa_start")
    do(st, "sortie ju87_1")
    navy = nav(st)
    navy.where["he111_1"] = navy.where["he111_2"] = "trondheim_airfield"  # re-based there meanwhile
    st.turn = 3
    st.flow.enter(st, "sa_start")
    assert navy.where["ju87_1"] == "B7"
    assert airfield_limit(st, "trondheim_airfield", AXIS) == 2


# ----- landings (3.2-3.4, 6.10, 11.8) -----------------------------------------------------------------
def actions_over(st: FirestormState) -> None:
    """Both sides pass every Strategic Action: the landings are tested at the end (`sa_end`)."""
    while st.step in ("sa_stuka", "sa_choose"):
        do(st, "pass")
    assert st.step == "plan_place" or st.step not in ("sa_stuka", "sa_choose")


def test_sea_control_at_the_end_of_the_actions_lands_the_troops() -> None:
    st = position({"cruiser_1": "B2", "destroyer_1": "narvik_harbour", "uboat_2": "B2"}, turn=1)
    actions_over(st)
    landed = nav(st).landed
    assert landed == {"terr_146": "ok", "alpins_5": "ok", "alpins_27": "ok", "gds_24": "ok", "terr_148": "fail"}
    assert not st.flags.bonus_paid  # paid when the troops are put ashore, in the Strategic Phase
    arrivals = strategic_arrivals(st, load_scenario("norway").turn(1).arrivals)
    units = {a.unit for a in arrivals}
    assert {"terr_146", "alpins_5", "alpins_27", "gds_24", "fj_dombas"} <= units and "terr_148" not in units
    assert st.flags.landing_wait == ["terr_148"]
    assert st.flags.bonus_paid == {"landing:namsos_harbour": (ALLIES, 5), "landing:narvik_harbour": (ALLIES, 5)}
    assert st.bonus_vp[ALLIES] == 10  # +5 per harbour landed at, not per unit (9.3)


def test_landing_needs_the_landing_area_held() -> None:
    st = position({"cruiser_1": "B2"}, turn=1)
    st.set_control("D1", AXIS)
    actions_over(st)
    assert "terr_146" not in {a.unit for a in strategic_arrivals(st, load_scenario("norway").turn(1).arrivals)}
    assert "terr_146" in st.flags.landing_wait
    assert not st.flags.bonus_paid


def test_a_landing_whose_area_falls_in_the_battles_does_not_land() -> None:
    """Sea control at the end of the actions lets the force sail, but it cannot land in an area the Germans
    took in this turn's battles: in turn 1 it waits a turn (3.2), later it never lands."""
    st = position({"cruiser_1": "B2"}, turn=1)
    actions_over(st)
    assert nav(st).landed["terr_146"] == "ok"
    st.set_control("D1", AXIS)
    arrivals = strategic_arrivals(st, load_scenario("norway").turn(1).arrivals)
    assert "terr_146" not in {a.unit for a in arrivals} and "terr_146" in st.flags.landing_wait
    assert not st.flags.bonus_paid
    later = position({"cruiser_2": "B3"}, turn=2)
    actions_over(later)
    later.set_control("D4", AXIS)
    strategic_arrivals(later, load_scenario("norway").turn(2).arrivals)
    assert later.loc["bde_15"] == WITHDRAWN


def test_german_ships_deny_sea_control() -> None:
    st = position({"cruiser_1": "namsos_harbour", "hipper": "B2"}, turn=1)
    actions_over(st)
    assert nav(st).landed["terr_146"] == "fail"


def test_a_turn_1_landing_that_fails_waits_one_turn_then_is_lost() -> None:
    sc = load_scenario("norway")
    st = position({}, turn=1)
    actions_over(st)
    strategic_arrivals(st, sc.turn(1).arrivals)
    assert sorted(st.flags.landing_wait) == ["alpins_27", "alpins_5", "gds_24", "terr_146", "terr_148"]
    st.turn = 2  # turn 2: sea control at Namsos only
    nav(st).where["cruiser_1"] = "B2"
    st.flow.enter(st, "sa_start")
    actions_over(st)
    assert nav(st).landed == {"terr_146": "ok", "alpins_5": "ok", "terr_148": "fail", "alpins_27": "fail",
                              "gds_24": "fail", "bde_15": "fail"}
    arrivals = {a.unit for a in strategic_arrivals(st, sc.turn(2).arrivals)}
    assert {"terr_146", "alpins_5"} <= arrivals
    assert all(st.loc[u] == WITHDRAWN for u in ("terr_148", "alpins_27", "gds_24", "bde_15"))
    assert st.flags.landing_wait == []
    assert not st.flags.bonus_paid  # the +5 is for landings made in turn 1 (9.3)


@pytest.mark.parametrize(("turn", "unit", "port"), [(2, "bde_15", "B3"), (3, "legion_13", "B1")])
def test_turn_2_and_3_landings_land_with_control_or_never(turn: int, unit: str, port: str) -> None:
    sc = load_scenario("norway")
    for held in (True, False):
        st = position({"cruiser_1": port} if held else {}, turn=turn)
        actions_over(st)
        arrivals = {a.unit for a in strategic_arrivals(st, sc.turn(turn).arrivals)}
        assert (unit in arrivals) is held
        assert st.loc[unit] == (OFFMAP if held else WITHDRAWN)


# ----- Marine Regiment Berger (3.2) -------------------------------------------------------------------
def sink_warship(turn: int, at: str) -> FirestormState:
    st = position({"warspite": "A1", "destroyer_1": "A1", "warship_1": at}, turn=turn)
    do(st, "activate A1 ships", "take warspite", "take destroyer_1", "sail B1")
    if at == "narvik_harbour":
        do(st, "sail narvik_harbour")
    do(st, "fight")
    fight = nav(st).combat
    if fight is not None and fight.volleys[1].left():
        do(st, "allocate warspite 3" if at == "narvik_harbour" else "allocate warspite 2")
    roll(st, 6, *[1] * (sum(v.dice for v in combat(st).volleys) - 1))
    assert nav(st).where["warship_1"] == GONE
    return st


def test_marine_regiment_berger_lands_when_the_narvik_warships_sink_in_harbour_in_turn_1() -> None:
    sc = load_scenario("norway")
    st = sink_warship(1, "narvik_harbour")
    arrivals = strategic_arrivals(st, sc.turn(1).arrivals)
    marines = [a for a in arrivals if a.unit in ("marine_1", "marine_2")]
    assert len(marines) == 2 and all(sc.areas[x].map == "narvik" for a in marines for x in a.areas)
    assert "OFOT" not in marines[0].areas


@pytest.mark.parametrize(("turn", "at"), [(2, "narvik_harbour"), (1, "B1")])
def test_no_naval_infantry_elsewhere_or_later(turn: int, at: str) -> None:
    sc = load_scenario("norway")
    st = sink_warship(turn, at)
    arrivals = strategic_arrivals(st, sc.turn(turn).arrivals)
    assert not [a for a in arrivals if a.unit.startswith("marine")]


# ----- turn 4 extra VP (3.5) ---------------------------------------------------------------------------
def test_turn_4_pays_5_more_per_allied_surface_ship_sunk() -> None:
    st = fresh(turn=4, counters={"cruiser_1": "B3", "ark_royal": "B3", "skua_2": "B3", "swordfish_3": "B3",
                                 "submarine_1": "B4"})
    for u in ("cruiser_1", "ark_royal", "submarine_1"):
        lose(st, u)
    assert st.unit_vp[AXIS] == 50  # cruiser, carrier, its 2 aircraft, the submarine flotilla
    assert st.flags.bonus_paid == {"sunk:cruiser_1": (AXIS, 5), "sunk:ark_royal": (AXIS, 5)}
    assert st.bonus_vp[AXIS] == 10
    st3 = fresh(turn=3, counters={"cruiser_1": "B3"})
    lose(st3, "cruiser_1")
    assert st3.bonus_vp[AXIS] == 0 and st3.unit_vp[AXIS] == 10
    st4 = fresh(turn=4, counters={"hipper": "B3"})
    lose(st4, "hipper")
    assert st4.bonus_vp == {ALLIES: 0, AXIS: 0}


# ----- strategic moves (6.12) --------------------------------------------------------------------------
def moves(st: FirestormState, side: str, unit: str) -> set[str]:
    return {m.to for m in fleet_move_options(st, side) if isinstance(m, Move) and m.unit == unit}


def test_strategic_ship_moves_never_pass_enemy_ships() -> None:
    st = fresh(turn=2, counters={"cruiser_1": "narvik_harbour", "hipper": "B1", "warship_2": "A3"})
    assert moves(st, ALLIES, "cruiser_1") == set()  # bottled up behind the Hipper
    st = fresh(turn=2, counters={"cruiser_1": "B2", "hipper": "B3"})
    got = moves(st, ALLIES, "cruiser_1")
    assert "B3" not in got and "trondheim_harbour" not in got and "B4" in got  # round by A2 - A3 - B4
    assert "scapa_flow" in got and "oslo_harbour" not in got


def test_strategic_submarine_moves_two_areas_through_anything() -> None:
    st = fresh(turn=2, counters={"uboat_1": "B1", "cruiser_1": "B2"})
    assert moves(st, AXIS, "uboat_1") == {"A1", "B2", "narvik_harbour", "A2", "B3", "bodo_harbour",
                                          "namsos_harbour"}


def test_strategic_air_moves_go_to_usable_airfields_with_room() -> None:
    st = fresh(turn=1, counters={"he111_1": "B7"})
    assert moves(st, AXIS, "he111_1") == set()  # turn 1: no German airfield but Germany
    st = fresh(turn=2, counters={"he111_1": "B7", "ju88_1": "trondheim_airfield", "ju88_2": "trondheim_airfield",
                                 "hurricane_1": "A5", "skua_1": "C1"})
    assert moves(st, AXIS, "he111_1") == {"B6", "oslo_airfield", "sola_airfield"}  # Trondheim is full (2)
    assert moves(st, ALLIES, "hurricane_1") == set()  # C1 holds its 1 Allied aircraft
    assert moves(st, ALLIES, "skua_1") == {"A5"}


def test_carrier_aircraft_never_move_alone() -> None:
    st = fresh(turn=2, counters={"ark_royal": "B3", "skua_2": "B3"})
    assert moves(st, ALLIES, "skua_2") == set()
    st.flow.enter(st, "fleet_moves")
    do(st, "move ark_royal A2")
    assert nav(st).where["skua_2"] == "A2"
    assert Move("ark_royal", "B3") not in st.legal_actions()  # each counter moves once


# ----- legality ---------------------------------------------------------------------------------------
def test_pass_uses_up_an_action_and_sides_alternate() -> None:
    """6.1, 11.5: a shared total; a pass spends one."""
    st = position({"cruiser_1": "B3"}, turn=2)
    left = nav(st).actions_left
    st.apply_action(PASS)
    assert nav(st).actions_left == left - 1 and nav(st).player == AXIS


def test_ships_may_enter_a_harbour_whose_town_the_enemy_holds() -> None:
    """1.3: ships may enter a Norwegian harbour even if the enemy holds the land area."""
    st = position({"cruiser_1": "B3"})
    assert st.control["D3"] == AXIS
    do(st, "activate B3 ships", "sail trondheim_harbour", "halt")
    assert nav(st).where["cruiser_1"] == "trondheim_harbour"


def test_submarines_share_areas_and_never_attack_in_strategic_moves() -> None:
    """6.8, 6.12: submarines may end among enemy ships; strategic moves start no fight."""
    st = fresh(turn=2, counters={"uboat_1": "B1", "cruiser_1": "B2", "renown": "B2"})
    st.flow.enter(st, "fleet_moves")
    do(st, "pass", "move uboat_1 B2")
    navy = nav(st)
    assert navy.where["uboat_1"] == "B2" and navy.combat is None
    assert navy.where["cruiser_1"] == navy.where["renown"] == "B2"


def test_a_fighter_covers_one_neighbouring_area_fixed_at_first_use() -> None:
    """6.7, assumption 11.12: a fighter defends its own area and one neighbour, chosen the first time."""
    st = position({"blenheim_1": "A5", "ark_royal": "B5", "swordfish_3": "B5", "bf109_1": "B7",
                   "warship_2": "stavanger_harbour", "warship_3": "C6"})
    do(st, "activate A5 air", "fly stavanger_harbour")
    c = combat(st)
    assert c.defenders == ("warship_2", "bf109_1")
    assert nav(st).zones == {"bf109_1": "B5"}  # Stavanger harbour lies in B-5 (and C-4)
    assert c.volleys[2].dice == 1 + 1 + 3  # AA, the harbour, the Bf 109's bracketed 3 (11.14)
    while st.current_player() != CHANCE:
        st.apply_action(st.legal_actions()[0])
    roll(st, *[1] * sum(v.dice for v in c.volleys))
    do(st, "pass")  # the Germans
    do(st, "activate B5 air", "fly C6")
    assert combat(st).defenders == ("warship_3",)  # B7 borders C6, but its fighter covers B-5


def test_ships_arriving_among_enemy_ships_enter_at_the_home_port_next_to_them() -> None:
    """Turn 2 Allied ships arrive at A-4 (3.3); with German ships there they enter at Rosyth on A-4 instead,
    since enemy ships share an area only while fighting (6.4); the carriers' aircraft come with them."""
    sc = load_scenario("norway")
    st = fresh(turn=2, counters={"hipper": "A4", **{c.id: OFFMAP for c in sc.counters.values() if c.arrives == 2}})
    strategic_arrivals(st, sc.turn(2).arrivals)
    navy = nav(st)
    assert {navy.where[u] for u in ("glorious", "ark_royal", "french_cruiser", "destroyer_5")} == {"A6"}
    assert navy.where["skua_2"] == navy.where["gladiator_1"] == "A6"
    st = fresh(turn=2, counters={c.id: OFFMAP for c in sc.counters.values() if c.arrives == 2})
    strategic_arrivals(st, sc.turn(2).arrivals)
    assert nav(st).where["glorious"] == "A4" and nav(st).where["skua_2"] == "A4"


def test_a_zone_fixed_on_a_sea_area_covers_its_harbours() -> None:
    """6.7, 1.7 hint 6: a fighter whose zone is B-5 also defends Stavanger harbour, which lies in B-5."""
    st = position({"blenheim_1": "A5", "blenheim_2": "A5", "bf109_1": "B7", "warship_4": "B5",
                   "warship_3": "stavanger_harbour"})
    do(st, "activate A5 air", "take blenheim_1", "launch", "fly B5")
    assert combat(st).defenders == ("warship_4", "bf109_1")
    assert nav(st).zones == {"bf109_1": "B5"}
    while st.current_player() != CHANCE:
        st.apply_action(st.legal_actions()[0])
    roll(st, *[1] * sum(v.dice for v in combat(st).volleys))
    do(st, "pass")
    do(st, "activate A5 air", "fly stavanger_harbour")
    assert "bf109_1" in combat(st).defenders


# ----- timing of airfields and Bodø (1.4, 3.2, 7.6) -----------------------------------------------------------
def test_the_turn_1_strategic_phase_re_bases_to_airfields_open_from_turn_2() -> None:
    """Denmark and Oslo are German airfields from turn 2 (1.4, 3.2): the turn 1 Strategic Phase prepares
    turn 2, so aircraft may re-base there then and strike from them in the turn 2 actions."""
    st = fresh(turn=1, counters={"he111_1": "B7"})
    assert airfield_limit(st, "B6", AXIS) == 0  # not during the turn 1 actions
    st.flow.enter(st, "fleet_moves")
    do(st, "pass")  # the Allies
    assert {m.to for m in fleet_move_options(st, AXIS)} >= {"B6", "oslo_airfield"}
    do(st, "move he111_1 oslo_airfield", "pass")
    assert nav(st).where["he111_1"] == "oslo_airfield" and st.turn == 2


def test_aircraft_that_arrive_keep_their_airfield_over_those_already_there() -> None:
    """C-1 holds one Allied aircraft (1.4): the Norway Hurricane arriving in turn 3 stays, the Blenheim
    parked there earlier re-bases home (assumption in `check_airfields`)."""
    st = fresh(turn=3, counters={"blenheim_1": "C1", "hurricane_2": OFFMAP})
    strategic_arrivals(st, [])
    check_airfields(st)
    assert nav(st).where["hurricane_2"] == "C1" and nav(st).where["blenheim_1"] == "A5"


def test_bodo_opens_before_the_strategic_moves_of_the_turn_it_is_won() -> None:
    """7.6, 11.21: the Germans hold all of South-Central Norway after the turn 2 battles; their aircraft
    may re-base to Bodø in that Strategic Phase, to fly from it in turn 3."""
    st = fresh(turn=2, counters={"he111_1": "B7"})
    for a in st.sc.areas.values():
        if a.map == "south-central":
            st.set_control(a.id, AXIS)
    st.flow.enter(st, "strategic_start")
    assert st.flags.bodo is True
    while st.step != "fleet_moves":
        st.apply_action(PASS if PASS in st.legal_actions() else st.legal_actions()[0])
    do(st, "pass")  # the Allies
    assert Move("he111_1", "bodo_airfield") in fleet_move_options(st, AXIS)


def test_an_evading_group_sunk_to_the_last_ship_has_no_move_left() -> None:
    st = position({"warship_4": "B5", "rodney": "B4", "valiant": "B4"}, player=AXIS)
    do(st, "activate B5 ships", "sail B4", "evade")
    roll(st, 6, 1, 1, 1)
    assert nav(st).where["warship_4"] == GONE
    assert st.step == "sa_choose" and nav(st).player == ALLIES


def test_a_special_bombing_mission_needs_an_enemy_held_port() -> None:
    """6.9: the mission closes an Allied supply port; a port the Germans hold is no target (assumption)."""
    st = position({"he111_1": "oslo_airfield", "ju88_1": "oslo_airfield"}, player=AXIS)
    do(st, "activate oslo_airfield air", "take he111_1", "take ju88_1")
    assert Order("bomb", "namsos_harbour") in st.legal_actions()
    st = position({"he111_1": "oslo_airfield", "ju88_1": "oslo_airfield"}, player=AXIS)
    st.set_control("D1", AXIS)
    do(st, "activate oslo_airfield air", "take he111_1", "take ju88_1")
    assert Order("bomb", "namsos_harbour") not in st.legal_actions()
    assert Order("bomb", "andalsnes_harbour") in st.legal_actions()
    with pytest.raises(IllegalActionError, match="only closes a port the enemy holds"):
        do(st, "bomb namsos_harbour")
