"""Heuristic play of the Norway Strategic Game (digest section 6): scores legal actions only.

- German bombers strike the richest fleet in range when their dice outweigh the defence, or bomb
  Namsos and Åndalsnes while Allied troops depend on them;
- the Allies hold the sea lanes of the landing ports (B-1, B-2, B-3) and fight only when stronger;
- submarines lie in wait on those transit areas and torpedo ships other than battleships;
- battleships join a surface fight only with a clear lead; the Germans evade when behind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.keep import PerObject
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import Move, Order, Pass
from warroom.rulesets.firestorm.fleet import is_surface
from warroom.rulesets.firestorm.naval import p_battleship_sunk
from warroom.rulesets.firestorm.sea import HARBOUR, air_steps, coded, cv, distances, navy_of
from warroom.rulesets.firestorm.state import OFFMAP
from warroom.rulesets.firestorm.strategic import landing_rows

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.model import FirestormScenario
    from warroom.rulesets.firestorm.state import FirestormState

SHIP_VALUE = {"battleship": 3.0, "carrier": 3.0, "named": 2.0, "group": 1.0, "submarine": 0.5, "fighter": 0.8,
              "bomber": 0.8}


def value(st: FirestormState, unit: str) -> float:
    if unit == HARBOUR:
        return 2.0
    return SHIP_VALUE[st.sc.counters[unit].type]


def p_kill(st: FirestormState, unit: str, n: int) -> float:
    if unit in st.sc.counters and st.sc.counters[unit].type == "battleship":
        return p_battleship_sunk(n)
    return 1 - (5 / 6) ** n


class Lanes:
    """The sea areas off the Allied landing and supply ports, each location's sea distance to the nearest of
    them, and (worked out when first asked) its air distance: what the scenario's map alone says, kept per
    scenario."""

    def __init__(self, sc: FirestormScenario) -> None:
        self.sc = sc
        self.seas = frozenset(sc.strat_areas[a.landing].sea for a in landing_rows(sc))
        table = distances(sc, "sea")
        self.gaps = {loc: min(table[loc].get(g, 9) for g in self.seas) for loc in table}
        self._air: dict[str, int] = {}

    def air_gap(self, loc: str) -> int:
        """Fewest areas an aircraft at `loc` enters to reach one of the lane seas (9: none in range)."""
        got = self._air.get(loc)
        if got is None:
            sc = self.sc
            table = distances(sc, "air")
            got = self._air[loc] = min(table[a].get(g, 9) for a in coded(sc, loc) for g in self.seas)
        return got


lanes_of = PerObject(Lanes)
"""The `Lanes` of a scenario (kept per scenario object)."""


def lanes(st: FirestormState) -> tuple[frozenset[str], dict[str, int]]:
    """The sea areas off the Allied landing and supply ports, and each location's sea distance to the
    nearest of them (computed once per scenario)."""
    got = lanes_of(st.sc)
    return got.seas, got.gaps


def lane_seas(st: FirestormState) -> frozenset[str]:
    return lanes(st)[0]


def sea_gap(st: FirestormState, loc: str) -> int:
    return lanes(st)[1][loc]


def landing_due(st: FirestormState) -> bool:
    t = st.sc.turn(st.turn)
    waiting = set(st.flags.landing_wait)
    return any(st.loc[a.unit] == OFFMAP for a in t.arrivals if a.landing) or bool(waiting)


def enemy_surface(st: FirestormState, loc: str, side: str) -> list[str]:
    return navy_of(st).surface_at(st.sc, loc, st.sc.other(side))


def fight_edge(st: FirestormState, side: str, mine: list[str], loc: str) -> float:
    """Our combat value lead over the enemy ships at `loc`."""
    theirs = enemy_surface(st, loc, side)
    return cv(st, mine) - cv(st, theirs) - st.sc.strat_areas[loc].defence


def score(st: FirestormState, side: str, action: Action) -> float:
    """How good a Strategic Game action looks for `side`."""
    navy = navy_of(st)
    sc = st.sc
    if isinstance(action, Move):
        return fleet_move(st, side, action)
    if isinstance(action, Pass):
        if st.step == "sa_stuka":
            return 0.0
        return 0.2 if st.step == "nv_alloc" else 0.0
    assert isinstance(action, Order)
    verb = action.verb
    if verb == "sortie":
        return 1.0 if st.air_left.get(side, 0) < 2 and stukas_wanted(st) else -1.0
    if verb == "activate":
        return activation(st, side, action.arg, action.what)
    if verb == "take":
        c = sc.counters[action.arg]
        if navy.kind == "ships" and c.type == "battleship" and side == sc.sides[1]:
            return 0.5  # the Germans' two battleships are their fleet: risk them only with the rest
        return 1.0
    if verb == "launch":
        return 0.0
    if verb == "sail":
        mine = [u for u in navy.group if navy.where[u] == navy.at]
        if enemy_surface(st, action.arg, side):
            edge = fight_edge(st, side, mine, action.arg)
            return 4.0 + edge if edge >= 2 else -10.0
        return 1.0 - sea_gap(st, action.arg) + (0.5 if action.arg in lane_seas(st) else 0.0)
    if verb == "halt":
        if navy.kind == "ships":
            return 1.2 - sea_gap(st, navy.at) + (0.5 if navy.at in lane_seas(st) else 0.0)
        return 0.0
    if verb == "dive":
        if enemy_surface(st, action.arg, side):
            return 2.0
        return 0.8 if action.arg in lane_seas(st) and navy.at not in lane_seas(st) else -0.5
    if verb == "attack":
        return 2.5
    if verb in ("fly", "bomb"):
        return strike(st, side, action)
    if verb == "allocate":
        return allocation(st, action)
    if verb == "evade":
        combat_at = navy.at
        mine = navy.surface_at(sc, combat_at, side)
        edge = cv(st, mine) - cv(st, enemy_surface(st, combat_at, side))
        return 1.0 if edge < -1 else -1.0
    if verb == "fight":
        return 0.0
    if verb == "stand":
        return 0.5 if navy.at in lane_seas(st) else 0.0
    if verb == "press":
        return 0.2
    if verb == "aim":  # mixed defence: light counters hunt the submarines, the heavy ones fight the ships
        hunts = sc.counters[action.arg].cv <= 1
        return 1.0 if (action.what == "subs") == hunts else 0.0
    if verb == "withdraw":
        danger = -5.0 if enemy_surface(st, action.arg, navy.retreat_side) else 0.0
        return danger - 0.1 * sea_gap(st, action.arg)
    return 0.0


def stukas_wanted(st: FirestormState) -> bool:
    """Stukas help on land only where they may fly: an open South-Central map, or Narvik with Bodø (7.7)."""
    closed = st.flags.closed_maps
    bodo_only = st.sc.rules.value("narvik_map")
    return any(m not in closed and m != bodo_only for m, info in st.sc.maps.items() if info["kind"] == "land") \
        or bool(st.flags.bodo)


def activation(st: FirestormState, side: str, loc: str, kind: str) -> float:
    navy = navy_of(st)
    sc = st.sc
    if kind == "air":
        planes = [u for u in navy.at_loc(sc, loc, side) if u not in navy.activated]
        best = 0.0
        for t in sorted({w for u, w in navy.where.items()
                         if w in sc.strat_areas and sc.counters[u].side != side and is_surface(sc.counters[u])}):
            if all(air_steps(sc, loc, t) <= sc.counters[p].range for p in planes):
                best = max(best, target_worth(st, side, planes, t))
        if side in sc.rules.value("bombing_targets") and any(port_matters(st, h, side)
                                                              for h in sc.rules.value("bombing_targets")[side]):
            best = max(best, 1.0)
        return best - 0.2
    if kind == "subs":
        here = enemy_surface(st, loc, side)
        near = any(enemy_surface(st, n, side) for n in sc.sea_adj[loc])
        return 1.5 if here else 1.0 if near else 0.3 if loc not in lane_seas(st) else -0.5
    ships = [u for u, w in navy.where.items() if sc.counters[u].side == side and is_surface(sc.counters[u])
             and u not in navy.activated and w in sc.strat_areas and (w == loc or sc.strat_areas[w].sea == loc)]
    gap = sea_gap(st, loc)
    urgent = 2.0 if side == sc.sides[0] and landing_due(st) else 1.0
    targets = [n for n in sc.sea_adj[loc] if enemy_surface(st, n, side) and fight_edge(st, side, ships, n) >= 2]
    return (2.5 if targets else 0.0) + (urgent * min(gap, 2) if gap else 0.0) - 0.2


def target_worth(st: FirestormState, side: str, planes: list[str], target: str) -> float:
    sc = st.sc
    ships = enemy_surface(st, target, side)
    dice = sum(sc.counters[p].cv for p in planes if sc.counters[p].type == "bomber")
    defence = sum(sc.counters[u].aa for u in ships) + sc.strat_areas[target].defence
    per_ship = dice / max(1, len(ships))
    return sum(value(st, u) * p_kill(st, u, int(per_ship)) for u in ships) * 2 - 0.15 * defence


def strike(st: FirestormState, side: str, action: Order) -> float:
    navy = navy_of(st)
    if action.verb == "bomb":
        return 1.5 if port_matters(st, action.arg, side) else -0.5
    return target_worth(st, side, navy.group, action.arg)


def port_matters(st: FirestormState, harbour: str, side: str) -> bool:
    """The enemy depends on this port: a landing due there, or enemy troops other than Norwegians on its
    land map while that map is still open."""
    sc = st.sc
    land_map = sc.areas[sc.strat_areas[harbour].land].map
    if land_map in st.flags.closed_maps:
        return False
    if landing_due(st) and any(a.landing == harbour for a in landing_rows(sc)):
        return True
    return any(w in sc.areas and sc.areas[w].map == land_map and sc.troops[u].side != side
               and sc.troops[u].nation not in ("", "norwegian") for u, w in st.loc.items())


def allocation(st: FirestormState, action: Order) -> float:
    """Split dice evenly over the targets, most valuable first; submarines avoid battleships."""
    navy = navy_of(st)
    combat = navy.combat
    assert combat is not None
    volley = next(v for v in combat.volleys if v.left() > 0)
    open_targets = [t for t in volley.targets if t not in volley.alloc]
    if volley.may_hold:
        return value(st, action.arg) * p_kill(st, action.arg, action.n) / action.n - 0.05 * action.n
    share = -(-volley.left() // max(1, len(open_targets)))
    return value(st, action.arg) - 0.5 * abs(action.n - share)


def fleet_move(st: FirestormState, side: str, action: Move) -> float:
    navy = navy_of(st)
    sc = st.sc
    c = sc.counters[action.unit]
    frm = navy.where[action.unit]
    kept = lanes_of(sc)
    if is_surface(c) or c.type == "submarine":
        return float(kept.gaps[frm] - kept.gaps[action.to]) - 0.5
    return float(kept.air_gap(frm) - kept.air_gap(action.to)) - 0.5

