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
from warroom.core.keep import Latest, PerObject
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
    from warroom.rulesets.firestorm.model import FirestormScenario
    from warroom.rulesets.firestorm.state import FirestormState


class Control:
    """The scores' answers that follow from who controls each area alone (and the scenario's fixed data): the
    supplied areas of each side, each area's enemy and friendly neighbours, and front scores, per side.

    Control changes only when a battle or a move takes an area, so one set of answers serves many decisions, of
    both sides. It keeps its own copy of `st.control`; `control_of` hands it out only to a position of the same
    scenario whose control equals that copy, so every answer in it is current for that position.
    """

    __slots__ = ("_enemies", "_friends", "_supplied", "control", "fronts", "sc")

    def __init__(self, st: FirestormState) -> None:
        self.sc = st.sc
        self.control = dict(st.control)
        self._supplied: dict[str, frozenset[str]] = {}  # side -> areas in its supply
        self._enemies: dict[tuple[str, str], int] = {}  # (area, side) -> neighbours not held by side
        self._friends: dict[tuple[str, str], int] = {}  # (area, side) -> neighbours held by side
        self.fronts: dict[str, dict[str, float]] = {side: {} for side in st.sc.sides}  # side -> area -> front_score

    def current(self, st: FirestormState) -> bool:
        return st.sc is self.sc and st.control == self.control

    def in_supply(self, st: FirestormState, area: str, side: str) -> bool:
        got = self._supplied.get(side)
        if got is None:
            got = self._supplied[side] = st.supplied_areas(side)
        return area in got

    def enemy_neighbours(self, st: FirestormState, area: str, side: str) -> int:
        key = (area, side)
        got = self._enemies.get(key)
        if got is None:
            got = self._enemies[key] = enemy_neighbours(st, area, side)
        return got

    def friendly_neighbours(self, st: FirestormState, area: str, side: str) -> int:
        key = (area, side)
        got = self._friends.get(key)
        if got is None:
            got = self._friends[key] = friendly_neighbours(st, area, side)
        return got

    def front(self, st: FirestormState, area: str, side: str) -> float:
        table = self.fronts[side]
        got = table.get(area)
        if got is None:
            got = table[area] = front_score(st, area, side, self)
        return got


control_of = Latest(Control)
"""The `Control` answers for a position: the last ones kept while its control is still the same."""


class Fixed:
    """What the scores read from a scenario's fixed data alone, worked out once per scenario: the bonus of
    everything but naval gunfire (which depends on the ships in the harbour), what a border adds to the defence
    of an attack across it, and arrow scores under everything else they follow from (`Decision.arrow_score`)."""

    __slots__ = ("arrows", "bonus", "defence", "sc", "troops")

    def __init__(self, sc: FirestormScenario) -> None:
        self.sc = sc
        # (side, frm, to, our troops in frm, theirs in to, frm supplied) -> `Decision.arrow_score`
        self.arrows: dict[tuple[str, str, str, tuple[str, ...], tuple[str, ...], bool], float] = {}
        self.bonus: dict[tuple[str, str, str], float] = {}  # (side, item, terrain) -> unit_bonus
        self.troops: dict[str, dict[str, float]] = {}  # terrain -> troop -> unit_bonus (the same for either side)
        self.defence: dict[tuple[str, str], tuple[str, tuple[float, ...]]] = {}  # (frm, to) -> `border`

    def troop_bonus(self, st: FirestormState, terrain: str) -> dict[str, float]:
        """Every troop's `unit_bonus` in `terrain` (`st`: any position of the scenario)."""
        got = self.troops.get(terrain)
        if got is None:
            got = self.troops[terrain] = {u: unit_bonus(st, t.side, u, terrain) for u, t in self.sc.troops.items()}
        return got

    def border(self, frm: str, to: str) -> tuple[str, tuple[float, ...]]:
        """The terrain attacked into, and what the defence gets there, in the order `arrow_score` adds it: the
        river, the terrain, the fortification."""
        key = (frm, to)
        got = self.defence.get(key)
        if got is None:
            sc = self.sc
            terrain = sc.areas[to].terrain
            extra: list[float] = []
            if sc.rivers.get(frozenset((frm, to))):
                extra.append(sc.rules.river_gw)
            extra.append(float(sc.rules.value("terrain_defence").get(terrain, 0)))
            if "fortified" in sc.areas[to].flags:
                extra.append(float(sc.rules.value("fortified_gw")))
            got = self.defence[key] = (terrain, tuple(extra))
        return got


