"""Naval interdiction and the stranded sailors (seed, differences 4 and 12; rules.toml [naval], a stand-in)."""

from __future__ import annotations

from pathlib import Path

from narvik_support import act, folder, roll, unit

from warroom.rulesets.narvik import load, new_game
from warroom.rulesets.narvik.state import NarvikState

SAILORS = [unit("sailors_hq", kind="headquarters", arrives={"turn": 2, "at": "Narvik"}, condition="destroyers_sunk",
                designation="naval", hq={"kind": "regiment", "mountain": False, "motorized": False}),
           *(unit(f"sailors_{i}", kind="naval_infantry", arrives={"turn": 2, "at": "Narvik"},
                  condition="destroyers_sunk", designation="naval") for i in range(4))]
DESTROYERS = [{"id": f"dd{i}", "name": f"Z{i}", "side": "german", "kind": "destroyer", "at": "Narvik"}
              for i in range(3)]


def start(tmp: Path) -> NarvikState:
    st = new_game(load(folder(tmp, [unit("g", setup="Narvik"), unit("n", side="allied", setup="Hamar"), *SAILORS],
                              ships=DESTROYERS)))
    while st.phasing == "german":
        act(st, "end")
    return st


def test_sinking_the_destroyers_at_narvik_strands_their_crews_ashore_on_turn_2(tmp_path: Path) -> None:
    st = start(tmp_path)
    assert st.step == "naval" and {a.to_str() for a in st.legal_actions()} == {"interdict 0707", "end"}
    act(st, "interdict 0707", "allied")
    roll(st, 4)
    assert sorted(st.sunk) == ["dd0", "dd1", "dd2"] and st.interdicted == "0707"
    while st.game_turn == 1:
        act(st, "end")
    assert all(st.pos.get(f"sailors_{i}") == "0707" for i in range(4)) and st.pos["sailors_hq"] == "0707"


def test_without_a_sinking_there_are_no_sailors(tmp_path: Path) -> None:
    st = start(tmp_path)
    act(st, "interdict 0707")
    roll(st, 3)  # the fleet fails
    while st.game_turn == 1:
        act(st, "end")
    assert not any(u.startswith("sailors") for u in st.pos) and st.interdicted == ""
