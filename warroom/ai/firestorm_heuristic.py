"""A heuristic Firestorm player: it scores each legal action and picks the best.

It prefers attacks with the best bonus margin into valuable areas, commits its strongest troops,
keeps troops in supply and next to friends, and retreats toward safety. It reads the position but
acts only through `legal_actions()`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warroom.ai import norway_heuristic
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    NAVAL,
    Advance,
    Arrow,
    Commit,
    Move,
    Place,
    Retreat,
)

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def unit_bonus(st: FirestormState, side: str, item: str, terrain: str) -> float:
    sc = st.sc
    if item == CARPET:
        return float(sc.rules.value("carpet_gw"))
    if item == DEFENCE:
        table: list[int] = sc.rules.value("defence_variable")
        return float(sum(table)) / 6
    if item == AIR:
        air = sc.air[side]
        return sum(air.variable) / 6 if air.variable else float(air.gw_bonus(terrain))
    if item == NAVAL:
        from warroom.rulesets.firestorm.norway import gunfire

        return float(gunfire(st, st.battle, side)[0]) if st.battle is not None else 0.0
    troop = sc.troops[item]
    return sum(troop.variable) / 6 if troop.variable else float(troop.gw_bonus(terrain))


def best_strength(st: FirestormState, side: str, area: str, terrain: str, n: int = 2) -> float:
    values = sorted((unit_bonus(st, side, u, terrain) for u in st.units_at(area, side)), reverse=True)
    return sum(values[:n])


def enemy_neighbours(st: FirestormState, area: str, side: str) -> int:
    return sum(1 for n in st.sc.adjacency[area] if st.control[n] != side)


def friendly_neighbours(st: FirestormState, area: str, side: str) -> int:
    return sum(1 for n in st.sc.adjacency[area] if st.control[n] == side)


def area_value(st: FirestormState, area: str, side: str) -> float:
    a = st.sc.areas[area]
    value = a.vp / 10
    if a.supply and a.supply != side:
        value += 2  # taking an enemy supply source
    return value


def score(st: FirestormState, side: str, action: Action, memo: dict[str, float] | None = None) -> float:
    """How good `action` looks for `side` (higher is better). `memo` caches per-area scores in one decision."""
    if memo is None:
        memo = {}
    if st.navy is not None and (st.step.startswith(("sa_", "nv_")) or st.step == "fleet_moves"):
        return norway_heuristic.score(st, side, action)
    sc = st.sc
    b = st.battle
    if isinstance(action, Arrow):
        terrain = sc.areas[action.to].terrain
        mine = best_strength(st, side, action.frm, terrain)
        theirs = best_strength(st, sc.other(side), action.to, terrain)
        if sc.rivers.get(frozenset((action.frm, action.to))):
            theirs += sc.rules.river_gw
        theirs += float(sc.rules.value("terrain_defence").get(terrain, 0))
        if "fortified" in sc.areas[action.to].flags:
            theirs += float(sc.rules.value("fortified_gw"))
        supplied = 0.0 if st.in_supply(action.frm, side) else sc.rules.oos_gw
        return 3 * (mine - theirs + supplied) + area_value(st, action.to, side) + 1.5
    if isinstance(action, Commit) and b is not None:
        terrain = sc.areas[b.to].terrain
        total = sum(unit_bonus(st, side, u, terrain) for u in action.units)
        # keep a few sorties for later battles when the gain is small
        if AIR in action.units and st.air_left.get(side, 0) <= 1:
            total -= 0.5
        return total
    if isinstance(action, Retreat):
        safe = friendly_neighbours(st, action.to, side) - 2 * enemy_neighbours(st, action.to, side)
        return safe + (3 if st.in_supply(action.to, side) else 0)
    if isinstance(action, Advance) and b is not None:
        if action.unit in b.survivors:
            return 5.0
        frm = st.loc[action.unit]
        exposed = enemy_neighbours(st, b.to, side)
        rear = enemy_neighbours(st, frm, side) == 0
        return (exposed - 1.5) + (1 if rear else -2)
    if isinstance(action, Place):
        if action.area == "reserve":
            return 2.5
        return front_score(st, action.area, side) - 0.3 * st.stack_count(action.area)
    if isinstance(action, Move):
        frm = st.loc[action.unit]
        gain = front(st, action.to, side, memo) - front(st, frm, side, memo)
        if enemy_neighbours(st, frm, side) and len(st.units_at(frm, side)) == 1:
            gain -= 4  # do not strip the only troop from a front-line area
        return gain - 0.4 * st.stack_count(action.to) - 0.5
    return 0.0  # pass, mode


def front(st: FirestormState, area: str, side: str, memo: dict[str, float]) -> float:
    got = memo.get(area)
    if got is None:
        got = memo[area] = front_score(st, area, side)
    return got


def front_score(st: FirestormState, area: str, side: str) -> float:
    """How useful a troop is here: near valuable enemy areas, in supply, not surrounded."""
    sc = st.sc
    enemies = [n for n in sc.adjacency[area] if st.control[n] != side]
    value = sum(area_value(st, n, side) for n in enemies) / 2 + len(enemies)
    if enemies and friendly_neighbours(st, area, side) == 0:
        value -= 6  # easily surrounded
    if not st.in_supply(area, side):
        value -= 4
    a = sc.areas[area]
    if a.supply == side and enemies:
        value += 3  # hold our own supply sources on the front (the Caen beaches, the depots)
    return value + area_value(st, area, side) / 2


def choose(st: FirestormState, legal: Sequence[Action], rng: random.Random) -> Action:
    side = st.current_player()
    best: list[Action] = []
    best_score = float("-inf")
    memo: dict[str, float] = {}
    for action in legal:
        s = score(st, side, action, memo)
        if s > best_score + 1e-9:
            best, best_score = [action], s
        elif abs(s - best_score) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]
