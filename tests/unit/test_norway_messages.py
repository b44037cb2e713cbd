"""The Strategic Game through the state API (Norway digest sections 1.3-1.4, 5-6, 7.6-7.7): every illegal
order is refused with a message naming the rule, and `view(side)` shows the Strategic Map without the
other side's unrolled dice allocation."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.rulesets.firestorm import FirestormState
from warroom.rulesets.firestorm.actions import Move
from warroom.rulesets.firestorm.positions import apply_orders as do
from warroom.rulesets.firestorm.positions import strategic_position
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"


def position(counters: Mapping[str, str], player: str = ALLIES, turn: int = 2) -> FirestormState:
    """Strategic Actions of `turn` with only `counters` on the map, `player` to act."""
    return strategic_position(load_scenario("norway"), counters, player, turn)


def refusal(st: FirestormState, text: str) -> str:
    """The message for an illegal action typed as `text`; the position is left as it was."""
    before = [e.action for e in st.log]
    with pytest.raises(IllegalActionError) as info:
        st.apply_action(st.parse_action(text))
    assert [e.action for e in st.log] == before
    message = str(info.value)
    assert message.startswith(f"illegal action {text!r} in step '{st.step}'"), message
    return message.split("): ", 1)[1]


def fleet() -> FirestormState:
    """An Allied group of ships that has set off from A1 (EX-1)."""
    st = position({"warspite": "A1", "destroyer_1": "A1", "warship_1": "narvik_harbour"})
    do(st, "activate A1 ships", "take warspite", "launch")
    assert st.step == "sa_move"
    return st


# ----------------------------------------------------------------- forming a group (6.1)


def test_unknown_and_enemy_counters_are_named() -> None:
    st = position({"rodney": "B4", "valiant": "B4", "gneisenau": "B2"})
    do(st, "activate B4 ships")
    assert refusal(st, "take nelson").startswith("unknown counter 'nelson' (counters are named by id, e.g. ")
    assert refusal(st, "take gneisenau") == ("Gneisenau (gneisenau) belongs to the Germans: you command only "
                                             "your own counters")
    assert refusal(st, "take inf_1").startswith("unknown counter 'inf_1'")


def test_the_group_is_fixed_once_it_has_set_off() -> None:
    st = fleet()
    assert refusal(st, "take destroyer_1") == ("the group is formed: units cannot join or leave once it has set "
                                               "off (digest 6.1)")
    assert refusal(st, "launch") == refusal(st, "take destroyer_1")


def test_take_names_where_the_unit_is_and_what_may_join() -> None:
    st = position({"rodney": "B4", "valiant": "B4", "warspite": "A1", "submarine_1": "B4"})
    do(st, "activate B4 ships")
    assert refusal(st, "take warspite").startswith("HMS Warspite is at A1 Norwegian Sea (north): a group forms "
                                                   "from one area")
    assert "may still join: rodney, valiant" in refusal(st, "take warspite")
    assert refusal(st, "take submarine_1") == ("Submarine Flot 1 is a submarine: this group is surface ships "
                                               "(one kind of unit per activation, 6.1)")
    assert refusal(st, "launch") == "take at least one unit into the group before it sets off (6.1)"
    assert refusal(st, "sail B3") == "the group has not set off yet: take units (take COUNTER), then launch (6.1)"


def test_activation_names_the_problem() -> None:
    st = position({"rodney": "bergen_harbour", "submarine_1": "B4", "hurricane_1": "A5"})
    assert refusal(st, "activate bergen_harbour ships") == ("ships in Bergen (bergen_harbour) activate through "
                                                            "its sea area: 'activate B4 ships' (6.1)")
    assert refusal(st, "activate B2 subs") == ("you have no un-activated subs at B2 Helgeland coast (off Namsos); "
                                               "yours can act from: B4")
    assert refusal(st, "activate A5 air") == "an air action needs a bomber: fighters only escort or defend (6.6)"
    assert refusal(st, "activate D1 ships") == "D1 (Namsos) is a land-map area, not a Strategic Map location"


def test_an_activated_unit_cannot_act_again() -> None:
    st = position({"rodney": "B4", "gneisenau": "B2"})
    do(st, "activate B4 ships", "halt", "pass")
    assert st.step == "sa_choose" and st.current_player() == ALLIES
    assert refusal(st, "activate B4 ships").startswith("every one of your ships at B4 Northern North Sea (off "
                                                       "Bergen) has already been activated this turn")


# ----------------------------------------------------------------- moving (1.3, 6.2)


def test_sailing_names_the_map_rule() -> None:
    st = fleet()
    assert refusal(st, "sail B3") == ("B3 Møre coast (off Åndalsnes) is not next to A1 Norwegian Sea (north); "
                                      "from there ships may go to: A2, B1, B2")
    assert refusal(st, "sail narvik_harbour") == ("Narvik (narvik_harbour) opens only on sea area B1: ships enter "
                                                  "it from there (1.3)")
    assert refusal(st, "sail C1") == ("C1 Northern Norway (Bardufoss) is land: ships move only by sea and into "
                                      "harbours (1.2)")
    assert refusal(st, "dive B1").startswith("'dive' is an order for submarines; this group is surface ships")
    do(st, "sail B1")
    assert refusal(st, "sail A1") == ("the group has already been in A1 Norwegian Sea (north) during this action: "
                                      "a place is entered once")


def test_no_ship_enters_the_enemy_home_port() -> None:
    st = position({"submarine_2": "C6", "cruiser_1": "C6"})
    do(st, "activate C6 ships")
    assert refusal(st, "sail kiel") == "Kiel (kiel) is a home port of the Germans: only their ships may enter it (1.3)"


def test_unknown_location_is_refused_by_the_parser() -> None:
    st = fleet()
    with pytest.raises(UnknownNameError, match="unknown location 'Q9': 'sail' takes a Strategic Map location"):
        st.parse_action("sail Q9")


def test_submarines_move_once_and_never_into_a_home_port() -> None:
    st = position({"submarine_2": "C6"})
    do(st, "activate C6 subs")
    assert refusal(st, "dive kiel") == ("Kiel (kiel) is a home port: submarines never enter one, nor attack ships "
                                        "there (6.8)")
    assert refusal(st, "attack") == "there are no enemy surface ships at C6 Skagerrak and Kattegat to attack (6.8)"
    do(st, "dive B5")
    assert refusal(st, "dive B4") == "the submarines have already moved in this action: they move one area (6.2)"


# ----------------------------------------------------------------- aircraft (6.6, 6.9)


def test_air_strikes_need_a_bomber_a_target_and_range() -> None:
    ships = {"gneisenau": "B4", "hipper": "C6"}
    st = position({"skua_1": "A5", "hurricane_1": "A5", **ships})
    do(st, "activate A5 air", "take skua_1", "take hurricane_1")
    assert refusal(st, "fly C6") == ("C6 Skagerrak and Kattegat is 3 areas from A5 United Kingdom, beyond the "
                                     "group's range of 2 (6.2, 6.6)")
    assert refusal(st, "fly B1") == ("there are no enemy surface ships at B1 Vestfjord and Lofoten waters to "
                                     "strike (6.6)")
    assert refusal(st, "bomb namsos_harbour") == ("only the Germans fly special bombing missions (6.9); the Allies "
                                                  "cannot")
    st = position({"skua_1": "A5", "hurricane_1": "A5", **ships})
    do(st, "activate A5 air", "take hurricane_1", "launch")
    assert refusal(st, "fly B4") == "no bomber in the group: fighters only escort (6.6)"


def test_bombing_only_the_mission_harbours() -> None:
    st = position({"he111_1": "trondheim_airfield", "rodney": "B3"}, player=AXIS)
    do(st, "activate trondheim_airfield air")
    assert refusal(st, "bomb bergen_harbour") == ("Bergen (bergen_harbour) is not a special bombing target (6.9); "
                                                  "targets: Namsos (namsos_harbour), Åndalsnes (andalsnes_harbour)")


def test_only_ju87s_fly_land_sorties() -> None:
    st = position({"ju87_1": "B7", "he111_1": "B7"}, player=AXIS)
    assert st.step == "sa_stuka"
    assert refusal(st, "sortie he111_1") == "only Ju-87s may fly air support for the land battles (7.7); He 111 1 " \
                                            "is a bomber"
    assert refusal(st, "sortie ju88_9").startswith("unknown counter 'ju88_9'")


# ----------------------------------------------------------------- fights and retreats (6.3-6.5)


def surface_fight() -> FirestormState:
    """EX-1: HMS Warspite and a Destroyer Flot meet Warship Group 1 in Narvik harbour."""
    st = position({"warspite": "A1", "destroyer_1": "A1", "warship_1": "narvik_harbour"})
    do(st, "activate A1 ships", "take warspite", "take destroyer_1", "sail B1", "sail narvik_harbour", "fight")
    assert st.step == "nv_alloc" and st.current_player() == AXIS
    return st


def test_allocation_names_dice_left_and_targets() -> None:
    st = surface_fight()
    assert refusal(st, "allocate warspite 5") == "only 3 of the volley's 3 dice are left to allocate, not 5"
    assert refusal(st, "allocate rodney 1") == ("HMS Rodney is not a target in this fight (6.3); this volley's "
                                                "targets: warspite (HMS Warspite), destroyer_1 (Destroyer Flot 1)")
    assert refusal(st, "allocate nelson 1").startswith("unknown counter 'nelson'")
    assert refusal(st, "pass") == "every die must be allocated: only submarines may hold their fire (6.3, 6.8)"
    assert refusal(st, "sail B1").startswith("a fight is under way at Narvik (narvik_harbour)")
    with pytest.raises(IllegalActionError, match="the number of dice must be a whole number, got 'x'"):
        st.parse_action("allocate warspite x")


def test_the_other_sides_allocation_is_hidden_until_the_roll() -> None:
    st = surface_fight()
    assert "seed" not in json.dumps(st.view(AXIS))
    allied, german, spectator = (st.view(s)["strategic"]["combat"]["volleys"] for s in (ALLIES, AXIS, None))
    assert allied[0]["alloc"] == {"warship_1": 6} and allied[0]["hidden"] is False
    assert german[0]["hidden"] is True and "alloc" not in german[0] and "left" not in german[0]
    assert all(v["hidden"] for v in spectator)
    do(st, "allocate warspite 3")
    st.apply_action(Roll((1, 1, 1, 1, 1, 1, 6, 1, 1)))  # one hit on HMS Warspite: its re-roll is due
    assert st.step == "nv_bship"
    for side in (ALLIES, AXIS, None):
        c = st.view(side)["strategic"]["combat"]
        assert c["rolled"] is True
        assert [v["alloc"] for v in c["volleys"]] == [{"warship_1": 6}, {"warspite": 3}]
        assert [v["faces"] for v in c["volleys"]] == [[1] * 6, [6, 1, 1]]


def test_retreats_never_go_back_nor_into_enemy_home_ports() -> None:
    st = position({"rodney": "A2", "valiant": "A2", "hipper": "A3"})
    do(st, "activate A2 ships", "take rodney", "take valiant", "sail A3", "evade")  # 4 dice, all at Admiral Hipper
    st.apply_action(Roll((1, 1, 1, 1)))
    assert st.step == "nv_retreat" and st.current_player() == AXIS
    assert refusal(st, "withdraw scapa_flow") == ("Scapa Flow (scapa_flow) is a home port of the Allies: a retreat "
                                                  "may not enter it (1.3, 6.4)")
    assert refusal(st, "withdraw B2").startswith("B2 Helgeland coast (off Namsos) is not next to A3")
    st = position({"rodney": "B3", "valiant": "B3", "renown": "A1", "gneisenau": "B2", "scharnhorst": "B2"})
    do(st, "activate B3 ships", "take rodney", "take valiant", "sail B2", "evade", "allocate gneisenau 4")
    st.apply_action(Roll((1, 1, 1, 1)))
    do(st, "withdraw A1", "allocate gneisenau 2")  # past HMS Renown: half its dice, then the retreat goes on
    st.apply_action(Roll((1, 1)))
    assert st.step == "nv_retreat"
    assert refusal(st, "withdraw B2").startswith("the retreating ships have already been in B2 Helgeland coast "
                                                 "(off Namsos): a retreat never goes back (6.4); open: ")


def test_wrong_moment_and_generic_messages_list_legal_orders() -> None:
    st = position({"rodney": "B3", "gneisenau": "B2"})
    assert refusal(st, "withdraw B2") == ("no ships are retreating (6.4); now: activate LOCATION ships|subs|air "
                                          "or pass")
    assert refusal(st, "move rodney A1").startswith("counters make their strategic moves in the Strategic Phase")
    do(st, "activate B3 ships", "sail B2")
    assert st.step == "nv_evade"
    assert refusal(st, "pass") == "passing is not possible now (fight or evade); legal now: fight, evade"


# ----------------------------------------------------------------- strategic moves (6.12, 7.6)


def fleet_moves(counters: Mapping[str, str], mover: str = ALLIES, turn: int = 2) -> FirestormState:
    st = position(counters, turn=turn)
    st.flow.enter(st, "fleet_moves")
    st.idx = st.sc.rules.move_order.index(mover)
    assert st.current_player() == mover
    return st


def test_strategic_moves_never_pass_enemy_ships() -> None:
    st = fleet_moves({"rodney": "A3", "gneisenau": "B4", "uboat_1": "B3"})
    assert refusal(st, "move rodney B4") == ("enemy surface ships are at B4 Northern North Sea (off Bergen): ships "
                                             "never move into or through them (6.12)")
    assert refusal(st, "move rodney bergen_harbour") == ("every sea route from A3 Orkney and Shetland waters to "
                                                         "Bergen (bergen_harbour) passes enemy surface ships (6.12)")
    assert refusal(st, "move gneisenau B3") == ("Gneisenau (gneisenau) belongs to the Germans: you command only "
                                                "your own counters")
    assert refusal(st, "move rodney kiel") == ("Kiel (kiel) is a home port of the Germans: only their ships may "
                                               "enter it (1.3)")
    st.apply_action(Move("rodney", "A1"))
    assert refusal(st, "move rodney A2") == "HMS Rodney has already made its strategic move this turn (6.12)"


def test_aircraft_rebase_only_to_usable_airfields_with_room() -> None:
    full = {f"{t}_{i}": "oslo_airfield" for t, i in (("he111", 1), ("he111", 2), ("ju88", 1), ("ju88", 2))}
    st = fleet_moves({**full, "bf109_1": "B7"}, mover=AXIS)
    assert refusal(st, "move bf109_1 oslo_airfield") == ("Oslo airfield (Fornebu) (oslo_airfield) already holds its "
                                                         "limit of 4 aircraft (1.4, 7.6)")
    assert refusal(st, "move bf109_1 bodo_airfield").startswith("Bodø airfield (bodo_airfield) is not usable by "
                                                                "your side now")
    assert refusal(st, "move bf109_1 A5") == "A5 United Kingdom is an airfield of the Allies (1.4)"
    assert refusal(st, "move bf109_1 B3") == ("B3 Møre coast (off Åndalsnes) is not an airfield: aircraft re-base "
                                              "only to airfields (6.12)")


def test_old_wordings_mended_in_issue_13_say_what_is_meant() -> None:
    st = position({"rodney": "B3", "gneisenau": "B2", "submarine_1": "B3"})
    assert refusal(st, "aim rodney subs").startswith("counters aim only when ships that entered an area with enemy "
                                                     "submarines and surface ships have been fired on")
    do(st, "activate B3 subs")
    assert st.step == "sa_move"
    assert refusal(st, "dive B3") == "the submarines are already in B3 Møre coast (off Åndalsnes)"
