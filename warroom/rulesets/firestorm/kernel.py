"""A compact simulation kernel for Firestorm land campaigns (Caen and Lorraine, General's Wargame battles).

The reference engine (`state.py`, `steps.py` and the rule modules) is the source of truth: it explains refusals,
keeps the log and the events, serves every mode and Norway's Strategic Game. This kernel plays the same games
fast, for simulation and search: a position of lists of ints (`kmap.py` numbers areas, troops and actions), legal
actions as int codes, no log, no events, no per-step objects. It offers the same decisions in the same order and
rolls the same dice in the same order as the reference engine, so a game played here with the same seeds is the
same game: the differential tests (tests/property/test_kernel.py) play thousands of seeded games in both and
compare every decision's legal list, and `make fuzz` plays 10,000 per scenario.

The flow follows `steps.py` row by row, here; the rules it calls are in `kplace.py` (placements), `kbattle.py`
(commitment, the General's Wargame, the after-action), `kmoves.py` (strategic moves) and `kcaen.py` (D-Day and the
Caumont Gap), each function mirroring the reference function of its name. A position is made from a reference
position at any decision (`bridge.kernel_of`), so a search may hand any of its positions to the kernel;
`KMap.action` turns a kernel code back into the reference action.
"""

from __future__ import annotations

import math
from typing import Any, Final

import warroom.rulesets.firestorm.kbattle as kbattle
import warroom.rulesets.firestorm.kcaen as kcaen
import warroom.rulesets.firestorm.kmoves as kmoves
import warroom.rulesets.firestorm.kplace as kplace
from warroom.core.dice import Dice, Roll, d3
from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.firestorm.kbattle import EXPLOIT_KIND, NO_REQ, NOBODY, NORMAL, PANZER_REQ, PZ21_KIND
from warroom.rulesets.firestorm.kmap import K_PASS, KMap, kmap
from warroom.rulesets.firestorm.kmoves import KBook

# steps (the rows of steps.build_flow and dday.dday_steps that the kernel plays)
# (Final: the compiled kernel reads them as constants, not as module attributes)
TURN_START: Final = 0
PLAN_PLACE: Final = 1
BATTLES: Final = 2
INITIATIVE: Final = 3
NO_BATTLE: Final = 4
ARROW_STEP: Final = 5
ATT_COMMIT: Final = 6
DEF_COMMIT: Final = 7
SUPPLY: Final = 8
MODE: Final = 9
GW: Final = 10
DESTROY: Final = 11
RETREAT_STEP: Final = 12
ADVANCE_STEP: Final = 13
BATTLE_END: Final = 14
CAUMONT: Final = 15
STRAT_START: Final = 16
REINFORCE: Final = 17
MOVES: Final = 18
TURN_END: Final = 19
TONGA: Final = 20
NEPTUNE: Final = 21
EXPLOIT: Final = 22
PZ21: Final = 23
STEP_NAMES = ("turn_start", "plan_place", "battles", "initiative", "no_battle", "arrow", "attack_commit",
              "defend_commit", "supply_roll", "mode_choice", "gw_roll", "destroy_roll", "retreat", "advance",
              "battle_end", "caumont", "strategic_start", "reinforce", "moves", "turn_end", "dday_tonga",
              "dday_neptune", "dday_exploit", "dday_pz21")
STEP_OF = {name: i for i, name in enumerate(STEP_NAMES)}
CHANCE_STEPS = frozenset((BATTLES, INITIATIVE, SUPPLY, GW, DESTROY, TONGA, NEPTUNE))
MAX_ACTIONS: Final = 1_000_000
"""No game lasts this long: `play_out` without a horizon stops there with an error rather than run on."""
CHANCE_MASK: Final = (1 << BATTLES) | (1 << INITIATIVE) | (1 << SUPPLY) | (1 << GW) | (1 << DESTROY) | (1 << TONGA) | \
    (1 << NEPTUNE)
"""The chance steps, a bit each."""

