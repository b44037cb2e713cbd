"""Kampen om Norge actions: frozen values with one text form (the codec of logs, saves and typed input)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, shown


@dataclass(frozen=True, slots=True)
class Move:
    """`n` battalions from `frm` into `to`; into a hostile area it is an attack. A neighbouring `to` is the
    ordinary move; a card may carry them further (`via`: the area passed through last, which an attack is
    made from)."""

    frm: str
    to: str
    n: int = 1
    via: str = ""

    def to_str(self) -> str:
        return f"move {self.frm} {self.to} {self.n}" + (f" via {self.via}" if self.via else "")


@dataclass(frozen=True, slots=True)
class Fight:
    """The attacker picks the next battle to fight (4.2: the attacker chooses the order)."""

    area: str

    def to_str(self) -> str:
        return f"fight {self.area}"


@dataclass(frozen=True, slots=True)
class Lose:
    """A joint defence loses a battalion of `country` (4.2 step 6)."""

    country: str

    def to_str(self) -> str:
        return f"lose {self.country}"


@dataclass(frozen=True, slots=True)
class Refuse:
    """The Allies do not agree to how Norway shared out a joint defence's losses: Germany then decides (4.2 step
    6, three players)."""

    def to_str(self) -> str:
        return "refuse"


@dataclass(frozen=True, slots=True)
class Retreat:
    """The beaten defenders withdraw together into `to` (4.2 step 8)."""

    to: str

    def to_str(self) -> str:
        return f"retreat {self.to}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """A card from hand traded for its reinforcement symbols (4.3)."""

    card: str

    def to_str(self) -> str:
        return f"exchange {self.card}"


@dataclass(frozen=True, slots=True)
class Place:
    """A new battalion placed in `area` (4.3; the Allies' first six come as two groups of three)."""

    area: str
    n: int = 1

    def to_str(self) -> str:
        return f"place {self.area} {self.n}"


@dataclass(frozen=True, slots=True)
class Discard:
    """A card put under the deck: the round's card when none was used (4.4)."""

    card: str

    def to_str(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Remove:
    """The Allies take a battalion off the board when their deck runs out (2.4)."""

    area: str

    def to_str(self) -> str:
        return f"remove {self.area}"


@dataclass(frozen=True, slots=True)
class Play:
    """A card from hand played now. `use` indexes the card's printed functions; it is given only when more
    than one of them fits the moment (None: the one that fits)."""

    card: str
    use: int | None = None

    def to_str(self) -> str:
        return f"play {self.card}" + (f" {self.use}" if self.use is not None else "")


@dataclass(frozen=True, slots=True)
class Done:
    """Nothing more in this step."""

    def to_str(self) -> str:
        return "done"


# ----- the advanced game: ships and the 9 April round ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Choose:
    """A 9 April card taken from the country's 9 April deck into its hand (7.0: chosen, not drawn)."""

    card: str

    def to_str(self) -> str:
        return f"choose {self.card}"


@dataclass(frozen=True, slots=True)
class Ship:
    """A ship card put into a sea area: deployed (7.0), arriving with the Home Fleet (7.4), shifted by a card,
    or chased there by the enemy (8.2 step 7)."""

    key: str
    sea: str

    def to_str(self) -> str:
        return f"ship {self.key} {self.sea}"


@dataclass(frozen=True, slots=True)
class Sail:
    """Ship cards sail one sea area from `frm` to `to` (8.1): one card (`key`), or with `key` empty every
    card of the mover in `frm` still free to sail, as one group."""

    frm: str
    to: str
    key: str = ""

    def to_str(self) -> str:
        return f"sail {self.frm} {self.to}" + (f" {self.key}" if self.key else "")


@dataclass(frozen=True, slots=True)
class Intercept:
    """Try to intercept the enemy ship cards in the sea area being decided (8.1), with all one's ships there."""

    def to_str(self) -> str:
        return "intercept"


@dataclass(frozen=True, slots=True)
class Join:
    """A ship card the enemy did not find is added to the sea battle by its owner (8.2)."""

    key: str

    def to_str(self) -> str:
        return f"join {self.key}"


@dataclass(frozen=True, slots=True)
class Sea:
    """A sea area chosen: the next sea battle (8.2), or where a card acts (Rekognoseringsfly)."""

    sea: str

    def to_str(self) -> str:
        return f"sea {self.sea}"


@dataclass(frozen=True, slots=True)
class Raid:
    """A German battleship or heavy cruiser in VI-VIII goes raiding: into the raid box (7.2)."""

    key: str

    def to_str(self) -> str:
        return f"raid {self.key}"


@dataclass(frozen=True, slots=True)
class Land:
    """A German ship on the coast lands one battalion in a land area its sea area faces (7.2)."""

    key: str
    area: str

    def to_str(self) -> str:
        return f"land {self.key} {self.area}"


@dataclass(frozen=True, slots=True)
class Recall:
    """Germany trades 6 reinforcement symbols to call its raiders home (7.2)."""

    def to_str(self) -> str:
        return "recall"


@dataclass(frozen=True, slots=True)
class Withdraw:
    """The Allies take a ship off the board when their deck runs out (5.2)."""

    key: str

    def to_str(self) -> str:
        return f"withdraw {self.key}"


DONE = Done()


# Made once each: a compiled dataclass's constructor runs interpreted, and the rules list the same moves and
# placements again and again (the legal actions at every decision of a search). The rules' own lists use these;
# actions parsed from what a player typed are made afresh.
_MOVES: dict[tuple[str, str, int, str], Move] = {}
_PLACES: dict[tuple[str, int], Place] = {}


def move(frm: str, to: str, n: int = 1, via: str = "") -> Move:
    """`Move(frm, to, n, via)`, made once."""
    key = (frm, to, n, via)
    got = _MOVES.get(key)
    if got is None:
        got = _MOVES[key] = Move(frm, to, n, via)
    return got


def place(area: str, n: int = 1) -> Place:
    """`Place(area, n)`, made once."""
    key = (area, n)
    got = _PLACES.get(key)
    if got is None:
        got = _PLACES[key] = Place(area, n)
    return got


KampenAction = (Move | Fight | Lose | Refuse | Retreat | Exchange | Place | Discard | Remove | Play | Done | Roll
                | Choose | Ship | Sail | Intercept | Join | Sea | Raid | Land | Recall | Withdraw)
SEAS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")


def sea_id(text: str) -> str:
    """A sea area from its numeral, any case ('raid' is the raid box)."""
    up = text.upper()
    if up in SEAS:
        return up
    if up == "RAID":
        return "raid"
    raise IllegalActionError(f"unknown sea area {text!r} (I-VIII, or raid)")


def ship_key(text: str) -> str:
    """A ship card's key; a ship with one card may be named without its copy number."""
    text = text.lower()
    return text if "#" in text else f"{text}#0"


def parse_words(words: list[str], area: Callable[[str], str]) -> KampenAction:
    """An action from its words; `area` maps a typed area name or id to its id or raises."""
    if not words:
        raise IllegalActionError("empty action")
    verb, args = words[0].lower(), words[1:]

    def need(n: int, form: str) -> None:
        if len(args) != n:
            raise IllegalActionError(f"'{verb}' takes {form}, got {' '.join(args) or 'nothing'!r}")

    def count(text: str) -> int:
        try:
            n = int(text)
        except ValueError as exc:
            raise IllegalActionError(f"'{verb}' needs a whole number of battalions, got {text!r}") from exc
        if n < 1:
            raise IllegalActionError(f"'{verb}' moves at least one battalion, got {n}")
        return n

    if verb == "roll":
        return Roll.parse(args)
    if verb == "move":
        via = ""
        if len(args) >= 2 and args[-2].lower() == "via":
            via, args = area(args[-1]), args[:-2]
        if len(args) not in (2, 3):
            raise IllegalActionError(f"'move' takes FROM TO [N] [via AREA], got {' '.join(words[1:]) or 'nothing'!r}")
        return Move(area(args[0]), area(args[1]), count(args[2]) if len(args) == 3 else 1, via)
    if verb == "fight":
        need(1, "an area")
        return Fight(area(args[0]))
    if verb == "lose":
        need(1, "a country (norway or allies)")
        return Lose(args[0].lower())
    if verb == "refuse":
        need(0, "nothing")
        return Refuse()
    if verb == "retreat":
        need(1, "an area")
        return Retreat(area(args[0]))
    if verb == "exchange":
        need(1, "a card from your hand")
        return Exchange(args[0])
    if verb == "place":
        if len(args) not in (1, 2):
            raise IllegalActionError(f"'place' takes AREA [N], got {' '.join(args) or 'nothing'!r}")
        return Place(area(args[0]), count(args[1]) if len(args) == 2 else 1)
    if verb == "play":
        if len(args) not in (1, 2):
            raise IllegalActionError(f"'play' takes CARD [USE], got {' '.join(args) or 'nothing'!r}")
        try:
            use = int(args[1]) if len(args) == 2 else None
        except ValueError as exc:
            raise IllegalActionError(f"a card's use is a number, got {args[1]!r}") from exc
        return Play(args[0], use)
    if verb == "discard":
        need(1, "a card from your hand")
        return Discard(args[0])
    if verb == "remove":
        need(1, "an area")
        return Remove(area(args[0]))
    if verb in ("done", "pass"):
        need(0, "nothing")
        return DONE
    if verb == "choose":
        need(1, "a 9 April card")
        return Choose(args[0])
    if verb == "ship":
        need(2, "SHIP SEA")
        return Ship(ship_key(args[0]), sea_id(args[1]))
    if verb == "sail":
        if len(args) not in (2, 3):
            raise IllegalActionError(f"'sail' takes FROM TO [SHIP], got {' '.join(args) or 'nothing'!r}")
        return Sail(sea_id(args[0]), sea_id(args[1]), ship_key(args[2]) if len(args) == 3 else "")
    if verb == "intercept":
        need(0, "nothing")
        return Intercept()
    if verb == "join":
        need(1, "a ship card")
        return Join(ship_key(args[0]))
    if verb == "sea":
        need(1, "a sea area")
        return Sea(sea_id(args[0]))
    if verb == "raid":
        need(1, "a ship card")
        return Raid(ship_key(args[0]))
    if verb == "land":
        need(2, "SHIP AREA")
        return Land(ship_key(args[0]), area(args[1]))
    if verb == "recall":
        need(0, "nothing")
        return Recall()
    if verb == "withdraw":
        need(1, "a ship card")
        return Withdraw(ship_key(args[0]))
    raise IllegalActionError(f"unknown action {shown(verb)} (move, fight, play, lose, refuse, retreat, exchange, "
                             "place, discard, remove, done; advanced game: choose, ship, sail, intercept, join, sea, "
                             "raid, land, recall, withdraw)")
