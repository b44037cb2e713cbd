"""Kampen om Norge in numbers (`core.system.Encoding`): every action a game may offer a country, in a fixed order.

The list is built from the board and the cards alone, one verb at a time, so an action keeps its number in every
position and every process. It may hold actions no position offers (a number costs nothing; a missing action would
have none); the conformance harness checks that random games offer nothing outside it.

- **moves**: between neighbours, of up to `stack_bound` battalions; between any two areas (movement cards: rail,
  airlift, evacuation, the 9 April redeployment), and through a last area passed (`via`, within a movement card's
  reach), of up to the most battalions a card carries;
- **placements** of up to `stack_bound` battalions in every area;
- **battles**: fight, retreat and remove in every area, a defender's loss, refuse;
- **cards**: every card copy exchanged, discarded, chosen (9 April) or played, with each of its uses;
- **ships** (advanced game): every ship card into, and between, every sea area and the raid box, joining, raiding,
  landing on any area, withdrawn; every sea area decided; intercept and recall.

>>> from warroom.scenarios import load_game
>>> numbers = encoding(load_game("kampen"), {})
>>> numbers.faces, numbers.returns, numbers.hidden, "move oslo drammen 3" in numbers.actions
(62, (-2.0, 2.0), True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from warroom.core.system import Encoding
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
from warroom.rulesets.kampen.scenario import KampenScenario
from warroom.rulesets.kampen.sea import RAID
from warroom.rulesets.kampen.state import DEFENDERS

RETURNS = (-2.0, 2.0)
"""A clear victory scores 2 and a narrow one 1, to the winners, and as much less to the losers (`state.returns`)."""


def encoding(sc: KampenScenario, params: Mapping[str, Any]) -> Encoding:
    """The game's actions, the most faces a die has (the largest deck's shuffle), the bound on its returns; and
    hidden cards, always."""
    decks = [len(sc.deck(c)) for c in sc.countries] + [len(sc.april_deck(c)) for c in sc.countries]
    ships = sum(len(sc.ship_keys(c)) for c in sc.countries)
    return Encoding(actions=tuple(dict.fromkeys(actions(sc, bool(params.get("advanced"))))),
                    faces=max(6, *decks, ships), returns=RETURNS, hidden=True)


def stack_bound(sc: KampenScenario) -> int:
    """The most battalions listed to move or be placed at once: every battalion the setup and one pass through
    every deck could bring to the board.

    assumption: no stack grows beyond this (the rules set no limit, and random and heuristic games stay far below
    it); a bigger one is still played, numbered by the adapter beyond this list."""
    spb = int(sc.rules.get("symbols_per_battalion", 3))
    return sum(sum(p.values()) for p in sc.setup.values()) + sum(sc.symbols_of(k) for d in sc.decks.values()
                                                                    for k in d) // max(1, spb)


def actions(sc: KampenScenario, advanced: bool) -> Iterator[str]:
    board = sc.board
    land = sorted(board.land)
    uses = [use for card in sc.cards.cards.values() for use in card.uses]
    carried = max([use.count("battalions", 1) for use in uses], default=1)
    reach = max([use.count("areas", 2) for use in uses if use.effect == "extra_move"], default=2)
    most = stack_bound(sc)
    for frm in land:
        near = set(board.neighbours(frm))
        within = distances(sc, frm, reach - 1)
        for to in land:
            if to == frm:
                continue
            for n in range(1, (most if to in near else carried) + 1):
                yield Move(frm, to, n).to_str()
            for via in board.neighbours(to):
                if via not in (frm, to) and via in within:
                    for n in range(1, carried + 1):
                        yield Move(frm, to, n, via).to_str()
    for a in land:
        for n in range(1, most + 1):
            yield Place(a, n).to_str()
        yield Fight(a).to_str()
        yield Retreat(a).to_str()
        yield Remove(a).to_str()
    for c in DEFENDERS:
        yield Lose(c).to_str()
    yield Refuse().to_str()
    yield DONE.to_str()
    for card in sc.cards.cards.values():
        for i in range(card.copies):
            key = f"{card.id}#{i}"
            yield Exchange(key).to_str()
            yield Discard(key).to_str()
            yield Choose(key).to_str()
            yield Play(key).to_str()
            for use in range(len(card.uses)):
                yield Play(key, use).to_str()
    if advanced:
        yield from ship_actions(sc, land)


def ship_actions(sc: KampenScenario, land: list[str]) -> Iterator[str]:
    seas = [*SEAS, RAID]
    keys = [k for c in sc.countries for k in sc.ship_keys(c)]
    yield Intercept().to_str()
    yield Recall().to_str()
    for s in SEAS:
        yield Sea(s).to_str()
    for frm in seas:
        for to in seas:
            if to != frm:
                yield Sail(frm, to).to_str()
                for k in keys:
                    yield Sail(frm, to, k).to_str()
    for k in keys:
        yield Join(k).to_str()
        yield Raid(k).to_str()
        yield Withdraw(k).to_str()
        for s in seas:
            yield Ship(k, s).to_str()
        for a in land:
            yield Land(k, a).to_str()


def distances(sc: KampenScenario, start: str, most: int) -> set[str]:
    """The land areas at most `most` borders from `start` (itself included)."""
    seen = {start}
    frontier = [start]
    for _ in range(most):
        frontier = [n for a in frontier for n in sc.board.neighbours(a) if n not in seen]
        seen.update(frontier)
    return seen
