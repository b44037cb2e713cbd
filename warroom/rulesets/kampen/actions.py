"""Kampen om Norge actions: frozen values with one text form (the codec of logs, saves and typed input)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError


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


DONE = Done()
KampenAction = Move | Fight | Lose | Retreat | Exchange | Place | Discard | Remove | Play | Done | Roll


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
    raise IllegalActionError(f"unknown action {verb!r} (move, fight, play, lose, retreat, exchange, place, "
                             "discard, remove, done)")
