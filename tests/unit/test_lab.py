"""The balance lab's parts: data paths and scenario variants, the sweep spec and its problems, a game's lead
metrics, a cell's metrics, the results store, and runs whose games do not depend on how they are shared out."""

from __future__ import annotations

import errno
import http.server
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.lab import cluster
from warroom.lab.cluster import Head, head_of
from warroom.lab.errors import LabRunError, LabStopped
from warroom.lab.metrics import balance, cell_metrics, mean_ci
from warroom.lab.overrides import PathError, parse_path, value_at, variant
from warroom.lab.run import lead_metrics, play_task, run, tasks
from warroom.lab.spec import LabSpecError, cell_of, read_spec
from warroom.lab.store import SCHEMA, LabStoreError, Store
from warroom.scenarios.loader import DATA
from warroom.sim.runner import game_seed, play_summary

SPEC = """
[lab]
name = "stacking"
scenarios = ["lorraine"]
games = {games}
seed = 3
chunk = {chunk}

[[lab.pairing]]
allies = "heuristic"
axis = "random"

[lab.sweep]
"scenario.toml:rules.stacking" = [2, 3]
"""


def spec_file(tmp: Path, games: int = 6, chunk: int = 4, text: str = SPEC) -> Path:
    path = tmp / "spec.toml"
    path.write_text(text.format(games=games, chunk=chunk), encoding="utf-8")
    return path


def problems(tmp: Path, text: str) -> list[str]:
    path = tmp / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LabSpecError) as caught:
        read_spec(path)
    return caught.value.problems


# ----- data paths and variants -------------------------------------------------------------------------------
def test_a_path_names_a_file_keys_and_list_entries_by_position_or_key() -> None:
    p = parse_path("scenario.toml:troop[id=arm_7].bonus.plain")
    assert (p.file, p.steps) == ("scenario.toml", ("troop", ("id", "arm_7"), "bonus", "plain"))
    assert parse_path("rules.stacking").file == "" and parse_path("turn[2].x").steps == ("turn", 2, "x")
    for bad, said in [("map.txt:x", ".toml file"), ("scenario.toml:", "no key"), ("a..b", "is not a key"),
                      ("turn[two].x", "[two] must be a position")]:
        with pytest.raises(PathError, match=said.replace("[", r"\[")):
            parse_path(bad)