ARROWS_KEPT = 100_000
"""Arrow scores kept per scenario at most (past that the table starts again)."""

fixed = PerObject(Fixed)
"""The `Fixed` answers of a scenario (kept per scenario object)."""


def fixed_bonus(st: FirestormState, side: str, item: str, terrain: str) -> float:
    """`unit_bonus` of anything but naval gunfire, kept per scenario."""
    table = fixed(st.sc).bonus
    key = (side, item, terrain)
    got = table.get(key)
    if got is None:
        got = table[key] = unit_bonus(st, side, item, terrain)
    return got


class Stacks:
    """Each side's troops per location (in `st.loc` order), and the best two bonuses of a side's troops in an
    area: one pass over the troops instead of one per question.

    Troops move only when an action moves them, and many decisions in a row (both sides' arrows, commitments,
    placements) see the same places. It keeps its own copy of `st.loc`; `stacks_of` hands it out only to a
    position of the same scenario whose troops stand where that copy says, so its answers are current for it
    (a troop's bonus is scenario data: `fixed_bonus`).
    """

    __slots__ = ("_index", "_strength", "fixed", "loc", "sc")

    def __init__(self, st: FirestormState) -> None:
        self.sc = st.sc
        self.loc = dict(st.loc)
        self.fixed = fixed(st.sc)
        self._strength: dict[tuple[str, str, str], float] = {}  # (side, area, terrain) -> best_strength
        index: dict[tuple[str, str], list[str]] = {}  # (location, side) -> its troops
        troops = st.sc.troops
        for unit, where in self.loc.items():
            key = (where, troops[unit].side)
            got = index.get(key)
            if got is None:
                index[key] = [unit]
            else:
                got.append(unit)
        self._index = index

    def current(self, st: FirestormState) -> bool:
        return st.sc is self.sc and st.loc == self.loc

    def units_at(self, area: str, side: str) -> list[str]:
        """`st.units_at(area, side)`."""
        return self._index.get((area, side), [])

    def best_strength(self, st: FirestormState, side: str, area: str, terrain: str) -> float:
        """`best_strength(st, side, area, terrain)`."""
        key = (side, area, terrain)
        got = self._strength.get(key)
        if got is None:
            bonus = self.fixed.troop_bonus(st, terrain)
            values = sorted([bonus[u] for u in self.units_at(area, side)], reverse=True)
            got = self._strength[key] = sum(values[:2])
        return got


stacks_of = Latest(Stacks)
"""The `Stacks` for a position: the last ones kept while every troop is still where it was."""


