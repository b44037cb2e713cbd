"""Seeded Kampen om Norge games with random play, invariants checked after every action, exact replay, and
views that never leak another country's hand, face-down ship cards or the deck order (issue 5).

Each version (basic and advanced) is played `GAMES` times for each player count (16 at the default depth, every
one checked after every action; `WARROOM_TEST_DEPTH` plays more). With two players one person holds Norway and
the Allies, so one bot (one stream of choices) plays both; with three each has its own."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from depth import deep

from warroom.ai import make_bot
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.cards import ShipType
from warroom.rulesets.kampen.naval import ship_type
from warroom.rulesets.kampen.scenario import KampenScenario
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

GAMES = deep(16)  # per variant, each checked; the conformance harness (test_conformance.py) plays 12 more of each,
# with twin checks, and `make fuzz` plays thousands
REPLAY_EVERY = 4
VIEW_EVERY = 25  # actions between view-leak checks within a game


_FACTS: dict[int, tuple[KampenScenario, dict[str, list[str]], dict[str, frozenset[str]], dict[str, ShipType]]] = {}


def facts(sc: KampenScenario) -> tuple[dict[str, list[str]], dict[str, frozenset[str]], dict[str, ShipType]]:
    """Each country's play cards (sorted) and ship cards, and each ship card's type: the scenario's, so made once,
    not after every action (the scenario is kept with them, so its id is not reused)."""
    if id(sc) not in _FACTS:
        keys = {c: frozenset(sc.ship_keys(c)) for c in sc.countries}
        _FACTS[id(sc)] = (sc, {c: sorted(sc.deck(c)) for c in sc.countries}, keys,
                          {k: ship_type(sc.cards.ships, k) for c in sc.countries for k in keys[c]})
    _sc, decks, ships, kinds = _FACTS[id(sc)]
    return decks, ships, kinds


def check_invariants(st: KampenState) -> None:
    sc = st.sc
    deck, _ships, _kinds = facts(sc)
    april_keys = sc.april_keys
    for c in sc.countries:
        if st.round:  # from the deal on, every play card is in one place only
            cards = [k for k in st.hands[c] if k not in april_keys] + st.draw[c] + st.used[c]
            assert sorted(cards) == deck[c], f"{c}: a card lost or doubled"
        limit = sc.hand[c] + 1 if not st.april else 5
        assert len(st.hands[c]) <= limit, f"{c} holds {len(st.hands[c])} cards"
    if st.advanced:
        check_ships(st)
    land = sc.board.land
    for area, here in st.troops.items():
        assert area in land
        assert not here or min(here.values()) > 0, f"an empty count is kept in {area}"
        assert not (GERMANY in here and len(here) > 1), f"{area} holds enemies after the flow settled"
    for area, attack in st.attacks.items():
        assert attack.total > 0 and 0 <= attack.over_water <= attack.total - attack.by_sea_or_air
        assert all(o in sc.board.neighbours(area) for o in attack.origins), "attacks come from a neighbour"
    if st.terminal:
        assert st.result[0] in ("germany", "norway_allies") and st.result[1] in ("clear", "narrow")


def check_ships(st: KampenState) -> None:
    """Every ship card is in one place at most; Allied cards never in I or II; the raid box holds German
    raiders only; false ships are gone after 9 April; no ship is left fighting once the sea battles are over."""
    sc = st.sc
    fleet = st.fleet.all()
    _decks, keys, kinds = facts(sc)
    for country in sc.countries:
        at_sea = [card.key for _sea, card in fleet if card.owner == country]
        placed = at_sea + st.ships_hand[country] + (st.reserve if country == ALLIES else [])
        places = set(placed)
        assert len(places) == len(placed), f"{country}: a ship card in two places"
        assert places <= keys[country], f"{country}: an unknown ship card"
        if not st.april and st.round:
            april = [k for k in st.hands[country] if k in sc.april_keys]
            assert not april, f"{country} keeps 9 April cards after the 9 April round"
    for sea, card in fleet:  # the cards at sea, whoever owns them: once a position
        kind = kinds[card.key] if card.key in kinds else ship_type(sc.cards.ships, card.key)
        assert not (card.owner == ALLIES and sea in ("I", "II")), "an Allied ship in the mined seas"
        assert sea != "raid" or (card.owner == GERMANY and kind.raid_loss > 0), "only German raiders raid"
        assert st.april or not kind.false_ship, "a false ship after the 9 April round"
        assert not (card.fighting and st.flags.sea_done and st.sea_battle is None), \
            f"a ship still fighting in step {st.step}"


def hidden_ships(st: KampenState, side: str | None) -> list[str]:
    """The ship cards `side` may not identify: others' face-down cards at sea (bar what the Allies spotted),
    others' ships not yet at sea, and the Allied ships set aside."""
    out = [card.key for _sea, card in st.fleet.all() if card.owner != side and not card.face_up
           and not (side == ALLIES and card.key in st.spotted)]
    out += [k for c in st.sc.countries if c != side for k in st.ships_hand[c]]
    return out + st.reserve


