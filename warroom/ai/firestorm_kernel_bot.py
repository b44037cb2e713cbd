"""The Firestorm heuristic (`firestorm_heuristic.py`) on the simulation kernel's positions (`rulesets/firestorm/
kernel.py`): the same scores, worked out in the same order from the same numbers, so it makes the same choices
with the same random stream, which the differential tests check game by game (tests/property/test_kernel.py).

Each score below names the reference score it mirrors; `Scores` keeps, for one decision, what the scores share.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from warroom.core.keep import PerObject
from warroom.core.system import GameSummary
from warroom.rulesets.firestorm.bridge import kernel_game
from warroom.rulesets.firestorm.kernel import Kernel
from warroom.rulesets.firestorm.kmap import K_PASS, KMap
from warroom.rulesets.firestorm.kstate import (
    ADVANCE_STEP,
    ARROW_STEP,
    ATT_COMMIT,
    DEF_COMMIT,
    EXPLOIT,
    MOVES,
    PLAN_PLACE,
    PZ21,
    REINFORCE,
    RETREAT_STEP,
)
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.state import outcome_label_of, outcome_of
from warroom.rulesets.firestorm.system import bot_seeds


class Numbers:
    """What the scores read from a scenario's data alone, per side and area, as floats (`firestorm_heuristic`'s
    `unit_bonus`, `area_value` and `Fixed.border`)."""

    def __init__(self, m: KMap) -> None:
        sc = m.sc
        na, nt = m.na, m.nt
        self.value = [[_area_value(m, a, side) for a in range(na)] for side in (0, 1)]
        terrain = [sc.areas[a].terrain for a in m.areas]
        # troop -> area -> its bonus when fighting for that area (the terrain attacked into)
        self.troop = [[_bonus(sc.troops[u].variable, float(sc.troops[u].gw_bonus(terrain[a]))) for a in range(na)]
                      for u in m.troops]
        carpet = float(sc.rules.value("carpet_gw"))
        defence = float(sum(sc.rules.value("defence_variable"))) / 6
        # side -> item (troops, then the extras in `kmap.TOKENS` order) -> area -> its bonus
        self.item: list[list[list[float]]] = []
        for s in sc.sides:
            air = sc.air.get(s)
            air_row = [(_bonus(air.variable, float(air.gw_bonus(terrain[a]))) if air is not None else 0.0)
                       for a in range(na)]
            self.item.append([*self.troop, air_row, [carpet] * na, [defence] * na, [0.0] * na])
        # (frm, to) -> what the defence adds to an attack across that border, in `Fixed.border`'s order
        self.border: dict[int, tuple[float, ...]] = {}
        tdef = sc.rules.value("terrain_defence")
        fortified = float(sc.rules.value("fortified_gw"))
        for frm in range(na):
            for to in m.adj[frm]:
                extra: list[float] = []
                if (frm * na + to) in m.river:
                    extra.append(sc.rules.river_gw)
                extra.append(float(tdef.get(terrain[to], 0)))
                if m.fortified[to]:
                    extra.append(fortified)
                self.border[frm * na + to] = tuple(extra)
        self.nt = nt


def _bonus(variable: tuple[int, ...], flat: float) -> float:
    return sum(variable) / 6 if variable else flat


def _area_value(m: KMap, area: int, side: int) -> float:
    value = m.area_vp[area] / 10
    supply = m.supply_of[area]
    if supply >= 0 and supply != side:
        value += 2  # taking an enemy supply source
    return value


_numbers = PerObject(Numbers)
_last: list[tuple[KMap, Numbers]] = []


def numbers(m: KMap) -> Numbers:
    """The `Numbers` of a scenario's kernel tables (kept per tables object; the last asked for at hand)."""
    if _last and _last[0][0] is m:
        return _last[0][1]
    got = _numbers(m)
    _last[:] = [(m, got)]
    return got


UNKNOWN = -1e300
"""A front score not yet worked out."""


