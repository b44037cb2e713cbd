"""A Kampen om Norge bot that plays from what its country may know.

Before it decides, the bot *determinises* the position: the cards it cannot see (the other countries' hands
and every face-down deck; in the 9 April round the others' 9 April hands, from the 9 April cards they may have
chosen) are dealt again at random from the cards it knows are unseen, keeping every hand and deck size; in
the advanced game so are the identities of the ship cards it cannot see. Its scores use only that copy, so a
position that looks the same to its country gets the same decision, whatever the hidden cards and ships
really are (tests/unit/test_kampen_bot.py checks this).

The scores: attack where its dice beat the defence it expects (including the battle cards the enemy may hold
in the sampled hands), press towards point cities, play battle cards that add dice or cancel, keep such cards
and trade the rest for battalions, and place new battalions where the front or the point cities are. The
advanced game's ships and 9 April round are scored in `kampen_naval.py`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from warroom.ai.kampen_naval import ADVANCED_ACTIONS, Naval
from warroom.core.state import Action
from warroom.rulesets.kampen import combat, naval
from warroom.rulesets.kampen.actions import Discard, Done, Exchange, Fight, Lose, Move, Place, Play, Remove, Retreat
from warroom.rulesets.kampen.effects import card_of
from warroom.rulesets.kampen.naval import ShipCard
from warroom.rulesets.kampen.state import ALLIES, DEFENDERS, GERMANY, NORWAY, KampenState

SAMPLES = 3
BATTLE_EFFECTS = ("extra_dice", "cancel", "ignore_water")


def determinise(st: KampenState, me: str, rng: random.Random) -> KampenState:
    """A copy of `st` in which everything `me` cannot see is dealt again at random, every size kept.

    Cards: the other countries' hands and every face-down deck. A hand's 9 April cards (during the 9 April
    round) are dealt again from that country's 9 April cards, those in hand and those it did not choose; its
    play cards from its play deck. Ships (advanced game): see `deal_ships`."""
    copy = st.clone(history=False)
    april = st.sc.is_april
    for c in st.sc.countries:
        if c != me:
            hand = st.hands[c]
            play_cards = sum(1 for k in hand if not april(k))
            play = sorted(st.draw[c] + [k for k in hand if not april(k)])  # every unseen card, in no telling order
            spare = sorted(st.april_deck[c] + [k for k in hand if april(k)])
            dealt = rng.sample(play, play_cards)
            fresh = rng.sample(spare, len(hand) - play_cards)
            copy.hands[c] = dealt + fresh
            copy.draw[c] = sorted(set(play) - set(dealt))
            copy.april_deck[c] = sorted(set(spare) - set(fresh))
        else:
            copy.draw[c] = sorted(st.draw[c])  # the real order is forgotten; the scores never read a deck's order
    if st.advanced:
        deal_ships(copy, me, rng)
    return copy


def ship_seen(st: KampenState, card: ShipCard, me: str) -> bool:
    """Whether `me` knows which ship a card at sea is (as its view shows it)."""
    return card.face_up or card.owner == me or (me == ALLIES and card.key in st.spotted)


def deal_ships(st: KampenState, me: str, rng: random.Random) -> None:
    """Deal again, in place, the identities of the ship cards `me` cannot see: the other countries' cards
    lying face down at sea (for the Allies, not those they looked at), their ships in hand, and for any
    country but the Allies which Allied ships are in hand and which are set aside. Every card keeps its sea
    area and flags. Which card a landing was declared with is Germany's secret (the others see only the sea
    and the area), so a card declared for a landing is dealt like any other, even a false identity. Nobody
    knows the order of the set-aside Allied ships, so it is always dealt again. Keys the position holds elsewhere
    (landings, looked-at cards, the group sailing, the cards an interception found) follow their cards."""
    rename: dict[str, str] = {}
    for owner in st.sc.countries:
        if owner == me:
            continue
        cards = [card for _sea, card in st.fleet.all() if card.owner == owner and not ship_seen(st, card, me)]
        reserve = st.reserve if owner == ALLIES else []
        old = [card.key for card in cards] + st.ships_hand[owner] + reserve
        new = sorted(old)  # forget which card was where before the random deal
        rng.shuffle(new)
        rename.update(zip(old, new, strict=True))
        for card, key in zip(cards, new, strict=False):
            card.key = key
        n_hand = len(st.ships_hand[owner])
        st.ships_hand[owner] = new[len(cards):len(cards) + n_hand]
        if owner == ALLIES:
            st.reserve = new[len(cards) + n_hand:]
    if me == ALLIES:
        st.reserve.sort()
        rng.shuffle(st.reserve)
    if not rename:
        return
    st.landings = [(rename.get(k, k), s, a) for k, s, a in st.landings]
    st.spotted = {rename.get(k, k) for k in st.spotted}
    flags = st.flags
    if flags.get("sailing"):
        sea_, keys = flags["sailing"]
        flags["sailing"] = (sea_, tuple(rename.get(k, k) for k in keys))
    if flags.get("icept_roll"):
        sea_, who, keys = flags["icept_roll"]
        flags["icept_roll"] = (sea_, who, tuple(rename.get(k, k) for k in keys))
    for name in ("smoke_keys", "diverting"):
        if flags.get(name):
            flags[name] = tuple(rename.get(k, k) for k in flags[name])
    feinted = [name for name in flags if name.startswith("feinted_")]
    moved = {f"feinted_{rename.get(n[8:], n[8:])}": flags.pop(n) for n in feinted}
    flags.update(moved)
    sb = st.sea_battle
    if sb is not None:
        sb.hits = [naval.Hit(rename.get(h.target, h.target), h.outcome) for h in sb.hits]
        sb.chased = [rename.get(k, k) for k in sb.chased]


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
        self._naval: Naval | None = None  # the ships as the decider sees them, for the decision being made

    def choose(self, st: KampenState, legal: Sequence[Action]) -> Action:
        me = st.current_player()
        self._front = {}
        self._naval = None
        worlds = [determinise(st, me, self.rng) for _ in range(SAMPLES)]
        enemy_bonus = sum(max((battle_bonus(w, e) for e in w.enemies(me)), default=0) for w in worlds) / SAMPLES
        scored = [(self.score(worlds[0], me, a, enemy_bonus), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s == best]
        return legal[top[int(self.rng.random() * len(top))]]

    # ----- scores -------------------------------------------------------------------------------------------------
    def naval(self, st: KampenState, me: str) -> Naval:
        if self._naval is None:
            self._naval = Naval(st, me)
        return self._naval

    def score(self, st: KampenState, me: str, action: Action, enemy_bonus: float) -> float:
        if isinstance(action, ADVANCED_ACTIONS):
            got = self.naval(st, me).score(action)
            if got is not None:
                return got
        if isinstance(action, Move):
            return self.move_score(st, me, action, enemy_bonus)
        if isinstance(action, Play):
            return self.play_score(st, me, action)
        if isinstance(action, Exchange):
            if st.sc.is_april(action.card):  # 9 April cards leave at the end of the round: trade them all
                return 5.0 + st.sc.symbols_of(action.card)
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
        if st.step in ("sea_attack_cards", "sea_defend_cards", "sea_react_cards"):
            return 3.5
        if effects & {"extra_ships", "sailors_ashore", "mines", "coastal_fort", "divert_airdrop"}:
            return 3.0
        if "smoke_screen" in effects:
            return self.naval(st, me).smoke_value()
        if "redeploy_ships" in effects:
            return self.naval(st, me).feint_value()
        if "reconnaissance" in effects or "redeploy" in effects:
            return 1.0
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
        if st.step == "kystfort_target":
            return float(sum(1 for _k, _s, a in st.landings if a == p.area))
        if st.step == "drop_scatter":  # the enemy's paratroops: away from the point cities, onto defenders
            board = st.sc.board
            near = sum(1 for n in board.neighbours(p.area) if n in board.point_cities)
            return sum(st.at(p.area, c) for c in side_of(me)) - self.area_value(st, GERMANY, p.area) - 0.7 * near
        if st.april and me == NORWAY:  # deployment and mobilisation: near the point cities Germany will want
            board = st.sc.board
            near = sum(1 for n in board.neighbours(p.area) if n in board.point_cities)
            return self.area_value(st, me, p.area) + self.front(st, me, p.area) + 0.7 * near - 0.3 * st.at(
                p.area, NORWAY)
        front = self.front(st, me, p.area)
        value = self.area_value(st, me, p.area)
        if st.hostile(p.area, me):  # a landing or drop into an enemy area
            return 2.0 * (p.n - sum(st.at(p.area, e) for e in st.enemies(me))) + value
        return value + front - 0.1 * sum(st.at(p.area, c) for c in side_of(me))


def choose(st: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    return KampenHeuristic(rng).choose(st, legal)
