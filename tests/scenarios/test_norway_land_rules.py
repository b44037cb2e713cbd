"""Norway land-map rules on the draft campaign, with forced dice (digest 3, 4, 7, 9.3, 10, 11; EX-10 to EX-12).

Positions are built from the loaded scenario: only the named troops are in play, the named areas are German
and the rest Allied; a Strategic Game position (`st.navy`) is made up where a rule reads the ships.
"""

from __future__ import annotations

from collections.abc import Mapping

from warroom.core.dice import Roll
from warroom.rulesets.firestorm import FirestormState, new_game, norway
from warroom.rulesets.firestorm.actions import AIR, NAVAL, Arrow, Commit, Move, Pass, Place
from warroom.rulesets.firestorm.arrows import arrow_options
from warroom.rulesets.firestorm.battle import ATTACKER, Battle
from warroom.rulesets.firestorm.commitment import commit_options
from warroom.rulesets.firestorm.fleet import NavalState
from warroom.rulesets.firestorm.state import CAPTURED, GONE, WITHDRAWN
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"
SCN_GERMAN = {"D3", "D6", "D7", "D8", "D10"}
NAR_GERMAN = {"Y2", "Y3", "Y4", "Z3", "Z4", "Z5"}


def position(turn: int, units: Mapping[str, str], german: set[str], navy: Mapping[str, str] | None = None,
             mode: str = "gw", stukas: int = 3) -> FirestormState:
    """Turn `turn`, only `units` in play, `german` areas German (the rest Allied); with `navy`, a Strategic
    Game position holding only those counters; `stukas` Ju-87s lent to the land maps this turn."""
    st = new_game(load_scenario("norway"), {"mode": mode})
    for u in st.loc:
        st.loc[u] = GONE
    st.loc.update(units)
    for a in st.control:
        st.set_control(a, AXIS if a in german else ALLIES)
    st.navy = None  # without `navy`, no Strategic Game: every Allied port counts as under Allied control
    if navy is not None:
        st.navy = NavalState(st.sc)
        for c in st.navy.where:
            st.navy.where[c] = GONE
        st.navy.where.update(navy)
    st.turn = turn
    for side, air in st.sc.air.items():
        st.air_left[side] = air.sorties[turn - 1]
    st.air_left[AXIS] += stukas
    norway.refresh_fjords(st)
    return st


def attack(st: FirestormState, arrow: tuple[str, str], init: tuple[int, int] = (6, 1)) -> Battle:
    """Open one battle: the initiative dice, then the arrow."""
    st.battles_left = st.battles_total = 1
    st.flow.enter(st, "initiative")
    st.apply_action(Roll(init))
    st.apply_action(Arrow(*arrow))
    assert st.battle is not None
    return st.battle


def commits(st: FirestormState, attacking: bool) -> set[tuple[str, ...]]:
    return {c.units for c in commit_options(st, attacking)}


def fought(st: FirestormState, att: tuple[str, ...], dfn: tuple[str, ...], *rolls: tuple[int, ...]) -> Battle:
    """Commit both sides and roll the given dice in order (supply roll, GW dice, roll to destroy)."""
    st.apply_action(Commit(att))
    st.apply_action(Commit(dfn))
    b = st.battle
    assert b is not None
    for r in rolls:
        st.apply_action(Roll(r))
    return b


def finish(st: FirestormState) -> None:
    """Play out the open battle's decisions (retreats, advances) with the first legal action."""
    while st.battle is not None and st.current_player() in (ALLIES, AXIS):
        st.apply_action(st.legal_actions()[0])


def said(st: FirestormState, text: str) -> bool:
    return any(text in line for _, line in st.events)


# ----- Ofotfjord (digest 1.6, 6.11, 11.34) ---------------------------------------------------------------
def test_ofotfjord_follows_the_narvik_harbour_holder() -> None:
    st = position(2, {}, NAR_GERMAN)
    assert st.control["OFOT"] == AXIS, "no Strategic Game: Narvik Z3's holder holds the harbour"
    st = position(2, {}, NAR_GERMAN, navy={"destroyer_1": "narvik_harbour"})
    assert st.control["OFOT"] == ALLIES, "ships in port are enough at Narvik (6.11)"
    st = position(2, {}, NAR_GERMAN - {"Z3"}, navy={"warship_1": "narvik_harbour"})
    assert st.control["OFOT"] == AXIS
    st = position(2, {}, NAR_GERMAN - {"Z3"}, navy={})
    assert st.control["OFOT"] == ALLIES, "no ships in port: the holder of Z3 (assumption)"


