"""A Kampen om Norge bot that plays from what its country may know.

Before it decides, the bot *determinises* the position: the cards it cannot see (the other countries' hands
and every face-down deck) are dealt again at random from the cards it knows are unseen, keeping every hand
and deck size. Its scores use only that copy, so a position that looks the same to its country gets the same
decision, whatever the hidden cards really are (tests/unit/test_kampen_bot.py checks this).

The scores: attack where its dice beat the defence it expects (including the battle cards the enemy may hold
in the sampled hands), press towards point cities, play battle cards that add dice or cancel, keep such cards
and trade the rest for battalions, and place new battalions where the front or the point cities are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.core.state import Action
from warroom.rulesets.kampen import combat
from warroom.rulesets.kampen.actions import Discard, Done, Exchange, Fight, Lose, Move, Place, Play, Remove, Retreat
from warroom.rulesets.kampen.effects import card_of
from warroom.rulesets.kampen.state import ALLIES, DEFENDERS, GERMANY, NORWAY, KampenState

SAMPLES = 3
BATTLE_EFFECTS = ("extra_dice", "cancel", "ignore_water")


def determinise(st: KampenState, me: str, rng: random.Random) -> KampenState:
    """A copy of `st` in which every card `me` cannot see is dealt again at random (sizes kept)."""
    copy = st.clone(history=False)
    for c in st.sc.countries:
        unseen = list(st.draw[c]) + ([] if c == me else list(st.hands[c]))
        unseen.sort()  # forget the real order before the random deal
        rng.shuffle(unseen)
        if c != me:
            copy.hands[c] = unseen[:len(st.hands[c])]
            unseen = unseen[len(st.hands[c]):]
        copy.draw[c] = unseen
    return copy


def battle_bonus(st: KampenState, country: str) -> int:
    """Dice the battle cards in `country`'s hand could add (one card per type)."""
    best: dict[str, int] = {}
    for key in st.hands[country]:
        card = card_of(st, key)
        for use in card.uses:
            if use.effect == "extra_dice" and not use.advanced:
                best[card.type] = max(best.get(card.type, 0), use.count("dice"))
    return sum(sorted(best.values(), reverse=True)[:2])


def side_of(country: str) -> tuple[str, ...]:
    return DEFENDERS if country in DEFENDERS else (GERMANY,)


class KampenHeuristic:
    """Chooses among the legal actions from a determinised copy of the position."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._front: dict[str, float] = {}  # enemy neighbours per area, for the decision being made

    def choose(self, st: KampenState, legal: Sequence[Action]) -> Action:
        me = st.current_player()
        self._front = {}
        worlds = [determinise(st, me, self.rng) for _ in range(SAMPLES)]
        enemy_bonus = sum(max((battle_bonus(w, e) for e in w.enemies(me)), default=0) for w in worlds) / SAMPLES
        scored = [(self.score(worlds[0], me, a, enemy_bonus), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s == best]
        return legal[top[int(self.rng.random() * len(top))]]

    # ----- scores -------------------------------------------------------------------------------------------------
    def score(self, st: KampenState, me: str, action: Action, enemy_bonus: float) -> float:
        if isinstance(action, Move):
            return self.move_score(st, me, action, enemy_bonus)
        if isinstance(action, Play):
            return self.play_score(st, me, action)
        if isinstance(action, Exchange):
            card = card_of(st, action.card)
            keep = any(u.effect in BATTLE_EFFECTS for u in card.uses) and len(st.hands[me]) <= 2
            return -5.0 if keep else st.sc.symbols_of(action.card)
        if isinstance(action, Done):
            if st.step == "reinforce":
                return 2.5 if st.symbols % 3 == 0 or st.cards_used else 0.5
            return 0.0
        if isinstance(action, Place):
            return self.place_score(st, me, action)
        if isinstance(action, Fight):
            attack = st.attacks[action.area]
            return attack.total - sum(st.at(action.area, d) for d in st.enemies(me))
        if isinstance(action, Lose):
            return float(st.at(st.battle.area, action.country)) if st.battle else 0.0
        if isinstance(action, Retreat):
            return self.area_value(st, me, action.to) + sum(st.at(action.to, c) for c in side_of(me))
        if isinstance(action, Discard):
            return -float(st.sc.symbols_of(action.card))
        if isinstance(action, Remove):
            if st.step == "attacker_losses":  # lose those that landed first: they have no way back
                return 1.0 if st.battle is not None and action.area == st.battle.area else 0.0
            return -float(st.at(action.area, ALLIES))
        return 0.0

    def area_value(self, st: KampenState, me: str, area: str) -> float:
        board = st.sc.board
        value = 3.0 if area in board.point_cities else 0.0
        value += 1.0 if board.land[area].mobilisation and me == NORWAY else 0.0
        return value

    def move_score(self, st: KampenState, me: str, m: Move, enemy_bonus: float) -> float:
        board = st.sc.board
        defenders = sum(st.at(m.to, e) for e in st.enemies(me))
        value = self.area_value(st, me, m.to)
        if defenders:
            waiting = st.attacks.get(m.to)
            n = m.n + (waiting.total if waiting else 0)
            water = board.crosses_water(m.via or m.frm, m.to)
            mine = combat.attack_dice(combat.Attackers(0 if water else n, n if water else 0)) + battle_bonus(st, me)
            theirs = combat.defence_dice(defenders) + enemy_bonus
            return 2.0 * (mine - theirs) + value - (1.0 if m.n == st.at(m.frm, me) else 0.0)
        if me == GERMANY:  # press on towards enemy-held point cities
            return value + 0.5 * self.front(st, me, m.to) - 0.5 * self.front(st, me, m.frm) - 0.2
        return value - self.area_value(st, me, m.frm) - 0.5 + 0.3 * self.front(st, me, m.to)

    def front(self, st: KampenState, me: str, area: str) -> float:
        got = self._front.get(area)
        if got is None:
            got = self._front[area] = float(sum(1 for n in st.sc.board.neighbours(area) if st.hostile(n, me)))
        return got

    def play_score(self, st: KampenState, me: str, p: Play) -> float:
        card = card_of(st, p.card)
        effects = {u.effect for u in card.uses}
        if st.step in ("attack_cards", "defend_cards", "react_cards"):
            return 4.0
        if "block_attack" in effects or "block_border" in effects or "flee" in effects:
            return 3.0
        if "cancel" in effects or "cut_reinforcements" in effects or "save_eliminated" in effects:
            return 3.0
        if "paradrop" in effects or "invasion" in effects:
            return 1.0
        return -1.0

    def place_score(self, st: KampenState, me: str, p: Place) -> float:
        if not p.area:
            return 0.0
        front = self.front(st, me, p.area)
        value = self.area_value(st, me, p.area)
        if st.hostile(p.area, me):  # a landing or drop into an enemy area
            return 2.0 * (p.n - sum(st.at(p.area, e) for e in st.enemies(me))) + value
        return value + front - 0.1 * sum(st.at(p.area, c) for c in side_of(me))


def choose(st: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    return KampenHeuristic(rng).choose(st, legal)
