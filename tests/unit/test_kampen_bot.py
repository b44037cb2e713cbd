"""The Kampen om Norge bot plays from what its country may know: determinised positions keep every size and
the bot's own hand, and two positions that look the same to the bot's country get the same decision; in the
advanced game the same holds for the ship cards it cannot see and the 9 April cards the others chose."""

from __future__ import annotations

import random

from warroom import rulesets
from warroom.ai import make_bot
from warroom.ai.kampen_heuristic import Dealer, KampenHeuristic
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, naval, new_game
from warroom.rulesets.kampen.determinise import determinise, ship_seen
from warroom.rulesets.kampen.state import ALLIES, GERMANY
from warroom.scenarios import load_game
from warroom.sim.walk import decisions


def positions(seed: int, every: int = 37, limit: int = 12, advanced: bool = False, bot: str = "heuristic",
              seats: int = 2) -> list[KampenState]:
    """Decision points along a seeded game between bots of one kind."""
    st = new_game(None, {"advanced": True, "seats": seats} if advanced else {"seats": seats})
    dice = random.Random(seed)
    bots = {c: make_bot(bot, random.Random(seed + i)) for i, c in enumerate(st.sc.countries)}
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
    """The same position as `me` sees it, with every card `me` cannot see dealt differently: the play decks,
    the others' hands (their 9 April cards among the 9 April cards they did not choose) and, in the advanced
    game, which ships the others' face-down cards, ships in hand and set-aside ships are."""
    other = st.clone()
    april = st.sc.is_april
    for c in st.sc.countries:
        hidden = other.draw[c] + ([] if c == me else [k for k in other.hands[c] if not april(k)])
        rng.shuffle(hidden)
        if c != me:
            spare = other.april_deck[c] + [k for k in other.hands[c] if april(k)]
            rng.shuffle(spare)
            other.hands[c] = [spare.pop() if april(k) else hidden.pop() for k in st.hands[c]]
            other.april_deck[c] = spare
        other.draw[c] = hidden
    if st.advanced:
        swap_ships(other, me, rng)
    return other


def swap_ships(st: KampenState, me: str, rng: random.Random) -> None:
    """Swap, in place, the identities of pairs of ship cards `me` cannot tell apart (a card declared for a
    landing stays a real ship), and every reference to them."""
    data = st.sc.cards.ships
    landing = {k for k, _s, _a in st.landings}
    rename: dict[str, str] = {}
    for owner in st.sc.countries:
        if owner == me:
            continue
        cards = [c for _s, c in st.fleet.all() if c.owner == owner and not ship_seen(st, c, me)]
        hidden = [c.key for c in cards] + st.ships_hand[owner] + (st.reserve if owner == ALLIES else [])
        order = list(hidden)
        for _ in range(3 * len(order)):
            i, j = rng.randrange(len(order)), rng.randrange(len(order))
            a, b = order[i], order[j]
            false = naval.ship_type(data, a).false_ship, naval.ship_type(data, b).false_ship
            if (hidden[i] in landing and false[1]) or (hidden[j] in landing and false[0]):
                continue
            order[i], order[j] = b, a
        rename.update(zip(hidden, order, strict=True))
        for card in cards:
            card.key = rename[card.key]
        st.ships_hand[owner] = [rename[k] for k in st.ships_hand[owner]]
        if owner == ALLIES:
            st.reserve = [rename[k] for k in st.reserve]
    if me == ALLIES:
        rng.shuffle(st.reserve)
    st.landings = [(rename.get(k, k), s, a) for k, s, a in st.landings]
    st.spotted = {rename.get(k, k) for k in st.spotted}
    if st.flags.sailing:
        sea, keys = st.flags.sailing
        st.flags.sailing = (sea, tuple(rename.get(k, k) for k in keys))
    st.flags.smoke_keys = tuple(rename.get(k, k) for k in st.flags.smoke_keys)
    st.flags.diverting = tuple(rename.get(k, k) for k in st.flags.diverting)
    st.flags.feinted = frozenset(rename.get(k, k) for k in st.flags.feinted)


def ship_keys(st: KampenState) -> list[str]:
    """Every ship card in the position: at sea, in the raid box, in hand and set aside."""
    return [c.key for _s, c in st.fleet.all()] + [k for h in st.ships_hand.values() for k in h] + st.reserve


