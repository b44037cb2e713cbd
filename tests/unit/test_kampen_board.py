"""The Kampen om Norge board (issue 5): every fact the digest states about the map holds on the bundled
board, the queries answer as the rules need, and broken boards are refused with every problem named."""

from __future__ import annotations

import tomllib
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.rulesets.kampen.board import (
    BUNDLED_BOARD,
    Board,
    BorderKind,
    bundled_board,
    load_board,
    parse_board,
)
from warroom.scenarios import bundled_ids

ALLIED_SEAS = ("III", "IV", "V", "VI", "VII")


@pytest.fixture(scope="module")
def board() -> Board:
    return bundled_board()


def raw() -> dict[str, Any]:
    with BUNDLED_BOARD.open("rb") as f:
        return tomllib.load(f)


def problems_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_board(data, "board.toml")
    return info.value.problems


def land_entry(data: dict[str, Any], aid: str) -> dict[str, Any]:
    return next(a for a in data["land"] if a["id"] == aid)


# ----- the bundled board: counts and symbols (digest 2.3) --------------------------------------------------


def test_bundled_board_loads_from_its_path() -> None:
    assert load_board(BUNDLED_BOARD).land.keys() == bundled_board().land.keys()


def test_counts(board: Board) -> None:
    assert len(board.land) == 44  # digest 2.3: 44 land areas
    assert sorted(board.seas) == sorted(["I", "II", "III", "IV", "V", "VI", "VII", "VIII"])  # digest 2.3: 8 seas
    assert {"sweden", "denmark"} <= set(board.inaccessible)  # digest 2.3: Sweden and Denmark are inaccessible
    assert any(b.kind == "mountain" for b in board.inaccessible.values())  # digest 2.3: mountain areas too


def test_point_cities(board: Board) -> None:
    # digest 2.3: the 6 point cities
    assert board.point_cities == {"oslo", "kristiansand", "stavanger", "bergen", "trondheim", "narvik"}


def test_mobilisation_points(board: Board) -> None:
    # digest 2.3: the 12 mobilisation points
    assert board.mobilisation_points == {
        "ostfold", "kongsvinger", "hamar", "gjovik", "honefoss", "kongsberg", "voss", "andalsnes", "steinkjer",
        "mosjoen", "bardufoss", "tromso",
    }


def test_airfields(board: Board) -> None:
    assert "bardufoss" in board.airfields  # digest 2.3: Bardufoss has an airfield
    assert "trondheim" in board.airfields  # digest Example 3: Trondheim's airfield gives range
    assert board.airfields == set(board.air_ranges)


def test_the_33_names_of_the_rulebook_and_the_11_added(board: Board) -> None:
    # digest Appendix C: 32 names certain plus Rena, 11 more from the board
    assert len(board.named_in_rules) == 33
    assert {"oslo", "horten", "finnmark", "gratangen", "oppdal", "tynset", "dombas", "alesund", "kristiansund",
            "tysfjord", "bjornfjell", "harstad", "rena", "geilo", "haugesund", "egersund"} <= board.named_in_rules
    added = set(board.land) - board.named_in_rules
    assert len(added) == 11
    for aid in added:  # issue 5: every name the rulebook never gives carries an assumption
        assert "Name not in the rulebook" in board.land[aid].assumption, aid


def test_basic_setup_areas_exist(board: Board) -> None:
    # digest 3: the German and Norwegian starting areas
    german = {"oslo", "horten", "kristiansand", "egersund", "stavanger", "bergen", "trondheim", "narvik"}
    norwegian = {"finnmark", "gratangen", "bardufoss", "steinkjer", "voss", "honefoss", "kongsvinger", "gjovik"}
    assert german <= set(board.land) and norwegian <= set(board.land)


def test_every_entry_says_where_it_comes_from(board: Board) -> None:
    for area in board.land.values():
        assert area.source or area.assumption, area.id
    for b in board.borders:
        assert b.source or b.assumption, (b.a, b.b)
    for r in board.air_ranges.values():  # no range line is printed in the rules: all are reconstructed
        assert r.assumption, r.airfield
    assert board.assumptions()


# ----- Appendix E: adjacency fixtures ----------------------------------------------------------------------


