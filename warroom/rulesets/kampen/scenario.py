"""The Kampen om Norge scenario: the board, the cards and the setup, read from `scenarios/data/kampen/`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from warroom.core.errors import ScenarioError
from warroom.rulesets.kampen.board import DATA, Board, load_board, slug
from warroom.rulesets.kampen.cards import CardSet, load_cards, ship_cards

FOLDER = DATA
NAMES = {"germany": "Germany", "norway": "Norway", "allies": "The Allies"}


# a plug-in may subclass it (rulesets.of finds the nearest ancestor's system), compiled too (scripts/compile.py)
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class KampenScenario:
    id: str
    title: str
    version: str
    status: str
    board: Board
    cards: CardSet
    countries: tuple[str, ...]
    hand: dict[str, int]
    rules: dict[str, Any]
    setup: dict[str, dict[str, int]]
    allies_first: dict[str, Any]
    decks: dict[str, tuple[str, ...]]  # country -> its play deck as card keys, in file order
    symbol_count: dict[str, int]  # card key -> reinforcement symbols
    april_keys: frozenset[str] = frozenset()  # every 9 April card's key (advanced game)

    @property
    def sides(self) -> tuple[str, ...]:
        return self.countries

    @property
    def names(self) -> dict[str, str]:
        return NAMES

    @property
    def side_names(self) -> dict[str, str]:
        return NAMES

    def deck(self, country: str) -> list[str]:
        return list(self.decks[country])

    def symbols_of(self, card: str) -> int:
        return self.symbol_count[card]

    def is_april(self, card: str) -> bool:
        return card in self.april_keys

    def april_deck(self, country: str) -> list[str]:
        return [copy.key for copy in self.cards.deck(country, "april9")]

    def ship_keys(self, country: str) -> list[str]:
        return [copy.key for copy in ship_cards(self.cards.ships.ships, country)]

    def card_name(self, card: str) -> str:
        return self.cards.cards[card.split("#", 1)[0]].name

    def area_id(self, text: str) -> str | None:
        """An area by id or name, any case, with or without Norwegian letters."""
        key = slug(text)
        if key in self.board.land:
            return key
        return None


def game_title(sc: KampenScenario, advanced: bool) -> str:
    """The scenario's title naming the game played: 'Kampen om Norge (advanced game)' for the advanced game."""
    if not advanced:
        return sc.title
    return sc.title.replace("(basic game)", "(advanced game)") if "(basic game)" in sc.title \
        else f"{sc.title} (advanced game)"


def load_setup(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError([f"{path}: cannot read the setup: {exc}"]) from exc
    return data


@cache
def bundled() -> KampenScenario:
    return load_folder(FOLDER)


def assumptions(sc: KampenScenario) -> int:
    """How many decisions the data records as `assumption` (board, cards, ships and dice tables, the rules of
    setup.toml)."""
    cards = sum(1 for c in sc.cards.cards.values() if c.assumption) + sum(
        1 for c in sc.cards.cards.values() for u in c.uses if u.assumption)
    data = sc.cards.ships
    ships = sum(1 for t in data.types.values() if t.assumption) + sum(
        1 for r in data.rolls.values() if r.assumption) + sum(1 for x in data.ships.values() if x.assumption)
    rules = sum(1 for v in (*sc.rules.values(), sc.allies_first) if isinstance(v, dict) and v.get("assumption"))
    return len(sc.board.assumptions()) + cards + ships + rules


def load_folder(folder: Path) -> KampenScenario:
    """The scenario of a folder holding board.toml, cards.toml, ships.toml and setup.toml."""
    board = load_board(folder / "board.toml")
    cards = load_cards(folder)
    data = load_setup(folder / "setup.toml")
    problems: list[str] = []
    rules = data.get("rules", {})
    countries = tuple(rules.get("countries", ()))
    if countries != ("germany", "norway", "allies"):
        problems.append(f"{folder}/setup.toml: rules.countries must be germany, norway, allies, got {countries}")
    setup = {c: {a: int(n) for a, n in data.get("setup", {}).get(c, {}).items()} for c in ("germany", "norway")}
    for country, placed in setup.items():
        for area in placed:
            if area not in board.land:
                problems.append(f"{folder}/setup.toml: setup.{country}: unknown area {area!r}")
    if problems:
        raise ScenarioError(problems)
    decks = {c: tuple(copy.key for copy in cards.deck(c)) for c in countries}
    symbols = {copy.key: copy.symbols for c in countries for deck in ("play", "april9") for copy in cards.deck(c, deck)}
    head = load_setup(folder / "scenario.toml").get("scenario", {}) if (folder / "scenario.toml").is_file() else {}
    return KampenScenario(str(head.get("id", "kampen")), str(head.get("title", "Kampen om Norge")),
                          str(head.get("version", "1")), str(head.get("status", "ready")), board, cards, countries,
                          dict(rules["hand"]), rules, setup, dict(data["setup"]["allies_first"]), decks, symbols,
                          frozenset(copy.key for c in countries for copy in cards.deck(c, "april9")))

