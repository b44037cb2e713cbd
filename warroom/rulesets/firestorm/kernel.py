"""A compact simulation kernel for Firestorm land campaigns (Caen and Lorraine, General's Wargame battles).

The reference engine (`state.py`, `steps.py` and the rule modules) is the source of truth: it explains refusals,
keeps the log and the events, serves every mode and Norway's Strategic Game. This kernel plays the same games
fast, for simulation and search: a position of lists of ints (`kmap.py` numbers areas, troops and actions), legal
actions as int codes, no log, no events, no per-step objects. It offers the same decisions in the same order and
rolls the same dice in the same order as the reference engine, so a game played here with the same seeds is the
same game: the differential tests (tests/property/test_kernel.py) play thousands of seeded games in both and
compare every decision's legal list, and `make fuzz` plays 10,000 per scenario.

The flow follows `steps.py` row by row; each function below names the reference function it mirrors. A position
is made from a reference position at any decision (`Kernel.of`), so a search may hand any of its positions to the
kernel; `KMap.action` turns a kernel code back into the reference action.
"""

from __future__ import annotations

import math
from typing import Any

import warroom.rulesets.firestorm.kbattle as kbattle
import warroom.rulesets.firestorm.kmoves as kmoves
from warroom.core.dice import Dice, Roll, d3
from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.firestorm.kbattle import NO_REQ, NOBODY, PANZER_REQ
from warroom.rulesets.firestorm.kmap import K_PASS, KMap, kmap
from warroom.rulesets.firestorm.kmoves import KBook

# steps (the rows of steps.build_flow and dday.dday_steps that the kernel plays)
TURN_START, PLAN_PLACE, BATTLES, INITIATIVE, NO_BATTLE, ARROW_STEP, ATT_COMMIT, DEF_COMMIT, SUPPLY, MODE, GW, \
    DESTROY, RETREAT_STEP, ADVANCE_STEP, BATTLE_END, CAUMONT, STRAT_START, REINFORCE, MOVES, TURN_END, TONGA, \
    NEPTUNE, EXPLOIT, PZ21 = range(24)
STEP_NAMES = ("turn_start", "plan_place", "battles", "initiative", "no_battle", "arrow", "attack_commit",
              "defend_commit", "supply_roll", "mode_choice", "gw_roll", "destroy_roll", "retreat", "advance",
              "battle_end", "caumont", "strategic_start", "reinforce", "moves", "turn_end", "dday_tonga",
              "dday_neptune", "dday_exploit", "dday_pz21")
STEP_OF = {name: i for i, name in enumerate(STEP_NAMES)}
CHANCE_STEPS = frozenset((BATTLES, INITIATIVE, SUPPLY, GW, DESTROY, TONGA, NEPTUNE))

# battle kinds, winners, and a required troop that is the Panzer rule rather than a troop
NORMAL, EXPLOIT_KIND, PZ21_KIND, CAUMONT_KIND = range(4)
KIND_NAMES = ("normal", "exploit", "pz21", "caumont")

_DICE: dict[int, Dice] = {}


def dice_of(n: int) -> Dice:
    got = _DICE.get(n)
    if got is None:
        got = _DICE[n] = Dice(n)
    return got


class KBattle:
    """The open battle (`battle.Battle`), in ints: sides 0/1, areas and troops by number, extras after the troops."""

    __slots__ = ("advanced", "att", "att_supplied", "att_total", "attacker", "def_supplied", "def_total", "defender",
                 "destroyed", "dfn", "frm", "kind", "max_ft", "required", "retreating", "survivors", "targets", "to",
                 "variable", "winner")

    def __init__(self, kind: int, attacker: int, frm: int, to: int, max_ft: int, required: int) -> None:
        self.kind = kind
        self.attacker = attacker
        self.defender = 1 - attacker
        self.frm = frm
        self.to = to
        self.max_ft = max_ft
        self.required = required
        self.att: tuple[int, ...] = ()
        self.dfn: tuple[int, ...] = ()
        self.att_supplied = True
        self.def_supplied = True
        self.variable: list[tuple[int, int]] = []
        self.att_total = 0
        self.def_total = 0
        self.winner = NOBODY
        self.targets: list[tuple[int, int, int]] = []
        self.destroyed: list[int] = []
        self.retreating: list[int] = []
        self.survivors: list[int] = []
        self.advanced = 0

    def clone(self) -> KBattle:
        new = KBattle(self.kind, self.attacker, self.frm, self.to, self.max_ft, self.required)
        new.att, new.dfn = self.att, self.dfn
        new.att_supplied, new.def_supplied = self.att_supplied, self.def_supplied
        new.variable = list(self.variable)
        new.att_total, new.def_total, new.winner = self.att_total, self.def_total, self.winner
        new.targets = list(self.targets)
        new.destroyed = list(self.destroyed)
        new.retreating = list(self.retreating)
        new.survivors = list(self.survivors)
        new.advanced = self.advanced
        return new


