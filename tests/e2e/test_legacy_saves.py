"""Saves made before a rule fix replay, and go on, under the rules they began with (issue 13).

`tests/data/legacy/` holds two finished bot games saved by the release before the fixes of Caen 4.1 (strategic
moves through a full area) and Norway 6.8 (mixed defence): Caen version 1.0.0, seed 3, ending in a German Strategic
Victory by 500 VP, and Norway version 0.1.0, seed 2, ending in an Allied Operational Victory by 145 VP. Under the new
rules their logs no longer replay; the scenarios name the old versions under `replays`, with the rules' revision
that replays them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import warroom

from warroom import rulesets
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.scenarios import load_game

LEGACY = Path(__file__).parents[1] / "data" / "legacy"
CASES = {"caen-1.0.0.json": "German Strategic Victory by 500 VP",
         "norway-0.1.0.json": "Allied Operational Victory by 145 VP"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_old_save_replays_exactly_under_its_own_rules(name: str) -> None:
    record = GameRecord.load(LEGACY / name)
    sc = load_game(record.scenario)
    system = rulesets.of(sc)
    assert record.scenario_version != sc.version, "the fixture is a save of the older version"
    params = system.replay_params(sc, record.scenario_version, record.params)
    assert params is not None and params["revision"] == 1
    st: Any = replay(record, lambda: system.new_game(sc, dict(params)))
    assert st.is_terminal() and st.outcome_text() == CASES[name]
    with pytest.raises(Exception, match="log entry"):  # the same log is not a game of the new rules
        replay(record, lambda: system.new_game(sc, dict(record.params)))
    assert system.replay_params(sc, "0.0.1", record.params) is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_old_save_cut_short_resumes_at_the_terminal_and_plays_on(name: str, tmp_path: Path) -> None:
    data = json.loads((LEGACY / name).read_text(encoding="utf-8"))
    data["log"] = data["log"][: len(data["log"]) * 2 // 3]  # stopped two thirds of the way: the bots finish it
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    r = warroom("resume", path)  # as `warroom resume` at the terminal (forked from the warm command line)
    assert r.code == 0, r.err
    assert r.out.startswith("Resumed ")
    assert "it goes on under the rules it began with" in " ".join(r.out.split())
    after = GameRecord.load(path)
    assert after.params["revision"] == 1, "the game goes on under the rules it began with"
    assert after.scenario_version == load_game(after.scenario).version
    assert [e.action for e in after.log[: len(data["log"])]] == [e["action"] for e in data["log"]]
    sc = load_game(after.scenario)
    st = replay(after, lambda: rulesets.new_game(sc, dict(after.params)))
    assert st.is_terminal(), "the bots played it to the end, and the new save replays as it stands"


def test_a_save_of_an_unknown_older_version_is_still_refused(tmp_path: Path) -> None:
    data = json.loads((LEGACY / "caen-1.0.0.json").read_text(encoding="utf-8"))
    data["scenario_version"] = "0.9.0"
    path = tmp_path / "older.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    r = warroom("resume", path)
    assert r.code != 0 and "version 0.9.0, but version 1.1.0 is installed" in r.err
    assert path.read_bytes() == before
