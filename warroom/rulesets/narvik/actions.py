"""Narvik's actions and their text form (the codec shared by logs, URLs and the terminal).

>>> parse_words("move ger_139_1 1503".split()).to_str()
'move ger_139_1 1503'
>>> parse_words(["end"])
End()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, clipped
from warroom.rulesets.narvik.hexes import is_hex_id


@dataclass(frozen=True, slots=True)
class Move:
    """A unit (with whatever its headquarters has absorbed) moves to a hex it can reach this phase."""

    unit: str
    to: str

    def to_str(self) -> str:
        return f"move {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Rail:
    """Rail movement: the unit's whole move, along connected railway hexes free of enemy units."""

    unit: str
    to: str

    def to_str(self) -> str:
        return f"rail {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Truck:
    """A truck carries one infantry battalion (or company) stacked with it; both move to the truck's hex."""

    truck: str
    unit: str
    to: str

    def to_str(self) -> str:
        return f"truck {self.truck} {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Land:
    """Landing craft carry a unit from the coast it stands on, by sea, to another stretch of coast (the Allies'
    from the turn they arrive: rules.toml [naval])."""

    unit: str
    to: str

    def to_str(self) -> str:
        return f"land {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Break:
    """A unit breaks down into its parts, in its hex."""

    unit: str

    def to_str(self) -> str:
        return f"break {self.unit}"


@dataclass(frozen=True, slots=True)
class Combine:
    """A broken-down unit's parts, all in one hex, combine into it again."""

    unit: str

    def to_str(self) -> str:
        return f"combine {self.unit}"


@dataclass(frozen=True, slots=True)
class Absorb:
    unit: str
    hq: str

    def to_str(self) -> str:
        return f"absorb {self.unit} {self.hq}"


@dataclass(frozen=True, slots=True)
class Detach:
    unit: str

    def to_str(self) -> str:
        return f"detach {self.unit}"


@dataclass(frozen=True, slots=True)
class Withdraw:
    """The defender in a hex about to be attacked tries to fall back before combat (from turn 2)."""

    hex: str

    def to_str(self) -> str:
        return f"withdraw {self.hex}"


@dataclass(frozen=True, slots=True)
class Interdict:
    """The Allied fleet attacks a German-held port (at the start of the Allied player turn)."""

    hex: str

    def to_str(self) -> str:
        return f"interdict {self.hex}"


@dataclass(frozen=True, slots=True)
class Stand:
    """The defender stays to fight."""

    hex: str

    def to_str(self) -> str:
        return f"stand {self.hex}"


MISSIONS = ("support", "bomb", "carry", "cover")
"""Air missions: ground support, interdiction, air transport (and parachute drops), air superiority."""


@dataclass(frozen=True, slots=True)
class Fly:
    """An air unit flies a mission against a hex (a transport names the unit it carries)."""

    air: str
    mission: str
    hex: str
    unit: str = ""

    def to_str(self) -> str:
        return f"fly {self.air} {self.mission} {self.hex}" + (f" {self.unit}" if self.unit else "")


@dataclass(frozen=True, slots=True)
class End:
    """The phasing player ends the phase (or the regrouping at its end)."""

    def to_str(self) -> str:
        return "end"


NarvikAction = (Move | Rail | Truck | Land | Break | Combine | Absorb | Detach | Withdraw | Stand | Interdict | Fly
                | End | Roll)
UNIT_ONE: dict[str, type[Break | Combine | Detach]] = {"break": Break, "combine": Combine, "detach": Detach}
HEX_MOVES: dict[str, type[Move | Rail | Land]] = {"move": Move, "rail": Rail, "land": Land}
HEX_ONE: dict[str, type[Withdraw | Stand | Interdict]] = {"withdraw": Withdraw, "stand": Stand,
                                                          "interdict": Interdict}


def parse_words(words: list[str], place: Callable[[str], str] | None = None) -> NarvikAction:
    """An action from its words. `place` turns a place name into its hex id (so that the terminal may say
    `move ger_139_1 Narvik`); without it, a hex is its four-digit id."""

    def hex_of(parts: list[str]) -> str:
        text = " ".join(parts)
        if is_hex_id(text):
            return text
        if place is not None and text:
            return place(text)
        raise IllegalActionError(f"{clipped(text, 40)!r} is not a hex (four digits, column then row, e.g. 0712)")

    if not words:
        raise IllegalActionError("no action given")
    verb, rest = words[0].lower(), words[1:]
    if verb == "roll":
        return Roll.parse(rest)
    if verb == "end" and not rest:
        return End()
    if verb in UNIT_ONE and len(rest) == 1:
        return UNIT_ONE[verb](rest[0].lower())
    if verb in HEX_ONE and rest:
        return HEX_ONE[verb](hex_of(rest))
    if verb == "absorb" and len(rest) == 2:
        return Absorb(rest[0].lower(), rest[1].lower())
    if verb in HEX_MOVES and len(rest) >= 2:
        kind = HEX_MOVES[verb]
        return kind(rest[0].lower(), hex_of(rest[1:]))
    if verb == "fly" and len(rest) >= 3 and rest[1].lower() in MISSIONS:
        if rest[1].lower() == "carry":  # the carried unit comes last: the hex may be a name of several words
            return Fly(rest[0].lower(), "carry", hex_of(rest[2:-1]), rest[-1].lower()) if len(rest) >= 4 else \
                Fly(rest[0].lower(), "carry", hex_of(rest[2:]), "")
        return Fly(rest[0].lower(), rest[1].lower(), hex_of(rest[2:]))
    if verb == "truck" and len(rest) >= 3:
        return Truck(rest[0].lower(), rest[1].lower(), hex_of(rest[2:]))
    raise IllegalActionError(
        f"cannot read {clipped(' '.join(words), 60)!r}: the actions are move UNIT HEX, rail UNIT HEX, "
        "land UNIT HEX, truck TRUCK UNIT HEX, break UNIT, combine UNIT, absorb UNIT HQ, detach UNIT, withdraw HEX, "
        "stand HEX, fly AIR support|bomb|cover HEX, fly AIR carry HEX UNIT, interdict HEX and end")
