"""A Firestorm campaign in numbers (`core.system.Encoding`): every order a bot game may offer, in a fixed order.

The list is built from the scenario alone, one verb at a time, so an order keeps its number in every position and
every process. It may hold orders no position ever offers (an arrow into a friendly area, a troop retreating
across the map): a number costs nothing, a missing order would have none. The conformance harness checks that
random bot games offer nothing outside it (`warroom.sim.conformance`).

- **arrows**: from every area into each of its neighbours;
- **commitments**: for each side, nothing, or one or two of its troops and counted extras (@air, @naval,
  @defence), each of these also with @carpet;
- **retreats, placements and strategic moves**: every troop into every area (placements also into Caen's
  Tactical Reserve), advances of every troop, and `pass`;
- **the Strategic Game** (Norway): every order of `actions.NAVAL_VERBS` on every Strategic Map location, counter
  and group kind; an allocation names any counter (or the harbour) and up to every die the firing side has.

Tabletop results (`report`, `mode`) are not listed: bot games roll every battle by the General's Wargame.

>>> from warroom.scenarios import load_game
>>> numbers = encoding(load_game("caen"), {"mode": "gw"})
>>> numbers.faces, numbers.hidden, "arrow A2 B2" in numbers.actions
(6, False, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

from warroom.core.system import Encoding
from warroom.rulesets.firestorm.actions import (
    AIMS,
    AIR,
    CARPET,
    DEFENCE,
    GROUP_KINDS,
    NAVAL,
    PASS,
    Advance,
    Arrow,
    Commit,
    Move,
    Order,
    Place,
    Retreat,
)
from warroom.rulesets.firestorm.caen import SPOT
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.sea import HARBOUR

COUNTED = (AIR, NAVAL, DEFENCE)
"""The extras that count among a side's two Firestorm Troops (`commitment.COUNTED`)."""


def encoding(sc: FirestormScenario, params: Mapping[str, Any]) -> Encoding:
    """The campaign's orders, the d6 its dice all are, the bound on its returns (a VP difference), and whether it
    hides anything: only Norway's Strategic Game does (each side's dice allocation until the roll, 6.3)."""
    bound = float(vp_bound(sc))
    return Encoding(actions=tuple(dict.fromkeys(orders(sc))), faces=6, returns=(-bound, bound),
                    hidden=sc.has("strategic_game"))


def orders(sc: FirestormScenario) -> Iterator[str]:
    areas = sorted(sc.areas)
    troops = sorted(sc.troops)
    for frm in areas:
        for to in sc.adjacency.get(frm, ()):
            yield Arrow(frm, to).to_str()
    for side in sc.sides:
        items = [u for u in troops if sc.troops[u].side == side] + list(COUNTED)
        groups: list[tuple[str, ...]] = [(), *((u,) for u in items), *combinations(items, 2)]
        for group in groups:
            yield Commit(group).to_str()
            yield Commit((*group, CARPET)).to_str()
    for u in troops:
        yield Advance(u).to_str()
        for a in areas:
            yield Retreat(u, a).to_str()
        for a in (*areas, SPOT):
            yield Place(u, a).to_str()
        for a in areas:
            yield Move(u, a).to_str()
    yield PASS.to_str()
    if sc.counters:
        yield from naval_orders(sc)


def naval_orders(sc: FirestormScenario) -> Iterator[str]:
    """The Strategic Game's orders (Norway 6) and the counters' strategic moves."""
    places = sorted(sc.strat_areas)
    counters = sorted(sc.counters)
    for verb in ("launch", "halt", "attack", "evade", "fight", "stand", "press"):
        yield Order(verb).to_str()
    for loc in places:
        for kind in GROUP_KINDS:
            yield Order("activate", loc, kind).to_str()
        for verb in ("sail", "dive", "fly", "bomb", "withdraw"):
            yield Order(verb, loc).to_str()
    most = max(dice(sc, side) for side in sc.sides)
    for c in counters:
        yield Order("take", c).to_str()
        yield Order("sortie", c).to_str()
        for aim in AIMS:
            yield Order("aim", c, aim).to_str()
        for loc in places:
            yield Move(c, loc).to_str()
        for n in range(1, dice(sc, sc.other(sc.counters[c].side)) + 1):
            yield Order("allocate", c, n=n).to_str()
    for n in range(1, most + 1):
        yield Order("allocate", HARBOUR, n=n).to_str()


def dice(sc: FirestormScenario, side: str) -> int:
    """The most dice one side can fire in a fight: every die of its counters, and every harbour's defence."""
    return (sum(c.cv + c.air_cv + c.aa for c in sc.counters.values() if c.side == side)
            + sum(a.defence for a in sc.strat_areas.values()))


def vp_bound(sc: FirestormScenario) -> int:
    """No VP difference can exceed every victory point the campaign could pay out: every area, every troop's
    and counter's VP, and every bonus of every turn (landings at every harbour, every counter sunk)."""
    harbours = sum(1 for a in sc.strat_areas.values() if a.kind == "harbour")
    bonus = sum(sum(abs(b.vp) for b in t.bonus) + abs(t.landing_vp) * harbours + abs(t.sunk_vp) * len(sc.counters)
                for t in sc.turns)
    extra = [sc.rules.values.get(key, 0) for key in ("german_success_vp", "map_closure")]
    closure = extra[1].get("vp", 0) if isinstance(extra[1], dict) else 0
    return (sum(abs(a.vp) for a in sc.areas.values()) + sum(abs(t.capture_vp) for t in sc.troops.values())
            + sum(abs(c.vp) for c in sc.counters.values()) + bonus + abs(int(extra[0])) + abs(int(closure))
            * len(sc.turns))
