"""Narvik's edge cases: places no unit may end in, who owns a place both sides start in, moving twice, retreats
with nowhere to go, reinforcements whose place is lost, the charts' own checks and the refusals' words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from narvik_support import act, air, folder, game, roll, to_allied_turn, unit

from warroom.core.errors import IllegalActionError, ScenarioError
from warroom.rulesets.narvik import load, new_game
from warroom.rulesets.narvik.actions import Rail
from warroom.rulesets.narvik.hexes import distance
from warroom.rulesets.narvik.movement import enemy_blocks
from warroom.rulesets.narvik.scenario import DATA


def test_no_rail_move_ends_off_norwegian_land() -> None:
    st = new_game()
    m = st.sc.map
    rails = [a for a in st.legal_actions() if isinstance(a, Rail)]
    assert rails and all(m.is_land(a.to) for a in rails)
    with pytest.raises(IllegalActionError):
        st.apply_action(Rail("ger_138_1", "1830"))


def test_a_place_both_sides_start_in_stays_norways() -> None:
    st = new_game()
    narvik = st.sc.map.place_hex("Narvik")
    assert {st.types[u].side for u in st.units_in(narvik)} == {"german", "allied"}
    assert st.view(None)["owners"][narvik] == "allied"


@pytest.mark.parametrize("name", ["g", "zg"])
def test_who_owns_a_shared_place_does_not_depend_on_unit_ids(tmp_path: Path, name: str) -> None:
    st = game(tmp_path, [unit(name, setup="Elverum"), unit("n0", side="allied", setup="Elverum")])
    assert st.view(None)["owners"]["0604"] == "allied"


def test_a_unit_that_moved_is_not_flown_again(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("para", kind="parachute", setup="Oslo"), unit("n", side="allied", setup="Bergen")],
              german=("Oslo", "Sola"), airs=[air("ju52", kind="transport", base="Sola")])
    act(st, "move para 0303")
    act(st, "end")
    assert st.step in ("air", "combat", "exploit") and not any(
        a.to_str().startswith("fly ju52 carry") for a in st.legal_actions())


def test_a_defender_with_nowhere_to_go_is_not_offered_a_withdrawal(tmp_path: Path) -> None:
    ring = [unit(f"g{i}", setup=p) for i, p in enumerate(("Stavanger", "Åndalsnes", "Sola"))]
    st = game(tmp_path, [*ring, unit("att", attack=1, setup="Stavanger"), unit("a1", side="allied", defense=6,
                                                                                setup="Bergen")])
    while st.game_turn == 1:
        act(st, "end")
    act(st, "move att 0202")
    act(st, "end")
    assert st.fighting == "0202" and st.pending == "combat"  # straight to the die: no withdraw to refuse


def test_sailors_are_taken_prisoner_when_their_port_is_lost(tmp_path: Path) -> None:
    sailors = unit("sailors", kind="naval_infantry", arrives={"turn": 2, "at": "Narvik"}, condition="destroyers_sunk")
    ships = [{"id": "dd", "name": "Z1", "side": "german", "kind": "destroyer", "at": "Narvik"}]
    st = new_game(load(folder(tmp_path, [unit("g", setup="Narvik"), sailors, unit("n", side="allied", setup="Hamar")],
                              ships=ships)))
    while st.phasing == "german":
        act(st, "end")
    act(st, "interdict 0707")
    roll(st, 6)
    assert st.destroyers_sunk
    st.owner["0707"] = "allied"  # the Allies took Narvik back
    st.pos["n"] = "0707"
    del st.pos["g"]
    while st.game_turn == 1:
        act(st, "end")
    assert "sailors" in st.gone and "sailors" not in st.pos


def test_paratroops_drop_on_a_town_free_of_the_enemy(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g"), unit("fj", kind="parachute", arrives={"turn": 2, "at": "Hamar"})])
    while st.game_turn == 1:
        act(st, "end")
    assert st.pos["fj"] == "0404"


def test_the_artillery_stand_in_never_forms_on_the_lost_store(tmp_path: Path) -> None:
    sub = {"name": "inf", "short": "inf", "attack": 1, "defense": 1, "movement": 5}
    st = game(tmp_path, [unit("g", setup="Oslo"), unit("art", side="allied", kind="artillery",
                                                       arrives={"turn": 1, "at": "Rena"}, if_store_captured=sub)])
    st.owner["0605"] = "german"
    to_allied_turn(st)
    assert st.pos["art_inf"] != "0605" and 1 <= distance(st.pos["art_inf"], "0605") <= 3


def test_a_retreat_before_combat_is_seen_by_the_later_battles(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g1", setup="Oslo", movement=9), unit("g2", setup="Oslo", movement=9),
                         unit("n1", side="allied", setup="Hamar"), unit("n2", side="allied", setup="Elverum")])
    act(st, "move g1 0404")
    act(st, "move g2 0604")
    act(st, "end")
    assert st.fighting == "0404"
    enemy_blocks(st, "german")  # remembered before the retreat
    roll(st, 1)  # the Norwegians in Hamar fall back
    fresh = {h for u, h in st.pos.items() if st.types[u].side == "allied"}
    assert enemy_blocks(st, "german")[0] == fresh


def test_troops_mobilise_at_a_centre_the_enemy_shares_but_has_not_captured(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9), unit("n", side="allied", setup="Elverum"),
                         unit("m", side="allied", mobilises={"turn": 1, "centre": "Elverum"})])
    act(st, "move g 0604")  # shared: still Norway's
    act(st, "end")
    roll(st, 5)  # the Norwegians stand
    roll(st, 3)  # 1:1, AD: both stay
    to_allied_turn(st)
    assert st.pos.get("m") == "0604"


def test_an_air_unit_whose_airfield_is_lost_flies_to_another(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g")], german=("Oslo", "Sola"), airs=[air("kg", base="Sola")])
    st.owner["0303"] = "allied"
    while st.game_turn == 1:
        act(st, "end")
    assert st.air_at["kg"] == "Germany"


def test_a_headquarters_carrying_foot_troops_does_not_exploit(tmp_path: Path) -> None:
    mot = {"kind": "brigade", "mountain": False, "motorized": True}
    st = game(tmp_path, [unit("hq", kind="headquarters", motorized=True, movement=8, hq=mot, designation="d"),
                         unit("inf", designation="d")])
    while st.step != "exploit":
        act(st, "end")
    act(st, "absorb inf hq")
    assert not any(a.to_str().startswith("move hq") for a in st.legal_actions())


def test_a_clone_has_its_own_parameters() -> None:
    st = new_game()
    twin = st.clone()
    twin.params["broken_down"] = False
    assert st.params.get("broken_down", True) is True


@pytest.mark.parametrize(("edit", "words", "said"), [
    ('artillery_kinds = ["artillery", "mountain_artillery", "antiaircraft", "antitank"]',
     'artillery_kinds = ["artilery"]', "'artilery' is not a unit kind"),
    ("norwegian_limit = { regiment = 2, group = 2, brigade = 3, division = 4 }",
     "norwegian_limit = { regimnt = 2, group = 2, brigade = 3, division = 4 }", "norwegian_limit"),
    ("first_turn_roll = [1, 2, 3]", "first_turn_roll = [0, 7]", "first_turn_roll"),
    ('columns = ["1:3",', 'columns = ["1-3",', "column '1-3': odds are written attacker:defender"),
    ("ridge_cost = { foot = 3, mountain = 2, motorized = 0 }", "ridge_cost = { foot = 3, mountain = 2 }",
     "key 'ridge_cost': expected a whole number from 0 to 20 for each of"),
])
def test_the_charts_refuse_what_they_cannot_mean(tmp_path: Path, edit: str, words: str, said: str) -> None:
    data = tmp_path / "narvik"
    shutil.copytree(DATA, data)
    rules = (data / "rules.toml").read_text(encoding="utf-8")
    assert edit in rules
    (data / "rules.toml").write_text(rules.replace(edit, words), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load(data)
    assert any(said in p for p in caught.value.problems), caught.value.problems


def test_a_ridge_hexside_must_part_two_neighbouring_hexes(tmp_path: Path) -> None:
    data = tmp_path / "narvik"
    shutil.copytree(DATA, data)
    text = (data / "map.toml").read_text(encoding="utf-8")
    start = text.index('name = "Dovrefjell"')
    (data / "map.toml").write_text(text[:start] + text[start:].replace('["1133", "1233"]', '["1133", "1533"]', 1)
                                   + '\n[[ridge]]\nname = "Jotunheimen"\nhexsides = [["1033"]]\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load(data)
    assert any("('Dovrefjell')" in p and "['1133', '1533']: the hexes are not neighbours" in p
               for p in caught.value.problems), caught.value.problems
    assert any("('Jotunheimen')" in p and "expected two hex ids" in p for p in caught.value.problems)


def test_a_victory_port_named_twice_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "narvik"
    shutil.copytree(DATA, data)
    text = (data / "scenario.toml").read_text(encoding="utf-8").replace('"Bergen", "Trondheim"]',
                                                                        '"Bergen", "Bergen"]')
    (data / "scenario.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError, match="named twice"):
        load(data)


def test_refusals_name_the_problem() -> None:
    st = new_game()
    said = {}
    for text in ("truck nosuch ger_139_1 1644", "truck ger_139_1 ger_139_2 2608", "interdict 1844",
                 "stand 1844", "detach ger_139_1", "absorb ger_139_1 ger_139_2"):
        with pytest.raises(IllegalActionError) as caught:
            st.apply_action(st.parse_action(text))
        said[text] = str(caught.value)
    assert said["truck nosuch ger_139_1 1644"] == "there is no unit 'nosuch'"
    assert said["truck ger_139_1 ger_139_2 2608"].endswith("is not a truck")
    assert "decided by the Allies as their player turn begins" in said["interdict 1844"]
    assert "decided by the defender in the combat phase" in said["stand 1844"]
    assert said["detach ger_139_1"].endswith("is not absorbed by a headquarters")
    assert said["absorb ger_139_1 ger_139_2"].endswith("is not a headquarters")


def test_places_are_read_in_any_case_with_or_without_norwegian_letters() -> None:
    st = new_game()
    assert st.parse_action("move GER_139_1 andalsnes").to_str() == f"move ger_139_1 {st.place_hex('Åndalsnes')}"
    assert st.parse_action("move ger_139_1 mo i rana").to_str() == f"move ger_139_1 {st.place_hex('Mo i Rana')}"
    assert st.parse_action("fly kg26 support mo i rana").to_str() == f"fly kg26 support {st.place_hex('Mo i Rana')}"


def test_a_folder_without_scenario_toml_says_how_it_was_read(tmp_path: Path) -> None:
    from warroom.scenarios import load_game_path

    data = tmp_path / "narvik"
    shutil.copytree(DATA, data)
    (data / "scenario.toml").unlink()
    with pytest.raises(ScenarioError) as caught:
        load_game_path(data)
    assert caught.value.problems[0].endswith("has no scenario.toml naming its rule system, so it was read as a "
                                             "firestorm scenario")