def test_a_path_that_names_nothing_says_what_is_there() -> None:
    caen = DATA / "caen"
    assert value_at(caen, parse_path("rules.stacking")) == 3
    assert value_at(caen, parse_path("scenario.toml:troop[id=arm_7].points")) == 300
    for bad, said in [("rules.stackin", "no key 'stackin' in rules (keys: advance_cap,"),
                      ("troop[id=nobody].points", "0 tables of troop have id = 'nobody'"),
                      ("turn[9].number", "no position [9] in turn (a list of 5)"),
                      ("orders.toml:x", "the scenario has no orders.toml (its files: map.toml, scenario.toml)")]:
        with pytest.raises(PathError, match=said.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
            value_at(caen, parse_path(bad))


def test_a_variant_is_the_scenario_with_its_values_changed_and_checked_by_its_own_loader() -> None:
    sc = variant("caen", [("rules.stacking", 4), ("scenario.toml:troop[id=arm_7].points", 350)])
    assert sc.rules.stacking == 4 and next(t for t in sc.troops.values() if t.id == "arm_7").points == 350
    assert variant("caen", []).rules.stacking == 3  # the scenario itself, unchanged
    with pytest.raises(PathError, match="'three' is a text, but the scenario has a whole number there"):
        variant("caen", [("rules.stacking", "three")])
    from warroom.core.errors import ScenarioError
    with pytest.raises(ScenarioError, match=r"with rules.stacking = -1: .*'stacking': -1 is out of range"):
        variant("caen", [("rules.stacking", -1)])


# ----- the spec ----------------------------------------------------------------------------------------------
def test_a_spec_makes_one_cell_for_each_scenario_pairing_and_combination_of_values(tmp_path: Path) -> None:
    spec = read_spec(spec_file(tmp_path))
    assert (spec.name, spec.games, spec.chunk, spec.sides) == ("stacking", 6, 4, ("allies", "axis"))
    assert [c.changes for c in spec.cells] == [(("scenario.toml:rules.stacking", 2),),
                                               (("scenario.toml:rules.stacking", 3),)]
    assert all(c.bots == (("allies", "heuristic"), ("axis", "random")) for c in spec.cells)
    ranged = spec_file(tmp_path, text=SPEC.replace("[2, 3]", "{{ from = 2, to = 6, step = 2 }}"))
    assert [c.changes[0][1] for c in read_spec(ranged).cells] == [2, 4, 6]


def test_a_cells_seed_is_what_the_cell_is_not_where_it_stands_in_the_sweep(tmp_path: Path) -> None:
    small = read_spec(spec_file(tmp_path))
    wider = SPEC.replace("[2, 3]", "[0, 2, 3]") + '\n[[lab.pairing]]\nallies = "random"\n'
    big = read_spec(spec_file(tmp_path, text=wider))
    assert len(big.cells) == 6
    same = {c.id: c.seed for c in big.cells}
    assert all(same[c.id] == c.seed for c in small.cells)
    assert cell_of(3, "lorraine", small.cells[0].bots, small.cells[0].changes) == small.cells[0]
    assert cell_of(4, "lorraine", small.cells[0].bots, small.cells[0].changes).seed != small.cells[0].seed


def test_a_bad_spec_names_every_problem(tmp_path: Path) -> None:
    assert "not valid TOML" in problems(tmp_path, "[lab\n")[0]
    assert "needs a [lab] table" in problems(tmp_path, "[scenario]\nid = 1\n")[0]
    got = problems(tmp_path, """
[lab]
scenarios = ["lorraine"]
games = 0
seed = "x"
colour = "red"

[[lab.pairing]]
allies = "genius"
martians = "random"

[[lab.pairing]]
axis = "mcts:1.5s"

[lab.sweep]
"rules.stackin" = [1]
"rules.stacking" = [2, "three", -1]
"rules.advance_cap" = { from = 5, to = 1 }
""")
    said = "\n".join(got)
    for words in ["[lab] unknown key 'colour'", "[lab] games must be a whole number from 1",
                  "[lab] seed must be a whole number", "'martians' is not a side (allies, axis)",
                  "allies: unknown bot 'genius'", "no key 'stackin' in rules",
                  "axis: 'mcts:1.5s' searches for a time, so its games would depend on the machine's speed",
                  "'three' is a text, but the scenario has a whole number there",
                  "a range is { from = A, to = B, step = S } with finite numbers, A <= B"]:
        assert words in said, (words, said)
    got = problems(tmp_path, SPEC.format(games=4, chunk=2).replace("[2, 3]", "[2, -1]"))
    assert got == [f"{tmp_path / 'bad.toml'}: [lab.sweep] in 'lorraine': with scenario.toml:rules.stacking = -1: "
                   "lorraine: [rules]: key 'stacking': -1 is out of range [0, inf]"]
    assert "unknown scenario 'nowhere'" in problems(tmp_path, '[lab]\nscenarios = ["nowhere"]\ngames = 1\n')[0]
    mixed = problems(tmp_path, '[lab]\nscenarios = ["caen", "kampen"]\ngames = 1\n[[lab.pairing]]\n')
    assert any("one sweep compares scenarios of the same sides" in p for p in mixed)
    assert any("not 'gw'" in p or "General's Wargame" in p
               for p in problems(tmp_path, SPEC.format(games=2, chunk=2).replace('seed = 3', 'seed = 3\nparams = '
                                                                                 '{ mode = "tabletop" }')))


# ----- a game's lead, a cell's metrics -----------------------------------------------------------------------
@pytest.mark.parametrize(("trace", "sign", "expected"), [
    ((-320.0, -340.0, -200.0, 50.0, 60.0), 1, (1, 4, 340.0)),  # behind all along, then ahead for good
    ((10.0, 0.0, 20.0, -5.0, 30.0), 1, (2, 5, 5.0)),  # a draw between leads of one camp is no change
    ((1.0, 1.0), 1, (0, 1, 0.0)),  # ahead from the first turn: never behind
    ((1.0, -2.0, 0.0), 0, (1, None, None)),  # a draw: nobody decided it
    ((0.0, -1.0, -2.0), -1, (0, 2, 0.0)),
])
def test_a_games_lead_changes_decisive_turn_and_drama(trace: tuple[float, ...], sign: int,
                                                       expected: tuple[int, int | None, float | None]) -> None:
    assert lead_metrics(trace, sign) == expected


def test_balance_and_means_carry_their_intervals() -> None:
    assert balance(50, 50, 100) == {"value": 1.0, "ci95": [0.804, 1.0]}  # the gap: 0 ± 1.96 × 0.1
    assert balance(100, 0, 100)["value"] == 0.0 and balance(0, 0, 0)["value"] is None
    got = mean_ci([1.0, 2.0, 3.0])
    assert got["mean"] == 2.0 and got["ci95"] == [0.8684, 3.1316] and got["n"] == 3


def test_a_cells_metrics_from_its_games() -> None:
    rows: dict[str, list[Any]] = {"game": [0, 1, 2, 3], "seed": [1, 2, 3, 4],
                                  "outcome": ["A win", "A win", "B win", "Draw"], "winner": ["a", "a", "b", ""],
                                  "diff": [10, 20, -5, 0], "turns": [4, 4, 5, 5], "lead_changes": [0, 1, 2, 3],
                                  "decided": [1, 2, 5, None], "drama": [0.0, 5.0, 10.0, None],
                                  "trace": [[1.0], [1.0], [-1.0], [0.0]]}
    import pyarrow as pa
    m = cell_metrics(pa.table(rows, schema=SCHEMA), ("a", "b"))
    assert m["games"] == 4 and m["wins"]["a"]["rate"] == 0.5 and m["wins"]["draw"]["count"] == 1
    assert m["balance"]["value"] == 0.75 and m["outcomes"]["A win"]["count"] == 2
    assert m["margin"]["mean"] == 6.25 and m["margin"]["histogram"] == {"-5": 1, "0": 1, "10": 1, "20": 1}
    assert m["decided_turn"]["mean"] == pytest.approx(8 / 3, abs=1e-4) and m["decided_share"]["n"] == 3
    assert m["drama"]["mean"] == 5.0 and m["drama"]["behind"]["count"] == 2 and m["lead_changes"]["mean"] == 1.5


# ----- playing and storing -----------------------------------------------------------------------------------
def test_a_tasks_games_are_the_simulators_games_of_the_cells_variant(tmp_path: Path) -> None:
    cell = read_spec(spec_file(tmp_path)).cells[0]  # stacking 2 (Lorraine has no limit: 0)
    rows = play_task(cell, 2, 4, {})
    assert rows["game"] == [2, 3] and rows["seed"] == [game_seed(cell.seed, 2), game_seed(cell.seed, 3)]
    g = play_summary("lorraine", rows["seed"][0], dict(cell.bots), None,
                     variant("lorraine", [("scenario.toml:rules.stacking", 2)]))
    assert (rows["outcome"][0], rows["winner"][0], rows["diff"][0], rows["trace"][0]) == \
        (g.outcome, g.winner, g.diff, list(g.trace))
    assert rows["turns"][0] == len(g.trace) and rows["lead_changes"][0] == lead_metrics(g.trace, 1 if g.winner ==
                                                                                        "allies" else -1 if g.winner
                                                                                        else 0)[0]


def test_a_variant_with_the_scenarios_own_values_plays_the_scenarios_own_games() -> None:
    own = variant("lorraine", [("scenario.toml:rules.stacking", 0)])
    bots = {"allies": "heuristic", "axis": "random"}
    assert [play_summary("lorraine", s, bots, None, own) for s in range(3)] == \
        [play_summary("lorraine", s, bots) for s in range(3)]


def stored(folder: Path) -> dict[str, list[dict[str, Any]]]:
    store = Store(folder)
    return {cell: store.games(cell).to_pylist() for cell in store.cells_stored()}


@pytest.fixture(scope="module")
def one_chunk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """The games of the sweep of 7 games a cell played as one chunk a cell in this process: the reference, the same
    for every example of the test below, so played once."""
    base = tmp_path_factory.mktemp("base")
    spec = read_spec(spec_file(base, games=7, chunk=7))
    run(spec, Store.open(base / "out", spec))
    return stored(base / "out")


@settings(max_examples=4, deadline=None)
@given(chunk=st.integers(1, 7), jobs=st.sampled_from([1, 2]))
def test_a_cells_games_do_not_depend_on_the_chunk_size_or_the_workers(tmp_path_factory: pytest.TempPathFactory,
                                                                      one_chunk: dict[str, list[dict[str, Any]]],
                                                                      chunk: int, jobs: int) -> None:
    other = tmp_path_factory.mktemp("other")
    spec2 = read_spec(spec_file(other, games=7, chunk=chunk))
    run(spec2, Store.open(other / "out", spec2), jobs=jobs)
    assert stored(other / "out") == one_chunk
    assert [len(v) for v in one_chunk.values()] == [7, 7]


def test_a_run_stores_each_task_and_goes_on_from_what_is_stored(tmp_path: Path) -> None:
    spec = read_spec(spec_file(tmp_path, games=6, chunk=4))
    store = Store.open(tmp_path / "out", spec)
    assert [(t.cell.id, t.start, t.stop) for t in tasks(spec, store)] == [  # every cell's first chunk, then the rest
        (spec.cells[0].id, 0, 4), (spec.cells[1].id, 0, 4), (spec.cells[0].id, 4, 6), (spec.cells[1].id, 4, 6)]
    first = tasks(spec, store)[0]
    store.put(first.cell, first.start, first.stop, play_task(first.cell, 0, 4, {}))
    assert len(tasks(spec, store)) == 3
    seen: list[int] = []
    assert run(spec, store, progress=seen.append) == 8 and seen == [4, 2, 2]  # the stored task is not played again
    assert run(spec, store) == 0
    table = pq.read_table(tmp_path / "out" / "parts" / first.cell.id / "000000000-000000004.parquet")
    assert table.schema == SCHEMA and table.num_rows == 4
    assert Store.open(tmp_path / "out", spec).done(first.cell) == {(0, 4), (4, 6)}


def test_a_run_removes_the_half_written_files_of_a_run_killed_while_writing(tmp_path: Path) -> None:
    spec = read_spec(spec_file(tmp_path, games=6, chunk=4))
    store = Store.open(tmp_path / "out", spec)
    first = tasks(spec, store)[0]
    store.put(first.cell, first.start, first.stop, play_task(first.cell, 0, 4, {}))
    cell = tmp_path / "out" / "parts" / first.cell.id
    left = cell / ".000000004-000000006.parquet.4111.tmp"
    left.write_bytes(b"PAR1 half")
    reporting = tmp_path / "out" / ".metrics.json.4112.tmp"  # a `lab report` writing at the same time
    reporting.write_text("{")
    assert run(spec, store) == 8
    assert not left.exists() and sorted(p.name for p in cell.iterdir()) == [
        "000000000-000000004.parquet", "000000004-000000006.parquet"]
    assert reporting.read_text() == "{"


def test_a_folder_of_another_spec_or_of_something_else_is_refused(tmp_path: Path) -> None:
    spec = read_spec(spec_file(tmp_path))
    Store.open(tmp_path / "out", spec)
    (tmp_path / "x").mkdir()
    other = read_spec(spec_file(tmp_path / "x", games=9))
    with pytest.raises(LabStoreError, match="holds the results of another spec"):
        Store.open(tmp_path / "out", other)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(LabStoreError, match="is not empty and holds no sweep"):
        Store.open(tmp_path / "busy", spec)


def test_a_full_disk_stops_the_run_with_what_was_stored_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = read_spec(spec_file(tmp_path, games=6, chunk=3))
    store = Store.open(tmp_path / "out", spec)
    real = pq.write_table
    writes: list[int] = []

    def fill(table: Any, where: Any, *args: Any, **kwargs: Any) -> None:
        writes.append(1)
        if len(writes) > 2:
            Path(where).write_bytes(b"half a file")
            raise OSError(errno.ENOSPC, "No space left on device")
        real(table, where, *args, **kwargs)

    monkeypatch.setattr(pq, "write_table", fill)
    with pytest.raises(LabStoreError, match=r"No space left on device.*the games stored before are kept"):
        run(spec, store)
    kept = [p for p in (tmp_path / "out" / "parts").rglob("*") if p.is_file()]
    assert len(kept) == 2 and all(p.suffix == ".parquet" for p in kept)  # no half-written file left behind
    monkeypatch.setattr(pq, "write_table", real)
    assert run(spec, store) == 6  # space again: the rest
    assert all(len(v) == 6 for v in stored(tmp_path / "out").values())


# ----- tuning ------------------------------------------------------------------------------------------------
TUNE = SPEC.replace('[lab.sweep]\n"scenario.toml:rules.stacking" = [2, 3]\n', """
[lab.tune]
target = "wins.allies"
goal = 0.5
tolerance = 0.05
trials = 5
games = 20
confirm = 30

[lab.tune.search]
"scenario.toml:rules.advance_cap" = {{ from = 2, to = 5 }}
"scenario.toml:rules.stacking" = [0, 3]
""")


def test_a_tune_is_checked_with_every_problem_named(tmp_path: Path) -> None:
    spec = read_spec(spec_file(tmp_path, text=TUNE))
    assert spec.tune is not None and spec.cells and spec.swept == ()
    t = spec.tune
    assert (t.target, t.goal, t.tolerance, t.trials, t.games, t.confirm, t.scenario) == \
        ("wins.allies", 0.5, 0.05, 5, 20, 30, "lorraine")
    assert t.bots == (("allies", "heuristic"), ("axis", "random"))
    assert t.search == (("scenario.toml:rules.advance_cap", (2, 3, 4, 5)), ("scenario.toml:rules.stacking", (0, 3)))
    bad = TUNE.format(games=6, chunk=4).replace('target = "wins.allies"', 'target = "wins.martians"') \
        .replace("trials = 5", "trials = 0").replace("tolerance = 0.05", "tolerance = -1\nbots = { axis = \"x\" }") \
        .replace('"scenario.toml:rules.stacking" = [0, 3]', '"rules.advance_cap" = [3]\n"stacking" = [1]')
    said = "\n".join(problems(tmp_path, bad))
    for words in ["[lab.tune] target must be one of wins.allies, wins.axis, draw, balance",
                  "[lab.tune] trials must be a whole number from 1",
                  "[lab.tune] tolerance must be a number of at least 0", "[lab.tune] bots: axis: unknown bot 'x'",
                  "[lab.tune.search] in 'lorraine': path 'stacking': no key 'stacking' in the file",
                  "[lab.tune.search]: 'rules.advance_cap' is given twice"]:
        assert words in said, (words, said)


def test_a_tune_compares_candidates_on_the_same_seeds_and_confirms_the_best_on_fresh_ones(tmp_path: Path) -> None:
    from warroom.lab.metrics import cell_metrics
    from warroom.lab.tune import candidate, measure, play, run_tune

    spec = read_spec(spec_file(tmp_path, text=TUNE))
    assert spec.tune is not None
    played: list[int] = []
    got = run_tune(spec, progress=played.append)
    assert got == run_tune(spec)  # seeded: the same search, the same result
    assert len(got["trials"]) == 5 and sum(played) == 5 * 20 + 30
    best = min((t for t in got["trials"]), key=lambda t: t["distance"])
    assert got["best"]["values"] == best["values"] and got["best"]["distance"] == best["distance"]
    trial_cell = candidate(spec, spec.tune, best["values"], "trials")
    fresh = candidate(spec, spec.tune, best["values"], "confirm")
    other = candidate(spec, spec.tune, {"scenario.toml:rules.advance_cap": 9, "scenario.toml:rules.stacking": 1},
                      "trials")
    assert trial_cell.seed == other.seed != fresh.seed  # every candidate on the trials' seeds; fresh ones to confirm
    games = play(fresh, 30, spec.chunk, spec.params, 1, None, None)
    metric, ci = measure(cell_metrics(games, ("allies", "axis")), "wins.allies")
    assert got["confirmed"]["metric"] == metric and got["confirmed"]["ci95"] == ci
    assert got["confirmed"]["within_tolerance"] == (abs(metric - 0.5) <= 0.05)  # type: ignore[operator]


# ----- calibration -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("scenario", "outcome"), [
    ("caen", "Allied Operational Victory"), ("lorraine", "Allied Tactical Victory"),
    ("norway", "German Tactical Victory"), ("kampen", "Germany: clear victory"),
    ("narvik", "German marginal victory")])
