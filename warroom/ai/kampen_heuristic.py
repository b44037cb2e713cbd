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

from warroom.ai import kampen_plan as plan
from warroom.ai.kampen_naval import ADVANCED_ACTIONS, Naval
from warroom.core.keep import PerObject
from warroom.core.state import Action
from warroom.rulesets.kampen import combat
from warroom.rulesets.kampen.actions import (
    Discard,
    Done,
    Exchange,
    Fight,
    Lose,
    Move,
    Place,
    Play,
    Refuse,
    Remove,
    Retreat,
)
from warroom.rulesets.kampen.cards import CardSet
from warroom.rulesets.kampen.determinise import determinise, ship_seen
from warroom.rulesets.kampen.effects import card_of
from warroom.rulesets.kampen.state import ALLIES, DEFENDERS, GERMANY, NORWAY, KampenState

SAMPLES = 3
GERMAN_MOVES = ("move", "card_effect", "redeploy_moves")  # the steps where Germany's moves follow its campaign
BATTLE_EFFECTS = ("extra_dice", "cancel", "ignore_water")


def battle_bonus(st: KampenState, country: str) -> int:
    """Dice the battle cards in `country`'s hand could add (one card per type)."""
    return hand_bonus(st, st.hands[country])


def hand_bonus(st: KampenState, hand: list[str]) -> int:
    """Dice the battle cards in `hand` could add (one card per type)."""
    best: dict[str, int] = {}
    for key in hand:
        for kind, dice in battle_dice(st, key):
            best[kind] = max(best.get(kind, 0), dice)
    return sum(sorted(best.values(), reverse=True)[:2])


_DICE: PerObject[CardSet, dict[str, tuple[tuple[str, int], ...]]] = PerObject(lambda cards: {})
"""Each scenario's cards' extra battle dice, by card (kept per card set)."""


def battle_dice(st: KampenState, key: str) -> tuple[tuple[str, int], ...]:
    """A card's basic-game extra dice in battle, as (card type, dice) per use that adds them: the scenario's data,
    kept per scenario's cards."""
    kept = _DICE(st.sc.cards)
    got = kept.get(key)
    if got is None:
        card = card_of(st, key)
        got = kept[key] = tuple((card.type, use.count("dice")) for use in card.uses
                                if use.effect == "extra_dice" and not use.advanced)
    return got


class Dealer:
    """Deals the other countries' hands as `determinise(st, me, rng)` deals them, with `rng` moved on exactly as
    it moves it, without copying the position or dealing anything else; what every deal of a decision shares is
    worked out once.

    `determinise` deals each other country a sample of its unseen play cards and one of its unseen 9 April cards
    (`random.sample`, in this order), then in the advanced game shuffles the ship cards of each other owner that
    `me` cannot see, and for the Allies their set-aside ships, and last shuffles every country's face-down deck.
    What a shuffle draws depends only on the number of cards shuffled, so shuffling as many placeholders leaves
    the generator where dealing the ships and the decks would. It reads what `determinise` reads, and of the ships
    only how many `me` cannot see. Keep it in step with `determinise`."""

    def __init__(self, st: KampenState, me: str) -> None:
        april = st.sc.is_april
        # per other country: its unseen play cards and 9 April cards (sorted, as determinise has them), and how
        # many of each its hand holds
        self.cards: list[tuple[str, list[str], int, list[str], int]] = []
        for c in st.sc.countries:
            if c == me:
                continue
            hand = st.hands[c]
            play = sorted(st.draw[c] + [k for k in hand if not april(k)])
            spare = sorted(st.april_deck[c] + [k for k in hand if april(k)])
            play_cards = sum(1 for k in hand if not april(k))
            self.cards.append((c, play, play_cards, spare, len(hand) - play_cards))
        self.shuffles: list[int] = []  # the number of cards of each shuffle of the ship deal
        if st.advanced:
            unseen: dict[str, int] = {}  # owner -> its cards at sea `me` cannot see
            for _sea, card in st.fleet.all():
                if not ship_seen(st, card, me):
                    unseen[card.owner] = unseen.get(card.owner, 0) + 1
            for owner in st.sc.countries:
                if owner == me:
                    continue
                self.shuffles.append(unseen.get(owner, 0) + len(st.ships_hand[owner])
                                     + (len(st.reserve) if owner == ALLIES else 0))
            if me == ALLIES:
                self.shuffles.append(len(st.reserve))
        for c in st.sc.countries:  # then every face-down deck is shuffled (sizes: what is left of each once dealt)
            self.shuffles.append(len(st.draw[c]))

    def deal(self, rng: random.Random) -> dict[str, list[str]]:
        """One deal of the other countries' hands."""
        hands: dict[str, list[str]] = {}
        for c, play, play_cards, spare, april_cards in self.cards:
            dealt = rng.sample(play, play_cards)
            hands[c] = dealt + rng.sample(spare, april_cards)
        for n in self.shuffles:
            rng.shuffle([0] * n)
        return hands


