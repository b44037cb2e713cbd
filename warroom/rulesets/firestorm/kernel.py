"""A compact simulation kernel for Firestorm land campaigns (Caen and Lorraine, General's Wargame battles).

The reference engine (`state.py`, `steps.py` and the rule modules) is the source of truth: it explains refusals,
keeps the log and the events, serves every mode and Norway's Strategic Game. This kernel plays the same games
fast, for simulation and search: a position of lists of ints (`kmap.py` numbers areas, troops and actions), legal
actions as int codes, no log, no events, no per-step objects. It offers the same decisions in the same order and
rolls the same dice in the same order as the reference engine, so a game played here with the same seeds is the
same game: the differential tests (tests/property/test_kernel.py) play thousands of seeded games in both and
compare every decision's legal list, and `make fuzz GAMES=10000` plays 10,000 per scenario.

The position and the helpers every rule shares are in `kstate.py`. The flow follows `steps.py` row by row, here;
the rules it calls are in `kplace.py` (placements), `kbattle.py`
(commitment, the General's Wargame, the after-action), `kmoves.py` (strategic moves) and `kcaen.py` (D-Day and the
Caumont Gap), each function mirroring the reference function of its name. A position is made from a reference
position at any decision (`bridge.kernel_of`), so a search may hand any of its positions to the kernel;
`KMap.action` turns a kernel code back into the reference action.
"""

from __future__ import annotations

from typing import Any, Final

import warroom.rulesets.firestorm.kbattle as kbattle
import warroom.rulesets.firestorm.kcaen as kcaen
import warroom.rulesets.firestorm.kmoves as kmoves
import warroom.rulesets.firestorm.kplace as kplace
from warroom.core.dice import Dice, Roll, d3, d6s
from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.firestorm.kmap import K_PASS, kmap
from warroom.rulesets.firestorm.kstate import (
    ADVANCE_STEP,
    ARROW_STEP,
    ATT_COMMIT,
    BATTLE_END,
    BATTLES,
    CAUMONT,
    DEF_COMMIT,
    DESTROY,
    EXPLOIT,
    EXPLOIT_KIND,
    GW,
    INITIATIVE,
    MODE,
    MOVES,
    NEPTUNE,
    NO_BATTLE,
    NO_REQ,
    NORMAL,
    PLAN_PLACE,
    PZ21,
    PZ21_KIND,
    REINFORCE,
    RETREAT_STEP,
    STEP_NAMES,
    STRAT_START,
    SUPPLY,
    TONGA,
    TURN_END,
    TURN_START,
    KPosition,
)
from warroom.rulesets.firestorm.state import lead_of, standing_of

MAX_ACTIONS: Final = 1_000_000
"""No game lasts this long: `play_out` without a horizon stops there with an error rather than run on."""
CHANCE_MASK: Final = (1 << BATTLES) | (1 << INITIATIVE) | (1 << SUPPLY) | (1 << GW) | (1 << DESTROY) | (1 << TONGA) | \
    (1 << NEPTUNE)
"""The chance steps, a bit each."""

class Kernel(KPosition):
    """A campaign position in the kernel, with the state API of the reference engine over int action codes: the
    position (`kstate.KPosition`) and the flow that moves it."""

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
        return d6s(self.dice)

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

    def code(self, action: Any) -> int:
        """The code of a reference action (`KMap.code`)."""
        return self.m.code(action)

    # ----- scores -----------------------------------------------------------------------------------------
    def vp_diff(self) -> int:
        """The first side's VP less the second's."""
        return self.total_vp(0) - self.total_vp(1)

    def value(self) -> dict[str, float]:
        """`system.value` of the same position (`state.standing_of`)."""
        return standing_of(self.m.sc, self.vp_diff())

    def lead(self) -> float:
        """`system.lead` of the same position (`state.lead_of`)."""
        return lead_of(self.m.sc, self.vp_diff())

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

    # ----- the next battle and its initiative (steps.next_battle, resolve_initiative) ---------------------
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

    # ----- the end of a turn (steps.end_turn, lorraine.final_bonuses) ---------------------------------------
    def end_turn(self) -> None:
        m = self.m
        last = self.turn == m.n_turns
        if last and m.success_rule and any(self.control[a] == 1 for a in m.success_areas):
            self.bonus_vp[1] += m.success_vp
        if last:
            self.terminal = True
        else:
            self.turn += 1

    # ----- playing whole games ------------------------------------------------------------------------------
    def play_out(self, rngs: tuple[Any, Any], dice_rng: Any, horizon: int = -1,
                 trace: list[tuple[str, str]] | None = None, turns: list[float] | None = None) -> int:
        """Play on with uniform random choices, `rngs[side]` choosing for each side and `dice_rng` rolling, as
        `core.game.play` does with `RandomBot`s; stop at the end or after `horizon` actions (-1: none). Returns
        the actions played. `trace`, when given, gets each action as the reference log writes it (side, text);
        `turns` the first side's lead each time an action ends a turn (`sim.runner.TurnTrace`)."""
        played = 0
        turn = self.turn
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
            if turns is not None and self.turn != turn:
                turn = self.turn
                turns.append(self.lead())
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