def test_appendix_e_adjacency(board: Board) -> None:
    k = board.border_kind
    assert k("oslo", "honefoss") == BorderKind.LAND  # Example 1
    assert k("kongsvinger", "hamar") == BorderKind.LAND  # Example 1
    assert k("gjovik", "hamar") == BorderKind.LAKE  # Example 1: across Mjøsa
    assert k("oppdal", "tynset") == BorderKind.LAND  # 4.1 figure caption
    assert k("andalsnes", "alesund") == BorderKind.FJORD  # Example 2
    assert k("andalsnes", "kristiansund") == BorderKind.FJORD  # Example 2
    assert k("andalsnes", "dombas") == BorderKind.LAND  # Example 2
    assert k("tysfjord", "narvik") == BorderKind.LAND  # Example 3
    assert k("tysfjord", "bjornfjell") == BorderKind.LAND  # Example 3
    assert k("bjornfjell", "bardufoss") == BorderKind.LAND  # Example 3
    assert k("bardufoss", "tromso") == BorderKind.LAND  # Example 3
    assert k("bardufoss", "narvik") is not None  # Example 3 (garbled), Appendix C: inferred
    assert k("stavanger", "haugesund") == BorderKind.FJORD  # 2.3 caption, Example 4
    assert k("stavanger", "egersund") == BorderKind.LAND  # Example 4


def test_caption_fjords(board: Board) -> None:
    assert board.border_kind("bergen", "haugesund") == BorderKind.FJORD  # 2.3 caption
    north = [n for n in board.neighbours("bergen")  # 2.3 caption: a fjord north of Bergen
             if board.crosses_water("bergen", n) and board.land[n].y < board.land["bergen"].y]
    assert north


def test_exact_neighbours(board: Board) -> None:
    # Example 2: Åndalsnes is cut off by fjords to Ålesund and Kristiansund, and by land only to Dombås
    assert set(board.neighbours("andalsnes")) == {"alesund", "kristiansund", "dombas"}
    # Example 4: Egersund is the only retreat from Stavanger once Haugesund is German
    assert set(board.neighbours("stavanger")) == {"haugesund", "egersund"}


def test_mjosa_counts_as_water(board: Board) -> None:
    assert board.crosses_water("gjovik", "hamar")  # 2.3: Mjøsa counts as a fjord; Example 1 halves the dice
    assert board.crosses_water("hamar", "gjovik")
    assert not board.crosses_water("oslo", "honefoss")
    assert BorderKind.LAKE.is_water and BorderKind.FJORD.is_water and not BorderKind.LAND.is_water


def test_adjacency_is_symmetric_and_connected(board: Board) -> None:
    for a, ns in board.adjacency.items():
        assert a not in ns
        for n in ns:
            assert a in board.neighbours(n)
    seen, todo = {"oslo"}, ["oslo"]
    while todo:
        for n in board.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(board.land)


def test_example_3_retreat_from_bardufoss(board: Board) -> None:
    # Example 3: Norway may not retreat to Bjørnfjell (the attack came from there) and goes to Tromsø
    assert "tromso" in board.neighbours("bardufoss") and "bjornfjell" in board.neighbours("bardufoss")
    # Example 2: with Dombås held by Norway the Germans in Åndalsnes have no retreat over land
    land_ways = [n for n in board.neighbours("andalsnes") if not board.crosses_water("andalsnes", n)]
    assert land_ways == ["dombas"]


# ----- coasts and sea areas (digest 2.3, 4.3, 5.1, Appendix D) ---------------------------------------------


def test_coast_facts(board: Board) -> None:
    for aid in ("haugesund", "stavanger", "egersund"):  # 2.3 caption, Example 4: on sea III
        assert "III" in board.coast(aid), aid
    assert board.touches("oslo", ("I", "II"))  # Example 1: German reinforcements placed in Oslo
    assert board.touches("tromso", ALLIED_SEAS)  # Example 3: Kystevakuering to Tromsø
    assert board.touches("andalsnes", ALLIED_SEAS)  # Example 2: Allied reinforcements attack from the sea
    assert board.coast("bardufoss") == frozenset()  # 5.1: its Bombefly reach into VII is an addition


def test_sea_area_properties(board: Board) -> None:
    assert {s for s, sea in board.seas.items() if sea.mined} == {"I", "II"}  # 2.3: mined, closed to the Allies
    assert {s for s, sea in board.seas.items() if sea.allied_zone} == set(ALLIED_SEAS)  # 4.3: III-VII
    assert {s for s, sea in board.seas.items() if sea.raid} == {"VI", "VII", "VIII"}  # 7.2: raiding


def test_sea_viii_borders_every_sea_but_i(board: Board) -> None:
    for s in ("II", "III", "IV", "V", "VI", "VII"):  # 5.1
        assert board.sea_adjacent("VIII", s) and board.sea_adjacent(s, "VIII"), s
    assert not board.sea_adjacent("VIII", "I")  # 5.1
    assert not board.sea_adjacent("I", "VIII")


