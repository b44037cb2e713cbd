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


class Decision:
    """What the scores of one decision share, each worked out on first use.

    The bot scores every legal action of one decision on the same, unchanged position, so everything kept here is
    current for as long as the decision lasts; `choose` makes a new one for every decision, and `score` one for
    every call made without it. Kept: the troops of each side per location (one pass over `st.loc` instead of one
    per question), each area's enemy and friendly neighbours, front scores, the supplied areas of each side, the
    bonus of each troop in each terrain, and the best two bonuses of a side's troops in an area.
    """

    __slots__ = ("_bonus", "_enemies", "_friends", "_front", "_stacks", "_strength", "_supplied", "st")

    def __init__(self, st: FirestormState) -> None:
        self.st = st
        self._stacks: dict[tuple[str, str], list[str]] | None = None  # (location, side) -> its troops, loc order
        self._supplied: dict[str, frozenset[str]] = {}  # side -> areas in its supply
        self._enemies: dict[tuple[str, str], int] = {}  # (area, side) -> neighbours not held by side
        self._friends: dict[tuple[str, str], int] = {}  # (area, side) -> neighbours held by side
        self._front: dict[tuple[str, str], float] = {}  # (area, side) -> front_score
        self._bonus: dict[tuple[str, str, str], float] = {}  # (side, item, terrain) -> unit_bonus
        self._strength: dict[tuple[str, str, str], float] = {}  # (side, area, terrain) -> best_strength

    def units_at(self, area: str, side: str) -> list[str]:
        """`st.units_at(area, side)`, from an index of every location built once for the decision."""
        stacks = self._stacks
        if stacks is None:
            stacks = self._stacks = {}
            troops = self.st.sc.troops
            for unit, where in self.st.loc.items():
                key = (where, troops[unit].side)
                got = stacks.get(key)
                if got is None:
                    stacks[key] = [unit]
                else:
                    got.append(unit)
        return stacks.get((area, side), [])

    def in_supply(self, area: str, side: str) -> bool:
        got = self._supplied.get(side)
        if got is None:
            got = self._supplied[side] = self.st.supplied_areas(side)
        return area in got

    def enemy_neighbours(self, area: str, side: str) -> int:
        key = (area, side)
        got = self._enemies.get(key)
        if got is None:
            got = self._enemies[key] = enemy_neighbours(self.st, area, side)
        return got

    def friendly_neighbours(self, area: str, side: str) -> int:
        key = (area, side)
        got = self._friends.get(key)
        if got is None:
            got = self._friends[key] = friendly_neighbours(self.st, area, side)
        return got

    def front(self, area: str, side: str) -> float:
        key = (area, side)
        got = self._front.get(key)
        if got is None:
            got = self._front[key] = front_score(self.st, area, side, self)
        return got

    def unit_bonus(self, side: str, item: str, terrain: str) -> float:
        key = (side, item, terrain)
        got = self._bonus.get(key)
        if got is None:
            got = self._bonus[key] = unit_bonus(self.st, side, item, terrain)
        return got

    def best_strength(self, side: str, area: str, terrain: str) -> float:
        key = (side, area, terrain)
        got = self._strength.get(key)
        if got is None:
            values = sorted((self.unit_bonus(side, u, terrain) for u in self.units_at(area, side)), reverse=True)
            got = self._strength[key] = sum(values[:2])
        return got


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


def score(st: FirestormState, side: str, action: Action, memo: Decision | None = None) -> float:
    """How good `action` looks for `side` (higher is better). `memo` holds what one decision's scores share."""
    if st.navy is not None and (st.step.startswith(("sa_", "nv_")) or st.step == "fleet_moves"):
        return norway_heuristic.score(st, side, action)
    if memo is None:
        memo = Decision(st)
    sc = st.sc
    b = st.battle
    if isinstance(action, Move):
        frm = st.loc[action.unit]
        gain = memo.front(action.to, side) - memo.front(frm, side)
        if memo.enemy_neighbours(frm, side) and len(memo.units_at(frm, side)) == 1:
            gain -= 4  # do not strip the only troop from a front-line area
        return gain - 0.4 * st.stack_count(action.to) - 0.5
    if isinstance(action, Arrow):
        terrain = sc.areas[action.to].terrain
        mine = memo.best_strength(side, action.frm, terrain)
        theirs = memo.best_strength(sc.other(side), action.to, terrain)
        if sc.rivers.get(frozenset((action.frm, action.to))):
            theirs += sc.rules.river_gw
        theirs += float(sc.rules.value("terrain_defence").get(terrain, 0))
        if "fortified" in sc.areas[action.to].flags:
            theirs += float(sc.rules.value("fortified_gw"))
        supplied = 0.0 if memo.in_supply(action.frm, side) else sc.rules.oos_gw
        return 3 * (mine - theirs + supplied) + area_value(st, action.to, side) + 1.5
    if isinstance(action, Commit) and b is not None:
        terrain = sc.areas[b.to].terrain
        total = sum(memo.unit_bonus(side, u, terrain) for u in action.units)
        # keep a few sorties for later battles when the gain is small
        if AIR in action.units and st.air_left.get(side, 0) <= 1:
            total -= 0.5
        return total
    if isinstance(action, Retreat):
        safe = memo.friendly_neighbours(action.to, side) - 2 * memo.enemy_neighbours(action.to, side)
        return safe + (3 if memo.in_supply(action.to, side) else 0)
    if isinstance(action, Advance) and b is not None:
        if action.unit in b.survivors:
            return 5.0
        frm = st.loc[action.unit]
        exposed = memo.enemy_neighbours(b.to, side)
        rear = memo.enemy_neighbours(frm, side) == 0
        return (exposed - 1.5) + (1 if rear else -2)
    if isinstance(action, Place):
        if action.area == "reserve":
            return 2.5
        return memo.front(action.area, side) - 0.3 * st.stack_count(action.area)
    return 0.0  # pass, mode


def front_score(st: FirestormState, area: str, side: str, memo: Decision | None = None) -> float:
    """How useful a troop is here: near valuable enemy areas, in supply, not surrounded."""
    if memo is None:
        memo = Decision(st)
    sc = st.sc
    enemies = [n for n in sc.adjacency[area] if st.control[n] != side]
    value = sum(area_value(st, n, side) for n in enemies) / 2 + len(enemies)
    if enemies and memo.friendly_neighbours(area, side) == 0:
        value -= 6  # easily surrounded
    if not memo.in_supply(area, side):
        value -= 4
    a = sc.areas[area]
    if a.supply == side and enemies:
        value += 3  # hold our own supply sources on the front (the Caen beaches, the depots)
    return value + area_value(st, area, side) / 2


def choose(st: FirestormState, legal: Sequence[Action], rng: random.Random) -> Action:
    side = st.current_player()
    best: list[Action] = []
    best_score = float("-inf")
    memo = Decision(st)
    for action in legal:
        s = score(st, side, action, memo)
        if s > best_score + 1e-9:
            best, best_score = [action], s
        elif abs(s - best_score) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]