def test_ofotfjord_is_crossed_by_its_holder_only_and_never_a_destination() -> None:
    units = {"gds_24": "Z1", "gj_narvik": "Z4"}
    allied = position(2, units, NAR_GERMAN, navy={"cruiser_1": "narvik_harbour"})
    allied.flow.enter(allied, "moves")
    moves = {m.to for m in allied.legal_actions() if isinstance(m, Move) and m.unit == "gds_24"}
    assert {"X1", "X4", "X5"} <= moves, "Ballangen reaches Harstad across the fjord"
    assert "OFOT" not in moves
    german = position(2, units, NAR_GERMAN)
    german.flow.enter(german, "moves")
    assert not [m for m in german.legal_actions() if isinstance(m, Move) and m.unit == "gds_24"]
    german_moves = {m.to for m in german.legal_actions() if isinstance(m, Move) and m.unit == "gj_narvik"}
    assert "Y3" in german_moves and "OFOT" not in german_moves, "the Germans cross from Z4 to Y3"
    assert "OFOT" not in german.pool_spots(AXIS) and "OFOT" not in german.pool_spots(ALLIES)


def test_ofotfjord_is_never_a_battle_area() -> None:
    st = position(2, {"gds_24": "X1", "gj_y3": "Y3"}, NAR_GERMAN)
    assert st.control["OFOT"] == AXIS
    arrows = arrow_options(st, ALLIES)
    assert Arrow("X1", "Y3") in arrows and all(a.to != "OFOT" for a in arrows)
    assert all("OFOT" not in (a.frm, a.to) for a in arrow_options(st, AXIS))


def test_supply_traces_cross_the_fjord_for_its_holder() -> None:
    german = NAR_GERMAN - {"Z3"}
    units = {"gds_24": "Z3", "gj_narvik": "Z4"}
    st = position(2, units, german)  # the Allies hold Z3, so the harbour
    b = attack(st, ("Z3", "Z4"))
    st.apply_action(Commit(("gds_24",)))
    st.apply_action(Commit(("gj_narvik",)))
    assert b.att_supplied, "Z3 traces across Ofotfjord to Ballangen"
    st = position(2, units, german, navy={"warship_1": "narvik_harbour"})
    b = attack(st, ("Z3", "Z4"))
    st.apply_action(Commit(("gds_24",)))
    st.apply_action(Commit(("gj_narvik",)))
    assert not b.att_supplied, "German ships in Narvik harbour close the fjord"


def test_no_retreat_into_the_fjord() -> None:
    # X1's only friendly neighbour is the fjord (the Allies hold the harbour): a beaten garrison is surrounded
    st = position(2, {"gds_24": "X1", "gj_y3": "Y3"}, NAR_GERMAN | {"X4"}, navy={"cruiser_1": "narvik_harbour"})
    assert st.control["OFOT"] == ALLIES
    b = attack(st, ("Y3", "X1"), init=(1, 6))
    fought(st, ("gj_y3",), ("gds_24",), (6,), (6, 1), (1,))
    assert b.winner == ATTACKER
    assert st.loc["gds_24"] == CAPTURED and st.loc["gds_24"] != "OFOT"


def test_caen_and_lorraine_have_no_pass_through_areas() -> None:
    for name in ("caen", "lorraine"):
        sc = load_scenario(name)
        assert sc.no_stop == frozenset()
        assert not any(sc.has(h) for h in ("ofotfjord", "evacuation", "naval_gunfire", "norway_air",
                                           "norway_turns", "norway_briefing"))


# ----- evacuation (digest 3.3, 10) -----------------------------------------------------------------------
def test_beaten_british_leave_andalsnes_by_sea_and_norwegians_retreat() -> None:
    st = position(2, {"terr_148": "D4", "nor_d5": "D4", "gj_trondheim": "D3"}, SCN_GERMAN)
    b = attack(st, ("D3", "D4"), init=(1, 6))
    fought(st, ("gj_trondheim",), ("nor_d5", "terr_148"), (6, 1), (1, 1))
    assert b.winner == ATTACKER
    assert st.loc["terr_148"] == WITHDRAWN and st.unit_vp[AXIS] == 0, "evacuated, no VP"
    assert st.step == "retreat" and b.retreating == ["nor_d5"], "the Norwegians retreat normally"
    assert said(st, "evacuated by sea")


