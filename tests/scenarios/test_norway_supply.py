"""Norway supply (digest 7.2) on the draft campaign: Norwegians, the Allied ports, Oslo and the
German supply roll at Narvik."""

from __future__ import annotations

from collections.abc import Mapping

from warroom.core.dice import Roll
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import Arrow, Commit
from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.state import GONE
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"


OPEN_LANES = {"cruiser_1": "B1", "cruiser_2": "B2", "cruiser_3": "B3"}
"""Allied ships holding the sea lanes of Narvik, Namsos and Åndalsnes (digest 6.10)."""


def battle(turn: int, units: Mapping[str, str], german: set[str], arrow: tuple[str, str],
           att: tuple[str, ...], dfn: tuple[str, ...], init: tuple[int, int],
           ships: Mapping[str, str] = OPEN_LANES, bombed: tuple[str, ...] = ()) -> FirestormState:
    """A Norway position: only `units` and `ships` in play, `german` areas German (the rest Allied), one
    battle; `bombed` harbours were hit by special bombing missions this turn."""
    st = new_game(load_scenario("norway"))
    for u in st.loc:
        st.loc[u] = GONE
    st.loc.update(units)
    assert st.navy is not None
    for c in st.navy.where:
        st.navy.where[c] = GONE
    st.navy.where.update(ships)
    st.navy.closed_harbours.update(bombed)
    for a in st.control:
        st.set_control(a, AXIS if a in german else ALLIES)
    st.turn = turn
    st.battles_left = st.battles_total = 1
    st.flow.enter(st, "initiative")
    st.apply_action(Roll(init))
    st.apply_action(Arrow(*arrow))
    st.apply_action(Commit(att))
    st.apply_action(Commit(dfn))
    return st


def open_battle(st: FirestormState) -> Battle:
    assert st.battle is not None
    return st.battle


SCN_GERMAN = {"D3", "D6", "D7", "D8", "D10"}


def test_norwegians_alone_are_always_in_supply() -> None:
    # D9 is cut off from Namsos and Åndalsnes: every way out runs through German areas
    german = SCN_GERMAN | {"E6"}
    st = battle(4, {"nor_d9": "D9", "inf_oslo": "D10"}, german, ("D9", "D10"), ("nor_d9",), ("inf_oslo",),
                (6, 1))
    assert open_battle(st).att_supplied, "Norwegian troops fighting alone are always in supply"


def test_norwegians_with_british_trace_to_the_ports() -> None:
    german = SCN_GERMAN | {"E6"}
    st = battle(4, {"nor_d9": "D9", "terr_146": "D9", "inf_oslo": "D10"}, german, ("D9", "D10"),
                ("nor_d9", "terr_146"), ("inf_oslo",), (6, 1))
    assert not open_battle(st).att_supplied, "with British troops the side must trace to Namsos or Åndalsnes"
    linked = battle(4, {"nor_e8": "E8", "terr_146": "E8", "inf_oslo": "D10"}, SCN_GERMAN, ("E8", "D10"),
                    ("nor_e8", "terr_146"), ("inf_oslo",), (6, 1))
    assert open_battle(linked).att_supplied, "E8 traces through Allied areas to Åndalsnes"


def test_allied_ports_need_sea_lane_control_and_no_bombing() -> None:
    """Digest 6.9, 6.10, 7.2: a port feeds Allied troops only with sea-lane control and no bombing hit."""
    args: tuple[int, dict[str, str], set[str], tuple[str, str], tuple[str, ...], tuple[str, ...], tuple[int, int]]
    args = (4, {"nor_e8": "E8", "terr_146": "E8", "inf_oslo": "D10"}, SCN_GERMAN, ("E8", "D10"),
            ("nor_e8", "terr_146"), ("inf_oslo",), (6, 1))
    assert open_battle(battle(*args)).att_supplied
    contested = {**OPEN_LANES, "hipper": "B3"}  # a German ship in Åndalsnes's sea area
    assert not open_battle(battle(*args, ships=contested)).att_supplied
    assert not open_battle(battle(*args, bombed=("andalsnes_harbour",))).att_supplied
    via_namsos = {**OPEN_LANES, "hipper": "B3"}
    st = battle(4, {"terr_146": "D2", "inf_oslo": "D3"}, {"D3"}, ("D2", "D3"), ("terr_146",), ("inf_oslo",),
                (6, 1), ships=via_namsos)
    assert open_battle(st).att_supplied, "Namsos still feeds D-2 while Åndalsnes is cut"


def test_germans_defending_in_the_south_are_always_in_supply() -> None:
    cut_off = {"D3"}  # Trondheim alone, with no German way to Oslo
    st = battle(4, {"gj_trondheim": "D3", "nor_e8": "E8"}, cut_off, ("E8", "D3"), ("nor_e8",),
                ("gj_trondheim",), (6, 1))
    assert open_battle(st).def_supplied


def test_germans_attacking_in_the_south_trace_to_oslo() -> None:
    cut_off = {"D3"}
    st = battle(2, {"gj_trondheim": "D3", "nor_e8": "E8"}, cut_off, ("D3", "E8"), ("gj_trondheim",),
                ("nor_e8",), (1, 6))
    assert not open_battle(st).att_supplied, "Trondheim cannot trace to Oslo"
    linked = battle(2, {"inf_oslo": "D10", "nor_e8": "E8"}, SCN_GERMAN, ("D10", "E8"), ("inf_oslo",),
                    ("nor_e8",), (1, 6))
    assert open_battle(linked).att_supplied


NAR_GERMAN = {"Y2", "Y3", "Y4", "Z3", "Z4", "Z5", "OFOT"} | SCN_GERMAN


def test_narvik_german_supply_is_automatic_in_turn_1() -> None:
    st = battle(1, {"gj_y2": "Y2", "nor_x5": "X5"}, NAR_GERMAN, ("Y2", "X5"), ("gj_y2",), ("nor_x5",), (1, 1))
    assert st.step == "gw_roll" and open_battle(st).att_supplied


def test_narvik_german_supply_roll_by_turn() -> None:
    for turn, face, ok in ((2, 1, False), (2, 2, True), (3, 2, False), (3, 3, True), (4, 3, False), (4, 4, True)):
        st = battle(turn, {"gj_y2": "Y2", "nor_x5": "X5"}, NAR_GERMAN, ("X5", "Y2"), ("nor_x5",), ("gj_y2",),
                    (6, 1))
        assert st.step == "supply_roll" and st.dice_needed() == 1
        st.apply_action(Roll((face,)))
        assert open_battle(st).def_supplied is ok, (turn, face)
        assert any(f"German supply at Narvik: [{face}] needs {turn}+" in text for _, text in st.events)
