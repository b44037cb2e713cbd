"""Unit checks of the Norway land hooks' data validation and messages (model.py, counters.py, legality.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, ScenarioError
from warroom.rulesets.firestorm import new_game, norway
from warroom.rulesets.firestorm import read_tree as read_toml_tree
from warroom.rulesets.firestorm.actions import AIR, NAVAL, TOKEN_LABELS, Arrow, Commit, is_token
from warroom.rulesets.firestorm.model import HOOKS, VALUE_DEFAULTS, parse_scenario
from warroom.rulesets.firestorm.state import GONE
from warroom.scenarios.loader import DATA

LAND_HOOKS = ("ofotfjord", "evacuation", "naval_gunfire", "norway_air", "norway_turns", "norway_briefing")


def raw() -> dict[str, Any]:
    data, _ = read_toml_tree(DATA / "norway")
    return copy.deepcopy(data)


def problems(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, "norway")
    return str(err.value)


def test_hooks_and_values_are_registered() -> None:
    assert set(LAND_HOOKS) <= set(HOOKS)
    for key in ("fjord_harbour", "evacuation_ports", "gunfire_map", "land_air", "bodo", "map_closure", "wrapup",
                "warriors", "force_points", "reduced_faces", "reduced_percent"):
        assert key in VALUE_DEFAULTS
    assert is_token(NAVAL) and NAVAL in TOKEN_LABELS


def test_the_bundled_data_is_valid() -> None:
    sc = parse_scenario(raw(), "norway")
    assert sc.no_stop == {"OFOT"}
    assert sc.counters["cruiser_1"].gunfire == 3 and sc.counters["destroyer_5"].gunfire == 2
    assert sc.counters["aa_cruiser"].gunfire == 0
    assert [b.vp for b in sc.turn(3).bonus] == [50, 25, 25]
    assert {b.when for b in sc.turn(4).bonus} == {"clear", "hold"}
    assert all(t.platoon for t in sc.troops.values())


def test_gunfire_only_on_surface_ships() -> None:
    data = raw()
    sub = next(c for c in data["counter"] if c["id"] == "uboat_1")
    sub["gunfire"] = 2
    assert "only a surface ship gives naval gunfire support" in problems(data)


def test_bonus_rows_name_real_areas_and_maps() -> None:
    data = raw()
    data["turn"][1]["bonus"][0]["area"] = "Q9"
    data["turn"][3]["bonus"][0]["map"] = "atlantis"
    text = problems(data)
    assert "area 'Q9' in turn 2 bonus" in text and "map 'atlantis' in turn 4 bonus" in text


def test_land_hook_values_are_checked() -> None:
    data = raw()
    values = data["rules"]["values"]
    values["fjord_harbour"] = "B1"
    values["evacuation_ports"] = ["D2"]
    values["land_air"]["axis"][0]["maps"] = ["moon"]
    values["land_air"]["allies"][1]["counter"] = "spitfire"
    values["bodo"]["trace_to"] = "Z99"
    values["warriors"][0]["side"] = "swiss"
    text = problems(data)
    assert "fjord_harbour: 'B1' is not a harbour" in text
    assert "evacuation_ports: 'D2' has no harbour" in text
    assert "map 'moon' is not a map" in text and "counter 'spitfire' is not defined" in text
    assert "area 'Z99' is not on the map" in text and "has no valid side" in text


def test_nothing_starts_or_arrives_in_the_fjord() -> None:
    data = raw()
    next(t for t in data["troop"] if t["id"] == "gj_narvik")["start"] = "OFOT"
    data["turn"][2]["arrival"][0]["areas"].append("OFOT")
    text = problems(data)
    assert "starts in the pass-through area 'OFOT'" in text and "OFOT is a pass-through area" in text


def test_illegal_gunfire_and_air_name_the_rule() -> None:
    sc = parse_scenario(raw(), "norway")
    st = new_game(sc)
    for u in st.loc:
        st.loc[u] = GONE
    st.loc.update({"gj_y2": "Y2", "nor_x5": "X5"})
    st.turn = 2
    st.air_left["axis"] = 3
    st.battles_left = st.battles_total = 1
    st.flow.enter(st, "initiative")
    st.apply_action(Roll((1, 6)))
    st.apply_action(Arrow("Y2", "X5"))
    with pytest.raises(IllegalActionError, match="Stukas over Narvik need Bodø"):
        st.apply_action(Commit(("gj_y2", AIR)))
    with pytest.raises(IllegalActionError, match="naval gunfire supports only Allied troops"):
        st.apply_action(Commit(("gj_y2", NAVAL)))
    st.apply_action(Commit(("gj_y2",)))
    with pytest.raises(IllegalActionError, match="naval gunfire"):
        st.apply_action(Commit(("nor_x5", NAVAL)))
    assert norway.fjord_holder(st) == "axis"