def test_without_sea_control_the_british_are_captured() -> None:
    st = position(2, {"terr_148": "D4", "gj_trondheim": "D3"}, SCN_GERMAN,
                  navy={"warship_2": "andalsnes_harbour", "destroyer_1": "B3"})
    b = attack(st, ("D3", "D4"), init=(1, 6))
    fought(st, ("gj_trondheim",), ("terr_148",), (6, 1), (1,))
    assert b.winner == ATTACKER
    assert st.loc["terr_148"] == CAPTURED and st.unit_vp[AXIS] == 10


def test_no_evacuation_in_turn_4_or_away_from_the_ports() -> None:
    st = position(4, {"terr_148": "D4", "gj_trondheim": "D3"}, SCN_GERMAN)
    st.flags.closed_maps = ()
    b = attack(st, ("D3", "D4"), init=(1, 6))
    fought(st, ("gj_trondheim",), ("terr_148",), (6, 1), (1,))
    assert b.winner == ATTACKER and b.retreating == ["terr_148"], "turn 4: an ordinary retreat"
    st = position(2, {"terr_148": "E1", "gj_trondheim": "D3"}, SCN_GERMAN)
    b = attack(st, ("D3", "E1"), init=(1, 6))
    fought(st, ("gj_trondheim",), ("terr_148",), (6, 1), (1,))
    assert b.retreating == ["terr_148"]


# ----- naval gunfire support (digest 4, 7.1, 11.33) -------------------------------------------------------
def test_naval_gunfire_is_a_second_allied_troop_with_the_better_ship() -> None:
    units = {"nor_x5": "X5", "gj_y2": "Y2"}
    st = position(2, units, NAR_GERMAN, navy={"cruiser_1": "narvik_harbour", "destroyer_1": "narvik_harbour"})
    attack(st, ("X5", "Y2"))
    options = commits(st, True)
    assert ("nor_x5", NAVAL) in options
    assert (NAVAL,) not in options, "the first attacking troop must be a ground unit (7.1)"
    b = fought(st, ("nor_x5", NAVAL), ("gj_y2",), (4,), (3, 3))
    assert ("naval gunfire support", 3) in b.modifiers[ALLIES], "the cruiser, the better of the two"
    assert b.att_total == 3 + 1 + 3 and b.def_total == 3 + 2


def test_destroyer_gunfire_and_defence() -> None:
    st = position(2, {"nor_x5": "X5", "gj_y2": "Y2"}, NAR_GERMAN, navy={"destroyer_2": "narvik_harbour"})
    attack(st, ("Y2", "X5"), init=(1, 6))
    assert all(NAVAL not in c for c in commits(st, True)), "no German naval gunfire (11.33)"
    st.apply_action(Commit(("gj_y2",)))
    assert (NAVAL,) in commits(st, False) and ("nor_x5", NAVAL) in commits(st, False)
    st.apply_action(Commit(("nor_x5", NAVAL)))
    st.apply_action(Roll((6,)))
    st.apply_action(Roll((3, 3)))
    b = st.battle
    assert b is not None and ("naval gunfire support", 2) in b.modifiers[ALLIES]


def test_no_gunfire_without_ships_in_the_harbour_or_off_the_narvik_map() -> None:
    st = position(2, {"nor_x5": "X5", "gj_y2": "Y2"}, NAR_GERMAN, navy={"cruiser_1": "B1"})
    attack(st, ("X5", "Y2"))
    assert all(NAVAL not in c for c in commits(st, True))
    st = position(2, {"nor_x5": "X5", "gj_y2": "Y2"}, NAR_GERMAN)
    attack(st, ("X5", "Y2"))
    assert all(NAVAL not in c for c in commits(st, True)), "no Strategic Game: no ship is known in port"
    st = position(2, {"nor_e8": "E8", "inf_oslo": "D10"}, SCN_GERMAN, navy={"cruiser_1": "narvik_harbour"})
    attack(st, ("E8", "D10"))
    assert all(NAVAL not in c for c in commits(st, True))


