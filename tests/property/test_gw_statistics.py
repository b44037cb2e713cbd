"""Statistics of the General's Wargame roll-off (core 7.2; Lorraine section 6).

For a few Lorraine battles the exact probabilities of "attacker wins", "draw" and "defender wins" are
computed twice: from the rules alone (the printed bonuses, enumerated over every die face) and from the
engine (every outcome of `chance_outcomes()` at the `gw_roll` node applied to a clone). The two must agree
exactly. Then 100,000 rolls are sampled by `chance_dice().sample(rng)` and the battle resolved with each, and
each observed frequency must lie within 4 standard errors of the exact probability. The engine resolves each
distinct roll once (36 to 1,296 of them), and the samples are counted by its answer: a chance node's result is a
function of its roll (replays rebuild games from their rolls; the exact test above applies every roll), so the
100,000 resolutions would repeat those few thousand.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from warroom.core.dice import Roll
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import AIR, Arrow, Commit
from warroom.rulesets.firestorm.battle import ATTACKER, DEFENDER, DRAW, Battle
from warroom.rulesets.firestorm.state import POOL
from warroom.scenarios import load_scenario

SAMPLES = 100_000
SIGMAS = 4.0
OUTCOMES = (ATTACKER, DRAW, DEFENDER)
GERMAN_INFANTRY = (1, 1, 1, 2, 2, 2)  # d6 1-3 -> +1, 4-6 -> +2 (L 5)
P47 = (0, 1, 1, 2, 2, 3)  # d6 1 -> 0, 2-3 -> +1, 4-5 -> +2, 6 -> +3 (L 6)


@dataclass(frozen=True)
class Case:
    """A Lorraine GW battle and its bonuses as printed in the rules."""

    moves: tuple[tuple[str, str], ...]
    pool: tuple[str, ...]
    frm: str
    to: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    att_flat: int
    def_flat: int
    att_variable: tuple[tuple[int, ...], ...] = ()
    def_variable: tuple[tuple[int, ...], ...] = ()


CASES = {
    # US Artillery (+3) attacks Luxembourg (no river, not fortified) held by Panzergrenadiers (+2)
    "flat": Case(moves=(("pzgr_3", "A3"),), pool=("pz_106",), frm="A2", to="A3",
                 attackers=("us_art_1",), defenders=("pzgr_3",), att_flat=3, def_flat=2),
    # the same attack against German Infantry (variable +1/+2)
    "variable_infantry": Case(moves=(("vg_462", "A3"),), pool=("pz_106",), frm="A2", to="A3",
                              attackers=("us_art_1",), defenders=("vg_462",), att_flat=3, def_flat=0,
                              def_variable=(GERMAN_INFANTRY,)),
    # US Infantry (+2) and a P-47 (variable) attack Metz: SS-PzGr (+3), Infantry (variable), Metz (+4)
    "metz_air": Case(moves=(), pool=(), frm="C3", to="B5", attackers=("us_inf_35", AIR),
                     defenders=("vg_462", "ss_pzgr_17"), att_flat=2, def_flat=3 + 4,
                     att_variable=(P47,), def_variable=(GERMAN_INFANTRY,)),
}


def gw_node(case: Case) -> FirestormState:
    """The position at the `gw_roll` chance node of `case` (turn 2, the Allies attacking)."""
    st = new_game(load_scenario("lorraine"), {"mode": "gw"})
    st.turn = 2
    for unit in case.pool:
        st.loc[unit] = POOL
    for unit, area in case.moves:
        st.loc[unit] = area
    st.battles_left = st.battles_total = 1
    st.flow.enter(st, "initiative")
    st.apply_action(Roll((6, 1)))
    st.apply_action(Arrow(case.frm, case.to))
    for units in (case.attackers, case.defenders):
        picked = [a for a in st.legal_actions() if isinstance(a, Commit) and sorted(a.units) == sorted(units)]
        assert len(picked) == 1, (units, st.legal_actions())
        st.apply_action(picked[0])
    assert st.step == "gw_roll"
    assert st.dice_needed() == 2 + len(case.att_variable) + len(case.def_variable)
    return st


def rules_distribution(case: Case) -> dict[str, float]:
    """Exact outcome probabilities from the printed bonuses: the higher total wins, equal totals draw."""
    tables = case.att_variable + case.def_variable
    n_att = len(case.att_variable)
    counts: Counter[str] = Counter()
    total = 0
    for faces in itertools.product(range(1, 7), repeat=2 + len(tables)):
        a, d, *var = faces
        bonuses = [table[f - 1] for table, f in zip(tables, var, strict=True)]
        att = a + case.att_flat + sum(bonuses[:n_att])
        dfn = d + case.def_flat + sum(bonuses[n_att:])
        counts[ATTACKER if att > dfn else DEFENDER if dfn > att else DRAW] += 1
        total += 1
    return {o: counts[o] / total for o in OUTCOMES}


def resolved(node: FirestormState, roll: Roll) -> Battle:
    """Apply `roll` to a clone of the `gw_roll` node and return the resolved battle."""
    st = node.clone()
    st.apply_action(roll)
    b = st.battle if st.battle is not None else st.flags.last_battle
    assert isinstance(b, Battle)
    assert b.winner in OUTCOMES
    return b


def engine_distribution(node: FirestormState) -> dict[str, float]:
    probs = dict.fromkeys(OUTCOMES, 0.0)
    outcomes = node.chance_outcomes()
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    for roll, p in outcomes:
        probs[resolved(node, roll).winner] += p
    return probs


@pytest.mark.parametrize("name", CASES)
def test_exact_distribution_matches_the_rules(name: str) -> None:
    case = CASES[name]
    node = gw_node(case)
    expected = rules_distribution(case)
    got = engine_distribution(node)
    for outcome in OUTCOMES:
        assert got[outcome] == pytest.approx(expected[outcome], abs=1e-12), outcome


def test_flat_case_by_hand() -> None:
    """+3 vs +2: the attacker wins when its die is at least the defender's (21/36), draws when it is one
    lower (5/36), and loses otherwise (10/36)."""
    expected = {ATTACKER: 21 / 36, DRAW: 5 / 36, DEFENDER: 10 / 36}
    assert rules_distribution(CASES["flat"]) == pytest.approx(expected)
    assert engine_distribution(gw_node(CASES["flat"])) == pytest.approx(expected)


@pytest.mark.parametrize(("name", "seed"), [("flat", 1), ("variable_infantry", 2), ("metz_air", 3)])
def test_sampled_outcomes_within_four_sigma(name: str, seed: int) -> None:
    case = CASES[name]
    node = gw_node(case)
    expected = rules_distribution(case)
    dice = node.chance_dice()
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    winners: dict[Roll, str] = {}  # each distinct roll resolved by the engine once (see the module's notes)
    for _ in range(SAMPLES):
        roll = dice.sample(rng)
        winner = winners.get(roll)
        if winner is None:
            winner = winners[roll] = resolved(node, roll).winner
        counts[winner] += 1
    assert sum(counts.values()) == SAMPLES
    for outcome in OUTCOMES:
        p = expected[outcome]
        observed = counts[outcome] / SAMPLES
        sigma = math.sqrt(p * (1 - p) / SAMPLES)
        assert abs(observed - p) <= SIGMAS * sigma, (
            f"{name}: P({outcome}) observed {observed:.5f}, exact {p:.5f}, 4 sigma = {SIGMAS * sigma:.5f}")


def test_sampled_die_faces_are_uniform() -> None:
    """`Dice.sample` draws every face of every die with probability 1/6 (within 4 sigma)."""
    node = gw_node(CASES["metz_air"])
    dice = node.chance_dice()
    rng = random.Random(7)
    counts = [Counter[int]() for _ in range(dice.count)]
    for _ in range(SAMPLES):
        for i, v in enumerate(dice.sample(rng).values):
            counts[i][v] += 1
    p = 1 / 6
    sigma = math.sqrt(p * (1 - p) / SAMPLES)
    for per_die in counts:
        assert set(per_die) == set(range(1, 7))
        for face in range(1, 7):
            assert abs(per_die[face] / SAMPLES - p) <= SIGMAS * sigma
