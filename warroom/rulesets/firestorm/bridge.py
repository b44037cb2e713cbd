"""From a reference position to the simulation kernel's (`kernel.py`): every field the kernel keeps, read at any
decision of a campaign the kernel plays. The move book and the caches are left to be made again: they are derived
from the position (a troop moves once per phase and control holds still while troops move, so a book made now
offers what the reference engine's older book offers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import warroom.rulesets.firestorm.kmoves as kmoves
from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.kernel import Kernel, new_kernel
from warroom.rulesets.firestorm.kmap import KMap, kernel_problem, kmap
from warroom.rulesets.firestorm.kstate import KIND_NAMES, NO_REQ, PANZER_REQ, STEP_OF, WINNER_NAMES, KBattle
from warroom.rulesets.firestorm.lorraine import PANZER
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.state import FirestormState

KINDS = {name: i for i, name in enumerate(KIND_NAMES)}


def to_kernel(st: FirestormState, m: KMap) -> Kernel:
    """The kernel position equal to `st` (a campaign `kmap.kernel_problem` accepts, at a step the kernel has)."""
    side = m.side_ix
    aix, tix = m.aix, m.tix
    k = Kernel(m, st.params)
    k.step = STEP_OF[st.step]
    k.turn = st.turn
    k.terminal = st.terminal
    k.control = [side[st.control[a]] for a in m.areas]
    k.loc = [m.places[st.loc[u]] for u in m.troops]
    k.count_places()
    k.unit_vp = [st.unit_vp[s] for s in m.sides]
    k.bonus_vp = [st.bonus_vp[s] for s in m.sides]
    k.battles_left, k.battles_total, k.battle_no = st.battles_left, st.battles_total, st.battle_no
    k.air_left = [st.air_left[s] for s in m.sides]
    k.carpet_left = st.carpet_left
    k.battle = _battle(st.battle, m) if st.battle is not None else None
    k.attacker = side[st.attacker] if st.attacker else -1
    k.idx = st.idx
    k.placing = [tix[u] for u in st.placing]
    k.arrived = {tix[u]: tuple(aix[a] for a in areas) for u, areas in st.arrived.items()}
    k.returned = {tix[u] for u in st.returned}
    k.moved = [u in st.moved for u in m.troops]
    k.n_moved = len(st.moved)
    f = st.flags
    k.dice = f.dice
    k.committed = f.committed
    k.may_pass = f.may_pass
    k.advance_done = f.advance_done
    k.last_kind = KINDS[f.last_battle.kind] if isinstance(f.last_battle, Battle) else 0
    k.dday_done = f.dday_done
    k.beach_idx = f.beach_idx
    k.exploits = [(aix[a], ft) for a, ft in f.exploits]
    k.no_attack_from = {aix[a]: t for a, t in f.no_attack_from.items()}
    k.pz21_done = f.pz21_done
    k.caumont_done = f.caumont_done
    k.played = st.played
    k.over = kmoves.overfull_now(k)
    return k


def _battle(b: Battle, m: KMap) -> KBattle:
    side = m.side_ix
    aix, tix = m.aix, m.tix
    required = NO_REQ if not b.required else PANZER_REQ if b.required == PANZER else tix[b.required]
    kb = KBattle(KINDS[b.kind], side[b.attacker], aix[b.frm], aix[b.to], b.max_ft, required)
    kb.att = tuple(m.item_of(u) for u in b.att)
    kb.dfn = tuple(m.item_of(u) for u in b.dfn)
    kb.att_supplied, kb.def_supplied = b.att_supplied, b.def_supplied
    kb.variable = [(side[s], m.item_of(u)) for s, u in b.variable]
    kb.att_total, kb.def_total = b.att_total, b.def_total
    kb.winner = WINNER_NAMES.index(b.winner)
    kb.targets = [(tix[u], side[s], need) for u, s, need in b.targets]
    kb.destroyed = [tix[u] for u in b.destroyed]
    kb.retreating = [tix[u] for u in b.retreating]
    kb.survivors = [tix[u] for u in b.survivors]
    kb.advanced = b.advanced
    return kb


def kernel_of(st: FirestormState) -> Kernel | None:
    """A kernel position equal to `st`, or None where the kernel does not play it (`kmap.kernel_problem`, or a
    step it does not have: a battle at the table, Norway's Strategic Game)."""
    if kernel_problem(st.sc, st.params) or st.step not in STEP_OF:
        return None
    return to_kernel(st, kmap(st.sc))


def kernel_game(sc: FirestormScenario, params: Mapping[str, Any]) -> Kernel | None:
    """A new game of `sc` in the kernel, or None where the kernel does not play it (`kmap.kernel_problem`)."""
    if kernel_problem(sc, dict(params)):
        return None
    return new_kernel(sc, dict(params))