class Decision:
    """One decision of `side`: scores its actions, sharing what they have in common, each worked out on first use.

    The bot scores every legal action of one decision on the same, unchanged position, so everything kept here is
    current for as long as the decision lasts; `choose` makes a new one for every decision, and `score` one for
    every call made without it. Kept: where each troop would move from, and the naval gunfire bonus; the answers
    that follow from control alone come from `control_of`, those about the troops' places from `stacks_of`.
    """

    __slots__ = ("_fronts", "_leaving", "_naval", "_stacks", "board", "side", "st")

    def __init__(self, st: FirestormState, side: str) -> None:
        self.st = st
        self.side = side
        self.board = control_of(st)
        self._fronts = self.board.fronts.setdefault(side, {})  # area -> front_score for side
        self._stacks: Stacks | None = None  # `stacks_of(st)`, once asked for
        self._leaving: dict[str, tuple[float, bool]] = {}  # troop -> `leaving`
        self._naval: dict[tuple[str, str], float] = {}  # (side, terrain) -> naval gunfire's unit_bonus

    @property
    def stacks(self) -> Stacks:
        if self._stacks is None:
            self._stacks = stacks_of(self.st)
        return self._stacks

    def in_supply(self, area: str) -> bool:
        return self.board.in_supply(self.st, area, self.side)

    def enemy_neighbours(self, area: str) -> int:
        return self.board.enemy_neighbours(self.st, area, self.side)

    def front(self, area: str) -> float:
        got = self._fronts.get(area)
        if got is None:
            got = self.board.front(self.st, area, self.side)
        return got

    def leaving(self, unit: str) -> tuple[float, bool]:
        """The front score of the area a troop moves from, and whether it is the only troop there on a front line
        (the same for every move of the troop)."""
        got = self._leaving.get(unit)
        if got is None:
            st = self.st
            frm = st.loc[unit]
            alone = False
            if self.enemy_neighbours(frm):
                if st.loc.counts[frm] == 1:  # the troop is alone there: one of ours if it is ours
                    alone = st.sc.troops[unit].side == self.side
                else:
                    alone = len(self.stacks.units_at(frm, self.side)) == 1
            got = self._leaving[unit] = (self.front(frm), alone)
        return got

    def unit_bonus(self, side: str, item: str, terrain: str) -> float:
        if item != NAVAL:
            return fixed_bonus(self.st, side, item, terrain)
        key = (side, terrain)
        got = self._naval.get(key)
        if got is None:
            got = self._naval[key] = unit_bonus(self.st, side, item, terrain)
        return got

    # ----- scores --------------------------------------------------------------------------------------------
    def scores(self, legal: Sequence[Action]) -> list[float]:
        """`score` of every action in `legal`, in order. The moves of a troop (often fifty in one decision) and the
        placements are scored here with their sums written out, as they are the bulk of the work."""
        out: list[float] = []
        leaving = self._leaving
        fronts = self._fronts
        counts = self.st.loc.counts
        for action in legal:
            if isinstance(action, Move):
                here, alone = leaving.get(action.unit) or self.leaving(action.unit)
                there = fronts.get(action.to)
                gain = (self.front(action.to) if there is None else there) - here
                if alone:
                    gain -= 4  # do not strip the only troop from a front-line area
                out.append(gain - 0.4 * counts.get(action.to, 0) - 0.5)
            elif isinstance(action, Place) and action.area != "reserve":
                there = fronts.get(action.area)
                out.append((self.front(action.area) if there is None else there) - 0.3 * counts.get(action.area, 0))
            else:
                out.append(self.score(action))
        return out

    def score(self, action: Action) -> float:
        """How good `action` looks for the deciding side (higher is better), on land."""
        st = self.st
        b = st.battle
        if isinstance(action, Move):
            return self.move_score(action)
        if isinstance(action, Arrow):
            return self.arrow_score(action)
        if isinstance(action, Commit) and b is not None:
            terrain = st.sc.areas[b.to].terrain
            total = sum(self.unit_bonus(self.side, u, terrain) for u in action.units)
            # keep a few sorties for later battles when the gain is small
            if AIR in action.units and st.air_left.get(self.side, 0) <= 1:
                total -= 0.5
            return total
        if isinstance(action, Retreat):
            safe = self.board.friendly_neighbours(st, action.to, self.side) - 2 * self.enemy_neighbours(action.to)
            return safe + (3 if self.in_supply(action.to) else 0)
        if isinstance(action, Advance) and b is not None:
            if action.unit in b.survivors:
                return 5.0
            exposed = self.enemy_neighbours(b.to)
            rear = self.enemy_neighbours(st.loc[action.unit]) == 0
            return (exposed - 1.5) + (1 if rear else -2)
        if isinstance(action, Place):
            if action.area == "reserve":
                return 2.5
            return self.front(action.area) - 0.3 * st.stack_count(action.area)
        return 0.0  # pass, mode

    def move_score(self, m: Move) -> float:
        """The front gained, less for stripping a front line and for crowding."""
        here, alone = self.leaving(m.unit)
        gain = self.front(m.to) - here
        if alone:
            gain -= 4  # do not strip the only troop from a front-line area
        return gain - 0.4 * self.st.loc.counts.get(m.to, 0) - 0.5

    def arrow_score(self, action: Arrow) -> float:
        """Our best two bonuses against theirs and the defender's terrain, supply, and the area's worth.

        The score follows from the scenario's data, the two sides' troops in the two areas and whether the area
        attacked from is in supply, so it is kept per scenario under exactly those (`Fixed.arrows`)."""
        st = self.st
        side = self.side
        stacks = self.stacks
        key = (side, action.frm, action.to, tuple(stacks.units_at(action.frm, side)),
               tuple(stacks.units_at(action.to, st.sc.other(side))), self.in_supply(action.frm))
        kept = stacks.fixed.arrows
        got = kept.get(key)
        if got is None:
            if len(kept) >= ARROWS_KEPT:
                kept.clear()
            got = kept[key] = self.new_arrow_score(action)
        return got

    def new_arrow_score(self, action: Arrow) -> float:
        """`arrow_score` worked out."""
        st = self.st
        sc = st.sc
        side = self.side
        terrain, defence = fixed(sc).border(action.frm, action.to)
        mine = self.stacks.best_strength(st, side, action.frm, terrain)
        theirs = self.stacks.best_strength(st, sc.other(side), action.to, terrain)
        for extra in defence:
            theirs += extra
        supplied = 0.0 if self.in_supply(action.frm) else sc.rules.oos_gw
        return 3 * (mine - theirs + supplied) + area_value(st, action.to, side) + 1.5


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


