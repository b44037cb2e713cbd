"""Strategic Game dice against their exact probabilities, through the real engine (Norway digest 5.1, 6.6,
6.7, 6.9, EX-5, EX-6, EX-9): a prepared position is cloned per trial and its chance nodes are sampled from
a seeded `random.Random`, as a game driver does; the observed rate must fall inside a 4-sigma Wilson
interval around the exact value.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from collections.abc import Callable, Mapping

import pytest

from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState
from warroom.rulesets.firestorm.fleet import NavalState
from warroom.rulesets.firestorm.naval import interception_split, p_any_hit_with_reroll, p_battleship_sunk
from warroom.rulesets.firestorm.positions import apply_orders as do
from warroom.rulesets.firestorm.positions import strategic_position
from warroom.rulesets.firestorm.state import GONE
from warroom.scenarios import load_scenario

ALLIES, AXIS = "allies", "axis"
TRIALS = 4000
Z = 4.0


def position(counters: Mapping[str, str], player: str, turn: int = 2, cvs: Mapping[str, int] | None = None
             ) -> FirestormState:
    """Strategic Actions of `turn` with only `counters` on the map (`cvs` overrides combat values)."""
    sc = load_scenario("norway")
    if cvs:  # the loaded scenario is shared (cached): change a copy
        sc = copy.copy(sc)
        sc.counters = {u: dataclasses.replace(c, cv=cvs.get(u, c.cv)) for u, c in sc.counters.items()}
    st = strategic_position(sc, counters, player, turn)
    st.record_events = False
    return st


def nav(st: FirestormState) -> NavalState:
    assert st.navy is not None
    return st.navy



def wilson(hits: int, n: int, z: float = Z) -> tuple[float, float]:
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def rate(prepared: FirestormState, outcome: Callable[[FirestormState], bool], seed: int) -> tuple[int, int]:
    """Play the chance nodes of a clone of `prepared` to the next decision, TRIALS times."""
    rng = random.Random(seed)
    hits = 0
    for _ in range(TRIALS):
        st = prepared.clone()
        while st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
        hits += outcome(st)
    return hits, TRIALS


@pytest.mark.parametrize(("ships", "n"), [(("destroyer_1",), 2), (("cruiser_1",), 3), (("warspite",), 4),
                                          (("cruiser_1", "destroyer_1"), 5)])
def test_battleship_sunk_by_n_dice_matches_the_exact_chance(ships: tuple[str, ...], n: int) -> None:
    """n dice at a battleship sink it with p_battleship_sunk(n): one hit is re-rolled (5.1, EX-9)."""
    st = position({**dict.fromkeys(ships, "B3"), "scharnhorst": "B2"}, ALLIES)
    do(st, "activate B3 ships", *[f"take {u}" for u in ships] if len(ships) > 1 else [], "sail B2", "fight")
    while st.current_player() != CHANCE:  # the only targets: every Allied die at Scharnhorst
        st.apply_action(st.legal_actions()[0])
    fight = nav(st).combat
    assert fight is not None and fight.volleys[0].alloc == {"scharnhorst": n}
    hits, trials = rate(st, lambda s: nav(s).where["scharnhorst"] == GONE, seed=100 + n)
    lo, hi = wilson(hits, trials)
    assert lo <= p_battleship_sunk(n) <= hi, (n, hits / trials, p_battleship_sunk(n))


@pytest.mark.parametrize(("bombers", "cover", "k"), [(("he111_1",), True, 1), (("he111_1",), False, 2),
                                                     (("he111_1", "he111_2", "he111_3"), True, 3),
                                                     (("he111_1", "he111_2"), False, 4)])
def test_special_bombing_closes_the_port_with_the_exact_chance(bombers: tuple[str, ...], cover: bool, k: int) -> None:
    """k bombs at Namsos harbour, each miss re-rolled once, close the port with 1-(25/36)^k (6.9, EX-6)."""
    counters = {**dict.fromkeys(bombers, "oslo_airfield")}
    if cover:  # a defending carrier fighter makes the bombers split their dice (6.7)
        counters |= {"glorious": "B2", "gladiator_1": "B2"}
    st = position(counters, AXIS)
    do(st, "activate oslo_airfield air", *[f"take {u}" for u in bombers] if len(bombers) > 1 else [],
       "bomb namsos_harbour")
    while st.current_player() != CHANCE:
        st.apply_action(st.legal_actions()[0])
    combat = nav(st).combat
    assert combat is not None and combat.volleys[0].dice == k and combat.volleys[0].reroll == k
    hits, trials = rate(st, lambda s: "namsos_harbour" in nav(s).closed_harbours, seed=200 + k)
    lo, hi = wilson(hits, trials)
    assert lo <= p_any_hit_with_reroll(k) <= hi, (k, hits / trials, p_any_hit_with_reroll(k))


@pytest.mark.parametrize("heavy", [False, True])
@pytest.mark.parametrize("b", range(1, 13))
def test_interception_split_is_floor_and_ceil_capped_at_the_bombers(b: int, heavy: bool) -> None:
    """B bomber dice split floor(B/2) at the defending aircraft, at most one per bomber counter, and the rest
    (the odd die too) at the ships (6.7, assumption 11.13, EX-5). Checked on the engine's volleys with bomber
    CVs set to make B: ceil(B/2) counters of CV 2 (the last CV 1 when B is odd), or one counter of CV B."""
    ids = ["he111_1", "he111_2", "he111_3", "ju88_1", "ju88_2", "ju88_3"]
    if heavy:
        cvs = {ids[0]: b}
    else:
        cvs = dict.fromkeys(ids[:(b + 1) // 2], 2)
        if b % 2:
            cvs[ids[(b + 1) // 2 - 1]] = 1
    group = list(cvs)
    st = position({**dict.fromkeys(group, "B7"), "ark_royal": "B5", "skua_2": "B5", "swordfish_3": "B5"}, AXIS,
                  cvs=cvs)
    do(st, "activate B7 air", *[f"take {u}" for u in group] if len(group) > 1 else [], "fly B5")
    combat = nav(st).combat
    assert combat is not None
    vs_ships, vs_air, _ = combat.volleys
    want_air = min(b // 2, len(group))
    assert (vs_air.dice, vs_ships.dice) == (want_air, b - want_air) == interception_split(b, len(group))
    assert vs_ships.dice >= math.ceil(b / 2)
    assert vs_air.dice == (1 if heavy and b >= 2 else 0 if heavy else b // 2)


def test_no_split_without_defending_aircraft() -> None:
    """With no defending aircraft every bomber die goes at the ships (6.7 applies only to interception)."""
    st = position({"he111_1": "B7", "he111_2": "B7", "ark_royal": "B5"}, AXIS)
    do(st, "activate B7 air", "take he111_1", "take he111_2", "fly B5")
    combat = nav(st).combat
    assert combat is not None
    assert [v.dice for v in combat.volleys] == [4, 0, 1]
