"""Bots, the simulation runner, its streaming statistics, and per-side views."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from warroom.ai import HeuristicBot, RandomBot, make_bot
from warroom.ai.firestorm_heuristic import score
from warroom.core.dice import Roll
from warroom.core.stats import percentile, wilson
from warroom.rulesets.firestorm import new_game
from warroom.rulesets.firestorm.actions import Arrow, Commit
from warroom.scenarios import load_game, load_scenario
from warroom.sim import simulate
from warroom.sim.runner import Summary, play_one, summarise


def test_make_bot_names_and_unknown_bot() -> None:
    assert isinstance(make_bot("random", random.Random(1)), RandomBot)
    assert isinstance(make_bot("heuristic", random.Random(1)), HeuristicBot)
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever", random.Random(1))


def test_bots_only_choose_legal_actions() -> None:
    st = new_game(load_scenario("lorraine"))
    st.apply_action(Roll((1,)))  # battles: 3 + D3
    st.apply_action(Roll((6, 1)))  # Allies win initiative
    legal = st.legal_actions()
    for bot in (make_bot("random", random.Random(3)), make_bot("heuristic", random.Random(3))):
        assert bot.choose(st, legal) in legal


def test_heuristic_prefers_the_stronger_attack_and_commits_its_best_troops() -> None:
    st = new_game(load_scenario("lorraine"))
    st.apply_action(Roll((1,)))
    st.apply_action(Roll((6, 1)))
    legal = [a for a in st.legal_actions() if isinstance(a, Arrow)]
    best = max(legal, key=lambda a: score(st, "allies", a))
    worst = min(legal, key=lambda a: score(st, "allies", a))
    assert score(st, "allies", best) > score(st, "allies", worst)
    st.apply_action(HeuristicBot(random.Random(1)).choose(st, st.legal_actions()))
    commits = st.legal_actions()
    chosen = HeuristicBot(random.Random(1)).choose(st, commits)
    assert isinstance(chosen, Commit)
    assert score(st, "allies", chosen) == max(score(st, "allies", c) for c in commits)


def test_heuristic_allies_win_far_more_often_than_random_allies() -> None:
    def allied_wins(allies: str) -> int:
        won = 0
        for seed in range(24):
            st = play_one("lorraine", seed, {"allies": allies, "axis": "random"})
            won += st.total_vp("allies") - st.total_vp("axis") >= 50
        return won

    heuristic, baseline = allied_wins("heuristic"), allied_wins("random")
    assert heuristic >= 2 * baseline and heuristic >= 12, (heuristic, baseline)


def test_wilson_interval_and_percentiles() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(90, 100)
    assert 0.82 < lo < 0.9 < hi < 0.95
    hist = {-10: 1, 0: 2, 30: 1}
    assert [percentile(hist, q) for q in (0.0, 0.25, 0.5, 0.75, 1.0)] == [-10, -10, 0, 0, 30]
    assert percentile({}, 0.5) == 0


def test_summary_merge_equals_adding_every_game() -> None:
    games = [summarise(play_one("lorraine", seed, {"allies": "random", "axis": "random"})) for seed in range(6)]
    whole, left, right = Summary(), Summary(), Summary()
    for i, g in enumerate(games):
        whole.add(g)
        (left if i < 3 else right).add(g)
    left.merge(right)
    assert left.report(("allies", "axis")) == whole.report(("allies", "axis"))
    report = whole.report(("allies", "axis"))
    assert report["games"] == 6
    assert sum(r["count"] for r in report["outcomes"].values()) == 6
    assert all(abs(sum(row.values()) - 1.0) < 1e-9 for row in report["held_at_end"].values())


def test_simulate_does_not_depend_on_chunking() -> None:
    bots = {"allies": "random", "axis": "random"}
    a = simulate("lorraine", 12, 5, bots, chunk=5).report(("allies", "axis"))
    b = simulate("lorraine", 12, 5, bots, chunk=12).report(("allies", "axis"))
    assert a == b and a["games"] == 12


def test_view_is_public_json_without_seed_or_dice_to_come() -> None:
    st = play_one("caen", 4, {"allies": "random", "axis": "random"}, record_events=True)
    for side in ("allies", "axis", None):
        view = st.view(side)
        text = json.dumps(view)
        assert "seed" not in text
        assert view["viewer"] == side and view["terminal"] is True
        assert view["vp"]["allies"]["total"] == st.total_vp("allies")
        held = {a["id"]: a["controller"] for a in view["areas"]}
        assert held == st.control
        placed = sorted(u for a in view["areas"] for u in a["troops"])
        assert placed == sorted(u for u, w in st.loc.items() if w in st.control)


def test_bot_games_are_general_s_wargame_only() -> None:
    with pytest.raises(ValueError, match="General's Wargame"):
        play_one("caen", 1, {"allies": "random", "axis": "random"}, {"mode": "tabletop"})
    with pytest.raises(ValueError, match="allotment only applies in mixed mode"):
        new_game(load_scenario("caen"), {"mode": "gw", "allotment": 1})


def test_locations_survive_pickle_and_deepcopy() -> None:
    import copy
    import pickle

    st = play_one("caen", 2, {"allies": "random", "axis": "random"})
    for twin in (pickle.loads(pickle.dumps(st.loc)), copy.deepcopy(st).loc):
        assert dict(twin) == dict(st.loc)
        assert {k: v for k, v in twin.counts.items() if v} == {k: v for k, v in st.loc.counts.items() if v}


@pytest.mark.parametrize("scenario", ["caen", "lorraine", "norway", "kampen", "narvik"])
def test_a_game_summary_follows_the_first_camps_lead_turn_by_turn(scenario: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom import rulesets
    from warroom.rulesets.firestorm.state import lead_of
    from warroom.sim import runner
    from warroom.sim.runner import play_summary, reference_summary

    played: list[Any] = []  # the games the reference engine plays (`play_one`), each played once

    def playing(*args: Any, **kwargs: Any) -> Any:
        game = real(*args, **kwargs)
        played.append(game)
        return game

    real = runner.play_one
    monkeypatch.setattr(runner, "play_one", playing)
    system = rulesets.of(load_game(scenario))
    for seed in range(2):
        played.clear()
        g = play_summary(scenario, seed, {})
        if rulesets.fast_game(system) is not None:  # the kernel (Firestorm) follows it as the engine does; without
            assert g == reference_summary(scenario, seed, {})  # one, play_summary is reference_summary already
        st = played[-1]  # `play_one(scenario, seed, {})`, the game summarised, as the reference engine plays it
        first = system.score_sides(st.sc)[0]
        start = rulesets.new_game(st.sc, st.params).turn  # Kampen om Norge counts the 9 April round as 0
        assert len(g.trace) == st.turn - start + 1  # one lead a turn, the last as the game ended
        assert g.trace[-1] == system.lead(st)  # type: ignore[misc]
        assert (g.trace[-1] > 0) == (g.winner == first) and (g.trace[-1] == 0) == (g.winner == "")
        if system.id == "firestorm":
            assert g.trace[-1] == lead_of(st.sc, g.diff)  # VP, where they make a victory
        else:
            assert g.trace[-1] in (-2.0, -1.0, 0.0, 1.0, 2.0)  # outcome levels either side of a draw