def marching(heading: tuple[int, int] | None, n: int) -> float | None:
    """`KampenHeuristic.march` of `n` battalions, from the move's `Memo.heading`."""
    if heading is None:
        return None
    progress, k = heading
    extra = n - k  # battalions beyond those ordered (none if negative)
    return 1.5 * progress - 0.3 * (extra if extra > 0 else 0) + 0.05 * (n if n < k else k) - 0.2


class Memo:
    """What the scores of one decision share about the determinised copy they read (which no score changes), each
    worked out when first asked: `kampen_plan`'s answers, the battle bonus of a hand, and where a move heads."""

    __slots__ = ("_defence", "_heading", "_leaving", "bonus", "plan", "st")

    def __init__(self, st: KampenState) -> None:
        self.st = st
        self.plan = plan.Plan(st)
        self.bonus: dict[str, int] = {}  # country -> battle_bonus of its hand
        self._heading: dict[tuple[str, str, str], tuple[int, int] | None] = {}  # (me, frm, to) -> `heading`
        self._leaving: dict[tuple[str, str], tuple[int, bool, int]] = {}  # (me, frm) -> `leaving`
        self._defence: dict[tuple[str, str], int] = {}  # (area, me) -> `defence`

    def defence(self, area: str, me: str) -> int:
        """The dice `me`'s enemies in `area` defend it with (before cards)."""
        key = (area, me)
        got = self._defence.get(key)
        if got is None:
            st = self.st
            got = self._defence[key] = combat.defence_dice(sum(st.at(area, e) for e in st.enemies(me)))
        return got

    def heading(self, me: str, frm: str, to: str) -> tuple[int, int] | None:
        """For a move from `frm` to `to`: the most steps it gains towards a city `plan.orders` sends battalions of
        `frm` to, with how many are sent there (None: no orders for `frm`)."""
        key = (me, frm, to)
        if key in self._heading:
            return self._heading[key]
        mine = self.plan.orders(me).get(frm, {})
        got: tuple[int, int] | None = None
        if mine:
            approach = self.plan.approach
            got = max((approach(frm, c, me) - approach(to, c, me), k) for c, k in mine.items())
        self._heading[key] = got
        return got

    def leaving(self, me: str, frm: str) -> tuple[int, bool, int]:
        """What every move of `me`'s battalions out of `frm` shares: the battalions free to leave
        (`plan.surplus`), whether they would leave a point city `me`'s side holds (for Norway and the Allies:
        their fortress or its reserve), and how many of them are there."""
        key = (me, frm)
        got = self._leaving.get(key)
        if got is None:
            st = self.st
            campaign = self.plan
            if me == GERMANY:
                guarded = frm in st.sc.board.point_cities and st.holder(frm) == GERMANY
            else:
                keep = campaign.fortress()
                guarded = bool(keep) and (frm == keep or frm in campaign.reserve(keep))
            got = self._leaving[key] = (campaign.surplus(frm, me), guarded, st.at(frm, me))
        return got