def test_coastal_chain_and_coasts(board: Board) -> None:
    chain = ["I", "II", "III", "IV", "V", "VI", "VII"]  # Appendix D: numbered south to north (inferred)
    for a, b in pairwise(chain):
        assert board.sea_adjacent(a, b), (a, b)
    for s in chain:  # 5.1: I-VII border coastal land areas
        assert board.coastal([s]), s
    assert board.coastal(["VIII"]) == frozenset()  # Appendix D: VIII has no coast (inferred)


def test_reinforcement_zones(board: Board) -> None:
    german = board.coastal(["I", "II"])  # 4.3: Germany places on the coast of I or II
    allied = board.coastal(ALLIED_SEAS)  # 4.3: the Allies on the coast of III-VII
    assert "oslo" in german and "kristiansand" in german
    assert {"haugesund", "stavanger", "egersund", "tromso", "andalsnes"} <= allied
    # 3: the Allies' first 6 battalions go to two non-adjacent areas on III-VII
    assert any(b not in board.neighbours(a) for a in allied for b in allied if a != b)


def test_telegraph(board: Board) -> None:
    assert board.telegraph == "egersund"  # 2.3, 5.1: the telegraph line runs from Egersund to Britain
    assert board.raid_box


# ----- air ranges (digest 2.3, 5.1, Example 3) ------------------------------------------------------------


def test_trondheim_air_range(board: Board) -> None:
    held = {"trondheim"}
    for aid in ("harstad", "narvik", "bjornfjell"):  # Example 3: inside the range
        assert board.in_air_range(aid, held), aid
    for aid in ("gratangen", "bardufoss", "tromso"):  # Example 3: outside it
        assert not board.in_air_range(aid, held), aid


def test_every_airfield_but_bardufoss_reaches_the_southern_tip(board: Board) -> None:
    tip = board.southern_tip
    assert tip == "kristiansand"
    for field, rng in board.air_ranges.items():  # 2.3
        assert (tip in rng.covers) == (field != "bardufoss"), field
        assert field in rng.covers


def test_fra_tyskland(board: Board) -> None:
    assert board.from_germany  # 2.3: south of the line German air cards need no airfield (inferred)
    for aid in board.from_germany:
        assert board.in_air_range(aid, set()), aid
    assert "stavanger" in board.from_germany  # Example 4: 9 April paratroops drop on Stavanger
    assert not board.in_air_range("narvik", set())
    assert board.in_air_range("tromso", {"bardufoss"})
    assert not board.in_air_range("tromso", {"oslo", "kristiansand", "stavanger", "trondheim"})


def test_bombefly_at_sea(board: Board) -> None:
    assert board.sea_in_air_range("VII", {"bardufoss"})  # 5.1: Bardufoss adds sea VII
    assert not board.sea_in_air_range("VII", board.airfields - {"bardufoss"})
    assert board.sea_in_air_range("III", {"stavanger"})  # 5.1: an airfield whose coast faces the sea
    assert not board.sea_in_air_range("III", set())


def test_queries_reject_unknown_names(board: Board) -> None:
    with pytest.raises(UnknownNameError, match="unknown land area 'atlantis'"):
        board.neighbours("atlantis")
    with pytest.raises(UnknownNameError, match="unknown sea area 'IX'"):
        board.sea_adjacent("IX", "I")
    with pytest.raises(ValueError, match="do not border"):
        board.crosses_water("oslo", "tromso")


def test_the_game_is_bundled_as_its_own_rule_system() -> None:
    assert set(bundled_ids(system="firestorm")) == {"caen", "lorraine", "norway"}
    assert bundled_ids(system="kampen") == ["kampen"]


# ----- malformed boards are refused ----------------------------------------------------------------------


def test_border_to_an_unknown_area() -> None:
    data = raw()
    data["border"].append({"a": "oslo", "b": "atlantis", "kind": "land", "assumption": "test"})
    assert any("border oslo-atlantis: 'atlantis' is not a defined land area" in p for p in problems_of(data))


def test_asymmetric_sea_adjacency() -> None:
    data = raw()
    next(s for s in data["sea"] if s["id"] == "VIII")["adjacent"].remove("IV")
    assert any("sea adjacency IV-VIII is not symmetric" in p for p in problems_of(data))


def test_missing_assumption() -> None:
    data = raw()
    del land_entry(data, "drammen")["assumption"]
    found = [p for p in problems_of(data) if "'drammen' needs an assumption" in p]
    assert found and "name is not in [board] named_in_rules" in found[0]
    assert "border oslo-drammen is reconstructed" in found[0]