def test_every_bundled_scenario_states_its_historical_result_among_its_outcome_levels(scenario: str,
                                                                                      outcome: str) -> None:
    from warroom import rulesets
    from warroom.lab.calibration import historical
    from warroom.scenarios import load_game

    sc = load_game(scenario)
    got = historical(DATA / scenario, sc)
    assert got is not None and got["outcome"] == outcome and got["source"]
    assert outcome in rulesets.of(sc).levels(sc)  # type: ignore[misc]


def test_a_historical_result_that_is_no_outcome_level_is_named(tmp_path: Path) -> None:
    import shutil

    from warroom.core.errors import ScenarioError
    from warroom.lab.calibration import historical
    from warroom.scenarios.loader import load_game_path

    folder = tmp_path / "lorraine"
    shutil.copytree(DATA / "lorraine", folder)
    text = (folder / "scenario.toml").read_text(encoding="utf-8")
    (folder / "scenario.toml").write_text(text.replace('outcome = "Allied Tactical Victory"',
                                                       'outcome = "Allied Triumph"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match="'Allied Triumph' is not one of its outcome levels \\(Allied Strategic"):
        historical(folder, load_game_path(folder))
    (folder / "scenario.toml").write_text(text.replace("historical = {", "historical_not = {"), encoding="utf-8")
    assert historical(folder, load_game_path(folder)) is None


def test_the_report_says_how_often_each_pairing_reproduces_history(tmp_path: Path) -> None:
    from warroom.lab.report import build

    text = SPEC.replace('"scenario.toml:rules.stacking" = [2, 3]', '"scenario.toml:rules.stacking" = [0, 2]')
    spec = read_spec(spec_file(tmp_path, games=8, chunk=8, text=text))
    run(spec, Store.open(tmp_path / "out", spec))
    got = build(tmp_path / "out")
    for c in got["cells"]:
        games = Store(tmp_path / "out").games(c["id"]).column("outcome").to_pylist()
        past = c["metrics"]["historical"]
        assert past["outcome"] == "Allied Tactical Victory"
        assert past["count"] == games.count("Allied Tactical Victory") and past["rate"] == round(past["count"] / 8, 4)
    assert [c["published"] for c in got["cells"]] == [True, False]  # Lorraine's own stacking is 0 (no limit)
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    section = page[page.index("Calibration against history"):page.index("Every cell")]
    assert section.count("<tr><td") == 1 and "Allied Tactical Victory" in section


@pytest.mark.parametrize("spec", sorted(p.name for p in (Path(__file__).parents[2] / "docs" / "lab").glob("*.toml")))
def test_the_documented_specs_are_valid(spec: str) -> None:
    got = read_spec(Path(__file__).parents[2] / "docs" / "lab" / spec)
    assert got.cells and (got.tune is not None) == spec.endswith("-tune.toml")


def test_the_spec_refuses_what_would_make_cells_lie_or_the_sweep_unbounded(tmp_path: Path) -> None:
    base = SPEC.format(games=4, chunk=2)
    said = "\n".join(problems(tmp_path, base.replace("[2, 3]", "[2, 2, 3]")))
    assert "'scenario.toml:rules.stacking': 2 given more than once" in said
    said = "\n".join(problems(tmp_path, base.replace("[2, 3]", "{ from = 0, to = inf }")))
    assert "with finite numbers" in said
    said = "\n".join(problems(tmp_path, base.replace("[2, 3]", "{ from = 0, to = 1e300, step = 1e-300 }")))
    assert "more than 1000 values" in said
    said = "\n".join(problems(tmp_path, base.replace('"scenario.toml:rules.stacking" = [2, 3]',
                                                      "rules.stacking = [2, 3]")))
    assert "reads as a table (stacking): a path with dots must be quoted" in said
    said = "\n".join(problems(tmp_path, base.replace("seed = 3", 'seed = 3\nparams = { mod = "gw" }')))
    assert "'mod' is not a parameter of the Firestorm campaign system (its parameters: mode" in said
    more = '\n[[lab.pairing]]\nallies = "random"\n\n[[lab.pairing]]\naxis = "heuristic"\n'
    said = "\n".join(problems(tmp_path, base.replace("games = 4", "games = 10000000").replace(
        "[2, 3]", "{ from = 2, to = 41 }").replace("[lab.sweep]", more + "\n[lab.sweep]")))
    assert "the sweep makes 1,200,000,000 games; at most 1,000,000,000" in said
    kampen = ('[lab]\nscenarios = ["kampen"]\ngames = 2\nparams = { seats = 2 }\n[[lab.pairing]]\n'
              'germany = "random"\nnorway = "heuristic"\nallies = "random"\n')
    said = "\n".join(problems(tmp_path, kampen))
    assert "allies is decided by norway's player in these games (one person holds both)" in said
    path = tmp_path / "two.toml"
    path.write_text(kampen.replace('allies = "random"\n', ""), encoding="utf-8")
    assert read_spec(path).cells[0].bots == (("germany", "random"), ("norway", "heuristic"), ("allies", "heuristic"))


def test_a_scenario_path_in_a_spec_is_read_from_the_specs_folder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    shutil.copytree(DATA / "lorraine", tmp_path / "mine")
    (tmp_path / "sub").mkdir()
    spec = tmp_path / "sub" / "spec.toml"
    spec.write_text(SPEC.format(games=2, chunk=2).replace('["lorraine"]', '["../mine"]'), encoding="utf-8")
    monkeypatch.chdir(tmp_path.parent)  # run from elsewhere: the same scenario
    got = read_spec(spec)
    assert got.cells[0].scenario == str((tmp_path / "mine").resolve())


# ----- what goes wrong, said -------------------------------------------------------------------------------
def test_a_game_that_fails_is_named_with_its_cell_and_seed_and_what_was_stored_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import warroom.lab.run as lab_run

    spec = read_spec(spec_file(tmp_path, games=4, chunk=2))
    store = Store.open(tmp_path / "out", spec)
    real = play_summary

    def broken(scenario: str, seed: int, *args: Any) -> Any:
        if seed == game_seed(spec.cells[1].seed, 3):
            raise IndexError("list index out of range")
        return real(scenario, seed, *args)

    monkeypatch.setattr(lab_run, "play_summary", broken)
    with pytest.raises(LabRunError, match=rf"game 3 of cell {spec.cells[1].id} \(lorraine, allies heuristic, axis "
                                          rf"random, scenario.toml:rules.stacking = 3; seed \d+\) failed: IndexError"):
        run(spec, store)
    assert sum(len(store.done(c)) for c in spec.cells) == 3  # the tasks before it are kept


def test_errors_cross_from_a_worker_process_whole() -> None:
    import pickle

    from warroom.core.errors import ScenarioError
    from warroom.lab.spec import LabSpecError

    for kind in (ScenarioError, LabSpecError):
        again = pickle.loads(pickle.dumps(kind(["first problem", "second"])))
        assert again.problems == ["first problem", "second"] and str(again) == "first problem\nsecond"


def test_a_damaged_part_is_named_by_the_report_and_played_again_by_the_run(tmp_path: Path) -> None:
    from warroom.lab.report import build

    spec = read_spec(spec_file(tmp_path, games=4, chunk=2))
    store = Store.open(tmp_path / "out", spec)
    run(spec, store)
    part = tmp_path / "out" / "parts" / spec.cells[0].id / "000000002-000000004.parquet"
    whole = part.read_bytes()
    part.write_bytes(whole[:100])
    with pytest.raises(LabStoreError, match=r"000000002-000000004.parquet is damaged .*: delete it and run the sweep "
                                            "again"):
        build(tmp_path / "out")
    assert store.done(spec.cells[0]) == {(0, 2)}  # not counted as stored: played again
    assert run(spec, store) == 2 and pq.read_table(part).num_rows == 2


def test_a_folder_whose_scenario_data_changed_or_that_another_run_holds_is_refused(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(DATA / "lorraine", tmp_path / "mine")
    spec_path = spec_file(tmp_path, text=SPEC.replace('["lorraine"]', '["mine"]'))
    spec = read_spec(spec_path)
    store = Store.open(tmp_path / "out", spec)
    with store.running(), pytest.raises(LabStoreError, match="another `lab run` is using"):
        run(spec, Store.open(tmp_path / "out", spec))
    text = (tmp_path / "mine" / "scenario.toml").read_text(encoding="utf-8")
    (tmp_path / "mine" / "scenario.toml").write_text(text + "\n# edited\n", encoding="utf-8")
    with pytest.raises(LabStoreError, match=r"changed since the games in .* were played: its games would mix two"):
        Store.open(tmp_path / "out", read_spec(spec_path))


def test_a_report_that_cannot_be_written_is_still_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.lab.report import build

    spec = read_spec(spec_file(tmp_path, games=2, chunk=2))
    run(spec, Store.open(tmp_path / "out", spec))
    real = Path.write_text

    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        if self.name.startswith(".metrics.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    said: list[str] = []
    got = build(tmp_path / "out", said.append)
    assert got["cells"][0]["metrics"]["games"] == 2 and len(said) == 1 and "No space left on device" in said[0]
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_short_names_of_swept_paths_tell_them_apart() -> None:
    from warroom.lab.html import label

    paths = ["map.toml:area[id=A2].supply", "map.toml:area[id=A3].supply", "scenario.toml:rules.stacking"]
    assert [label(p, paths) for p in paths] == ["area[id=A2].supply", "area[id=A3].supply", "stacking"]


class FakeHead:
    """A port that answers as a gRPC server does (its SETTINGS, at once), or, while `mute` is set, takes the
    connection and says nothing, as a paused process does."""

    def __init__(self) -> None:
        self.mute = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self.serve, daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        with conn:
            if not self.mute.is_set():
                conn.recv(len(cluster.GREETING))
                conn.sendall(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
            else:
                time.sleep(0.3)

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def close(self) -> None:
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self.listener.close()


def test_a_ray_head_is_given_up_only_after_it_has_been_silent_for_the_grace_period(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The head is asked at the wire (an HTTP/2 greeting, which a gRPC server answers at once): one that answers,
    however long the quiet, is alive; one that accepts the connection but says nothing (a paused process) or
    refuses it (a gone one) is silent, and given up `GRACE` seconds after its first silent probe."""
    monkeypatch.setattr(cluster, "GRACE", 0.3)
    monkeypatch.setattr(cluster, "POLL", 0.1)
    fake = FakeHead()
    head = Head(fake.address)
    head.check()
    time.sleep(0.4)  # answering all along: a long quiet spell is no silence
    head.check()
    assert head.silent is None and head.alive
    fake.mute.set()  # paused
    head.check()
    assert head.silent is not None and head.alive
    fake.mute.clear()
    head.check()  # back: silent no more
    assert head.silent is None
    fake.close()  # gone
    head.check()
    with pytest.raises(LabStopped, match=r"head at 127\.0\.0\.1:\d+ stopped answering \(for 0\.3 s\)"):
        time.sleep(0.35)
        head.check()
    assert not head.alive


def test_the_grace_period_is_set_by_its_variable_and_a_bad_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cluster.GRACE_ENV, raising=False)
    assert cluster.grace() == cluster.GRACE
    monkeypatch.setenv(cluster.GRACE_ENV, " 2.5 ")
    assert cluster.grace() == 2.5
    for bad in ["soon", "0", "-3", "50", "59", "nan", "inf"]:
        monkeypatch.setenv(cluster.GRACE_ENV, bad)
        with pytest.raises(LabRunError, match=rf"WARROOM_LAB_RAY_GRACE='{bad}': give the seconds .* above 0 and below"):
            cluster.grace()


def test_a_ray_address_is_a_head_s_host_and_port_where_something_answers_as_one() -> None:
    assert head_of("10.0.0.5:6379") == ("10.0.0.5", 6379) and head_of("[::1]:6379") == ("::1", 6379)
    for bad in ["10.0.0.5", "10.0.0.5:0", "10.0.0.5:107095", ":6379", "host:port", "ray://10.0.0.5:10001", "h:²",
                "h:６３７９"]:
        with pytest.raises(LabRunError, match=r"--ray '.*': give the"):
            head_of(bad)
    web = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        with pytest.raises(LabRunError, match=r"127\.0\.0\.1:\d+ is a web server, not a Ray head: give the head's GCS"):
            cluster.reachable(f"127.0.0.1:{web.server_address[1]}")
    finally:
        web.shutdown()
        web.server_close()
    fake = FakeHead()
    cluster.reachable(fake.address)  # a gRPC server's greeting: a head, as far as the wire tells
    fake.mute.set()
    with pytest.raises(LabRunError, match=r"no Ray cluster answers at .* \(no answer in 0\.2 s\)"):
        cluster.reachable(fake.address, timeout=0.2)
    fake.close()
