"""The simulation kernel plays the reference engine's games: every decision offers the same actions in the same order,
and a seeded random game is the same game, log and end, in both (`sim.kernel_check`). `make fuzz GAMES=10000`
plays 10,000 games per scenario (`scripts/kernel_diff.py`); here a few dozen (more at a deeper WARROOM_TEST_DEPTH)."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from depth import deep

from warroom import rulesets
from warroom.ai.mcts import Budget, Search, search_for
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm.bridge import kernel_of
from warroom.rulesets.firestorm.kernel import Kernel, new_kernel
from warroom.rulesets.firestorm.kmap import kernel_problem, kmap
from warroom.scenarios import load_game
from warroom.scenarios.loader import DATA
from warroom.sim.kernel_check import KERNEL_SCENARIOS, differences, lockstep, same_game
from warroom.sim.runner import play_one, play_summary, reference_summary
from warroom.sim.walk import decisions

LOCKSTEP_GAMES = deep(30)
SAME_GAMES = deep(40)


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_every_decision_offers_the_same_actions(scenario: str) -> None:
    problems = [p for seed in range(LOCKSTEP_GAMES) if (p := lockstep(scenario, seed))]
    assert problems == []


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_a_seeded_random_game_is_the_same_game(scenario: str) -> None:
    problems = [p for seed in range(1000, 1000 + SAME_GAMES) if (p := same_game(scenario, seed))]
    assert problems == []


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "heuristic"), ("random", "heuristic"),
                                  ("heuristic", "random")])
def test_simulation_summaries_are_those_of_the_reference_engine(scenario: str, bots: tuple[str, str]) -> None:
    """`simulate` plays random and heuristic bots in the kernel; each game's summary is the reference engine's."""
    sides = load_game(scenario).sides
    for seed in range(deep(6) if "heuristic" in bots else deep(10)):
        kinds = dict(zip(sides, bots, strict=True))
        assert play_summary(scenario, seed, kinds) == reference_summary(scenario, seed, kinds)


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_the_kernel_heuristic_makes_the_reference_heuristic_s_choices(scenario: str) -> None:
    """At every decision of heuristic games, the kernel heuristic picks the reference heuristic's action with the
    same random stream, and the games stay the same to the end."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    reference = rulesets.heuristic(system)
    kernel_choice: Any = rulesets.kernel_heuristic(system)  # over kernel codes, not reference actions
    assert reference is not None and kernel_choice is not None
    for seed in range(6):
        st = system.new_game(sc, {"mode": "gw"})
        st.record_events = False
        k = new_kernel(sc, st.params)
        dice, mine, theirs = random.Random(seed), random.Random(seed + 100), random.Random(seed + 100)
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                roll = st.chance_dice().sample(dice)
                st.apply_action(roll)
                k.apply_action(roll)
                continue
            legal = st.legal_actions()
            action = reference(st, legal, theirs)
            code: int = kernel_choice(k, k.legal_actions(), mine)
            assert k.m.action(code) == action, f"seed {seed}, step {st.step}, turn {st.turn}"
            st.apply_action(action)
            k.apply_action(code)
        assert differences(st, k) == ""


def test_a_lockstep_check_names_a_difference() -> None:
    """The checker is not blind: a kernel position that differs is reported, with what differs."""
    sc = load_game("caen")
    st = next(decisions(rulesets.of(sc).new_game(sc, {"mode": "gw"}), 3))
    k = kernel_of(st)
    assert k is not None and differences(st, k) == ""
    k.move_to(0, k.m.POOL if k.loc[0] != k.m.POOL else 0)
    assert differences(st, k).startswith(f"{k.m.troops[0]}: kernel ")
    k2 = kernel_of(st)
    assert k2 is not None
    k2.unit_vp[0] += 5
    assert differences(st, k2).startswith("VP of allies")


def _fields(k: Kernel) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in vars(k).items():
        if name in ("m", "params", "book", "supply_cache", "reach_cache", "pool_cache"):
            continue
        out[name] = repr(value) if name != "battle" or value is None else repr(sorted(
            (slot, getattr(value, slot)) for slot in type(value).__slots__))
    return out


