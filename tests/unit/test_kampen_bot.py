"""The Kampen om Norge bot plays from what its country may know: determinised positions keep every size and
the bot's own hand, and two positions that look the same to the bot's country get the same decision."""

from __future__ import annotations

import random

from warroom.ai import make_bot
from warroom.ai.kampen_heuristic import KampenHeuristic, determinise
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game


def positions(seed: int, every: int = 37, limit: int = 12) -> list[KampenState]:
    """Decision points along a seeded game between heuristic bots."""
    st = new_game()
    dice = random.Random(seed)
    bots = {c: make_bot("heuristic", random.Random(seed + i)) for i, c in enumerate(st.sc.countries)}
    out: list[KampenState] = []
    n = 0
    while not st.is_terminal() and len(out) < limit:
        who = st.current_player()
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(dice))
            continue
        n += 1
        if n % every == 0:
            out.append(st.clone())
        st.apply_action(bots[who].choose(st, st.legal_actions()))
    return out


def twin(st: KampenState, me: str, rng: random.Random) -> KampenState:
    """The same position as `me` sees it, with every card `me` cannot see dealt differently."""
    other = st.clone()
    for c in st.sc.countries:
        hidden = other.draw[c] + ([] if c == me else other.hands[c])
        rng.shuffle(hidden)
        if c != me:
            other.hands[c], hidden = hidden[:len(st.hands[c])], hidden[len(st.hands[c]):]
        other.draw[c] = hidden
    return other


def test_determinised_positions_keep_sizes_the_own_hand_and_the_unseen_cards() -> None:
    for st in positions(1, every=53, limit=5):
        me = st.current_player()
        world = determinise(st, me, random.Random(7))
        assert world.hands[me] == st.hands[me]
        for c in st.sc.countries:
            assert len(world.hands[c]) == len(st.hands[c]) and len(world.draw[c]) == len(st.draw[c])
            assert sorted(world.hands[c] + world.draw[c]) == sorted(st.hands[c] + st.draw[c])
            assert world.used[c] == st.used[c]
        assert world.troops == st.troops


def test_the_bot_decides_the_same_whatever_the_hidden_cards() -> None:
    checked = 0
    for seed in range(3):
        for st in positions(seed):
            me = st.current_player()
            other = twin(st, me, random.Random(seed))
            assert other.view(me) == st.view(me), "the twin looks the same to the bot's country"
            if (other.hands, other.draw) == (st.hands, st.draw):
                continue
            legal, legal2 = st.legal_actions(), other.legal_actions()
            assert legal == legal2
            a = KampenHeuristic(random.Random(99)).choose(st, legal)
            b = KampenHeuristic(random.Random(99)).choose(other, legal2)
            assert a == b, f"{me} at {st.step}: {a.to_str()} on the real cards but {b.to_str()} on the twin"
            checked += 1
    assert checked >= 10


def test_who_is_asked_next_never_depends_on_cards_the_actor_cannot_see() -> None:
    """The flow must not tell a country what the others hold: after the same action, the next step and the
    next country to act are the same whatever cards are hidden from the actor (a skipped question would say
    'nothing playable')."""
    compared = 0
    for seed in range(4):
        for st in positions(seed, every=11, limit=40):
            me = st.current_player()
            other = twin(st, me, random.Random(seed + 100))
            action = st.legal_actions()[0]
            if action not in other.legal_actions():
                continue
            st.apply_action(action)
            other.apply_action(action)
            assert (st.step, st.current_player()) == (other.step, other.current_player()), \
                f"after {me}'s {action.to_str()}: {st.step}/{st.current_player()} against {other.step}/" \
                f"{other.current_player()}"
            compared += 1
    assert compared >= 50
