"""Scenario validation (DESIGN.md, scenario data): bundled campaigns load; broken copies are rejected
with a `ScenarioError` whose message names the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.scenarios import bundled_ids, load_path, load_scenario

DATA = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data"
CAEN = DATA / "caen"


# ----- the bundled campaigns ------------------------------------------------------------------------------


def test_bundled_ids() -> None:
    assert {"caen", "lorraine"} <= set(bundled_ids())


def test_caen_loads() -> None:
    sc = load_scenario("caen")
    assert isinstance(sc, FirestormScenario)
    assert sc.id == "caen"
    assert sc.sides == ("allies", "axis")
    assert len(sc.turns) == 5
    assert len(sc.areas) == 26
    assert sum(a.vp for a in sc.areas.values()) == 540
    assert len(sc.troops) == 41  # 26 Allied + 15 German counters (Caen 5)
    assert sum(1 for t in sc.troops.values() if t.side == "axis") == 15
    assert sc.rules.stacking == 3 and sc.rules.advance_cap == 3
    assert sc.has("dday") and sc.has("caumont_gap") and not sc.has("panzer_units")
    assert all(sc.adjacency[a] for a in sc.areas)
    assert sc.area_id("a-2") == "A2" and sc.area_id(" C 4") == "C4" and sc.area_id("Z9") is None
    assert sc.rivers[frozenset(("B4", "B5"))] == "Orne"


def test_caen_adjacency_is_symmetric() -> None:
    sc = load_scenario("caen")
    for a, neighbours in sc.adjacency.items():
        for n in neighbours:
            assert a in sc.adjacency[n]


def test_lorraine_loads() -> None:
    sc = load_scenario("lorraine")
    assert sc.id == "lorraine"
    assert len(sc.turns) == 3
    assert len(sc.areas) == 34
    assert sc.rules.advance_cap == 4
    assert sc.has("panzer_units")


def test_load_path_of_a_folder_and_of_a_missing_path(tmp_path: Path) -> None:
    assert load_path(CAEN).id == "caen"
    with pytest.raises(ScenarioError, match="no such scenario file or folder"):
        load_path(tmp_path / "nothing")
    with pytest.raises(ScenarioError, match=r"folder holds no \.toml files"):
        load_path(tmp_path)


def test_unknown_scenario_name() -> None:
    with pytest.raises(UnknownNameError, match="unknown scenario 'norway-2'"):
        load_scenario("norway-2")


# ----- broken copies of Caen ------------------------------------------------------------------------------


def broken_caen(
    tmp_path: Path, file: str = "map.toml", old: str = "", new: str = "", append: str = ""
) -> Path:
    """Copy the Caen folder to `tmp_path`, replacing the first `old` in `file` by `new` and appending text."""
    folder = tmp_path / "caen"
    folder.mkdir()
    for src in CAEN.glob("*.toml"):
        text = src.read_text(encoding="utf-8")
        if src.name == file:
            if old:
                assert old in text, f"fixture text {old!r} not found in {file}"
                text = text.replace(old, new, 1)
            text += append
        (folder / src.name).write_text(text, encoding="utf-8")
    return folder


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_path(path)
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def test_unmodified_copy_loads(tmp_path: Path) -> None:
    assert load_path(broken_caen(tmp_path)).id == "caen"


def test_border_to_unknown_area(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, append='\n[[border]]\na = "A1"\nb = "Z9"\n')
    problems = problems_of(path)
    assert len(problems) == 1
    assert "border end 'Z9' is not a defined area" in problems[0]
    assert "border[" in problems[0] and "('A1')" in problems[0]


def test_border_to_itself(tmp_path: Path) -> None:
    problems = problems_of(broken_caen(tmp_path, append='\n[[border]]\na = "C4"\nb = "C4"\n'))
    assert any("border joins area 'C4' to itself" in p for p in problems)


def test_disconnected_area(tmp_path: Path) -> None:
    area = ('\n[[area]]\nid = "B6"\nname = "Island"\nmap = "caen"\nvp = 0\nterrain = "plain"\nx = 900\n'
            'y = 600\n')
    problems = problems_of(broken_caen(tmp_path, append=area))
    assert len(problems) == 1
    assert "map 'caen' is not connected: B6 cannot be reached from A1" in problems[0]


def test_area_cut_off_by_rewiring_its_borders(tmp_path: Path) -> None:
    # A6 (Cabourg) touches B5, C7 and D8; move each of those borders to A4 so that A6 has none.
    folder = broken_caen(tmp_path)
    text = (folder / "map.toml").read_text(encoding="utf-8")
    for pair in ('a = "B5"\nb = "A6"', 'a = "A6"\nb = "C7"', 'a = "A6"\nb = "D8"'):
        assert pair in text
        text = text.replace(pair, pair.replace('"A6"', '"A4"'))
    (folder / "map.toml").write_text(text, encoding="utf-8")
    problems = problems_of(folder)
    assert len(problems) == 1
    assert "map 'caen' is not connected: A6 cannot be reached from A1" in problems[0]


def test_duplicate_border(tmp_path: Path) -> None:
    problems = problems_of(broken_caen(tmp_path, append='\n[[border]]\na = "A1"\nb = "A2"\n'))
    assert len(problems) == 1
    assert "border A1-A2 is listed twice" in problems[0]


def test_duplicate_border_written_backwards(tmp_path: Path) -> None:
    problems = problems_of(broken_caen(tmp_path, append='\n[[border]]\na = "B2"\nb = "A1"\n'))
    assert len(problems) == 1
    assert "border B2-A1 is listed twice" in problems[0]


def test_duplicate_area_id(tmp_path: Path) -> None:
    area = '\n[[area]]\nid = "C4"\nname = "Caen again"\nmap = "caen"\nvp = 0\nx = 1\ny = 1\n'
    problems = problems_of(broken_caen(tmp_path, append=area))
    assert any("duplicate area id 'C4'" in p for p in problems)


def test_troop_start_area_does_not_exist(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'start = "B4"', 'start = "Z9"')
    problems = problems_of(path)
    assert len(problems) == 1
    assert "start 'Z9' is not an area on the map" in problems[0]
    assert "('pz_21')" in problems[0]


def test_arrival_unit_does_not_exist(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'unit = "arm_7"', 'unit = "arm_77"')
    problems = problems_of(path)
    assert len(problems) == 1
    assert "unit 'arm_77' in turn 1 arrivals is not a defined troop" in problems[0]


def test_arrival_area_does_not_exist(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'areas = ["A2"]', 'areas = ["A9"]')
    problems = problems_of(path)
    assert any("area 'A9' in turn 1 arrivals is not on the map" in p for p in problems)


def test_withdrawal_unit_does_not_exist(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", '"pz_2ss"]', '"pz_99"]')
    problems = problems_of(path)
    assert any("unit 'pz_99' in turn 3 withdrawals is not a defined troop" in p for p in problems)


def test_invalid_toml(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, append="\n[[area]\nid = \n")
    problems = problems_of(path)
    assert len(problems) == 1
    assert "map.toml: not valid TOML" in problems[0]


def test_wrong_type_vp(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "map.toml", "vp = 20", 'vp = "x"')
    problems = problems_of(path)
    assert len(problems) == 1
    assert "key 'vp': expected an integer, got 'x'" in problems[0]
    assert "('A1')" in problems[0], "the message names the area"


def test_wrong_type_stacking_and_terrain(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", "stacking = 3", 'stacking = "three"')
    problems = problems_of(path)
    assert any("[rules]: key 'stacking': expected an integer, got 'three'" in p for p in problems)


def test_unknown_terrain(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "map.toml", 'terrain = "bocage"', 'terrain = "swamp"')
    problems = problems_of(path)
    assert any("key 'terrain': expected one of plain, bocage, city, got 'swamp'" in p for p in problems)


def test_unknown_hook(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", '"caumont_gap"]', '"caumont_gap", "rommel"]')
    problems = problems_of(path)
    assert len(problems) == 1
    assert "unknown hook 'rommel'" in problems[0]


def test_turn_count_mismatch(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", "turns = 5", "turns = 4")
    problems = problems_of(path)
    assert any("key 'turns' says 4 but 5 [[turn]] tables are given" in p for p in problems)


def test_no_supply_source_for_a_side(tmp_path: Path) -> None:
    folder = broken_caen(tmp_path)
    text = (folder / "map.toml").read_text(encoding="utf-8").replace('supply = "allies"', 'supply = ""')
    (folder / "map.toml").write_text(text, encoding="utf-8")
    problems = problems_of(folder)
    assert any("side 'allies' has no supply source area" in p for p in problems)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = broken_caen(
        tmp_path, "scenario.toml", '"caumont_gap"]', '"caumont_gap", "rommel"]',
        append='\n[[troop]]\nid = "ghost"\nside = "allies"\nbonus = 1\nstart = "Z1"\n',
    )
    (path / "map.toml").write_text(
        (path / "map.toml").read_text(encoding="utf-8") + '\n[[border]]\na = "A1"\nb = "Q1"\n',
        encoding="utf-8",
    )
    problems = problems_of(path)
    text = "\n".join(problems)
    assert "unknown hook 'rommel'" in text
    assert "start 'Z1' is not an area" in text
    assert "border end 'Q1' is not a defined area" in text
    assert len(problems) == 3


def test_top_level_key_in_two_files(tmp_path: Path) -> None:
    folder = broken_caen(tmp_path)
    (folder / "extra.toml").write_text('[rules]\nstacking = 2\n', encoding="utf-8")
    problems = problems_of(folder)
    assert any("top-level key 'rules' is defined in more than one file" in p for p in problems)


def test_unsupported_system(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'system = "firestorm"', 'system = "chess"')
    problems = problems_of(path)
    assert problems == [f"{path}: [scenario] system 'chess' is not supported (known: firestorm, kampen, narvik)"]


def test_unknown_unit_in_dday_tables(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'unit = "abn_6"', 'unit = "abn_99"')
    problems = problems_of(path)
    assert any("abn_99" in p for p in problems)


def test_unknown_area_in_caumont_values(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", 'trigger = "A1"', 'trigger = "Q1"')
    problems = problems_of(path)
    assert any("Q1" in p for p in problems)


def test_unknown_campaign_value_is_named(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", "carpet_gw = 2", "carpet_gw = 2\ncarpett_gw = 3")
    with pytest.raises(ScenarioError, match="unknown key 'carpett_gw'"):
        load_path(path)


def test_table_rows_may_be_listed_in_any_order(tmp_path: Path) -> None:
    path = broken_caen(tmp_path, "scenario.toml", "gw_destroy = [[0, 6, 6], [3, 5, 0], [5, 4, 0]]",
                       "gw_destroy = [[5, 4, 0], [0, 6, 6], [3, 5, 0]]")
    shuffled = load_path(path).rules
    bundled = load_path(CAEN).rules
    assert shuffled.gw_destroy == bundled.gw_destroy
    assert shuffled.value("carpet_gw") == 2 and shuffled.value("defence_from_turn") == 2


def test_bundled_campaigns_are_folders_with_a_scenario_file() -> None:
    from warroom.scenarios import bundled_ids

    ids = bundled_ids()
    assert "caen" in ids and "lorraine" in ids
    assert all((CAEN.parent / i / "scenario.toml").is_file() for i in ids)


def test_maps_are_checked_one_by_one_and_borders_stay_on_their_map(tmp_path: Path) -> None:
    second_map = '''
[[map]]
id = "inset"
name = "Inset"

[[area]]
id = "Q1"
name = "Quay"
map = "inset"
x = 10
y = 10

[[area]]
id = "Q2"
name = "Quarry"
map = "inset"
x = 90
y = 10

[[border]]
a = "Q1"
b = "Q2"
'''
    (tmp_path / "ok").mkdir()
    (tmp_path / "cross").mkdir()
    ok = broken_caen(tmp_path / "ok", append=second_map)
    assert len(load_path(ok).maps) == 2, "two maps, each connected, load fine"
    cross = broken_caen(tmp_path / "cross", append=second_map + '\n[[border]]\na = "Q2"\nb = "A1"\n')
    with pytest.raises(ScenarioError, match="border A1-Q2 joins map 'caen' to map 'inset'"):
        load_path(cross)


def test_a_stacking_limit_the_set_up_breaks_is_refused(tmp_path: Path) -> None:
    """The moves' rules let an area go over the limit only by a move that can be undone (moves.py), so a set-up
    over it would leave the first mover with no legal action: the scenario is refused, naming the areas."""
    caen = problems_of(broken_caen(tmp_path, "scenario.toml", "stacking = 3", "stacking = 1"))
    assert caen == [f"{tmp_path / 'caen'}: [rules] stacking = 1, but the D-Day landings put 2 troops on {area} "
                    f"({units}; [tables.neptune] beaches)"
                    for area, units in [("A2", "inf_50, bde_8"), ("A3", "can_3, bde_2can"), ("A5", "inf_3, bde_27")]]
    folder = tmp_path / "lorraine"
    folder.mkdir()
    for src in (DATA / "lorraine").glob("*.toml"):
        text = src.read_text(encoding="utf-8")
        (folder / src.name).write_text(text.replace("stacking = 0", "stacking = 1", 1), encoding="utf-8")
    lorraine = problems_of(folder)
    assert f"{folder}: [rules] stacking = 1, but 2 troops start in A2 (us_inf_5, us_art_1)" in lorraine
    assert all("troops start in" in p for p in lorraine)
    (tmp_path / "two").mkdir()
    assert load_path(broken_caen(tmp_path / "two", "scenario.toml", "stacking = 3", "stacking = 2")).rules.stacking == 2