# ----- air sorties on the land maps (digest 7.6, 7.7, 11.21, 11.27) ---------------------------------------
def test_stukas_fly_over_narvik_only_with_bodo() -> None:
    st = position(2, {"nor_e8": "E8", "inf_oslo": "D10"}, SCN_GERMAN)
    attack(st, ("D10", "E8"), init=(1, 6))
    assert ("inf_oslo", AIR) in commits(st, True) and (AIR,) not in commits(st, True)
    st = position(2, {"nor_x5": "X5", "gj_y2": "Y2"}, NAR_GERMAN)
    attack(st, ("Y2", "X5"), init=(1, 6))
    assert ("gj_y2", AIR) not in commits(st, True)
    st = position(2, {"nor_x5": "X5", "gj_y2": "Y2"}, NAR_GERMAN)
    st.flags.bodo = True
    attack(st, ("Y2", "X5"), init=(1, 6))
    assert ("gj_y2", AIR) in commits(st, True)


def test_bodo_opens_after_namsos_is_taken_and_traced_to_oslo() -> None:
    linked = SCN_GERMAN | {"D1", "D2", "E8"}
    st = position(2, {}, linked)
    norway.update_bodo(st)
    assert st.flags.bodo, "turn 2: Namsos German and linked to Oslo"
    st = position(2, {}, SCN_GERMAN | {"D1"})
    norway.update_bodo(st)
    assert not st.flags.bodo, "Namsos cut off from Oslo"
    st = position(1, {}, linked)
    norway.update_bodo(st)
    assert not st.flags.bodo, "the Namsos route is a turn 2-3 rule"
    everything = {a for a, area in st.sc.areas.items() if area.map == "south-central"}
    st = position(1, {}, everything)
    norway.update_bodo(st)
    assert st.flags.bodo, "the whole South-Central map is German"


def test_allied_air_intercepts_only_stukas() -> None:
    units = {"terr_146": "D2", "gj_trondheim": "D3"}
    st = position(2, units, SCN_GERMAN)
    attack(st, ("D2", "D3"))
    assert ("terr_146", AIR) in commits(st, True), "the Gladiator in turn 2 over the South-Central map"
    b = fought(st, ("terr_146", AIR), ("gj_trondheim", AIR), (3, 3))
    assert ("RAF sporadic air support sortie", 1) in b.modifiers[ALLIES]
    st = position(2, units, SCN_GERMAN)
    attack(st, ("D2", "D3"))
    b = fought(st, ("terr_146", AIR), ("gj_trondheim",), (3, 3))
    assert ("RAF sporadic air support sortie", 0) in b.modifiers[ALLIES], "no Stuka to intercept"
    st = position(3, units, SCN_GERMAN)
    attack(st, ("D2", "D3"))
    assert ("terr_146", AIR) not in commits(st, True), "the Gladiator flies in turn 2 only"


def test_the_gladiator_needs_mauriceforce_ashore() -> None:
    st = position(2, {"terr_148": "E8", "gj_trondheim": "D3"}, SCN_GERMAN)
    st.loc["terr_146"] = "offmap"
    st.loc["alpins_5"] = "offmap"
    attack(st, ("E8", "D3"))
    assert ("terr_148", AIR) not in commits(st, True)


def test_hurricane_over_narvik_in_turn_4_while_at_c1() -> None:
    units = {"gds_24": "X5", "gj_y2": "Y2"}
    st = position(4, units, NAR_GERMAN, navy={"hurricane_2": "C1"})
    attack(st, ("X5", "Y2"))
    assert ("gds_24", AIR) in commits(st, True)
    st = position(4, units, NAR_GERMAN, navy={"hurricane_2": "A5"})
    attack(st, ("X5", "Y2"))
    assert ("gds_24", AIR) not in commits(st, True), "the Hurricane is not at C1"
    st = position(4, units, NAR_GERMAN)
    attack(st, ("X5", "Y2"))
    assert ("gds_24", AIR) in commits(st, True), "no Strategic Game: at C1 from its arrival turn"


# ----- turn specials and bonus VP (digest 3.2-3.5, 9.3) ----------------------------------------------------
def win(st: FirestormState, arrow: tuple[str, str], att: str, dfn: str, attacker: str) -> Battle:
    init = (6, 1) if attacker == ALLIES else (1, 6)
    attack(st, arrow, init=init)
    b = fought(st, (att,), (dfn,), (6, 1), (1,))
    assert b.winner == ATTACKER
    finish(st)
    return b