def test_a_fully_stated_area_needs_no_assumption() -> None:
    data = raw()
    del land_entry(data, "stavanger")["assumption"]  # named, sourced, both borders stated (Example 4)
    parse_board(data, "board.toml")


def test_an_unexplained_border_is_refused() -> None:
    data = raw()
    border = next(b for b in data["border"] if {b["a"], b["b"]} == {"oslo", "drammen"})
    del border["assumption"]
    assert any("border oslo-drammen states no source and no assumption" in p for p in problems_of(data))


def test_wrong_counts() -> None:
    data = raw()
    data["land"] = [a for a in data["land"] if a["id"] != "finnmark"]
    data["border"] = [b for b in data["border"] if "finnmark" not in (b["a"], b["b"])]
    data["inaccessible"] = [dict(i, next_to=[n for n in i["next_to"] if n != "finnmark"]) for i in data["inaccessible"]]
    land_entry(data, "voss")["point_city"] = True
    land_entry(data, "voss")["mobilisation"] = False
    probs = problems_of(data)
    assert any("expected 44 land areas, got 43" in p for p in probs)
    assert any("expected 6 point cities, got 7" in p for p in probs)
    assert any("expected 12 mobilisation points, got 11" in p for p in probs)
    assert any("'finnmark' is not a defined area" in p for p in probs)  # still named in ranges and lists


def test_missing_sea_area() -> None:
    data = raw()
    data["sea"] = [s for s in data["sea"] if s["id"] != "V"]
    probs = problems_of(data)
    assert any("missing V" in p for p in probs)
    assert any("coast faces 'V', which is not a sea area" in p for p in probs)


def test_every_problem_is_reported_at_once() -> None:
    data = raw()
    data["border"].append({"a": "oslo", "b": "oslo", "kind": "land", "source": "test"})
    data["border"].append({"a": "hamar", "b": "gjovik", "kind": "lake", "source": "test"})
    data["border"].append({"a": "voss", "b": "geilo", "kind": "tunnel", "source": "test"})
    data["land"].append(dict(land_entry(data, "oslo")))
    land_entry(data, "bergen")["x"] = 5000
    land_entry(data, "horten")["seas"] = ["I", "IX"]
    next(r for r in data["airfield_range"] if r["airfield"] == "trondheim")["covers"].append("nowhere")
    next(s for s in data["sea"] if s["id"] == "I")["allied_zone"] = True
    probs = problems_of(data)
    expected = [
        "border oslo-oslo joins an area to itself",
        "border hamar-gjovik is listed twice",
        "key 'kind': expected one of land, fjord, lake, got 'tunnel'",
        "duplicate land area id 'oslo'",
        "land area 'bergen': point (5000, 1345) lies outside the 1000 x 1800 drawing",
        "land area 'horten': its coast faces 'IX', which is not a sea area",
        "airfield range 'trondheim' covers: 'nowhere' is not a defined area",
        "sea area 'I' is both mined (closed to the Allies) and an Allied zone",
    ]
    for text in expected:
        assert any(text in p for p in probs), text


def test_disconnected_land_and_crowded_drawing() -> None:
    data = raw()
    data["border"] = [b for b in data["border"] if "finnmark" not in (b["a"], b["b"])]
    land_entry(data, "horten")["x"], land_entry(data, "horten")["y"] = 640, 1430
    probs = problems_of(data)
    assert any("not all connected: finnmark cannot be reached" in p for p in probs)
    assert any("land areas 'horten' and 'oslo' are drawn closer than 40 units" in p for p in probs)


def test_airfield_without_range_and_range_without_airfield() -> None:
    data = raw()
    land_entry(data, "bergen")["airfield"] = True
    land_entry(data, "bardufoss")["airfield"] = False
    probs = problems_of(data)
    assert any("land area 'bergen' has an airfield but no [[airfield_range]]" in p for p in probs)
    assert any("airfield range 'bardufoss': no land area of that id has an airfield" in p for p in probs)


def test_id_must_match_name_and_unknown_keys() -> None:
    data = raw()
    land_entry(data, "oslo")["name"] = "Christiania"
    land_entry(data, "hamar")["harbour"] = True
    probs = problems_of(data)
    assert any("id 'oslo' does not match its name 'Christiania'" in p for p in probs)
    assert any("unknown key 'harbour'" in p for p in probs)


def test_load_board_reports_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no such board file"):
        load_board(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_board(bad)
    copy_ok = tmp_path / "board.toml"
    copy_ok.write_text(BUNDLED_BOARD.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_board(copy_ok).telegraph == "egersund"
