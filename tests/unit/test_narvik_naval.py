"""Naval interdiction and the stranded sailors (seed, differences 4 and 12; rules.toml [naval], a stand-in)."""

from __future__ import annotations

from pathlib import Path

from narvik_support import act, folder, roll, unit

from warroom.rulesets.narvik import load, movement, new_game
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


# ----- landing craft (rules.toml [naval] landing_*: a stand-in; seed difference 4 names the rules) ----------------
def landing_game(tmp: Path, turn: int = 9) -> NarvikState:
    """The Allied movement phase of `turn` on the small map: an Allied battalion in Bergen (0202, on the west
    coast), another and a headquarters in Hamar (0404, inland), the Germans in Oslo and Kristiansand (0204)."""
    from narvik_support import game, to_allied_turn

    st = game(tmp, [unit("a", side="allied", setup="Bergen"), unit("b", side="allied", setup="Bergen"),
                    unit("c", side="allied", setup="Bergen"), unit("inland", side="allied", setup="Hamar"),
                    unit("hq", side="allied", kind="headquarters", setup="Bergen",
                         hq={"kind": "division", "mountain": False, "motorized": False}),
                    unit("g", setup="Oslo"), unit("k", setup="Kristiansand")])
    st.game_turn = turn
    to_allied_turn(st)
    assert (st.phasing, st.step) == ("allied", "move")
    return st


def lands(st: NarvikState, uid: str) -> list[str]:
    return sorted(a.to_str().split()[2] for a in st.legal_actions() if a.to_str().startswith(f"land {uid} "))


def refusal(st: NarvikState, text: str) -> str:
    from warroom.core.errors import IllegalActionError

    try:
        act(st, text, "allied")
    except IllegalActionError as e:
        return str(e)
    raise AssertionError(f"{text!r} was allowed")


def test_landing_craft_carry_a_unit_along_the_coast_within_four_sea_hexes(tmp_path: Path) -> None:
    st = landing_game(tmp_path)
    # from Bergen the sea reaches 0101-0105 down the west coast and 0201-0601 along the north: the coast next to
    # those, but Kristiansand (0204), where the Germans are
    assert lands(st, "a") == ["0203", "0205", "0206", "0302", "0402", "0502", "0602"]
    assert lands(st, "inland") == [] and lands(st, "hq") == []  # not on the coast; a headquarters stays ashore
    assert st.view(None)["landings_left"] == 2 and "carry 2 more units" in describe_asking(st)
    act(st, "land a 0206", "allied")  # Namsos
    assert st.pos["a"] == "0206" and "a" in st.moved and st.landings == 1
    assert lands(st, "a") == [] and not [a for a in st.legal_actions() if a.to_str().startswith("move a ")]
    assert any("lands at Namsos (0206)" in text for _, text in st.events)
    assert "already moved" in refusal(st, "land a 0205")
    act(st, "land b 0302", "allied")
    assert st.landings == 2 and lands(st, "c") == [] and st.view(None)["landings_left"] == 0
    assert "made their 2 lifts" in refusal(st, "land c 0205")
    act(st, "move c 0203", "allied")  # an ordinary move is still open to it


def describe_asking(st: NarvikState) -> str:
    from warroom.rulesets.narvik.describe import asking

    return asking(st)


def test_landings_are_refused_with_their_reason(tmp_path: Path) -> None:
    st = landing_game(tmp_path)
    assert "free of German units" in refusal(st, "land a 0204")
    assert "within 4 sea hexes" in refusal(st, "land a 0707")  # Narvik, on the far south coast
    assert "not on the coast" in refusal(st, "land inland 0202")
    assert "stay ashore" in refusal(st, "land hq 0203")
    assert "not land" in refusal(st, "land a 0101")
    assert st.landings == 0 and st.pos["a"] == "0202"


def test_no_landing_craft_before_turn_9_for_the_germans_or_from_a_hex_shared_with_them(tmp_path: Path) -> None:
    early = landing_game(tmp_path / "early", turn=8)
    assert lands(early, "a") == [] and early.view(None)["landings_left"] == 0
    assert "from turn 9" in refusal(early, "land a 0203")
    shared = landing_game(tmp_path / "shared")
    shared.pos["k"] = "0202"  # a German unit comes into Bergen (as after a German move there)
    shared.changed()
    assert lands(shared, "a") == [] and "share" in refusal(shared, "land a 0203")
    german = new_game(load(folder(tmp_path / "german", [unit("g", setup="Bergen")])))
    german.game_turn = 9
    assert not [a for a in german.legal_actions() if a.to_str().startswith("land ")]


def test_landing_craft_take_no_disrupted_unit_and_land_none_where_it_may_not_go(tmp_path: Path) -> None:
    from narvik_support import game, to_allied_turn

    st = game(tmp_path, [unit("foot", side="allied", setup="Bergen"),
                         unit("tank", side="allied", kind="tank", motorized=True, setup="Bergen"),
                         unit("worn", side="allied", setup="Bergen"), unit("g", setup="Oslo")])
    st.game_turn = 9
    st.sc.map.terrain["0206"] = "mountain"  # Namsos's hex made mountain, on this board only
    # the movement tables kept per scenario assume its map never changes: forget any made before the change
    movement._STEPS.kept.pop(id(st.sc), None)
    movement._LINKS.kept.pop(id(st.sc), None)
    to_allied_turn(st)
    st.disrupted["worn"] = 99
    assert "0206" in lands(st, "foot") and "0206" not in lands(st, "tank") and lands(st, "worn") == []
    assert "may not enter mountain, so it cannot land in Namsos (0206)" in refusal(st, "land tank 0206")
    assert "worn is disrupted: the landing craft take units in good order" in refusal(st, "land worn 0203")
    assert "foot is in Bergen (0202) already" in refusal(st, "land foot 0202")
    assert "0101 is sea, not land" in refusal(st, "land foot 0101")


def test_a_unit_on_the_coast_whose_landing_places_are_all_german_is_told_so(tmp_path: Path) -> None:
    st = landing_game(tmp_path)
    for hid in ("0203", "0205", "0206", "0302", "0402", "0502", "0602"):
        st.pos[f"g{hid}"] = hid
        st.types[f"g{hid}"] = st.types["k"]
    st.changed()
    assert lands(st, "a") == []
    assert "free of German units, and Stavanger (0203) is not" in refusal(st, "land a 0203")