def test_trondheim_pays_the_allies_once_per_campaign() -> None:
    st = position(2, {"gds_24": "E8", "gj_trondheim": "D3"}, SCN_GERMAN)
    win(st, ("E8", "D3"), "gds_24", "gj_trondheim", ALLIES)
    assert st.bonus_vp[ALLIES] == 50 and said(st, "Allies capture D3 Trondheim")
    st.turn = 3
    st.set_control("D3", AXIS)
    st.loc.update({"gds_24": "E8", "gj_trondheim": "D3"})
    attack(st, ("E8", "D3"))
    assert fought(st, ("gds_24",), ("gj_trondheim",), (6, 1), (1,)).winner == ATTACKER
    assert st.control["D3"] == ALLIES and st.bonus_vp[ALLIES] == 50, "once per campaign (11.25)"


def test_german_port_captures_pay_50_then_25_unless_paid() -> None:
    st = position(2, {"terr_148": "D4", "gj_trondheim": "D3"}, SCN_GERMAN)
    win(st, ("D3", "D4"), "gj_trondheim", "terr_148", AXIS)
    assert st.bonus_vp[AXIS] == 50
    st = position(3, {"terr_148": "D4", "gj_trondheim": "D3", "terr_146": "D1", "gj_oslo": "D2"},
                  SCN_GERMAN | {"D2"})
    st.flags.bonus_paid = {"andalsnes": (AXIS, 50)}
    st.battles_left = st.battles_total = 2
    st.flow.enter(st, "initiative")
    st.apply_action(Roll((1, 6)))
    st.apply_action(Arrow("D3", "D4"))
    fought(st, ("gj_trondheim",), ("terr_148",), (6, 1), (1,))
    assert st.bonus_vp[AXIS] == 0, "Åndalsnes was paid in turn 2"
    finish(st)
    assert st.step == "initiative"
    st.apply_action(Roll((1, 6)))
    st.apply_action(Arrow("D2", "D1"))
    fought(st, ("gj_oslo",), ("terr_146",), (6, 1), (1,))
    assert st.bonus_vp[AXIS] == 25, "Namsos in turn 3: +25"


def closure(german: set[str]) -> FirestormState:
    """End of the turn 3 battles: one battle that nobody can fight, then the closure."""
    units = {"terr_146": "E8", "nor_e7": "E7", "gds_24": "X1", "inf_oslo": "D10"}
    st = position(3, units, german)
    st.battles_left = st.battles_total = 0
    st.flow.enter(st, "strategic_start")
    return st


def test_turn_3_germans_hold_both_ports() -> None:
    st = closure(SCN_GERMAN | {"D1", "D4"})
    assert st.loc["terr_146"] == CAPTURED and st.unit_vp[AXIS] == 10, "British left on SCN are captured"
    assert st.loc["nor_e7"] == WITHDRAWN, "Norwegians disband, no VP"
    assert st.loc["gds_24"] == "X1", "the Narvik map is not touched"
    assert st.bonus_vp[ALLIES] == 0 and st.flags.closed_maps == ("south-central",)
    st.turn = 4
    st.loc["gj_trondheim"] = "D3"
    assert all(st.sc.areas[a.to].map == "narvik" for s in (ALLIES, AXIS) for a in arrow_options(st, s))


def test_turn_3_germans_fail_to_take_both_ports() -> None:
    st = closure(SCN_GERMAN | {"D1", "E8", "D2"})
    assert st.bonus_vp[ALLIES] == 100
    assert st.loc["terr_146"] == WITHDRAWN and st.loc["nor_e7"] == WITHDRAWN and st.unit_vp[AXIS] == 0
    assert st.flags.closed_maps == ("south-central",)
    while st.step != "turn_start" and st.turn == 3:
        st.apply_action(Pass())
    assert st.turn == 4 and not st.flags.bodo, "Bodø is barred in turn 4 even with Namsos traced to Oslo"


def test_turn_4_end_bonuses_and_wrapup_by_sea() -> None:
    st = position(4, {"gds_24": "Z3", "pol_highland": "X1", "nor_x4": "X4"}, NAR_GERMAN - {"Z3"},
                  navy={"destroyer_1": "B1"})
    st.flow.enter(st, "turn_end")
    assert st.bonus_vp[ALLIES] == 25 and st.bonus_vp[AXIS] == 0, "no German troop on the Narvik map"
    assert st.loc["gds_24"] == WITHDRAWN and st.loc["pol_highland"] == WITHDRAWN
    assert st.loc["nor_x4"] == "X4", "Norwegians stay"
    assert st.is_terminal()


