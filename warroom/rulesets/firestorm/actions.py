"""Firestorm actions: frozen dataclasses with one text codec for logs, URLs and the CLI.

>>> parse_words("arrow A-2 B4".split(), lambda t: t.replace("-", ""))
Arrow(frm='A2', to='B4')
>>> Commit(("inf_50", "@air")).to_str()
'commit inf_50 @air'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, UnknownNameError, shown

AIR = "@air"
"""The side's air sortie, as a committed Firestorm Troop."""
CARPET = "@carpet"
"""Caen carpet bombing: an extra to the attack, not one of the two troops."""
DEFENCE = "@defence"
"""Caen's implicit German Defence Firestorm Troop."""
NAVAL = "@naval"
"""Norway: naval gunfire support from Allied ships in Narvik harbour, as a committed Firestorm Troop."""
TOKEN_LABELS = {AIR: "air sortie", CARPET: "carpet bombing", DEFENCE: "German Defence troop",
                NAVAL: "naval gunfire support"}
"""How the committed extras read in logs and on screens."""


@dataclass(frozen=True, slots=True)
class Arrow:
    """Place the battle arrow from a friendly area into an adjacent enemy area."""

    frm: str
    to: str

    def to_str(self) -> str:
        return f"arrow {self.frm} {self.to}"


def is_token(item: str) -> bool:
    """True for the committed extras that are not troops (@air, @carpet, @defence, @naval)."""
    return item.startswith("@")


@dataclass(frozen=True, slots=True)
class Commit:
    """Commit up to two Firestorm Troops (and extras) to the open battle.

    The units are kept in one canonical order (troops by id, then extras), so a commitment means
    the same whatever order it was typed in.
    """

    units: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(sorted(self.units, key=lambda u: (is_token(u), u))))

    def to_str(self) -> str:
        return "commit " + (" ".join(self.units) if self.units else "-")


@dataclass(frozen=True, slots=True)
class Mode:
    """Choose how the open battle is resolved: 'gw' (rolled) or 'tabletop' (reported)."""

    mode: str

    def to_str(self) -> str:
        return f"mode {self.mode}"


@dataclass(frozen=True, slots=True)
class Report:
    """A tabletop result: the attacker's and the defender's Flames of War victory points.

    `battle` numbers a battle played in parallel (`report 2 4 1`); 0 is the battle being fought now."""

    attacker_vp: int
    defender_vp: int
    battle: int = 0

    def to_str(self) -> str:
        if self.battle:
            return f"report {self.battle} {self.attacker_vp} {self.defender_vp}"
        return f"report {self.attacker_vp} {self.defender_vp}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: str
    to: str

    def to_str(self) -> str:
        return f"retreat {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Advance:
    unit: str

    def to_str(self) -> str:
        return f"advance {self.unit}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place a reinforcement in an area (or 'reserve': the Caen Tactical Reserve)."""

    unit: str
    area: str

    def to_str(self) -> str:
        return f"place {self.unit} {self.area}"


@dataclass(frozen=True, slots=True)
class Move:
    """A strategic move of one troop to a destination area."""

    unit: str
    to: str

    def to_str(self) -> str:
        return f"move {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: no (more) attack, advance or moves."""

    def to_str(self) -> str:
        return "pass"


NAVAL_VERBS = {
    "activate": "LOCATION ships|subs|air", "take": "COUNTER", "launch": "", "sail": "LOCATION", "halt": "",
    "dive": "LOCATION", "attack": "", "fly": "LOCATION", "bomb": "HARBOUR", "allocate": "TARGET DICE",
    "evade": "", "fight": "", "stand": "", "press": "", "withdraw": "LOCATION", "sortie": "COUNTER",
    "aim": "COUNTER subs|ships",
}
"""The Strategic Game orders (Norway 6) and the arguments each takes."""
GROUP_KINDS = ("ships", "subs", "air")
AIMS = ("subs", "ships")
"""What a counter entering an area with enemy submarines and surface ships attacks (6.8, mixed defence)."""


@dataclass(frozen=True, slots=True)
class Order:
    """A Strategic Game order (Norway 6): `verb` with a location or counter (`arg`), a group kind
    (`what`, for activate) and a number of dice (`n`, for allocate).

    >>> Order("activate", "B4", "ships").to_str()
    'activate B4 ships'
    >>> Order("allocate", "gneisenau", n=7).to_str()
    'allocate gneisenau 7'
    """

    verb: str
    arg: str = ""
    what: str = ""
    n: int = 0

    def to_str(self) -> str:
        return " ".join(p for p in (self.verb, self.arg, self.what, str(self.n) if self.n else "") if p)