def test_a_clone_shares_nothing_that_play_changes() -> None:
    sc = load_game("caen")
    k = new_kernel(sc, {"mode": "gw"})
    rng = random.Random(4)
    for _ in range(120):  # into the first Strategic Phase, a battle open now and then
        k.play_out((rng, rng), rng, horizon=1)
    for _ in range(40):
        twin = k.clone()
        assert set(vars(twin)) == set(vars(k))
        before = _fields(k)
        twin.play_out((rng, rng), rng, horizon=60)
        assert _fields(k) == before
        k.play_out((rng, rng), rng, horizon=3)
        if k.is_terminal():
            break


def test_play_out_stops_at_its_horizon() -> None:
    sc = load_game("lorraine")
    k = new_kernel(sc, {"mode": "gw"})
    rng = random.Random(1)
    assert k.play_out((rng, rng), rng, horizon=25) == 25
    assert k.played == 25
    rest = k.play_out((rng, rng), rng)
    assert k.is_terminal() and rest > 0


def test_the_kernel_takes_only_what_it_plays() -> None:
    """Norway, tabletop battles and battles in parallel stay with the reference engine; the simulator and the
    search then use it, as before."""
    norway = load_game("norway")
    system = rulesets.of(norway)
    st = system.new_game(norway, {"mode": "gw"})
    assert kernel_of(st) is None
    fast = rulesets.fast_game(system)
    assert fast is not None and fast(norway, {"mode": "gw"}, 1, {}) is None
    assert fast(load_game("caen"), {"mode": "gw"}, 1, {"allies": "mcts"}) is None  # nor bots it has not
    caen = load_game("caen")
    for params in ({"mode": "tabletop"}, {"mode": "mixed"}, {"mode": "gw", "parallel": True}):
        assert kernel_of(system.new_game(caen, params)) is None
    assert play_summary("norway", 3, {}) == reference_summary("norway", 3, {})


def test_a_scenario_with_an_air_drop_stays_with_the_reference_engine(tmp_path: Path) -> None:
    """An arrival that seizes its area (an air drop, a scenario field any campaign may use) is a rule the kernel does
    not play: it refuses the scenario, and the simulator plays it on the reference engine."""
    folder = tmp_path / "caen_drop"
    shutil.copytree(DATA / "caen", folder)
    text = (folder / "scenario.toml").read_text(encoding="utf-8")
    text = text.replace('id = "caen"', 'id = "caen_drop"', 1).replace(
        '[[turn.arrival]]\nunit = "arm_11"\n', '[[turn.arrival]]\nunit = "arm_11"\nareas = ["D3"]\nseize = true\n', 1)
    (folder / "scenario.toml").write_text(text, encoding="utf-8")
    sc = load_game(str(folder))
    assert "air drops" in kernel_problem(sc, {"mode": "gw"})
    st = rulesets.of(sc).new_game(sc, {"mode": "gw"})
    assert kernel_of(st) is None
    for seed in range(3):
        assert play_summary(str(folder), seed, {}) == reference_summary(str(folder), seed, {})


@pytest.mark.parametrize("params", [{"mode": "gw", "revision": 3}, {"mode": "gw", "revision": "2"},
                                    {"mode": "gw", "allotment": 2}])
def test_the_simulator_refuses_bad_parameters_before_the_kernel_plays(params: dict[str, Any]) -> None:
    """Parameters the reference engine refuses are refused on the fast path too, with the same message."""
    with pytest.raises(ValueError) as reference:
        play_one("caen", 3, {}, dict(params))
    with pytest.raises(ValueError) as fast:
        play_summary("caen", 3, {}, dict(params))
    assert str(fast.value) == str(reference.value)


