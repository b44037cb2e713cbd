"""Seeded Kampen om Norge games with random play, invariants checked after every action, exact replay, and
views that never leak another country's hand or the deck order (issue 5)."""

from __future__ import annotations

import random

from warroom.ai import make_bot
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.state import GERMANY

GAMES = 300
REPLAY_EVERY = 10
VIEW_EVERY = 25  # actions between view-leak checks within a game


def check_invariants(st: KampenState) -> None:
    sc = st.sc
    for c in sc.countries:
        if st.round:  # from the deal on, every card is in one place only
            cards = st.hands[c] + st.draw[c] + st.used[c]
            assert sorted(cards) == sorted(sc.deck(c)), f"{c}: a card lost or doubled"
        assert len(st.hands[c]) <= sc.hand[c] + 1, f"{c} holds {len(st.hands[c])} cards"
    for area, here in st.troops.items():
        assert area in sc.board.land
        assert all(n > 0 for n in here.values()), f"an empty count is kept in {area}"
        assert not (GERMANY in here and len(here) > 1), f"{area} holds enemies after the flow settled"
    for area, attack in st.attacks.items():
        assert attack.total > 0 and 0 <= attack.over_water <= attack.total - attack.by_sea_or_air
        assert all(o in sc.board.neighbours(area) for o in attack.origins), "attacks come from a neighbour"
    if st.terminal:
        assert st.result[0] in ("germany", "norway_allies") and st.result[1] in ("clear", "narrow")


def check_views(st: KampenState) -> None:
    """No view shows a hand but the viewer's own, nor any card still face down."""
    for side in (*st.sc.countries, None):
        text = repr(st.view(side))
        for c in st.sc.countries:
            hidden = ([] if c == side else st.hands[c]) + st.draw[c]
            assert not any(card in text for card in hidden), f"{side}'s view shows a hidden card of {c}"


def play(seed: int, check: bool) -> KampenState:
    st = new_game()
    dice = random.Random(seed)
    bots = {c: make_bot("random", random.Random(seed * 31 + i)) for i, c in enumerate(st.sc.countries)}
    n = 0
    while not st.is_terminal():
        who = st.current_player()
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(dice))
        else:
            legal = st.legal_actions()
            assert legal, f"{who} must act in step {st.step!r} but has nothing to do"
            action = bots[who].choose(st, legal)
            assert st.parse_action(action.to_str()) == action, "the text codec round-trips"
            st.apply_action(action)
        n += 1
        if check:
            check_invariants(st)
            if n % VIEW_EVERY == 0:
                check_views(st)
        assert n < 50_000, "the game must end"
    return st


def test_seeded_games_keep_every_invariant_and_replay() -> None:
    outcomes: dict[tuple[str, str], int] = {}
    for seed in range(GAMES):
        st = play(seed, check=seed % 3 == 0)
        outcomes[st.result] = outcomes.get(st.result, 0) + 1
        if seed % REPLAY_EVERY == 0:
            record = GameRecord.from_json(st.record(seed).to_json())
            params = dict(record.params)
            again = replay(record, lambda: new_game(None, dict(params)))  # noqa: B023 (used at once)
            assert isinstance(again, KampenState)
            assert (again.troops, again.hands, again.draw, again.events) == (st.troops, st.hands, st.draw, st.events)
    assert sum(outcomes.values()) == GAMES
