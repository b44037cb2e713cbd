"""The simulation kernel plays the reference engine's games: every decision offers the same actions in the same order,
and a seeded random game is the same game, log and end, in both (`sim.kernel_check`). `make fuzz` plays 10,000
games per scenario (`scripts/kernel_diff.py`); here a few hundred."""

from __future__ import annotations

import random

import pytest

from warroom import rulesets
from warroom.ai.mcts import Budget, search_for
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm.bridge import kernel_of
from warroom.rulesets.firestorm.kernel import Kernel, new_kernel
from warroom.scenarios import load_game
from warroom.sim.kernel_check import KERNEL_SCENARIOS, differences, lockstep, same_game
from warroom.sim.runner import play_one, play_summary, summarise
from warroom.sim.walk import decisions

LOCKSTEP_GAMES = 120
SAME_GAMES = 120


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_every_decision_offers_the_same_actions(scenario: str) -> None:
    problems = [p for seed in range(LOCKSTEP_GAMES) if (p := lockstep(scenario, seed))]
    assert problems == []


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_a_seeded_random_game_is_the_same_game(scenario: str) -> None:
    problems = [p for seed in range(1000, 1000 + SAME_GAMES) if (p := same_game(scenario, seed))]
    assert problems == []


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
def test_simulation_summaries_are_those_of_the_reference_engine(scenario: str) -> None:
    """`simulate` plays random bots in the kernel; each game's summary is the reference engine's."""
    for seed in range(20):
        assert play_summary(scenario, seed, {}) == summarise(play_one(scenario, seed, {}))


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


def _fields(k: Kernel) -> dict[str, object]:
    out = {}
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
    assert system.random_game is not None and system.random_game(norway, {"mode": "gw"}, 1) is None
    caen = load_game("caen")
    for params in ({"mode": "tabletop"}, {"mode": "mixed"}, {"mode": "gw", "parallel": True}):
        assert kernel_of(system.new_game(caen, params)) is None
    assert play_summary("norway", 3, {}) == summarise(play_one("norway", 3, {}))


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


def _tree(st: object, seed: int, budget: Budget, use_kernel: bool) -> tuple[list[tuple[str, int, float]], int]:
    """The root's statistics after a search, and how many rollouts the kernel played."""
    search = search_for(st, random.Random(seed), budget)
    handed = [0]
    kernel = search.kernel
    assert kernel is not None

    def counting(world: object) -> object:
        handed[0] += 1
        return kernel(world)

    search.kernel = counting if use_kernel else None  # type: ignore[assignment]
    search.run()
    return sorted((str(key), child.visits, round(child.total, 9))
                  for key, child in search.root.children.items()), handed[0]


@pytest.mark.parametrize("scenario", KERNEL_SCENARIOS)
@pytest.mark.parametrize("horizon", [None, 5, 30])
def test_a_search_with_the_kernel_is_the_same_search(scenario: str, horizon: int | None) -> None:
    """The search plays its random rollouts in the kernel: the same rollouts, so the same tree and choice."""
    sc = load_game(scenario)
    st = next(decisions(rulesets.of(sc).new_game(sc, {"mode": "gw"}), 1))
    budget = Budget(rollouts=40, horizon=horizon)
    fast, handed = _tree(st, 9, budget, True)
    slow, none = _tree(st, 9, budget, False)
    assert fast == slow
    assert handed > 20 and none == 0