# battle kinds, winners, and a required troop that is the Panzer rule rather than a troop

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

    # what is worked out from control alone, made again when it changes (`forget_control`)
    supply_cache: list[list[bool] | None]
    reach_cache: dict[int, list[int]]
    pool_cache: list[list[int] | None]

    def __init__(self, m: KMap, params: dict[str, Any], copy_of: Kernel | None = None) -> None:
        """A position before the campaign's first step (`new_kernel` enters it), or a copy of `copy_of` that shares
        nothing play changes (`clone`)."""
        self.m = m
        self.params = params
        if copy_of is not None:
            self.copy(copy_of)
            return
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
        self.moved = [False] * m.nt  # made its strategic move this phase, per troop
        self.n_moved = 0
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
        self.forget_control()
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
        if (CHANCE_MASK >> step) & 1:
            return -1
        if step in (PLAN_PLACE, REINFORCE):
            return self.m.side_of[self.placing[0]]
        if step == ARROW_STEP:
            return self.attacker
        if step in (ATT_COMMIT, ADVANCE_STEP):
            return self.fought().attacker
        if step in (DEF_COMMIT, RETREAT_STEP):
            return self.fought().defender
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
        if (CHANCE_MASK >> step) & 1:
            return []
        if step in (PLAN_PLACE, REINFORCE):
            return kplace.legal_place(self)
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
            b = self.fought()
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
            return kcaen.pz21_legal(self)
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
        return Kernel(self.m, self.params, self)

    def copy(self, old: Kernel) -> None:
        """Take every field of `old`, with copies of its containers."""
        self.through_full = old.through_full
        self.step = old.step
        self.turn = old.turn
        self.terminal = old.terminal
        self.control = list(old.control)
        self.loc = list(old.loc)
        self.counts = list(old.counts)
        self.sided = list(old.sided)
        self.unit_vp = list(old.unit_vp)
        self.bonus_vp = list(old.bonus_vp)
        self.battles_left = old.battles_left
        self.battles_total = old.battles_total
        self.battle_no = old.battle_no
        self.air_left = list(old.air_left)
        self.carpet_left = old.carpet_left
        self.battle = old.battle.clone() if old.battle is not None else None
        self.attacker = old.attacker
        self.idx = old.idx
        self.placing = list(old.placing)
        self.arrived = dict(old.arrived)
        self.returned = set(old.returned)
        self.moved = list(old.moved)
        self.n_moved = old.n_moved
        self.dice = old.dice
        self.committed = old.committed
        self.may_pass = old.may_pass
        self.advance_done = old.advance_done
        self.last_kind = old.last_kind
        self.dday_done = old.dday_done
        self.beach_idx = old.beach_idx
        self.exploits = list(old.exploits)
        self.no_attack_from = dict(old.no_attack_from)
        self.pz21_done = old.pz21_done
        self.caumont_done = old.caumont_done
        self.book = old.book.copy() if old.book is not None else None
        self.over = old.over
        self.supply_cache = list(old.supply_cache)
        self.reach_cache = dict(old.reach_cache)
        self.pool_cache = list(old.pool_cache)
        self.played = old.played

    def code(self, action: Any) -> int:
        """The code of a reference action (`KMap.code`)."""
        return self.m.code(action)

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
    def fought(self) -> KBattle:
        """The open battle."""
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
            self.forget_control()

    def forget_control(self) -> None:
        """Drop what was worked out from control alone: supply, strategic reach, pool areas."""
        self.supply_cache = [None, None]
        self.reach_cache = {}
        self.pool_cache = [None, None]

    def supplied(self, side: int) -> list[bool]:
        """`FirestormState.supplied_areas`, as a flag per area, made once per control."""
        got = self.supply_cache[side]
        if got is not None:
            return got
        control = self.control
        adj = self.m.adj
        na = self.m.na
        supply_of = self.m.supply_of
        seen = [False] * na
        queue = []
        for a in range(na):
            if supply_of[a] == side and control[a] == side:
                seen[a] = True
                queue.append(a)
        while queue:
            cur = queue.pop()
            for n in adj[cur]:
                if not seen[n] and control[n] == side:
                    seen[n] = True
                    queue.append(n)
        self.supply_cache[side] = seen
        return seen

    def reach(self, side: int, start: int, steps: int) -> list[int]:
        """`FirestormState.reach`: sorted by area id, made once per control."""
        key = ((side * self.m.na + start) << 5) + steps
        got = self.reach_cache.get(key)
        if got is not None:
            return got
        control = self.control
        adj = self.m.adj
        seen = [False] * self.m.na
        seen[start] = True
        frontier = [start]
        for _ in range(steps):
            nxt = []
            for cur in frontier:
                for n in adj[cur]:
                    if not seen[n] and control[n] == side:
                        seen[n] = True
                        nxt.append(n)
            frontier = nxt
        seen[start] = False
        result = [a for a in self.m.by_rank if seen[a]]
        self.reach_cache[key] = result
        return result

    def pool_spots(self, side: int) -> list[int]:
        """`FirestormState.pool_spots`, made once per control."""
        got = self.pool_cache[side]
        if got is not None:
            return got
        ok = self.m.pool_ok[side]
        control = self.control
        result = [a for a in range(self.m.na) if control[a] == side and ok[a]]
        self.pool_cache[side] = result
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
            kplace.apply_place(self, code)
        elif step == REINFORCE:
            kplace.apply_place(self, code)
            if not self.placing:
                self.idx += 1
                kplace.fill_placing(self)
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
            b = self.fought()
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
                kcaen.prune_exploits(self)
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
            kcaen.apply_tonga(self, values[0])
        elif step == NEPTUNE:
            kcaen.apply_neptune(self, values[0])
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
        if (CHANCE_MASK >> step) & 1:
            if step in (TONGA, NEPTUNE):
                return self.dday_done
            return self.dice == 0
        if step == PLAN_PLACE:
            return not self.placing
        if step == ARROW_STEP:
            return self.battle is not None or self.attacker < 0
        if step == ATT_COMMIT:
            return bool(self.fought().att)
        if step == DEF_COMMIT:
            return self.committed
        if step == RETREAT_STEP:
            return not self.fought().retreating
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
        if (CHANCE_MASK >> step) & 1:
            if step in (TONGA, NEPTUNE):
                self.dice = 1
                self.dday_done = False
            else:
                self.chance_begin(step)
        elif step == TURN_START:
            kplace.begin_turn(self)
        elif step == NO_BATTLE:
            self.battles_left -= 1
        elif step == DEF_COMMIT:
            self.committed = False
        elif step == ADVANCE_STEP:
            kbattle.begin_advance(self)
        elif step == BATTLE_END:
            b = self.fought()
            if b.kind == NORMAL:
                self.battles_left -= 1
            self.last_kind = b.kind
            self.battle = None
        elif step == CAUMONT:
            kcaen.begin_caumont(self)
        elif step == STRAT_START:
            kplace.begin_strategic(self)
        elif step == MOVES:
            self.idx = 0
            self.moved = [False] * self.m.nt
            self.n_moved = 0
            self.book = None
            self.over = kmoves.overfull_now(self)
            kmoves.skip_idle_movers(self)
        elif step == TURN_END:
            self.end_turn()
        elif step == EXPLOIT:
            kcaen.prune_exploits(self)
        elif step == PZ21:
            self.pz21_done = len(kcaen.pz21_legal(self)) <= 1
        # MODE: a General's Wargame campaign settles the way of resolution at once

    # ----- planning (steps.begin_turn, prune_placing, apply_place, placement.py) -------------------------









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






    # ----- playing whole games ------------------------------------------------------------------------------
    def play_out(self, rngs: tuple[Any, Any], dice_rng: Any, horizon: int = -1,
                 trace: list[tuple[str, str]] | None = None) -> int:
        """Play on with uniform random choices, `rngs[side]` choosing for each side and `dice_rng` rolling, as
        `core.game.play` does with `RandomBot`s; stop at the end or after `horizon` actions (-1: none). Returns
        the actions played. `trace`, when given, gets each action as the reference log writes it (side, text)."""
        played = 0
        most = horizon if horizon >= 0 else MAX_ACTIONS
        while not self.terminal and played != most:
            who = self.actor()
            if who < 0:
                rnd = dice_rng.random
                values = tuple([int(rnd() * 6) + 1 for _ in range(self.dice)])
                if trace is not None:
                    trace.append((CHANCE, Roll(values).to_str()))
                self.roll(values)
            else:
                if self.step == MOVES:  # `legal_actions` without copying the book's list: its moves, then pass
                    moves = kmoves.listing(self, who)
                    i = int(rngs[who].random() * (len(moves) + (self.over < 0)))
                    code = moves[i] if i < len(moves) else K_PASS
                else:
                    legal = self.legal_actions()
                    code = legal[int(rngs[who].random() * len(legal))]
                if trace is not None:
                    trace.append((self.m.sides[who], self.m.action(code).to_str()))
                self.act(code)
            played += 1
        self.played += played
        if played == MAX_ACTIONS and not self.terminal:
            raise RuntimeError(f"a kernel game did not end within {MAX_ACTIONS} actions (step {STEP_NAMES[self.step]})")
        return played


def new_kernel(sc: Any, params: dict[str, Any]) -> Kernel:
    """A kernel game at the start: the reference engine's opening (`firestorm.new_game`), entered here."""
    k = Kernel(kmap(sc), params)
    k.enter(TURN_START)
    k.settle()
    return k
