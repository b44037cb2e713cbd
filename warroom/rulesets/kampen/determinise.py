"""What a country cannot tell apart: a position with everything it cannot see dealt again (a determinisation).

Used by the bots, which decide on such a copy so that their choices depend only on what their country may know,
and by the conformance harness, which checks that a country's view, legal actions and refusals are the same on
such twin positions (tests/conformance).
"""

from __future__ import annotations

import random

import warroom.rulesets.kampen.naval as naval
from warroom.rulesets.kampen.naval import ShipCard
from warroom.rulesets.kampen.secrets import seat_of
from warroom.rulesets.kampen.state import ALLIES, KampenState


def determinise(st: KampenState, me: str, rng: random.Random) -> KampenState:
    """A copy of `st` in which everything `me` cannot see is dealt again at random, every size kept.

    Cards: the other countries' hands and every face-down deck. A hand's 9 April cards (during the 9 April
    round) are dealt again from that country's 9 April cards, those in hand and those it did not choose; its
    play cards from its play deck. Ships (advanced game): see `deal_ships`."""
    return deal(st, (me,), rng)


def seat_determinise(st: KampenState, seat: str, rng: random.Random) -> KampenState:
    """`determinise` for the player of `seat`: with two players Norway's player holds the Allies' cards too (1.2),
    so what either country sees is kept."""
    mine = tuple(c for c in st.sc.countries if seat_of(st.params, c) == seat) or (seat,)
    return deal(st, mine, rng)


def deal(st: KampenState, mine: tuple[str, ...], rng: random.Random) -> KampenState:
    """A copy of `st` in which everything none of the countries `mine` can see is dealt again (`determinise`)."""
    copy = st.clone(history=False)
    april = st.sc.is_april
    for c in st.sc.countries:
        if c not in mine:
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
            copy.draw[c] = sorted(st.draw[c])  # nobody knows the order of a face-down deck, its owner neither
    if st.advanced:
        deal_ships(copy, mine, rng)
        settle_landings(copy, mine)
    for c in st.sc.countries:  # last: what it draws depends only on the decks' sizes, which are public
        rng.shuffle(copy.draw[c])  # a searching bot's rollouts draw from these decks: in an order dealt again
    return copy


def ship_seen(st: KampenState, card: ShipCard, me: str) -> bool:
    """Whether `me` knows which ship a card at sea is (as its view shows it)."""
    return card.face_up or card.owner == me or (me == ALLIES and card.key in st.spotted)


def deal_ships(st: KampenState, mine: tuple[str, ...], rng: random.Random) -> None:
    """Deal again, in place, the identities of the ship cards none of the countries `mine` can see: the other
    countries' cards lying face down at sea (for the Allies, not those they looked at), their ships in hand, and
    for any country but the Allies which Allied ships are in hand and which are set aside. Every card keeps its sea
    area and flags. Which card a landing was declared with is Germany's secret (the others see only the sea
    and the area), so a card declared for a landing is dealt like any other, even a false identity. Nobody
    knows the order of the set-aside Allied ships, so it is always dealt again. Keys the position holds elsewhere
    (landings, looked-at cards, the group sailing, the cards an interception found) follow their cards."""
    rename: dict[str, str] = {}
    for owner in st.sc.countries:
        if owner in mine:
            continue
        cards = [card for _sea, card in st.fleet.all() if card.owner == owner
                 and not any(ship_seen(st, card, me) for me in mine)]
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
    if ALLIES in mine:
        st.reserve.sort()
        rng.shuffle(st.reserve)
    if not rename:
        return
    st.landings = [(rename.get(k, k), s, a) for k, s, a in st.landings]
    st.spotted = {rename.get(k, k) for k in st.spotted}
    flags = st.flags
    if flags.sailing:
        sea_, keys = flags.sailing
        flags.sailing = (sea_, tuple(rename.get(k, k) for k in keys))
    if flags.icept_roll:
        sea_, who, keys = flags.icept_roll
        flags.icept_roll = (sea_, who, tuple(rename.get(k, k) for k in keys))
    flags.smoke_keys = tuple(rename.get(k, k) for k in flags.smoke_keys)
    flags.diverting = tuple(rename.get(k, k) for k in flags.diverting)
    flags.feinted = frozenset(rename.get(k, k) for k in flags.feinted)
    sb = st.sea_battle
    if sb is not None:
        sb.hits = [naval.Hit(rename.get(h.target, h.target), h.outcome) for h in sb.hits]
        sb.chased = [rename.get(k, k) for k in sb.chased]


def settle_landings(st: KampenState, mine: tuple[str, ...]) -> None:
    """Put each landing none of the countries `mine` can tell the card of on a card chosen by public facts only:
    the first card in its sea, in the fleet's order, of the same owner and the same face and round flags that
    nobody of `mine` can see and no other landing holds (7.2: which face-down card a landing was declared with
    is its owner's secret). The identities were just dealt again at random, so this forgets the real choice and
    draws nothing from the stream."""
    def unseen(card: naval.ShipCard) -> bool:
        return card.owner not in mine and not any(ship_seen(st, card, me) for me in mine)

    def public(card: naval.ShipCard) -> tuple[str, bool, bool, int, bool]:
        return card.owner, card.face_up, card.fighting, card.moved, card.found

    cards = {card.key: card for _sea, card in st.fleet.all()}
    hidden = [i for i, (key, _s, _a) in enumerate(st.landings) if key in cards and unseen(cards[key])]
    used = {key for i, (key, _s, _a) in enumerate(st.landings) if i not in hidden}
    for i in hidden:
        key, sea, area = st.landings[i]
        look = public(cards[key])
        pick = next(c for c in st.fleet.ships(sea) if unseen(c) and public(c) == look and c.key not in used)
        used.add(pick.key)
        st.landings[i] = (pick.key, sea, area)