def test_turn_4_germans_hold_narvik_and_the_allies_are_trapped() -> None:
    st = position(4, {"gds_24": "X1", "gj_narvik": "Z3"}, NAR_GERMAN, navy={"warship_1": "narvik_harbour",
                                                                            "destroyer_1": "B1"})
    st.flow.enter(st, "turn_end")
    assert st.bonus_vp == {ALLIES: 0, AXIS: 50}
    assert st.loc["gds_24"] == CAPTURED and st.unit_vp[AXIS] == 10
    assert sum(vp for side, vp in st.flags.bonus_paid.values() if side == AXIS) == 50


# ----- briefing and the digest's worked examples ------------------------------------------------------------
def test_briefing_lists_troops_warriors_winter_and_force() -> None:
    st = position(2, {"gds_24": "X5", "gj_y2": "Y2"}, NAR_GERMAN, navy={"cruiser_1": "narvik_harbour"},
                  mode="tabletop")
    attack(st, ("X5", "Y2"))
    fought(st, ("gds_24", NAVAL), ("gj_y2",), (5,))
    assert st.step == "report"
    b = st.battle
    assert b is not None
    text = "\n".join(b.notes)
    assert "24 Guards Brigade (Confident Veteran, Guards rifle platoon" in text and "150 pts" in text
    assert "Cruiser naval gunfire" in text and "Cruiser Sqn 1" in text
    assert "Eduard Dietl (+60 pts)" in text and "Monclar" in text and "Hannevig" not in text
    assert "Winter" in text and "mountains" in text
    assert "Allies force: 1000-1250 pts before Firestorm Troops" in text


def test_ex10_strength_reduced_drops_1250_to_1000() -> None:
    st = position(3, {"gj_y2": "Y2", "nor_x5": "X5"}, NAR_GERMAN, mode="tabletop")
    attack(st, ("Y2", "X5"), init=(1, 6))
    fought(st, ("gj_y2",), ("nor_x5",), (2,), (3,))
    b = st.battle
    assert b is not None and not b.att_supplied and b.supply_faces == {AXIS: 3}
    text = "\n".join(b.notes)
    assert "strength reduced" in text and "a 1250-pt force fights with 1000 pts" in text


def test_ex11_d3_battles() -> None:
    for turn, face, total in ((2, 4, 7), (4, 6, 5)):
        st = position(turn, {}, SCN_GERMAN | NAR_GERMAN)
        st.flow.enter(st, "battles")
        assert st.dice_needed() == 1
        st.apply_action(Roll((face,)))
        assert st.battles_total == total, (turn, face)


def test_ex12_narvik_supply_roll_fails_in_turn_3() -> None:
    st = position(3, {"gj_y2": "Y2", "nor_x5": "X5"}, NAR_GERMAN)
    attack(st, ("Y2", "X5"), init=(1, 6))
    b = fought(st, ("gj_y2",), ("nor_x5",), (2,), (5, 3))
    assert not b.att_supplied
    assert ("out of supply", -2) in b.modifiers[AXIS]
    assert b.att_total == 5 + 2 - 2 and b.def_total == 3 + 1


def test_dombas_drop_takes_an_empty_area_or_lands_next_door() -> None:
    """Turn 1: the Fallschirmjäger drop on Dombås E-1 takes it unless Allied troops hold it (assumption 11.10)."""
    st = position(1, {"inf_oslo": "D10", "fj_dombas": "offmap"}, SCN_GERMAN)
    st.flow.enter(st, "strategic_start")
    assert st.control["E1"] == AXIS
    assert {p.area for p in st.legal_actions() if isinstance(p, Place) and p.unit == "fj_dombas"} == {"E1"}
    held = position(1, {"inf_oslo": "D10", "nor_e8": "E1", "gj_trondheim": "D3", "fj_dombas": "offmap"}, SCN_GERMAN)
    held.flow.enter(held, "strategic_start")
    assert held.control["E1"] == ALLIES
    spots = {p.area for p in held.legal_actions() if isinstance(p, Place) and p.unit == "fj_dombas"}
    assert spots and all(held.control[a] == AXIS and a in held.sc.adjacency["E1"] for a in spots)
