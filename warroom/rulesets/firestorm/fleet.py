"""The Strategic Game's position (Firestorm: Norway digest sections 5-6): where every ship, submarine and aircraft
counter is, what has acted this turn, and the fight under way. `navy.py` asks it what the land rules need.

Counter locations: a Strategic Map location id, or `OFFMAP` (not yet arrived), `GONE` (destroyed),
`SORTIE` (a Ju-87 lent to the land maps this turn) or `NEVER` (a reinforcement that never came).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from warroom.rulesets.firestorm.counters import CounterDef
from warroom.rulesets.firestorm.places import GONE, OFFMAP, Locations

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.model import FirestormScenario

SORTIE = "sortie"
NEVER = "never"
SURFACE = ("battleship", "named", "carrier", "group")
"""Counter types that are surface ships (they fight surface combat and control sea areas)."""


def is_surface(c: CounterDef) -> bool:
    return c.type in SURFACE


@dataclass(slots=True)
class Volley:
    """Dice one side fires in a combat: `dice` d6 split over `targets` by the firing side.

    `reroll` of the dice (the first ones allocated) re-roll a miss once (underlined bombers, the
    immobile harbour target). Allocation is `alloc` (target -> dice), filled by `Allocate` actions.
    """

    side: str
    dice: int
    targets: tuple[str, ...]
    label: str
    reroll: int = 0
    may_hold: bool = False  # submarines: the owner may fire fewer dice than it has
    alloc: dict[str, int] = field(default_factory=dict)

    def left(self) -> int:
        return self.dice - sum(self.alloc.values())

    def clone(self) -> Volley:
        return Volley(self.side, self.dice, self.targets, self.label, self.reroll, self.may_hold, dict(self.alloc))


@dataclass(slots=True)
class Combat:
    """One naval or air engagement in progress."""

    kind: str  # surface | air | bombing | sub | reply | retreat_fire
    at: str  # the location fought over
    active: str  # the side whose action it is
    volleys: list[Volley] = field(default_factory=list)
    faces: list[tuple[int, ...]] = field(default_factory=list)  # per volley, in allocation order
    hits: dict[str, int] = field(default_factory=dict)  # target -> hits (after re-rolls)
    pending: list[str] = field(default_factory=list)  # battleships awaiting their single-hit re-roll
    misses: list[tuple[int, str]] = field(default_factory=list)  # (volley index, target) dice to re-roll
    evade: bool = False  # the Germans declared a voluntary retreat before the dice
    attackers: tuple[str, ...] = ()  # aircraft or submarines taking part (the active side's)
    defenders: tuple[str, ...] = ()  # the passive side's units taking part

    def clone(self) -> Combat:
        return Combat(self.kind, self.at, self.active, [v.clone() for v in self.volleys], list(self.faces),
                      dict(self.hits), list(self.pending), list(self.misses), self.evade, self.attackers,
                      self.defenders)


FleetSeen = tuple[tuple[str, int, str, int, int], list[Any], str]
"""A listing of strategic moves at sea and in the air: (side, turn, step, the locations' version, how many
counters had moved), the moves, and the ship that then moved alone, or '' (`fleet_moves.fleet_move_options`). Within
one step of one turn nothing else they depend on changes: control, supply and the airfields' state stand still
while counters make their strategic moves."""


# not a native class when compiled (scripts/compile.py): clone() starts from object.__new__
@mypyc_attr(native_class=False)
class NavalState:
    """The mutable Strategic Game part of a Norway campaign position."""

    def __init__(self, sc: FirestormScenario) -> None:
        self.where = Locations({c.id: c.start for c in sc.counters.values()})
        self.activated: set[str] = set()
        self.actions_left = 0
        self.player = ""
        self.kind = ""  # the acting group's kind: ships | subs | air
        self.pool: list[str] = []  # units that may still join the group being formed
        self.group: list[str] = []
        self.at = ""  # where the group is now (aircraft: the airfield or carrier area they fly from and return to)
        self.path: list[str] = []  # locations the group has been in this action
        self.stage = ""  # the acting group's stage: form | move | fight | retreat | done
        self.no_fight = False  # a German group that evaded may move on but not fight again
        self.combat: Combat | None = None
        self.retreating: list[str] = []
        self.retreat_side = ""
        self.retreat_path: list[str] = []  # where the retreating ships have been (they never go back)
        self.return_to: str = ""  # what the group does after a fight or retreat
        self.reply_subs: tuple[str, ...] = ()  # submarines that fired and face the ships' reply
        self.aims: dict[str, str] = {}  # mixed defence (6.8): counter -> "subs" or "ships", as its side chose
        self.zones: dict[str, str] = {}  # fighter -> the neighbouring area it covers this turn
        self.closed_harbours: set[str] = set()  # harbour closure (6.9): no Allied supply from them this turn
        self.sortie_from: dict[str, str] = {}  # Ju-87 on the land maps -> its airfield
        self.moved: set[str] = set()  # counters moved in this Strategic Phase
        self.landed: dict[str, str] = {}  # landing harbour -> "ok" | "wait" | "lost" this turn
        # the last listing of strategic moves at sea and in the air (`fleet_moves.fleet_move_options`): shared, never
        # changed in place
        self.fleet_seen: FleetSeen | None = None

    def clone(self) -> NavalState:
        new = object.__new__(NavalState)
        for name in ("actions_left", "player", "kind", "at", "stage", "no_fight",
                     "retreat_side", "return_to"):
            setattr(new, name, getattr(self, name))
        new.where = self.where.copy()
        new.activated = set(self.activated)
        new.pool = list(self.pool)
        new.group = list(self.group)
        new.path = list(self.path)
        new.combat = self.combat.clone() if self.combat is not None else None
        new.retreating = list(self.retreating)
        new.retreat_path = list(self.retreat_path)
        new.reply_subs = self.reply_subs
        new.aims = dict(self.aims)
        new.zones = dict(self.zones)
        new.closed_harbours = set(self.closed_harbours)
        new.sortie_from = dict(self.sortie_from)
        new.moved = set(self.moved)
        new.landed = dict(self.landed)
        new.fleet_seen = self.fleet_seen
        return new

    def at_loc(self, sc: FirestormScenario, loc: str, side: str | None = None) -> list[str]:
        counters = sc.counters
        return [c for c, w in self.where.items() if w == loc and (side is None or counters[c].side == side)]

    def surface_at(self, sc: FirestormScenario, loc: str, side: str) -> list[str]:
        counters = sc.counters
        return [c for c, w in self.where.items()
                if w == loc and counters[c].side == side and counters[c].type in SURFACE]

    def in_play(self, unit: str) -> bool:
        return self.where[unit] not in (OFFMAP, GONE, NEVER, SORTIE)
