"""Strategic Game counters (Firestorm: Norway digest section 5): ships, submarines and aircraft.

Many values are printed only on the counter sheet, which the rulebook text lacks; the scenario data
marks each such value with an `assumption`, so owners of the sheet can correct it without code.
"""

from __future__ import annotations

from dataclasses import dataclass

from warroom.core.schema import Reader
from warroom.rulesets.firestorm.maps import StratAreaDef

COUNTER_TYPES = ("battleship", "named", "carrier", "group", "submarine", "fighter", "bomber")
AIRCRAFT = ("fighter", "bomber")
SURFACE_TYPES = ("battleship", "named", "carrier", "group")


@dataclass(frozen=True, slots=True)
class CounterDef:
    id: str
    name: str
    side: str
    type: str
    cv: int  # surface combat dice
    air_cv: int  # air-to-air dice (fighters: the bracketed value)
    aa: int  # dice against attacking aircraft
    range: int  # aircraft: areas they may fly out and back
    reroll: bool  # underlined: re-roll misses against ships
    carrier: str  # carrier aircraft: the carrier they fly from
    start: str  # a Strategic Map location, or "offmap"
    arrives: int
    vp: int
    assumption: str = ""
    arrive_at: str = ""  # offmap counters: the Strategic Map location they enter at
    land_sortie: bool = False  # may be lent to the land maps as an air sortie (Ju-87, Norway 7.7)
    gunfire: int = 0  # Norway 7.1/11.33: naval gunfire support bonus on the land map from its harbour

    @property
    def is_aircraft(self) -> bool:
        return self.type in AIRCRAFT


def parse_counters(root: Reader, sides: tuple[str, str], strat: dict[str, StratAreaDef], n_turns: int,
                   problems: list[str]) -> dict[str, CounterDef]:
    """Read `[[counter]]` tables; every reference (start location, carrier) must exist."""
    counters: dict[str, CounterDef] = {}
    readers: dict[str, Reader] = {}
    for c in root.tables("counter"):
        cid = c.text("id")
        if cid in counters:
            c.fail(f"duplicate counter id {cid!r}")
        start = c.text("start", "offmap")
        if start != "offmap" and start not in strat:
            c.fail(f"start {start!r} is not a location of the Strategic Map (nor 'offmap')")
        counter = CounterDef(
            id=cid, name=c.text("name", cid), side=c.text("side", choices=sides),
            type=c.text("type", choices=COUNTER_TYPES), cv=c.integer("cv", 0, lo=0, hi=20),
            air_cv=c.integer("air_cv", 0, lo=0, hi=20), aa=c.integer("aa", 0, lo=0, hi=5),
            range=c.integer("range", 0, lo=0, hi=20), reroll=c.flag("reroll", False),
            carrier=c.text("carrier", ""), start=start, arrives=c.integer("arrives", 1, lo=1, hi=n_turns),
            vp=c.integer("vp", 10, lo=0, hi=100), assumption=c.text("assumption", ""),
            arrive_at=c.text("arrive_at", ""), land_sortie=c.flag("land_sortie", False),
            gunfire=c.integer("gunfire", 0, lo=0, hi=6),
        )
        if start == "offmap" and counter.arrive_at not in strat:
            c.fail(f"key 'arrive_at': an offmap counter needs the Strategic Map location it enters at, "
                   f"got {counter.arrive_at!r}")
        counters[cid] = counter
        readers[cid] = c
    for cid, counter in counters.items():
        c = readers[cid]
        if counter.carrier:
            ship = counters.get(counter.carrier)
            if ship is None or ship.type != "carrier":
                c.fail(f"key 'carrier': {counter.carrier!r} is not a carrier counter")
            elif ship.start != counter.start:
                c.fail(f"starts at {counter.start!r} but its carrier {ship.id!r} starts at {ship.start!r}")
        if counter.is_aircraft and counter.range == 0:
            c.fail("an aircraft counter needs a 'range'")
        if counter.gunfire and counter.type not in SURFACE_TYPES:
            c.fail("only a surface ship gives naval gunfire support ('gunfire')")
        if counter.type == "fighter" and counter.air_cv == 0:
            c.fail("a fighter needs its air-to-air value 'air_cv'")
    return counters