FirestormAction = Arrow | Commit | Mode | Report | Retreat | Advance | Place | Move | Pass | Order | Roll
PASS = Pass()

WRONG_KIND = "that kind of action is not allowed now"
"""The refusal of an action of a kind the step does not take (the step's expected form is said beside it)."""


def parse_words(words: list[str], area: Callable[[str], str]) -> FirestormAction:
    """Parse an action's words; `area` maps a typed area code to its canonical id or raises."""
    if not words:
        raise IllegalActionError("empty action")
    verb, args = words[0].lower(), words[1:]

    def need(n: int, form: str) -> None:
        if len(args) != n:
            raise IllegalActionError(f"'{verb}' takes {form}, got {' '.join(args) or 'nothing'!r}")

    if verb == "roll":
        return Roll.parse(args)
    if verb == "arrow":
        need(2, "a from-area and a to-area")
        return Arrow(area(args[0]), area(args[1]))
    if verb == "commit":
        if args == ["-"]:
            return Commit(())
        return Commit(tuple(args))
    if verb == "mode":
        need(1, "'gw' or 'tabletop'")
        if args[0] not in ("gw", "tabletop"):
            raise IllegalActionError(f"unknown resolution mode {args[0]!r} (use gw or tabletop)")
        return Mode(args[0])
    if verb == "report":
        if len(args) not in (2, 3):
            raise IllegalActionError("'report' takes the two victory point scores, attacker's first "
                                     f"(with a battle number before them for a battle at the table: "
                                     f"'report 2 4 1'), got {' '.join(args) or 'nothing'!r}")
        try:
            numbers = [int(a) for a in args]
        except ValueError as exc:
            raise IllegalActionError(f"victory points must be whole numbers, got {' '.join(args)!r}") from exc
        if len(numbers) == 3:
            if numbers[0] < 1:
                raise IllegalActionError(f"battles are numbered from 1, got {numbers[0]}")
            return Report(numbers[1], numbers[2], numbers[0])
        return Report(numbers[0], numbers[1])
    if verb == "retreat":
        need(2, "a troop and an area")
        return Retreat(args[0], area(args[1]))
    if verb == "advance":
        need(1, "a troop")
        return Advance(args[0])
    if verb == "place":
        need(2, "a troop and an area (or 'reserve')")
        return Place(args[0], args[1] if args[1] == "reserve" else area(args[1]))
    if verb == "move":
        need(2, "a troop and an area")
        return Move(args[0], area(args[1]))
    if verb in ("pass", "done"):
        need(0, "nothing")
        return PASS
    if verb in NAVAL_VERBS:
        return _parse_order(verb, args, area)
    raise IllegalActionError(f"unknown action {shown(verb)}")


def _parse_order(verb: str, args: list[str], area: Callable[[str], str]) -> Order:
    form = NAVAL_VERBS[verb]
    wanted = len(form.split())
    if len(args) != wanted:
        raise IllegalActionError(f"'{verb}' takes {form or 'nothing'}, got {' '.join(args) or 'nothing'!r}")
    if verb == "activate":
        if args[1] not in GROUP_KINDS:
            raise IllegalActionError(f"unknown group kind {args[1]!r} (use ships, subs or air)")
        return Order(verb, _location(verb, args[0], area), args[1])
    if verb == "aim":
        if args[1] not in AIMS:
            raise IllegalActionError(f"a counter aims at the submarines or the surface ships: 'aim {args[0]} subs' "
                                     f"or 'aim {args[0]} ships', not {args[1]!r}")
        return Order(verb, args[0], args[1])
    if verb == "allocate":
        try:
            n = int(args[1])
        except ValueError as exc:
            raise IllegalActionError(f"the number of dice must be a whole number, got {args[1]!r}") from exc
        if n < 1:
            raise IllegalActionError(f"allocate at least one die, got {n}")
        return Order(verb, args[0], n=n)
    if form in ("LOCATION", "HARBOUR"):
        return Order(verb, _location(verb, args[0], area))
    return Order(verb, args[0] if args else "")


def _location(verb: str, text: str, area: Callable[[str], str]) -> str:
    try:
        return area(text)
    except UnknownNameError as exc:
        raise UnknownNameError(f"unknown location {text!r}: '{verb}' takes a Strategic Map location "
                               f"(a code such as B3, or a harbour or airfield id such as namsos_harbour)") from exc