def test_codes_and_actions_translate_both_ways() -> None:
    sc = load_game("caen")
    st = rulesets.of(sc).new_game(sc, {"mode": "gw"})
    k = kernel_of(st)
    assert k is not None
    m = k.m
    seen = 0
    for pos in decisions(st, 7, most=300):
        if pos.current_player() == CHANCE:
            continue
        for action in pos.legal_actions():
            assert m.action(m.code(action)) == action
            seen += 1
    assert seen > 300
    nt = m.nt
    assert m.commit_code((3, nt)) == m.commit_code((nt, 3))  # a commitment is the same in any order
    # every group of up to three items, extras among them, has its own code, which gives back its items in order
    items = range(len(m.item_rank))
    groups = [(), *((i,) for i in items), *combinations(items, 2), *combinations(items, 3)]
    codes = {m.commit_code(g[::-1]): g for g in groups}
    assert len(codes) == len(groups)
    for code, group in codes.items():
        back = m.commit_items(code)
        assert sorted(back) == sorted(group)
        assert [m.item_rank[i] for i in back] == sorted(m.item_rank[i] for i in group)


def _stats(search: Search, decode: Callable[[Any], Any] | None = None) -> list[tuple[str, str, int, float]]:
    """The root's children: who chose what (the reference action), visits and total value."""
    return sorted((side, (decode(action) if decode else action).to_str(), child.visits, round(child.total, 9))
                  for (side, action), child in search.root.children.items())


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
@pytest.mark.parametrize("budget", [Budget(rollouts=40), Budget(rollouts=40, horizon=5),
                                    Budget(rollouts=30, horizon=30), Budget(rollouts=25, guided=True),
                                    Budget(rollouts=25, horizon=20, guided=True)])
def test_a_search_in_the_kernel_is_the_search_on_the_reference_engine(scenario: str, budget: Budget) -> None:
    """Where the kernel takes the position, the search runs in it (tree, hints, rollouts): the same search, so the
    same statistics and the same choice, as on the reference engine."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    st = next(decisions(system.new_game(sc, {"mode": "gw"}), 1))
    fast = search_for(st, random.Random(9), budget)
    assert fast.encode is not None  # it runs in the kernel
    fast.run()
    slow = Search(st, random.Random(9), budget, system.value, system.determinise, rulesets.heuristic(system))
    slow.run()
    m = kmap(sc)
    assert _stats(fast, m.action) == _stats(slow)
    legal = st.legal_actions()
    assert fast.best(legal) == slow.best(legal)


def test_rollouts_from_the_reference_tree_are_played_in_the_kernel() -> None:
    """Where the search's tree is on the reference engine, random rollouts still go to the kernel, unchanged."""
    sc = load_game("caen")
    system = rulesets.of(sc)
    st = next(decisions(system.new_game(sc, {"mode": "gw"}), 1))
    handed = [0]
    kernel = system.kernel
    assert kernel is not None

    def counting(world: Any) -> Any:
        handed[0] += 1
        return kernel(world)

    budget = Budget(rollouts=40, horizon=25)
    with_kernel = Search(st, random.Random(3), budget, system.value, system.determinise,
                         rulesets.heuristic(system), counting)
    with_kernel.run()
    without = Search(st, random.Random(3), budget, system.value, system.determinise, rulesets.heuristic(system))
    without.run()
    assert _stats(with_kernel) == _stats(without)
    assert handed[0] > 20


def test_without_a_kernel_heuristic_the_tree_stays_on_the_reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system with a kernel but no kernel heuristic keeps its tree on the reference engine, where the hints are
    its heuristic's: a search in the kernel would lose them and search differently."""
    import dataclasses

    import warroom.ai.mcts as mcts

    sc = load_game("lorraine")
    system = rulesets.of(sc)
    st = next(decisions(system.new_game(sc, {"mode": "gw"}), 1))
    bare = dataclasses.replace(system, kernel_heuristic=None)
    monkeypatch.setattr(mcts, "of", lambda _state: bare)
    search = mcts.search_for(st, random.Random(1), Budget(rollouts=20))
    assert search.encode is None and search.kernel is not None  # the reference tree, rollouts in the kernel
    search.run()
    reference = Search(st, random.Random(1), Budget(rollouts=20), system.value, system.determinise,
                       rulesets.heuristic(system))
    reference.run()
    assert _stats(search) == _stats(reference)
