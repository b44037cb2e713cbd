"""The random draws of Kampen om Norge's steps (`Step.sample`: land.py's moves and placements, the battle's card
windows in effects.py, Norway's phase-1c sabotage in manoeuvre.py): each draws one of its step's legal actions,
each as likely as any other, without listing them; a search's random playouts make their moves with them
(`KampenState.random_action`)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from warroom.ai.mcts import Budget, search_for
from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.actions import Play
from warroom.scenarios import load_game

SAMPLED = tuple(sorted({name for params in ({}, {"advanced": True})
                        for name, step in new_game(load_game("kampen"), params).flow.steps.items() if step.sample}))
"""The steps that draw without listing."""


def positions(params: dict[str, Any], seed: int) -> Iterator[KampenState]:
    """The decisions at the sampled steps of one game played by uniform random choices from the listed actions."""
    st = new_game(load_game("kampen"), dict(params))
    rng = random.Random(seed)
    while not st.is_terminal():
        who = st.current_player()
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(rng), who)
            continue
        legal = st.legal_actions()
        if st.step in SAMPLED and len(legal) > 1:
            yield st
        st.apply_action(legal[int(rng.random() * len(legal))], who)


def has_play(st: KampenState) -> bool:
    return any(isinstance(a, Play) for a in st.legal_actions())


def sample_positions(params: dict[str, Any], seed: int, every: int) -> list[KampenState]:
    out: list[KampenState] = []
    for i, st in enumerate(positions(params, seed)):
        if i % every == 0:
            out.append(st.clone())
    return out


def test_the_sampled_steps_are_the_busy_ones() -> None:
    assert SAMPLED == ("attack_cards", "defend_cards", "move", "place", "react_cards", "sabotage")


@pytest.mark.parametrize("params", [{}, {"advanced": True}, {"seats": 3}, {"advanced": True, "seats": 3}],
                         ids=["basic", "advanced", "basic-3", "advanced-3"])
def test_every_draw_is_one_of_the_listed_actions(params: dict[str, Any]) -> None:
    seen = Counter[str]()
    for seed in range(3):
        for st in sample_positions(params, seed, 5):
            legal = set(st.legal_actions())
            rng = random.Random(seed)
            for _ in range(40):
                drawn = st.random_action(rng)
                assert drawn in legal, f"{drawn.to_str()} drawn at {st.step}, not legal there"
            seen[st.step] += 1
    assert set(seen) == set(SAMPLED), seen


@pytest.mark.parametrize("params", [{}, {"advanced": True}], ids=["basic", "advanced"])
def test_the_draws_are_uniform_over_the_legal_actions(params: dict[str, Any]) -> None:
    """Chi-square against equal counts, at a threshold six standard deviations out (a false alarm is then out of
    the question); every action, cards and `done` included, is drawn. At each sampled step, the positions of two
    games with the most choices (a move step's where cards are among them)."""
    found = sample_positions(params, 5, 1) + sample_positions(params, 6, 1)
    picked: list[KampenState] = []
    for name in SAMPLED:
        here = [st for st in found if st.step == name and (name != "move" or has_play(st))]
        here.sort(key=lambda st: -len(st.legal_actions()))
        picked += here[:2]
    assert {st.step for st in picked} == set(SAMPLED)
    for st in picked:
        legal = list(st.legal_actions())
        per = 120
        rng = random.Random(9)
        counts = Counter(st.random_action(rng) for _ in range(per * len(legal)))
        assert set(counts) == set(legal), f"at {st.step} some legal actions were never drawn"
        chi2 = sum((counts[a] - per) ** 2 / per for a in legal)
        df = len(legal) - 1
        assert chi2 < df + 6 * math.sqrt(2 * df), f"at {st.step}: chi-square {chi2:.0f} on {df} degrees of freedom"


def test_a_move_drawn_where_cards_are_held_can_be_a_card() -> None:
    """Where the mover holds a movement card it may play, the draw offers it as often as each plain move."""
    for st in sample_positions({}, 2, 1):
        plays = [a for a in st.legal_actions() if isinstance(a, Play)]
        if st.step == "move" and plays:
            rng = random.Random(3)
            draws = [st.random_action(rng) for _ in range(60 * len(st.legal_actions()))]
            assert all(draws.count(p) > 0 for p in plays)
            return
    pytest.fail("no move step with a playable card in the game")


def test_no_draw_where_no_player_chooses() -> None:
    st = new_game(load_game("kampen"), {})
    assert st.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match="no player chooses"):
        st.random_action(random.Random(1))


def test_the_draws_are_seeded_and_searches_repeat() -> None:
    st = sample_positions({}, 1, 5)[1]
    first = [st.random_action(random.Random(4)).to_str() for _ in range(3)]
    assert first == [st.random_action(random.Random(4)).to_str() for _ in range(3)]
    a = search_for(st, random.Random(8), Budget(rollouts=12))
    b = search_for(st, random.Random(8), Budget(rollouts=12))
    a.run()
    b.run()
    legal = st.legal_actions()
    assert a.best(legal) == b.best(legal)
    assert [(c.visits, c.total) for c in a.root.children.values()] == \
        [(c.visits, c.total) for c in b.root.children.values()]