class Kernel:
    """A campaign position in the kernel, with the state API of the reference engine over int action codes."""

    def __init__(self, m: KMap, params: dict[str, Any]) -> None:
        self.m = m
        self.params = params
        self.through_full = m.revision_ok(params)
        self.step = TURN_START
        self.turn = 1
        self.terminal = False
        self.control = list(m.start_control)
        self.loc = list(m.start_loc)
        self.counts: list[int] = []
        self.sided: list[int] = []
        self.count_places()
        self.unit_vp = [0, 0]
        self.bonus_vp = [0, 0]
        self.battles_left = 0
        self.battles_total = 0
        self.battle_no = 0
        self.air_left = [0, 0]
        self.carpet_left = 0
        self.battle: KBattle | None = None
        self.attacker = -1
        self.idx = 0
        self.placing: list[int] = []
        self.arrived: dict[int, tuple[int, ...]] = {}
        self.returned: set[int] = set()
        self.moved: set[int] = set()
        self.dice = 0
        self.committed = False
        self.may_pass = False
        self.advance_done = False
        self.last_kind = NORMAL
        self.dday_done = False
        self.beach_idx = 0
        self.exploits: list[tuple[int, int]] = []
        self.no_attack_from: dict[int, int] = {}
        self.pz21_done = False
        self.caumont_done = False
        self.book: KBook | None = None
        self.over = -1  # the area over the stacking limit during the strategic moves (Caen 4.1), or -1
        self.derived: dict[int, Any] = {}  # facts of control alone, keyed by `supplied`, `reach`, `pool_spots`
        self.played = 0

    # ----- the state API ----------------------------------------------------------------------------------
    def current_player(self) -> str:
        if self.terminal:
            return TERMINAL
        who = self.actor()
        return CHANCE if who < 0 else self.m.sides[who]

    def actor(self) -> int:
        """The side to act (0 or 1), or -1 for a roll."""
        step = self.step
        if step in CHANCE_STEPS:
            return -1
        if step in (PLAN_PLACE, REINFORCE):
            return self.m.side_of[self.placing[0]]
        if step == ARROW_STEP:
            return self.attacker
        if step in (ATT_COMMIT, ADVANCE_STEP):
            return self._b().attacker
        if step in (DEF_COMMIT, RETREAT_STEP):
            return self._b().defender
        if step == MOVES:
            return self.m.move_order[self.idx]
        if step == EXPLOIT:
            return 0
        if step == PZ21:
            return 1
        raise RuntimeError(f"no decision in kernel step {STEP_NAMES[step]}")

    def is_terminal(self) -> bool:
        return self.terminal

    def chance_dice(self) -> Dice:
        return dice_of(self.dice)

    def legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        step = self.step
        if step in CHANCE_STEPS:
            return []
        if step in (PLAN_PLACE, REINFORCE):
            return self.legal_place()
        if step == ARROW_STEP:
            out = self.arrow_options(self.attacker, None)
            if self.may_pass:
                out.append(K_PASS)
            return out
        if step == ATT_COMMIT:
            return kbattle.commit_options(self, True)
        if step == DEF_COMMIT:
            return kbattle.commit_options(self, False)
        if step == RETREAT_STEP:
            b = self._b()
            targets = kbattle.retreat_targets(self, b)
            m = self.m
            base = m.RETREAT
            na = m.na
            return [base + u * na + n for u in b.retreating for n in targets]
        if step == ADVANCE_STEP:
            return kbattle.advance_options(self)
        if step == MOVES:
            out = kmoves.move_options(self, self.m.move_order[self.idx])
            if self.over < 0:
                out.append(K_PASS)
            return out
        if step == EXPLOIT:
            return [*self.arrow_options(0, (self.exploits[0][0],)), K_PASS]
        if step == PZ21:
            return self.pz21_legal()
        raise RuntimeError(f"no decision in kernel step {STEP_NAMES[step]}")

    def apply_action(self, action: Any, side: str | None = None) -> None:
        """Apply a roll (a `Roll` or a tuple of faces) at a chance node, or an action code. Trusted: the kernel
        serves search and simulation, which take their actions from `legal_actions()`."""
        self.played += 1
        if isinstance(action, Roll):
            self.roll(action.values)
        elif isinstance(action, tuple):
            self.roll(action)
        else:
            self.act(action)

    def apply_unchecked(self, action: Any, who: str | None = None) -> None:
        self.apply_action(action)

    def returns(self) -> dict[str, float]:
        a, b = self.m.sides
        diff = self.total_vp(0) - self.total_vp(1)
        return {a: float(diff), b: float(-diff)}

    def clone(self) -> Kernel:
        new = Kernel.__new__(Kernel)
        new.m = self.m
        new.params = self.params
        new.through_full = self.through_full
        new.step = self.step
        new.turn = self.turn
        new.terminal = self.terminal
        new.control = list(self.control)
        new.loc = list(self.loc)
        new.counts = list(self.counts)
        new.sided = list(self.sided)
        new.unit_vp = list(self.unit_vp)
        new.bonus_vp = list(self.bonus_vp)
        new.battles_left = self.battles_left
        new.battles_total = self.battles_total
        new.battle_no = self.battle_no
        new.air_left = list(self.air_left)
        new.carpet_left = self.carpet_left
        new.battle = self.battle.clone() if self.battle is not None else None
        new.attacker = self.attacker
        new.idx = self.idx
        new.placing = list(self.placing)
        new.arrived = dict(self.arrived)
        new.returned = set(self.returned)
        new.moved = set(self.moved)
        new.dice = self.dice
        new.committed = self.committed
        new.may_pass = self.may_pass
        new.advance_done = self.advance_done
        new.last_kind = self.last_kind
        new.dday_done = self.dday_done
        new.beach_idx = self.beach_idx
        new.exploits = list(self.exploits)
        new.no_attack_from = dict(self.no_attack_from)
        new.pz21_done = self.pz21_done
        new.caumont_done = self.caumont_done
        new.book = self.book.copy() if self.book is not None else None
        new.over = self.over
        new.derived = dict(self.derived)
        new.played = self.played
        return new

    # ----- scores -----------------------------------------------------------------------------------------
    def total_vp(self, side: int) -> int:
        vp = self.m.area_vp
        return sum(vp[a] for a, s in enumerate(self.control) if s == side) + self.unit_vp[side] + \
            self.bonus_vp[side]

    def vp_diff(self) -> int:
        """The first side's VP less the second's."""
        return self.total_vp(0) - self.total_vp(1)

    def value(self) -> dict[str, float]:
        """`system.value` of the same position: 0.5 + 0.5 tanh(VP difference / the smallest victory margin)."""
        a, b = self.m.sides
        margin = max(1, min((t for t, _level in self.m.margin_levels), default=1))
        ahead = 0.5 + 0.5 * math.tanh(self.vp_diff() / margin)
        return {a: ahead, b: 1.0 - ahead}

    # ----- the position's helpers (state.py) --------------------------------------------------------------
    def _b(self) -> KBattle:
        b = self.battle
        assert b is not None, "no open battle"
        return b

    def count_places(self) -> None:
        """Count the troops in each place (`counts`) and each side's troops in each place (`sided`, the second
        side's after the first's), from `loc`."""
        width = self.m.na + 6
        self.counts = [0] * width
        self.sided = [0] * (2 * width)
        side_of = self.m.side_of
        for u, where in enumerate(self.loc):
            self.counts[where] += 1
            self.sided[side_of[u] * width + where] += 1

    def move_to(self, unit: int, where: int) -> None:
        old = self.loc[unit]
        counts = self.counts
        counts[old] -= 1
        counts[where] += 1
        base = self.m.side_of[unit] * (self.m.na + 6)
        sided = self.sided
        sided[base + old] -= 1
        sided[base + where] += 1
        self.loc[unit] = where

    def has_room(self, area: int, extra: int = 1) -> bool:
        limit = self.m.stacking
        return limit == 0 or self.counts[area] + extra <= limit

    def set_control(self, area: int, side: int) -> None:
        if self.control[area] != side:
            self.control[area] = side
            self.derived = {}

    def supplied(self, side: int) -> frozenset[int]:
        """`FirestormState.supplied_areas`."""
        key = -1 - side
        got = self.derived.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        control = self.control
        adj = self.m.adj
        start = [a for a in range(self.m.na) if self.m.supply_of[a] == side and control[a] == side]
        seen = set(start)
        queue = list(start)
        while queue:
            cur = queue.pop()
            for n in adj[cur]:
                if n not in seen and control[n] == side:
                    seen.add(n)
                    queue.append(n)
        result = frozenset(seen)
        self.derived[key] = result
        return result

    def reach(self, side: int, start: int, steps: int) -> list[int]:
        """`FirestormState.reach`: sorted by area id."""
        key = ((side * self.m.na + start) << 5) + steps
        got = self.derived.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        control = self.control
        adj = self.m.adj
        seen = {start}
        frontier = [start]
        for _ in range(steps):
            nxt = []
            for cur in frontier:
                for n in adj[cur]:
                    if n not in seen and control[n] == side:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        seen.discard(start)
        result = sorted(seen, key=self.m.arank.__getitem__)
        self.derived[key] = result
        return result

    def pool_spots(self, side: int) -> list[int]:
        key = -3 - side
        got = self.derived.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        ok = self.m.pool_ok[side]
        control = self.control
        result = [a for a in range(self.m.na) if control[a] == side and ok[a]]
        self.derived[key] = result
        return result

    def capture(self, unit: int) -> None:
        m = self.m
        self.move_to(unit, m.CAPTURED)
        self.unit_vp[1 - m.side_of[unit]] += m.capture_vp[unit]

    def destroy(self, unit: int) -> None:
        m = self.m
        if m.panzer_rule and m.panzer[unit]:
            self.capture(unit)
        elif m.destroyed_gone:
            self.move_to(unit, m.GONE)
            self.unit_vp[1 - m.side_of[unit]] += m.capture_vp[unit]
        else:
            self.move_to(unit, m.POOL)

    def units_at(self, area: int, side: int) -> list[int]:
        side_of = self.m.side_of
        return [u for u, w in enumerate(self.loc) if w == area and side_of[u] == side]

    # ----- the flow (core/flow.py's loop over steps.py's table) -------------------------------------------
    def act(self, code: int) -> None:
        step = self.step
        if step == PLAN_PLACE:
            self.apply_place(code)
        elif step == REINFORCE:
            self.apply_place(code)
            if not self.placing:
                self.idx += 1
                self.fill_placing()
        elif step == ARROW_STEP:
            if code == K_PASS:
                self.attacker = -1
            else:
                frm, to = divmod(code - self.m.ARROW, self.m.na)
                self.open_battle(NORMAL, self.attacker, frm, to, 2, NO_REQ)
        elif step == ATT_COMMIT:
            kbattle.apply_commit(self, code, True)
        elif step == DEF_COMMIT:
            kbattle.apply_commit(self, code, False)
            self.committed = True
        elif step == RETREAT_STEP:
            b = self._b()
            u, to = divmod(code - self.m.RETREAT, self.m.na)
            b.retreating.remove(u)
            self.move_to(u, to)
            kbattle.prune_retreat(self, b)
        elif step == ADVANCE_STEP:
            kbattle.apply_advance(self, code)
        elif step == MOVES:
            kmoves.apply_move(self, code)
        elif step == EXPLOIT:
            beach_max = self.exploits.pop(0)
            if code == K_PASS:
                self.prune_exploits()
            else:
                frm, to = divmod(code - self.m.ARROW, self.m.na)
                self.open_battle(EXPLOIT_KIND, 0, frm, to, beach_max[1], NO_REQ)
        elif step == PZ21:
            self.pz21_done = True
            if code != K_PASS:
                frm, to = divmod(code - self.m.ARROW, self.m.na)
                self.open_battle(PZ21_KIND, 1, frm, to, 2, self.m.pz21)
        else:
            raise RuntimeError(f"no decision in kernel step {STEP_NAMES[step]}")
        self.settle()

    def roll(self, values: tuple[int, ...]) -> None:
        step = self.step
        if step == TONGA:
            self.apply_tonga(values[0])
        elif step == NEPTUNE:
            self.apply_neptune(values[0])
        else:
            self.dice = 0
            self.resolve(step, values)
        self.settle()

    def resolve(self, step: int, values: tuple[int, ...]) -> None:
        """A chance step's outcome (`chance.chance_step`'s `resolve`)."""
        if step == BATTLES:
            t = self.m.turns[self.turn - 1]
            self.battles_left = self.battles_total = t.battles_base + sum(d3(v) for v in values)
        elif step == INITIATIVE:
            self.resolve_initiative(values)
        elif step == GW:
            kbattle.resolve_gw(self, values)
        elif step == DESTROY:
            kbattle.resolve_destroy(self, values)
        # SUPPLY: Norway's roll only; never any dice here

    def chance_begin(self, step: int) -> None:
        n = self.dice_for(step)
        if n == 0:
            self.resolve(step, ())
            self.dice = 0
        else:
            self.dice = n

    def dice_for(self, step: int) -> int:
        if step == BATTLES:
            return 0 if self.m.t_dday[self.turn - 1] else self.m.turns[self.turn - 1].battles_d3
        if step == INITIATIVE:
            return 2
        if step == GW:
            return kbattle.gw_dice(self)
        if step == DESTROY:
            return kbattle.destroy_dice(self)
        return 0

    def settle(self) -> None:
        """`Flow.settle`: end finished steps and enter their successors until a decision is due."""
        for _ in range(10_000):
            if self.terminal:
                return
            if not self.ended():
                return
            self.enter(self.following())
        raise RuntimeError(f"kernel flow did not settle (around step {STEP_NAMES[self.step]})")

    def ended(self) -> bool:
        """The step's `end_if`."""
        step = self.step
        if step in CHANCE_STEPS:
            if step in (TONGA, NEPTUNE):
                return self.dday_done
            return self.dice == 0
        if step == PLAN_PLACE:
            return not self.placing
        if step == ARROW_STEP:
            return self.battle is not None or self.attacker < 0
        if step == ATT_COMMIT:
            return bool(self._b().att)
        if step == DEF_COMMIT:
            return self.committed
        if step == RETREAT_STEP:
            return not self._b().retreating
        if step == ADVANCE_STEP:
            return self.advance_done
        if step in (REINFORCE, MOVES):
            return self.idx >= 2
        if step == EXPLOIT:
            return self.battle is not None or not self.exploits
        if step == PZ21:
            return self.pz21_done
        return True  # automatic steps

    def following(self) -> int:
        """The step's `next`."""
        step = self.step
        if step == TURN_START:
            return PLAN_PLACE
        if step == PLAN_PLACE:
            return BATTLES
        if step == BATTLES:
            return TONGA if self.m.t_dday[self.turn - 1] else self.after_normal_battle()
        if step == INITIATIVE:
            return ARROW_STEP if self.attacker >= 0 else NO_BATTLE
        if step == NO_BATTLE:
            return self.after_normal_battle()
        if step == ARROW_STEP:
            return ATT_COMMIT if self.battle is not None else NO_BATTLE
        if step == ATT_COMMIT:
            return DEF_COMMIT
        if step == DEF_COMMIT:
            return SUPPLY
        if step == SUPPLY:
            return MODE
        if step == MODE:
            return GW
        if step == GW:
            return DESTROY
        if step == DESTROY:
            return RETREAT_STEP
        if step == RETREAT_STEP:
            return ADVANCE_STEP
        if step == ADVANCE_STEP:
            return BATTLE_END
        if step == BATTLE_END:
            if self.last_kind == EXPLOIT_KIND:
                return EXPLOIT
            if self.last_kind == PZ21_KIND:
                return STRAT_START
            return self.after_normal_battle()
        if step == CAUMONT:
            return MODE if self.battle is not None else self.next_battle()
        if step == STRAT_START:
            return REINFORCE
        if step == REINFORCE:
            return MOVES
        if step == MOVES:
            return TURN_END
        if step == TURN_END:
            return TURN_START
        if step == TONGA:
            return NEPTUNE
        if step == NEPTUNE:
            return EXPLOIT
        if step == EXPLOIT:
            return ATT_COMMIT if self.battle is not None else PZ21
        if step == PZ21:
            return ATT_COMMIT if self.battle is not None else STRAT_START
        raise RuntimeError(f"unknown kernel step {step}")

    def enter(self, step: int) -> None:
        """Enter `step` and run its `on_begin`."""
        self.step = step
        if step in CHANCE_STEPS:
            if step in (TONGA, NEPTUNE):
                self.dice = 1
                self.dday_done = False
            else:
                self.chance_begin(step)
        elif step == TURN_START:
            self.begin_turn()
        elif step == NO_BATTLE:
            self.battles_left -= 1
        elif step == DEF_COMMIT:
            self.committed = False
        elif step == ADVANCE_STEP:
            kbattle.begin_advance(self)
        elif step == BATTLE_END:
            b = self._b()
            if b.kind == NORMAL:
                self.battles_left -= 1
            self.last_kind = b.kind
            self.battle = None
        elif step == CAUMONT:
            self.begin_caumont()
        elif step == STRAT_START:
            self.begin_strategic()
        elif step == MOVES:
            self.idx = 0
            self.moved = set()
            self.book = None
            self.over = kmoves.overfull_now(self)
            kmoves.skip_idle_movers(self)
        elif step == TURN_END:
            self.end_turn()
        elif step == EXPLOIT:
            self.prune_exploits()
        elif step == PZ21:
            self.pz21_done = len(self.pz21_legal()) <= 1
        # MODE: a General's Wargame campaign settles the way of resolution at once

    # ----- planning (steps.begin_turn, prune_placing, apply_place, placement.py) -------------------------
    def begin_turn(self) -> None:
        m = self.m
        t = self.turn - 1
        for side in (0, 1):
            if m.has_air[side]:
                self.air_left[side] = m.air_sorties[side][t]
        self.carpet_left = m.turns[t].carpet
        self.moved = set()
        self.returned = set()
        self.arrived = {}
        self.battle_no = 0
        self.battles_left = 0
        self.battles_total = 0
        for unit, areas, planning in m.t_arrivals[t]:
            if planning and self.loc[unit] == m.OFFMAP:
                self.move_to(unit, m.POOL)
                self.arrived[unit] = areas
        self.placing = list(self.arrived)
        self.prune_placing()

    def reserve_room(self, unit: int) -> bool:
        """`caen.has_room`: the Germans may put `unit` into the Tactical Reserve now."""
        m = self.m
        if not m.reserve_rule or m.side_of[unit] != 1 or self.turn >= m.n_turns:
            return False
        return self.counts[m.RESERVE] < m.turns[self.turn].reserve_limit

    def candidate_areas(self, side: int, listed: tuple[int, ...]) -> list[int]:
        control = self.control
        if not listed:
            return self.pool_spots(side)
        spots = [a for a in listed if control[a] == side]
        if not spots and self.m.fallback_adjacent:
            adj = self.m.adj
            spots = sorted({n for a in listed for n in adj[a] if control[n] == side}, key=self.m.arank.__getitem__)
        return spots

    def placement_spots(self, side: int, listed: tuple[int, ...]) -> list[int]:
        spots = self.candidate_areas(side, listed)
        limit = self.m.stacking
        if limit:
            counts = self.counts
            spots = [a for a in spots if counts[a] < limit]
        return spots

    def placeable(self, units: list[int]) -> list[int]:
        side_of = self.m.side_of
        shared: dict[int, bool] = {}
        out = []
        for u in units:
            listed = self.arrived.get(u, ())
            if listed:
                ok = bool(self.placement_spots(side_of[u], listed)) or self.reserve_room(u)
            else:
                side = side_of[u]
                if side not in shared:
                    shared[side] = bool(self.placement_spots(side, ()))
                ok = shared[side] or self.reserve_room(u)
            if ok:
                out.append(u)
        return out

    def prune_placing(self) -> None:
        if not self.placing:
            return
        ready = set(self.placeable(self.placing))
        if len(ready) != len(self.placing):
            self.placing = [u for u in self.placing if u in ready]

    def place_options(self, unit: int, spots: list[int] | None) -> list[int]:
        m = self.m
        if spots is None:
            spots = self.placement_spots(m.side_of[unit], self.arrived.get(unit, ()))
        base = m.PLACE + unit * (m.na + 1)
        out = [base + a for a in spots]
        if self.reserve_room(unit):
            out.append(base + m.na)
        return out

    def legal_place(self) -> list[int]:
        """`placement.legal_place` (with `next_up`)."""
        m = self.m
        side_of = m.side_of
        side = side_of[self.placing[0]]
        mine = [u for u in self.placing if side_of[u] == side]
        limit = m.stacking
        if self.arrived.get(mine[0]) or not limit:
            return self.place_options(mine[0], None)
        counts = self.counts
        spots = self.placement_spots(side, ())
        if sum(limit - counts[a] for a in spots) >= len(mine):
            return self.place_options(mine[0], spots)
        out: list[int] = []
        for u in mine:
            out.extend(self.place_options(u, None if self.arrived.get(u, ()) else spots))
        return out

    def apply_place(self, code: int) -> None:
        m = self.m
        unit, area = divmod(code - m.PLACE, m.na + 1)
        self.move_to(unit, m.RESERVE if area == m.na else area)
        self.placing.remove(unit)
        if unit not in self.arrived:
            self.returned.add(unit)
        self.prune_placing()

    # ----- initiative and arrows (steps.resolve_initiative, arrows.py) ------------------------------------
    def after_normal_battle(self) -> int:
        c = self.m.caumont
        if c is not None and not self.caumont_done and self.turn == c[0] and self.control[c[1]] == 0:
            return CAUMONT
        return self.next_battle()

    def next_battle(self) -> int:
        return INITIATIVE if self.battles_left > 0 else STRAT_START

    def resolve_initiative(self, values: tuple[int, ...]) -> None:
        side, bonus, tie = self.m.t_init[self.turn - 1]
        self.battle_no += 1
        totals = [values[0], values[1]]
        totals[side] += bonus
        winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else tie
        self.may_pass = False
        if not self.has_arrow(winner):
            other = 1 - winner
            if self.has_arrow(other):
                winner = other
                self.may_pass = True
            else:
                winner = -1
        self.attacker = winner

    def holding(self, side: int) -> list[int]:
        """`arrows.attack_froms`: areas `side` holds with one of its troops, by id."""
        control = self.control
        sided = self.sided
        base = side * (self.m.na + 6)
        return [a for a in self.m.by_rank if control[a] == side and sided[base + a]]

    def panzer_froms(self) -> list[int]:
        """`lorraine.panzer_froms`."""
        m = self.m
        control = self.control
        out = set()
        for u, w in enumerate(self.loc):
            if m.panzer[u] and m.side_of[u] == 1 and w < m.na and control[w] == 1 \
                    and any(control[n] != 1 for n in m.adj[w]):
                out.add(w)
        return sorted(out, key=m.arank.__getitem__)

    def arrows(self, side: int, froms: tuple[int, ...] | None, first: bool) -> list[int]:
        """`arrows._arrows` under `arrow_bar(side, froms)`: every legal arrow (or the first only)."""
        m = self.m
        control = self.control
        sided = self.sided
        base_here = side * (m.na + 6)
        forced = self.panzer_froms() if froms is None and m.panzer_rule and side == 1 else []
        landings = froms is None and side == 0 and bool(self.no_attack_from)
        moselle = m.moselle_rule and self.turn == 1 and side == 0
        starts: list[int] | tuple[int, ...] = froms if froms is not None else (forced or self.holding(side))
        out: list[int] = []
        base = m.ARROW
        na = m.na
        for frm in starts:
            if control[frm] != side or not sided[base_here + frm] or (forced and frm not in forced):
                continue
            if landings and self.no_attack_from.get(frm, 0) >= self.turn:
                continue
            for to in m.adj[frm]:
                if control[to] == side:
                    continue
                if moselle and not (m.river.get(frm * na + to) == "Moselle" or to in m.open_targets
                                    or m.start_control[to] == side):
                    continue
                out.append(base + frm * na + to)
                if first:
                    return out
        return out

    def arrow_options(self, side: int, froms: tuple[int, ...] | None) -> list[int]:
        return self.arrows(side, froms, False)

    def has_arrow(self, side: int) -> bool:
        return bool(self.arrows(side, None, True))

    def open_battle(self, kind: int, attacker: int, frm: int, to: int, max_ft: int, required: int) -> None:
        m = self.m
        if required == NO_REQ and m.panzer_rule and attacker == 1 and kind == NORMAL and frm in self.panzer_froms():
            required = PANZER_REQ
        self.battle = KBattle(kind, attacker, frm, to, max_ft, required)

    # ----- commitment (commitment.py) --------------------------------------------------------------------



    # ----- the General's Wargame (steps.gw_dice, resolve_gw; campaign.defence_modifiers) ------------------




    # ----- after action (steps.destroy_dice, resolve_destroy, setup_retreat; after_action.py) -------------









    # ----- the strategic phase (steps.begin_strategic, fill_placing, moves.py) -----------------------------
    def begin_strategic(self) -> None:
        m = self.m
        t = self.turn - 1
        for u in m.t_withdraw[t]:
            if self.loc[u] != m.CAPTURED:
                self.move_to(u, m.WITHDRAWN)
        self.arrived = {}
        for unit, areas, planning in m.t_arrivals[t]:
            if not planning and self.loc[unit] == m.OFFMAP:
                self.move_to(unit, m.POOL)
                self.arrived[unit] = areas
        self.idx = 0
        self.fill_placing()

    def fill_placing(self) -> None:
        m = self.m
        order = m.reinforce_order
        side_of = m.side_of
        pool = m.POOL
        while self.idx < len(order):
            side = order[self.idx]
            fresh = [u for u in self.arrived if side_of[u] == side and self.loc[u] == pool]
            rest = [u for u, w in enumerate(self.loc) if w == pool and side_of[u] == side and u not in self.arrived]
            self.placing = fresh + rest
            self.prune_placing()
            if self.placing:
                return
            self.idx += 1









    def end_turn(self) -> None:
        m = self.m
        last = self.turn == m.n_turns
        if last and m.success_rule and any(self.control[a] == 1 for a in m.success_areas):
            self.bonus_vp[1] += m.success_vp
        if last:
            self.terminal = True
        else:
            self.turn += 1

    # ----- Caen's D-Day and Caumont Gap (dday.py) ----------------------------------------------------------
    def fare(self, unit: int, area: int, fate: str) -> None:
        if fate == "lands":
            self.move_to(unit, area)
        elif fate == "pool":
            self.move_to(unit, self.m.POOL)
        else:
            self.capture(unit)

    def apply_tonga(self, row: int) -> None:
        unit, area, rows = self.m.tonga
        fate, taken = rows[row - 1]
        self.dice = 0
        self.dday_done = True
        if taken:
            self.set_control(area, 0)
        self.fare(unit, area, fate)

    def apply_neptune(self, row: int) -> None:
        m = self.m
        i = self.beach_idx
        beach, division, brigade = m.beaches[i]
        fate, attack_ft, until = m.neptune[row - 1]
        self.set_control(beach, 0)
        self.move_to(division, beach)
        self.fare(brigade, beach, fate)
        if attack_ft:
            self.exploits.append((beach, attack_ft))
        self.no_attack_from = {**self.no_attack_from, beach: until}
        self.beach_idx = i + 1
        if i + 1 >= len(m.beaches):
            self.dice = 0
            self.dday_done = True

    def prune_exploits(self) -> None:
        exploits = self.exploits
        while exploits and not self.arrows(0, (exploits[0][0],), True):
            exploits.pop(0)

    def pz21_legal(self) -> list[int]:
        where = self.loc[self.m.pz21]
        if where >= self.m.na:
            return []
        return [*self.arrow_options(1, (where,)), K_PASS]

    def begin_caumont(self) -> None:
        m = self.m
        c = m.caumont
        assert c is not None
        _turn, _trigger, gap, target, att, dfn = c
        self.caumont_done = True
        control = self.control
        if control[gap] != 0:
            german = [n for n in m.adj[gap] if control[n] == 1]
            for u in self.units_at(gap, 1):
                spots = [n for n in german if self.has_room(n)]
                if spots:
                    self.move_to(u, spots[0])
                elif german:
                    self.destroy(u)
                else:
                    self.capture(u)
            self.set_control(gap, 0)
        room_dfn = self.loc[dfn] == target or self.has_room(target)
        room_att = self.loc[att] == gap or self.has_room(gap)
        if self.loc[att] >= m.na or control[target] != 1 or self.loc[dfn] in (m.CAPTURED, m.WITHDRAWN) \
                or not room_dfn or not room_att:
            return
        self.move_to(att, gap)
        self.move_to(dfn, target)
        self.open_battle(CAUMONT_KIND, 0, gap, target, 1, NO_REQ)
        b = self._b()
        b.att, b.dfn = (att,), (dfn,)
        b.att_supplied = gap in self.supplied(0)
        b.def_supplied = target in self.supplied(1)

    # ----- playing whole games ------------------------------------------------------------------------------
    def play_out(self, rngs: tuple[Any, Any], dice_rng: Any, horizon: int = -1,
                 trace: list[tuple[str, str]] | None = None) -> int:
        """Play on with uniform random choices, `rngs[side]` choosing for each side and `dice_rng` rolling, as
        `core.game.play` does with `RandomBot`s; stop at the end or after `horizon` actions (-1: none). Returns
        the actions played. `trace`, when given, gets each action as the reference log writes it (side, text)."""
        played = 0
        while not self.terminal and played != horizon:
            who = self.actor()
            if who < 0:
                rnd = dice_rng.random
                values = tuple([int(rnd() * 6) + 1 for _ in range(self.dice)])
                if trace is not None:
                    trace.append((CHANCE, Roll(values).to_str()))
                self.roll(values)
            else:
                legal = self.legal_actions()
                code = legal[int(rngs[who].random() * len(legal))]
                if trace is not None:
                    trace.append((self.m.sides[who], self.m.action(code).to_str()))
                self.act(code)
            played += 1
        self.played += played
        return played


def new_kernel(sc: Any, params: dict[str, Any]) -> Kernel:
    """A kernel game at the start: the reference engine's opening (`firestorm.new_game`), entered here."""
    k = Kernel(kmap(sc), params)
    k.enter(TURN_START)
    k.settle()
    return k
