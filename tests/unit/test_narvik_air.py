"""Narvik's air phase (seed: Sequence of Play C; rules.toml [air_missions], a stand-in) on the small board:
both players declare, the phasing player first; ground support shifts the odds, fighters holding a hex turn
enemy missions back on 4-6, anti-aircraft fire on 6, interdiction disrupts, transports carry battalions."""

from __future__ import annotations

from pathlib import Path

from narvik_support import act, air, game, roll, unit

from warroom.core.state import CHANCE
from warroom.rulesets.narvik.state import NarvikState


def to_air(st: NarvikState) -> None:
    act(st, "end")
    if st.step == "regroup":
        act(st, "end")
    assert st.step == "air", st.step


def test_ground_support_shifts_a_battle_a_column_for_each_mission(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", attack=2, setup="Oslo", movement=9), unit("n", side="allied", defense=2,
                                                                              setup="Elverum")],
              german=("Oslo", "Sola"), airs=[air("kg1"), air("kg2"), air("kg3")])
    act(st, "move g 0604")
    to_air(st)
    assert st.current_player() == "german"
    for a in ("kg1", "kg2", "kg3"):
        act(st, f"fly {a} support 0604")
    # every German air unit has flown and the Allies have none: the missions are resolved, none needs a die
    assert st.step == "combat" and st.support == {"0604": {"german": 3}}
    assert st.view(None)["battle"]["column"] == "3:1"  # 1:1 on clear ground, two columns at most for support


def test_fighters_holding_the_hex_turn_missions_back_on_four_to_six(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9), unit("n", side="allied", setup="Elverum")],
              german=("Oslo", "Sola"),
              airs=[air("kg1"), air("kg2"), air("gladiator", side="allied", kind="fighter", base="Britain", rng=99)])
    while st.game_turn == 1:  # the Allies' air units arrive in their own reinforcement phase
        act(st, "end")
    act(st, "move g 0604")
    to_air(st)
    act(st, "fly kg1 support 0604")
    act(st, "fly kg2 support 0604")  # the last German air unit: the Allies declare next
    assert st.current_player() == "allied"
    act(st, "fly gladiator cover 0604")
    roll(st, 4)  # kg1 turned back
    roll(st, 3)  # kg2 gets through
    assert st.step == "combat" and st.current_player() == "allied"  # from turn 2 the defender may withdraw
    assert st.support == {"0604": {"german": 1}}


def test_anti_aircraft_fire_turns_a_mission_back_on_a_six(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo", movement=9), unit("n", side="allied", setup="Elverum"),
                         unit("aa", side="allied", kind="antiaircraft", attack=0, defense=1, setup="Elverum")],
              german=("Oslo", "Sola"), airs=[air("kg1")])
    act(st, "move g 0604")
    to_air(st)
    act(st, "fly kg1 support 0604")
    roll(st, 6)
    assert st.support == {} and st.step == "combat"


def test_interdiction_disrupts_the_units_in_the_hex(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("g", setup="Oslo"), unit("n", side="allied", setup="Hamar")],
              german=("Oslo", "Sola"), airs=[air("stuka", kind="dive_bomber"), air("he111")])
    to_air(st)
    act(st, "fly stuka bomb 0404")
    act(st, "fly he111 bomb 0404")
    roll(st, 4)  # dive bombers hit on 4-6
    assert "n" in st.disrupted
    roll(st, 4)  # bombers need 5-6
    assert st.step != "air"


def test_transports_airland_battalions_and_drop_paratroops(tmp_path: Path) -> None:
    st = game(tmp_path, [unit("inf", setup="Sola"), unit("fj", kind="parachute", setup="Sola"),
                         unit("n", side="allied", setup="Bergen")],
              german=("Oslo", "Sola"), airs=[air("ju52", kind="transport"), air("ju52b", kind="transport")])
    to_air(st)
    legal = {a.to_str() for a in st.legal_actions()}
    assert "fly ju52 carry 0404 fj" in legal  # a drop on a place (Hamar)
    assert "fly ju52 carry 0404 inf" not in legal  # only paratroops drop
    assert "fly ju52 carry 0202 fj" not in legal  # never onto the enemy
    act(st, "fly ju52 carry 0404 fj")
    act(st, "end")
    assert st.pos["fj"] == "0404" and st.current_player() != CHANCE
