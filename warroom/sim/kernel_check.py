"""Differential checks of the simulation kernel (`rulesets/firestorm/kernel.py`) against the reference engine.

`lockstep` plays one seeded game in both at once, as `core.game.play` plays it with random bots, and compares at
every decision who acts, the dice due and the legal actions in their order, and now and then the kernel position
made afresh from the reference one (`bridge.kernel_of`). `same_game` plays the game twice, once through the
reference engine's own loop (`sim.runner.play_one`) and once through the kernel's (`Kernel.play_out`), and compares
the two logs and the final positions. Each returns '' or the first difference, named with its seed and step.

    python scripts/kernel_diff.py --games 10000     # per scenario; `make fuzz` runs it
"""

from __future__ import annotations

import random

from warroom import rulesets
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm.bridge import kernel_of
from warroom.rulesets.firestorm.kernel import Kernel, new_kernel
from warroom.rulesets.firestorm.state import FirestormState
from warroom.scenarios import load_game
from warroom.sim.runner import play_one

KERNEL_SCENARIOS = ("caen", "lorraine")
"""The bundled scenarios the kernel plays."""


def differences(st: FirestormState, k: Kernel) -> str:
    """How the kernel position `k` differs from the reference position `st` in what decides the game ('' if in
    nothing): the step, the turn, control, every troop's place and the victory points."""
    m = k.m
    sc = st.sc
    if k.current_player() != st.current_player():
        return f"to act: kernel {k.current_player()}, reference {st.current_player()}"
    if k.turn != st.turn or k.terminal != st.terminal:
        return f"turn: kernel {k.turn}{' (over)' * k.terminal}, reference {st.turn}{' (over)' * st.terminal}"
    for a, s in zip(m.areas, k.control, strict=True):
        if st.control[a] != m.sides[s]:
            return f"control of {a}: kernel {m.sides[s]}, reference {st.control[a]}"
    for u, w in zip(m.troops, k.loc, strict=True):
        if st.loc[u] != m.place_names[w]:
            return f"{u}: kernel {m.place_names[w]}, reference {st.loc[u]}"
    for i, side in enumerate(sc.sides):
        if k.total_vp(i) != st.total_vp(side):
            return f"VP of {side}: kernel {k.total_vp(i)}, reference {st.total_vp(side)}"
    return ""


def lockstep(scenario: str, seed: int, every: int = 5) -> str:
    """Play game `seed` in both engines side by side; '' or the first difference. Every `every` steps the kernel
    position is also made afresh from the reference one and must offer the same actions."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    st = system.new_game(sc, dict(system.sim_params))
    st.record_events = False
    k = new_kernel(sc, st.params)
    m = k.m
    rng = random.Random(seed)
    step = 0
    while not st.is_terminal():
        where = f"{scenario} seed {seed}, step {step} ({st.step}, turn {st.turn})"
        why = differences(st, k)
        if why:
            return f"{where}: {why}"
        if step % every == 0:
            fresh = kernel_of(st)
            if fresh is None:
                return f"{where}: the kernel does not take this position"
            why = differences(st, fresh) or _offers(st, fresh, "a kernel made afresh")
            if why:
                return f"{where}: {why}"
        if st.current_player() == CHANCE:
            if st.dice_needed() != k.dice:
                return f"{where}: dice: kernel {k.dice}, reference {st.dice_needed()}"
            roll = st.chance_dice().sample(rng)
            st.apply_action(roll)
            k.apply_action(roll)
        else:
            why = _offers(st, k, "the kernel")
            if why:
                return f"{where}: {why}"
            legal = st.legal_actions()
            i = int(rng.random() * len(legal))
            st.apply_action(legal[i])
            k.apply_action(m.code(legal[i]))
        step += 1
    why = differences(st, k)
    return f"{scenario} seed {seed}, at the end: {why}" if why else ""


def _offers(st: FirestormState, k: Kernel, who: str) -> str:
    ref = [a.to_str() for a in st.legal_actions()]
    got = [k.m.action(c).to_str() for c in k.legal_actions()]
    if ref == got:
        return ""
    only_ref = [a for a in ref if a not in got][:4]
    only_got = [a for a in got if a not in ref][:4]
    return (f"legal actions differ ({len(got)} from {who}, {len(ref)} from the reference; only the reference: "
            f"{only_ref}, only {who}: {only_got}{', same actions in another order' * (not only_ref and not only_got)})")


def same_game(scenario: str, seed: int) -> str:
    """Play game `seed` with random bots through `sim.runner.play_one` and through the kernel's own loop; the two
    logs and the final positions must be the same ('' if they are)."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    params = dict(system.sim_params)
    st = play_one(scenario, seed, {})
    ref_log = [(e.side, e.action) for e in st.log]
    k = new_kernel(sc, params)
    seeds = system.bot_seeds(seed, tuple(sc.sides))
    trace: list[tuple[str, str]] = []
    k.play_out((random.Random(seeds[sc.sides[0]]), random.Random(seeds[sc.sides[1]])), random.Random(seed),
               trace=trace)
    for i, (ref, got) in enumerate(zip(ref_log, trace, strict=False)):
        if ref != got:
            return f"{scenario} seed {seed}: log entry {i}: kernel {got}, reference {ref}"
    if len(ref_log) != len(trace):
        return f"{scenario} seed {seed}: the kernel's log has {len(trace)} entries, the reference's {len(ref_log)}"
    why = differences(st, k)
    return f"{scenario} seed {seed}, at the end: {why}" if why else ""