def hidden_differs(st: KampenState, other: KampenState) -> bool:
    return (other.hands, other.draw, other.april_deck, ship_keys(other), other.reserve) != (
        st.hands, st.draw, st.april_deck, ship_keys(st), st.reserve)


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
    'nothing playable'); in the advanced game also whatever the ships `me` cannot see are."""
    compared = {False: 0, True: 0}
    for advanced in (False, True):
        for seed in range(4):
            for st in positions(seed, every=11, limit=40, advanced=advanced):
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
                compared[advanced] += 1
    assert compared[False] >= 50 and compared[True] >= 50


def advanced_positions() -> list[KampenState]:
    """Decision points of seeded advanced games: through the 9 April round, and in the rounds after it."""
    out: list[KampenState] = []
    for seed in range(3):
        out += positions(seed, every=5, limit=30, advanced=True)
        out += positions(seed, every=41, limit=10, advanced=True)[3:]
    return out


def test_determinised_advanced_positions_keep_every_ship_card_once_and_what_the_decider_sees() -> None:
    april_seen = ships_dealt = 0
    for st in advanced_positions():
        me = st.current_player()
        world = determinise(st, me, random.Random(3))
        keys = ship_keys(world)
        assert len(keys) == len(set(keys)), "a ship card twice"
        assert sorted(keys) == sorted(ship_keys(st)), "the same ship cards, sunk ones absent"
        assert world.view(me) == st.view(me), "the copy looks the same to the decider"
        assert world.ships_hand[me] == st.ships_hand[me]
        for c in st.sc.countries:
            assert len(world.ships_hand[c]) == len(st.ships_hand[c]) and len(world.hands[c]) == len(st.hands[c])
            assert sorted(world.hands[c] + world.draw[c] + world.april_deck[c]) == sorted(
                st.hands[c] + st.draw[c] + st.april_deck[c])
            assert not (set(world.draw[c]) & set(st.sc.april_deck(c))), "9 April cards stay out of the play deck"
        assert len(world.reserve) == len(st.reserve)
        for (sea, card), (sea2, card2) in zip(st.fleet.all(), world.fleet.all(), strict=True):
            assert (sea, card.owner, card.face_up, card.fighting, card.moved) == (
                sea2, card2.owner, card2.face_up, card2.fighting, card2.moved)
            if ship_seen(st, card, me):
                assert card2.key == card.key
            assert naval.ship_type(st.sc.cards.ships, card2.key).id != "false" or card2.owner == GERMANY
        for key, sea, _area in world.landings:
            assert world.fleet.where(key) == sea, "a landing follows its card"
        april_seen += st.april and any(world.hands[c] != st.hands[c] for c in st.sc.countries if c != me)
        ships_dealt += ship_keys(world) != ship_keys(st)
    assert april_seen >= 5 and ships_dealt >= 20


def test_the_bot_decides_the_same_whatever_the_hidden_ships_and_9_april_cards() -> None:
    checked = april = 0
    for i, st in enumerate(advanced_positions()):
        me = st.current_player()
        other = twin(st, me, random.Random(i))
        assert other.view(me) == st.view(me), "the twin looks the same to the bot's country"
        if not hidden_differs(st, other):
            continue
        legal, legal2 = st.legal_actions(), other.legal_actions()
        assert legal == legal2
        a = KampenHeuristic(random.Random(99)).choose(st, legal)
        b = KampenHeuristic(random.Random(99)).choose(other, legal2)
        assert a == b, f"{me} at {st.step}: {a.to_str()} on the real position but {b.to_str()} on the twin"
        checked += 1
        april += st.april
    assert checked >= 40 and april >= 15


def test_heuristic_bots_finish_advanced_games() -> None:
    for seed in range(4):
        st = new_game(None, {"advanced": True})
        dice = random.Random(seed)
        bots = {c: make_bot("heuristic", random.Random(seed * 7 + i)) for i, c in enumerate(st.sc.countries)}
        decisions = 0
        while not st.is_terminal() and decisions < 20000:
            who = st.current_player()
            if who == CHANCE:
                st.apply_action(st.chance_dice().sample(dice))
                continue
            decisions += 1
            st.apply_action(bots[who].choose(st, st.legal_actions()))
        assert st.is_terminal(), f"seed {seed}: unfinished after {decisions} decisions at {st.step}"
        assert st.result[0] in ("germany", "norway_allies") and st.result[1] in ("clear", "narrow")


def test_the_bots_dealer_deals_the_hands_as_determinise_and_moves_the_stream_as_far() -> None:
    """`Dealer` stands in for `determinise` where only the hands are read: it must deal the same hands and leave the
    random stream where `determinise` leaves it (ship and deck shuffles included), or the bot's later deals drift."""
    checked = 0
    for params in ({}, {"advanced": True}, {"advanced": True, "seats": 3}):
        for i, st in enumerate(decisions(rulesets.get("kampen").new_game(load_game("kampen"), dict(params)), 2)):
            if i % 11:
                continue
            me = st.current_player()
            full, light = random.Random(i), random.Random(i)
            world = determinise(st, me, full)
            hands = Dealer(st, me).deal(light)
            assert full.getstate() == light.getstate()
            assert all(world.hands[c] == hand for c, hand in hands.items())
            checked += 1
    assert checked > 30


def dealt(st: KampenState) -> str:
    """Everything `determinise` deals, as text."""
    return repr((st.hands, st.draw, st.april_deck, st.fleet, st.ships_hand, st.reserve, st.landings, st.spotted))


def test_which_face_down_card_carries_a_landing_is_forgotten_by_a_deal() -> None:
    """7.2: the others see a landing's sea and area, not which face-down German card was declared for it. Twins
    that differ only in that card deal alike, so nothing decided on a deal can depend on it."""
    system = rulesets.get("kampen")
    found = 0
    for seed in range(12):
        for st in decisions(system.new_game(load_game("kampen"), {"advanced": True, "seats": 3}), seed):
            me = st.current_player()
            if me == GERMANY or not st.landings:
                continue
            key, sea, area = st.landings[0]
            held = {k for k, _s, _a in st.landings}
            card = next(c for c in st.fleet.ships(sea, GERMANY) if c.key == key)
            look = (card.face_up, card.fighting, card.moved, card.found)
            other = next((c for c in st.fleet.ships(sea, GERMANY) if c.key not in held and not ship_seen(st, c, me)
                          and (c.face_up, c.fighting, c.moved, c.found) == look), None)
            if other is None or ship_seen(st, card, me):
                continue
            twin = st.clone()
            twin.landings[0] = (other.key, sea, area)
            assert repr(twin.view(me)) == repr(st.view(me))
            assert dealt(determinise(st, me, random.Random(7))) == dealt(determinise(twin, me, random.Random(7)))
            found += 1
            break
        if found == 3:
            break
    assert found == 3
