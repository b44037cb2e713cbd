"""Helpers for the Kampen om Norge worked-example scenarios (K-digest, examples 1-3): a dealt basic game set
to a given position, exact hands, and actions typed as text by a named country."""

from __future__ import annotations

import random

from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.state import GERMANY, NORWAY

OUT_OF_THE_WAY: dict[str, dict[str, int]] = {"finnmark": {NORWAY: 2}, "kristiansand": {GERMANY: 1}}
"""Battalions far from every example, so that no side is wiped out by the example's losses."""
CARD_STEPS = ("attack_cards", "defend_cards", "react_cards")
"""A land battle's card steps (4.2 steps 1-3)."""


def position(troops: dict[str, dict[str, int]], country: str, seed: int = 1) -> KampenState:
    """A basic game, dealt with a seeded shuffle, at the start of `country`'s round with exactly these
    battalions (plus `OUT_OF_THE_WAY`); the Allies' first six count as landed earlier."""
    st = new_game()
    rng = random.Random(seed)
    while st.current_player() == CHANCE:
        st.apply_action(st.chance_dice().sample(rng))
    st.troops = {a: dict(c) for a, c in {**OUT_OF_THE_WAY, **troops}.items()}
    st.allies_landed = True
    st.country = country
    st.flow.enter(st, "round_start")
    st.edited()
    return st


def set_hand(st: KampenState, country: str, *keys: str) -> None:
    """Give `country` exactly these cards (keys with their copy numbers). They leave the face-down pile; the
    cards the hand held go to the bottom of that pile, so every card of the deck is still there once."""
    old = st.hands[country]
    pool = old + st.draw[country]
    assert all(k in pool for k in keys), f"not all of {keys} are in {country}'s hand or deck"
    st.hands[country] = list(keys)
    st.draw[country] = [k for k in st.draw[country] if k not in keys] + [k for k in old if k not in keys]
    assert sorted(st.hands[country] + st.draw[country] + st.used[country]) == sorted(st.sc.deck(country))
    st.edited()


def act(st: KampenState, who: str, *texts: str) -> None:
    """`who` takes these actions, typed as a player would; the state refuses them if it is not `who`'s turn
    or the action is not legal."""
    for text in texts:
        st.apply_action(st.parse_action(text), who)


def options(st: KampenState) -> set[str]:
    """The legal actions now, as text."""
    return {a.to_str() for a in st.legal_actions()}


def last_event(st: KampenState, start: str) -> str:
    """The latest event note that begins with `start`."""
    found = [text for _, text in st.events if text.startswith(start)]
    assert found, f"no event starting {start!r}"
    return found[-1]


def dice_if_nobody_plays_more(st: KampenState) -> tuple[int, int]:
    """(attacker's dice, defender's dice) the battle would roll if every seat passed from now on: played
    on a copy, so the game itself goes on untouched."""
    trial = st.clone()
    while trial.step in CARD_STEPS:
        trial.apply_action(trial.parse_action("done"))
    assert trial.step == "attack_roll" and trial.battle is not None
    return trial.battle.att_dice, trial.battle.def_dice