class KampenHeuristic:
    """Chooses among the legal actions from a determinised copy of the position."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._front: dict[str, float] = {}  # enemy neighbours per area, for the decision being made
        self._naval: Naval | None = None  # the ships as the decider sees them, for the decision being made
        self._memo: Memo | None = None  # what the decision being made shares
        self._hands: list[dict[str, list[str]]] = []  # the hands of each determinised copy, for the decision
        self._enemy_bonus: float | None = None  # `enemy_bonus` of the decision being made, once asked

    def choose(self, st: KampenState, legal: Sequence[Action]) -> Action:
        """The best-scored action on the first of `SAMPLES` determinised copies (ties broken at random); the
        others only average the enemies' battle bonus, so only their hands are dealt (`Dealer`), and a forced
        choice deals only hands. The draws from the bot's generator, and so the choices, are those of dealing
        every copy in full."""
        me = st.current_player()
        self._front = {}
        self._naval = None
        self._memo = None
        self._enemy_bonus = None
        dealer = Dealer(st, me)
        if len(legal) == 1:
            for _ in range(SAMPLES):
                dealer.deal(self.rng)
            self.rng.random()  # the tie-break among one
            return legal[0]
        world = determinise(st, me, self.rng)
        self._hands = [world.hands] + [dealer.deal(self.rng) for _ in range(SAMPLES - 1)]
        score = self.score
        scores = [score(world, me, a) for a in legal]
        best = max(scores)
        top = [i for i, s in enumerate(scores) if s == best]
        return legal[top[int(self.rng.random() * len(top))]]

    # ----- scores -------------------------------------------------------------------------------------------------
    def memo(self, st: KampenState) -> Memo:
        """The `Memo` of the copy `st` (every legal action of a decision is scored on the same copy)."""
        got = self._memo
        if got is None or got.st is not st:
            got = self._memo = Memo(st)
        return got

    def targets(self, st: KampenState, me: str) -> dict[str, int]:
        """`plan.targets`, worked out once per decision."""
        return self.memo(st).plan.targets(me)

    def orders(self, st: KampenState, me: str) -> dict[str, dict[str, int]]:
        """`plan.orders`, worked out once per decision."""
        return self.memo(st).plan.orders(me)

    def enemy_bonus(self, st: KampenState, me: str) -> float:
        """The dice the enemies' battle cards could add, averaged over the determinised copies (worked out once per
        decision, when first asked)."""
        if self._enemy_bonus is None:
            self._enemy_bonus = sum(max((hand_bonus(st, hands[e]) for e in st.enemies(me)), default=0)
                                    for hands in self._hands) / SAMPLES
        return self._enemy_bonus

    def own_bonus(self, st: KampenState, me: str) -> int:
        """`battle_bonus(st, me)`, once per decision."""
        bonus = self.memo(st).bonus
        got = bonus.get(me)
        if got is None:
            got = bonus[me] = battle_bonus(st, me)
        return got

    def march(self, st: KampenState, me: str, m: Move) -> float | None:
        """A move by `me`'s spare battalions towards the cities `plan.orders` sends them to: the steps it gains,
        less for battalions beyond those ordered (None: no orders for the area moved from)."""
        return marching(self.memo(st).heading(me, m.frm, m.to), m.n)

    def need_near(self, st: KampenState, me: str, area: str) -> float:
        """How much a new battalion in `area` serves `me`'s plan: the most need per step to a city that needs it."""
        approach = self.memo(st).plan.approach
        return max((short / (1.0 + approach(area, c, me)) for c, short in self.targets(st, me).items()), default=0.0)

    def naval(self, st: KampenState, me: str) -> Naval:
        if self._naval is None:
            self._naval = Naval(st, me)
        return self._naval

    def score(self, st: KampenState, me: str, action: Action) -> float:
        if isinstance(action, Move) and me == GERMANY and not st.april and st.step in GERMAN_MOVES:
            return self.german_move(st, action)  # the bulk of the work, as `german_score` would (a Move is no
            # advanced action)
        if isinstance(action, ADVANCED_ACTIONS):
            got = self.naval(st, me).score(action)
            if got is not None:
                return got
        if me == GERMANY and not st.april:
            got = self.german_score(st, action)
            if got is not None:
                return got
        if isinstance(action, Move):
            return self.move_score(st, me, action)
        if isinstance(action, Play):
            return self.play_score(st, me, action)
        if isinstance(action, Exchange):
            if st.sc.is_april(action.card):  # 9 April cards leave at the end of the round: trade them all
                return 5.0 + st.sc.symbols_of(action.card)
            return self.exchange_score(st, me, action.card)
        if isinstance(action, Done):
            if st.step == "reinforce":
                return 2.5 if st.symbols % 3 == 0 and (st.cards_used or me == NORWAY) else -1.0
            return 0.0
        if isinstance(action, Place):
            return self.place_score(st, me, action)
        if isinstance(action, Fight):
            attack = st.attacks[action.area]
            return attack.total - sum(st.at(action.area, d) for d in st.enemies(me))
        if isinstance(action, Lose):  # a defender loses from its bigger group; Germany, deciding, the smaller
            b = st.battle
            here = float(st.at(b.area, action.country) - b.proposal.count(action.country)) if b else 0.0
            return -here if me == GERMANY else here
        if isinstance(action, Refuse):
            return 1.0 if self.unfair_share(st) else -1.0
        if isinstance(action, Retreat):
            return self.area_value(st, me, action.to) + plan.present(st, action.to, me)
        if isinstance(action, Discard):
            return -float(st.sc.symbols_of(action.card))
        if isinstance(action, Remove):
            if st.step == "attacker_losses":  # lose those that landed first: they have no way back
                return 1.0 if st.battle is not None and action.area == st.battle.area else 0.0
            return -float(st.at(action.area, ALLIES))
        return 0.0

    # ----- Germany's campaign (kampen_plan) -----------------------------------------------------------------------
    def german_score(self, st: KampenState, action: Action) -> float | None:
        """Germany's own scores where the campaign matters: marching, garrisons, placing, and the clock. None:
        the common score applies."""
        if isinstance(action, Move) and st.step in GERMAN_MOVES:
            return self.german_move(st, action)
        if st.step == "reinforce" and st.country == GERMANY:
            return self.german_reinforce(st, action)
        if isinstance(action, Place) and st.step == "place" and st.country == GERMANY and action.area:
            return 10.0 * self.need_near(st, GERMANY, action.area) + 0.1 * self.front(st, GERMANY, action.area)
        if isinstance(action, Play) and st.step == "move":
            return self.german_move_card(st, action)
        if isinstance(action, Retreat):
            targets = self.targets(st, GERMANY)
            return 3.0 * targets.get(action.to, 0) + self.area_value(st, GERMANY, action.to)
        return None

    def german_move(self, st: KampenState, m: Move) -> float:
        """Keep every held point city's garrison; march the rest to the city that needs it most; attack where the
        dice favour it, and any enemy in a point city when this is the round that can end the game."""
        memo = self.memo(st)
        campaign = memo.plan
        free, held_city, here = memo.leaving(GERMANY, m.frm)
        if held_city and here - m.n < 1:
            return -20.0  # an empty point city counts for the enemy
        strip = 3.0 * max(0, m.n - max(free, 0)) if held_city else 0.0
        if campaign.hostile(m.to, GERMANY):
            city = m.to in st.sc.board.point_cities
            last = city and plan.german_cards_left(st) <= st.sc.hand[GERMANY]
            value = (4.0 if city else 0.0) + (3.0 if last else 0.0)
            waiting = st.attacks.get(m.to)
            n = m.n + (waiting.total if waiting else 0)
            return 2.0 * self.odds(st, GERMANY, m) + value - strip - 0.1 * max(0, n - combat.CAP)
        if strip:
            return -strip
        march = marching(memo.heading(GERMANY, m.frm, m.to), m.n)
        return -0.5 if march is None else march

    def german_move_card(self, st: KampenState, p: Play) -> float:
        """A movement card is worth its card when it carries battalions towards a far target: the round's one
        card (the clock) is then spent on the march."""
        effects = {u.effect for u in card_of(st, p.card).uses}
        far = any(self.memo(st).plan.approach(a, c) >= 3 for a, per in self.orders(st, GERMANY).items() for c in per)
        if effects & {"airlift", "extra_move"} and far and st.cards_used == 0:
            return 2.0
        if "paradrop" in effects and any(st.hostile(c, GERMANY) for c in st.sc.board.point_cities):
            return 1.0
        return -1.0

    def german_reinforce(self, st: KampenState, action: Action) -> float | None:
        """The clock: the game ends when a German draw empties the deck. Holding every city, trade cards so that
        this round's draw ends the game (a win), or run the clock fast while every garrison is full; otherwise
        spend one card a round, the one that buys the most."""
        hand = st.hands[GERMANY]
        keep = st.sc.hand[GERMANY] - plan.german_cards_left(st)
        if plan.can_end_now(st):
            if isinstance(action, Exchange | Play):
                return 10.0 if len(hand) > keep else -1.0
            return 5.0 if len(hand) <= keep else -5.0
        fast = self.memo(st).plan.secure()
        if isinstance(action, Play):  # Transportfly: new battalions onto a northern airfield
            return 3.0 if st.cards_used == 0 and self.targets(st, GERMANY) else -1.0
        if isinstance(action, Exchange):
            symbols = st.sc.symbols_of(action.card)
            if fast:
                return 1.0 + symbols
            if st.cards_used == 0:
                card = card_of(st, action.card)
                battle = any(u.effect in BATTLE_EFFECTS for u in card.uses)
                return 1.0 + symbols - (2.0 if battle else 0.0)
            return 1.0 if (st.symbols + symbols) % 3 == 0 and symbols >= 3 and len(hand) >= 5 else -1.0
        if isinstance(action, Done):
            return 0.5 if st.cards_used or not hand else -3.0
        return None

    @staticmethod
    def exchange_score(st: KampenState, me: str, key: str) -> float:
        """Norway and the Allies trade cards for battalions every round (Norway's deck is reshuffled, and the
        Allies would otherwise discard one unused), keeping one card that strengthens a defence: the fortress
        is where their battles are fought. Cards are traded while they still complete a battalion."""
        def defends(card: str) -> bool:
            return any(u.effect in BATTLE_EFFECTS and u.step == "defend_cards" for u in card_of(st, card).uses)

        if defends(key) and not any(defends(k) for k in st.hands[me] if k != key):
            return -5.0
        symbols = st.sc.symbols_of(key)
        rest = sum(st.sc.symbols_of(k) for k in st.hands[me] if k != key)
        completes = (st.symbols + symbols) // 3 > st.symbols // 3 or (st.symbols + symbols + rest) // 3 > (
            st.symbols + rest) // 3
        return 3.0 + symbols if completes or not st.cards_used else -2.0

    @staticmethod
    def unfair_share(st: KampenState) -> bool:
        """The Allies refuse Norway's share of the losses when it takes more Allied battalions than the Allies'
        part of the defence (rounded up)."""
        b = st.battle
        if b is None or not b.proposal:
            return False
        allied, total = st.at(b.area, ALLIES), sum(st.at(b.area, d) for d in DEFENDERS)
        fair = -(-len(b.proposal) * allied // total) if total else 0
        return b.proposal.count(ALLIES) > fair

    def area_value(self, st: KampenState, me: str, area: str) -> float:
        board = st.sc.board
        value = 3.0 if area in board.point_cities else 0.0
        value += 1.0 if board.land[area].mobilisation and me == NORWAY else 0.0
        return value

    def move_score(self, st: KampenState, me: str, m: Move) -> float:
        """Norway and the Allies: keep the point cities they hold, gather against the one German city the plan
        picks (kampen_plan.defender_focus), and attack elsewhere only where the dice clearly favour them."""
        campaign = self.memo(st).plan
        free, guarded, here = self.memo(st).leaving(me, m.frm)
        if free < m.n and guarded:
            return -10.0 if free <= 0 else -3.0 * (m.n - free)
        value = self.area_value(st, me, m.to)
        if campaign.hostile(m.to, me):
            focus = m.to in self.targets(st, me)
            odds = self.odds(st, me, m)
            if not focus and odds < 1.5:
                return -1.0
            return 2.0 * odds + value + (3.0 if focus else 0.0) - (1.0 if m.n == here else 0.0)
        marching = self.march(st, me, m)
        if marching is not None:
            return marching
        return value - self.area_value(st, me, m.frm) - 0.5 + 0.3 * self.front(st, me, m.to)

    def odds(self, st: KampenState, me: str, m: Move) -> float:
        """The attacker's dice less the defender's, with the battalions already waiting at that border and the
        battle cards each side may hold."""
        memo = self.memo(st)
        waiting = st.attacks.get(m.to)
        water = memo.plan.tables.crosses_water(m.via or m.frm, m.to)
        over_water = (waiting.over_water if waiting else 0) + (m.n if water else 0)
        over_land = (waiting.total - waiting.over_water if waiting else 0) + (0 if water else m.n)
        mine = combat.attack_dice(combat.Attackers(over_land, over_water)) + self.own_bonus(st, me)
        return mine - memo.defence(m.to, me) - self.enemy_bonus(st, me)

    def front(self, st: KampenState, me: str, area: str) -> float:
        got = self._front.get(area)
        if got is None:
            hostile = self.memo(st).plan.hostile
            got = self._front[area] = float(sum(1 for n in st.sc.board.neighbours(area) if hostile(n, me)))
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
            return plan.present(st, p.area, me) - self.area_value(st, GERMANY, p.area) - 0.7 * near
        if st.april and me == NORWAY:  # deployment and mobilisation: near the point cities Germany will want
            board = st.sc.board
            near = sum(1 for n in board.neighbours(p.area) if n in board.point_cities)
            return self.area_value(st, me, p.area) + self.front(st, me, p.area) + 0.7 * near - 0.3 * st.at(
                p.area, NORWAY)
        front = self.front(st, me, p.area)
        value = self.area_value(st, me, p.area)
        if st.step == "place" and me != GERMANY and not st.hostile(p.area, me):
            return 10.0 * self.need_near(st, me, p.area) + value + 0.3 * front
        if st.hostile(p.area, me):  # a landing or drop into an enemy area
            return 2.0 * (p.n - sum(st.at(p.area, e) for e in st.enemies(me))) + value
        return value + front - 0.1 * plan.present(st, p.area, me)


def choose(st: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    return KampenHeuristic(rng).choose(st, legal)