def check_views(st: KampenState) -> None:
    """No view shows a hand but the viewer's own, nor any card or ship card it may not see."""
    for side in (*st.sc.countries, None):
        text = repr(st.view(side))
        for c in st.sc.countries:
            hidden = ([] if c == side else st.hands[c] + st.april_deck[c]) + st.draw[c]
            assert not any(f"'{card}'" in text for card in hidden), f"{side}'s view shows a hidden card of {c}"
        if st.advanced:
            assert not any(f"'{k}'" in text for k in hidden_ships(st, side)), f"{side}'s view shows a hidden ship"


def play(seed: int, check: bool, advanced: bool = False, players: int = 3) -> KampenState:
    st = new_game(None, {"advanced": True, "seats": players} if advanced else {"seats": players})
    dice = random.Random(seed)
    bots = {c: make_bot("random", random.Random(seed * 31 + i)) for i, c in enumerate(st.sc.countries)}
    if players == 2:
        bots[ALLIES] = bots[NORWAY]  # one person holds Norway and the Allies (1.2)
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


@pytest.mark.parametrize(("advanced", "players"), [(False, 2), (False, 3), (True, 2), (True, 3)],
                         ids=["basic-2", "basic-3", "advanced-2", "advanced-3"])
def test_seeded_games_keep_every_invariant_and_replay(advanced: bool, players: int) -> None:
    outcomes: dict[tuple[str, str], int] = {}
    for seed in range(GAMES):
        st = play(seed, check=True, advanced=advanced, players=players)
        outcomes[st.result] = outcomes.get(st.result, 0) + 1
        if seed % REPLAY_EVERY == 0:
            record = GameRecord.from_json(st.record(seed).to_json())
            params = dict(record.params)
            again = replay(record, lambda: new_game(None, dict(params)))  # noqa: B023 (used at once)
            assert isinstance(again, KampenState)
            assert (again.troops, again.hands, again.draw, again.events) == (st.troops, st.hands, st.draw, st.events)
            assert again.fleet == st.fleet
    assert sum(outcomes.values()) == GAMES


def test_flags_hold_only_values_a_shallow_clone_may_share() -> None:
    """`KampenState.clone` copies `flags` shallowly (`dataclasses.replace`): that is safe only while every value is
    immutable (a tuple, a frozenset, a number or text), which random games of every variant check after every
    action."""
    for seed, (advanced, players) in enumerate([(False, 2), (False, 3), (True, 2), (True, 3)] * 3):
        st = new_game(None, {"advanced": advanced, "seats": players})
        dice, rng = random.Random(seed), random.Random(seed + 100)
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply_action(st.chance_dice().sample(dice))
            else:
                legal = st.legal_actions()
                st.apply_action(legal[rng.randrange(len(legal))])
            for name, value in ((f.name, getattr(st.flags, f.name)) for f in fields(st.flags)):
                assert not isinstance(value, list | dict | set), f"flag {name!r} holds a mutable {type(value)}"
                hash(value)