def at_sea(st: FirestormState) -> bool:
    """Whether this is a step of Norway's Strategic Game, scored by `norway_heuristic`."""
    return st.navy is not None and (st.step.startswith(("sa_", "nv_")) or st.step == "fleet_moves")


def score(st: FirestormState, side: str, action: Action, memo: Decision | None = None) -> float:
    """How good `action` looks for `side` (higher is better). `memo`: the decision being made, if it is `side`'s."""
    if at_sea(st):
        return norway_heuristic.score(st, side, action)
    if memo is None or memo.side != side or memo.st is not st:
        memo = Decision(st, side)
    return memo.score(action)


def front_score(st: FirestormState, area: str, side: str, board: Control | None = None) -> float:
    """How useful a troop is here: near valuable enemy areas, in supply, not surrounded."""
    if board is None:
        board = control_of(st)
    sc = st.sc
    enemies = [n for n in sc.adjacency[area] if st.control[n] != side]
    value = sum(area_value(st, n, side) for n in enemies) / 2 + len(enemies)
    if enemies and board.friendly_neighbours(st, area, side) == 0:
        value -= 6  # easily surrounded
    if not board.in_supply(st, area, side):
        value -= 4
    a = sc.areas[area]
    if a.supply == side and enemies:
        value += 3  # hold our own supply sources on the front (the Caen beaches, the depots)
    return value + area_value(st, area, side) / 2


def choose(st: FirestormState, legal: Sequence[Action], rng: random.Random) -> Action:
    side = st.current_player()
    if at_sea(st):
        scores = [norway_heuristic.score(st, side, action) for action in legal]
    else:
        scores = Decision(st, side).scores(legal)
    best: list[Action] = []
    best_score = float("-inf")
    for action, s in zip(legal, scores, strict=True):
        if s > best_score + 1e-9:
            best, best_score = [action], s
        elif abs(s - best_score) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]
