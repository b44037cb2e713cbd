"""A refusal tells the acting country only what it may know (legality.py): on twin positions that differ only in
cards and ships the actor cannot see, every verb (each card and ship verb with every card and ship of the game,
the others over the whole board) gets the same answer, word for word."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import chain

from depth import deep
from test_kampen_bot import hidden_differs, positions, twin

from warroom.core.errors import IllegalActionError
from warroom.core.state import Action
from warroom.rulesets.kampen import KampenState
from warroom.rulesets.kampen.actions import (
    DONE,
    SEAS,
    Choose,
    Discard,
    Exchange,
    Fight,
    Intercept,
    Join,
    Land,
    Lose,
    Move,
    Place,
    Play,
    Raid,
    Recall,
    Refuse,
    Remove,
    Retreat,
    Sail,
    Sea,
    Ship,
    Withdraw,
)
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY


def answer(probe: KampenState, legal: set[Action], action: Action) -> str:
    """What the actor is told: nothing for a legal action, else the refusal. `probe` is a clone of the position:
    `apply_action` refuses before it changes anything (`core.state.vet`), so one clone serves every refusal at a
    position (`compare` checks it is still the position afterwards), and an illegal action it accepted fails here."""
    if action in legal:
        return "legal"
    try:
        probe.apply_action(action, probe.current_player())
    except IllegalActionError as refused:
        return str(refused)
    raise AssertionError(f"{action.to_str()!r} was accepted, though not among the legal actions")


def card_verbs(st: KampenState) -> Iterator[Action]:
    """Every card verb with every card of the game, whoever holds it."""
    for c in st.sc.countries:
        for key in sorted(set(st.sc.deck(c)) | (set(st.sc.april_deck(c)) if st.advanced else set())):
            yield from (Exchange(key), Discard(key), Play(key), Choose(key))


def ship_verbs(st: KampenState) -> Iterator[Action]:
    """Every ship verb with every ship card of the game, into or out of three sea areas that change from one
    position to the next (so that all eight are met across the positions)."""
    board = st.sc.board
    for i, key in enumerate(k for c in st.sc.countries for k in st.sc.ship_keys(c)):
        yield from (Join(key), Raid(key), Withdraw(key))
        for sea in (SEAS[(len(st.log) + i + j) % len(SEAS)] for j in (0, 3, 5)):
            yield Ship(key, sea)
            yield Sail(sea, min(board.seas[sea].adjacent), key)
            yield from (Land(key, area) for area in sorted(board.coastal({sea}))[:1])


def board_verbs(st: KampenState) -> Iterator[Action]:
    """Every other verb, over the whole board: from each area a move to a neighbour (one that changes with the
    round) and on through it, placements, retreats, battles, removals; losses, sea areas and the one-word verbs."""
    board = st.sc.board
    for area in sorted(board.land):
        yield from (Place(area), Retreat(area), Fight(area), Remove(area))
        to = sorted(board.neighbours(area))[st.round % len(board.neighbours(area))]
        yield from (Move(area, to, 1), Move(area, to, 3), Move(area, min(board.neighbours(to)), 2, to))
    yield from (Lose(NORWAY), Lose(ALLIES), Refuse(), DONE, Intercept(), Recall())
    yield from (Sea(sea) for sea in SEAS)


def compare(states: list[KampenState], ships: bool) -> set[tuple[str, str]]:
    """Every card verb (and with `ships` every ship verb) answered alike on each position and its twin; the
    (step, actor) pairs compared."""
    steps: set[tuple[str, str]] = set()
    for i, st in enumerate(states):
        me = st.current_player()
        other = twin(st, me, random.Random(i))
        assert other.view(me) == st.view(me), "the twin looks the same to the actor"
        if not hidden_differs(st, other):
            continue
        legal, legal2 = set(st.legal_actions()), set(other.legal_actions())
        probe, probe2 = st.clone(), other.clone()
        for action in chain(card_verbs(st), board_verbs(st), ship_verbs(st) if ships else ()):
            a, b = answer(probe, legal, action), answer(probe2, legal2, action)
            assert a == b, f"{me} at {st.step}, {action.to_str()!r}: {a!r} against {b!r} on the twin"
        for was, after in ((st, probe), (other, probe2)):  # every refusal left the position as it was
            assert after.view(None) == was.view(None) and not hidden_differs(was, after), st.step
            assert (after.step, after.current_player(), after.log) == (was.step, me, was.log)
        steps.add((st.step, me))
    return steps


def varied(games: list[list[KampenState]], per: int = 2) -> list[KampenState]:
    """At most `per` positions for each (step, country to act): many kinds of moment, few of each."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for st in (p for game in games for p in game):
        key = (st.step, st.current_player())
        if seen.get(key, 0) < per:
            seen[key] = seen.get(key, 0) + 1
            out.append(st)
    return out


def test_card_refusals_are_the_same_whatever_the_hidden_cards() -> None:
    # one position of each kind of moment met in 3 games (33 kinds; more games at a deeper WARROOM_TEST_DEPTH)
    games = [positions(seed, every=3, limit=150, bot="random", seats=3) for seed in range(deep(3))]
    steps = compare(varied(games, per=1), ships=False)
    # Norway asked in the German round, and Germany asked at a card step of another country's round
    assert {("sabotage", NORWAY), ("defend_cards", NORWAY), ("move", GERMANY), ("defend_cards", GERMANY)} <= steps, \
        sorted(steps)


def test_card_and_ship_refusals_are_the_same_whatever_the_hidden_cards_and_ships() -> None:
    # one position of each kind of moment met in 2 games (43 kinds, every step named below among them)
    games = [positions(seed, every=3, limit=100, advanced=True, bot="random", seats=3) for seed in range(deep(2))]
    steps = compare(varied(games, per=1), ships=True)
    asked = {step for step, _me in steps}
    assert {"april_choose", "deploy_germany", "sea_move", "sea_chase", "landing", "raid", "sabotage"} <= asked, \
        sorted(steps)