class Scores:
    """One decision of `side` in position `k`: the front score of each area, worked out on first use."""

    def __init__(self, k: Kernel, side: int) -> None:
        self.k = k
        self.side = side
        self.n = numbers(k.m)
        self.fronts = [UNKNOWN] * k.m.na
        self.supplied = k.supplied(side)
        self.leaving: dict[int, tuple[float, bool]] = {}  # troop -> the front score it leaves, and if alone there
        self.stacks: dict[int, list[int]] | None = None  # side * width + place -> its troops, once asked for

    def enemies(self, area: int) -> int:
        control = self.k.control
        side = self.side
        return sum(1 for n in self.k.m.adj[area] if control[n] != side)

    def friends(self, area: int) -> int:
        control = self.k.control
        side = self.side
        return sum(1 for n in self.k.m.adj[area] if control[n] == side)

    def front(self, area: int) -> float:
        """`front_score`: how useful a troop is here: near valuable enemy areas, in supply, not surrounded."""
        got = self.fronts[area]
        if got != UNKNOWN:
            return got
        k = self.k
        side = self.side
        control = k.control
        value_of = self.n.value[side]
        enemies = [n for n in k.m.adj[area] if control[n] != side]
        value = sum(value_of[n] for n in enemies) / 2 + len(enemies)
        if enemies and self.friends(area) == 0:
            value -= 6
        if not self.supplied[area]:
            value -= 4
        if k.m.supply_of[area] == side and enemies:
            value += 3
        got = value + value_of[area] / 2
        self.fronts[area] = got
        return got

    def units_at(self, area: int, side: int) -> list[int]:
        """`Kernel.units_at`, from one pass over the troops per decision."""
        stacks = self.stacks
        width = self.k.m.na + 6
        if stacks is None:
            stacks = self.stacks = {}
            side_of = self.k.m.side_of
            for u, where in enumerate(self.k.loc):
                key = side_of[u] * width + where
                got = stacks.get(key)
                if got is None:
                    stacks[key] = [u]
                else:
                    got.append(u)
        return stacks.get(side * width + area, [])

    def best_two(self, side: int, area: int, to: int) -> float:
        """`best_strength`: the sum of the best two bonuses of `side`'s troops in `area`, fighting for `to`."""
        troop = self.n.troop
        values = sorted([troop[u][to] for u in self.units_at(area, side)], reverse=True)
        return sum(values[:2])

    def arrow(self, frm: int, to: int) -> float:
        """`Decision.new_arrow_score`."""
        k = self.k
        side = self.side
        mine = self.best_two(side, frm, to)
        theirs = self.best_two(1 - side, to, to)
        for extra in self.n.border[frm * k.m.na + to]:
            theirs += extra
        supplied = 0.0 if self.supplied[frm] else k.m.oos_gw
        return 3 * (mine - theirs + supplied) + self.n.value[side][to] + 1.5

    def move(self, unit: int, to: int) -> float:
        """`Decision.move_score` (with `leaving`)."""
        k = self.k
        got = self.leaving.get(unit)
        if got is None:
            frm = k.loc[unit]
            alone = False
            if self.enemies(frm):
                if k.counts[frm] == 1:
                    alone = k.m.side_of[unit] == self.side
                else:
                    alone = k.sided[self.side * (k.m.na + 6) + frm] == 1
            got = self.leaving[unit] = (self.front(frm), alone)
        here, alone = got
        gain = self.front(to) - here
        if alone:
            gain -= 4  # do not strip the only troop from a front-line area
        return gain - 0.4 * k.counts[to] - 0.5

    def commit(self, items: tuple[int, ...]) -> float:
        """`Decision.score` of a commitment."""
        k = self.k
        b = k.fought()
        row = self.n.item[self.side]
        total: float = sum(row[u][b.to] for u in items)
        if self.n.nt in items and k.air_left[self.side] <= 1:
            total -= 0.5  # keep a few sorties for later battles when the gain is small
        return total

    def score(self, code: int) -> float:
        """`Decision.score` of the action `code` in this decision's step."""
        k = self.k
        m = k.m
        step = k.step
        if code == K_PASS:
            return 0.0
        if step == MOVES:
            return self.move((code - m.MOVE) // m.na, (code - m.MOVE) % m.na)
        if step in (PLAN_PLACE, REINFORCE):
            area = (code - m.PLACE) % (m.na + 1)
            if area == m.na:
                return 2.5
            return self.front(area) - 0.3 * k.counts[area]
        if step in (ARROW_STEP, EXPLOIT, PZ21):
            return self.arrow((code - m.ARROW) // m.na, (code - m.ARROW) % m.na)
        if step in (ATT_COMMIT, DEF_COMMIT):
            return self.commit(m.commit_items(code))
        if step == RETREAT_STEP:
            to = (code - m.RETREAT) % m.na
            safe = self.friends(to) - 2 * self.enemies(to)
            return safe + (3 if self.supplied[to] else 0)
        if step == ADVANCE_STEP:
            u = code - m.ADVANCE
            b = k.fought()
            if u in b.survivors:
                return 5.0
            exposed = self.enemies(b.to)
            rear = self.enemies(k.loc[u]) == 0
            return (exposed - 1.5) + (1 if rear else -2)
        return 0.0


def choose(k: Kernel, legal: list[int], rng: random.Random) -> int:
    """`firestorm_heuristic.choose` on a kernel position: the best-scored action, ties broken by `rng`."""
    scores = Scores(k, k.actor())
    best: list[int] = []
    best_score = float("-inf")
    moves = k.step == MOVES
    m = k.m
    na = m.na
    base = m.MOVE
    counts = k.counts
    fronts = scores.fronts  # `scores.front`'s own store: read here directly, worked out by it on first use
    for code in legal:
        if moves and code != K_PASS:  # `Scores.move`, written out: the bulk of the work
            unit = (code - base) // na
            to = (code - base) % na
            got = scores.leaving.get(unit)
            if got is None:
                scores.move(unit, to)
                got = scores.leaving[unit]
            here, alone = got
            front = fronts[to]
            if front == UNKNOWN:
                front = scores.front(to)
            gain = front - here
            if alone:
                gain -= 4
            s = gain - 0.4 * counts[to] - 0.5
        else:
            s = scores.score(code)
        if s > best_score + 1e-9:
            best, best_score = [code], s
        elif abs(s - best_score) <= 1e-9:
            best.append(code)
    return best[int(rng.random() * len(best))]


BOTS = ("random", "heuristic")
"""The bots a kernel game plays."""


def game(sc: FirestormScenario, params: Mapping[str, Any], seed: int, bots: Mapping[str, str]) -> GameSummary | None:
    """`RuleSystem.fast_game`: the game `sim.runner.play_one` plays with `bots` (random or heuristic, by side) and
    `seed`, played in the kernel, or None where the kernel does not play it."""
    if any(bots.get(side, "random") not in BOTS for side in sc.sides):
        return None
    k = kernel_game(sc, params)
    if k is None:
        return None
    seeds = bot_seeds(seed, tuple(sc.sides))
    return finish(k, bots, {side: random.Random(seeds[side]) for side in sc.sides}, random.Random(seed))


def finish(k: Kernel, bots: Mapping[str, str], rngs: Mapping[str, Any], dice_rng: Any) -> GameSummary | None:
    """`RuleSystem.kernel_finish`: play a kernel position on to its end as `core.game.play` does with `bots`
    (random or heuristic, by side; each choosing with its `rngs[side]`, `dice_rng` rolling), and its summary; None
    where a bot is one the kernel does not play."""
    sides = k.m.sc.sides
    kinds = (bots.get(sides[0], "random"), bots.get(sides[1], "random"))
    if kinds[0] not in BOTS or kinds[1] not in BOTS:
        return None
    turns: list[float] = []
    play(k, kinds, (rngs[sides[0]], rngs[sides[1]]), dice_rng, turns)
    return summary(k, (*turns, k.lead()))


def summary(k: Kernel, trace: tuple[float, ...] = ()) -> GameSummary:
    """A finished kernel game as `RuleSystem.summarise` counts the same game on the reference engine (with
    `trace`, as `sim.runner.TurnTrace` follows it there)."""
    sc = k.m.sc
    diff = k.vp_diff()
    winner, _level, _margin = outcome_of(sc, diff)
    return GameSummary(outcome_label_of(sc, diff), winner, diff,
                       {a: sc.sides[s] for a, s in zip(k.m.areas, k.control, strict=True)}, trace)


def play(k: Kernel, bots: tuple[str, str], rngs: tuple[Any, Any], dice_rng: Any,
         turns: list[float] | None = None) -> None:
    """Play a kernel game to its end as `core.game.play` does with `ai.bots`' random and heuristic bots (`bots[i]`
    for the i-th side, each choosing with its own `rngs[i]`; `dice_rng` rolls). `turns`, when given, gets the
    first side's lead each time an action ends a turn."""
    if bots == ("random", "random"):
        k.play_out(rngs, dice_rng, turns=turns)
        return
    guided = (bots[0] == "heuristic", bots[1] == "heuristic")
    turn = k.turn
    while not k.terminal:
        who = k.actor()
        if who < 0:
            rnd = dice_rng.random
            k.roll(tuple([int(rnd() * 6) + 1 for _ in range(k.dice)]))
        else:
            legal = k.legal_actions()
            k.act(choose(k, legal, rngs[who]) if guided[who] else legal[int(rngs[who].random() * len(legal))])
        if turns is not None and k.turn != turn:
            turn = k.turn
            turns.append(k.lead())
