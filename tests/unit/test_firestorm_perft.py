"""Golden counts of legal actions on reference positions (after python-chess's perft).

A change in these numbers means a change in the rules' legality: check it was meant.
"""

from __future__ import annotations

import random

import pytest

from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import new_game
from warroom.rulesets.firestorm.state import FirestormState
from warroom.scenarios import load_scenario


def walk(st: FirestormState, seed: int, decisions: int) -> list[tuple[str, int]]:
    """Play `decisions` decisions with a seeded choice, recording (step, number of legal actions)."""
    rng = random.Random(seed)
    seen: list[tuple[str, int]] = []
    while len(seen) < decisions and not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
            continue
        legal = st.legal_actions()
        seen.append((st.step, len(legal)))
        st.apply_action(legal[int(rng.random() * len(legal))])
    return seen


def test_lorraine_opening_arrows() -> None:
    st = new_game(load_scenario("lorraine"))
    st.apply_action(Roll((1,)))  # 4 battles
    st.apply_action(Roll((6, 1)))  # the Allies attack
    assert st.step == "arrow"
    # turn 1: only across the Moselle, into Luxembourg (A3), or back into areas the Allies held at the start
    assert [a.to_str() for a in st.legal_actions()] == [
        "arrow A2 A3", "arrow B3 A3", "arrow B3 A4", "arrow B3 B5", "arrow B4 B5", "arrow C3 B5", "arrow C3 C4",
        "arrow C3 D4", "arrow D2 D4", "arrow D3 D4", "arrow D3 D5",
    ]


GOLDEN = {
    # Caen from decision 24 on: the turn 1 strategic moves may pass through a full area (Caen 4.1, issue 13)
    "caen": [4, 3, 1, 2, 2, 4, 1, 2, 1, 1, 1, 1, 2, 1, 22, 22, 22, 22, 22, 62, 48, 39, 23, 10, 20, 18, 3, 14, 11,
             5, 2, 2, 5, 1, 11, 4, 2, 2, 7, 9],
    "lorraine": [2, 1, 7, 11, 5, 4, 11, 2, 2, 11, 5, 4, 11, 2, 4, 4, 2, 2, 3, 3, 3, 3, 30, 28, 24, 83, 70, 57,
                 51, 45, 32, 29, 26, 1, 1, 1, 1, 4, 11, 5],
    # Norway: the turn 1 Strategic Actions (activate, take, sail/fly, allocate, evade, retreat, reply)
    "norway": [10, 6, 6, 3, 2, 2, 12, 2, 2, 3, 1, 10, 4, 1, 11, 9, 5, 2, 2, 11, 2, 5, 2, 9, 4, 8, 3, 3, 2, 6,
               3, 2, 12, 12, 6, 10, 2, 2, 6, 2],
}


@pytest.mark.parametrize("scenario", sorted(GOLDEN))
def test_golden_counts_along_a_seeded_walk(scenario: str) -> None:
    """Legal-action counts at the first 40 decisions of a fixed walk (perft-style regression check)."""
    counts = [n for _, n in walk(new_game(load_scenario(scenario)), 11, 40)]
    assert counts == GOLDEN[scenario]


def test_caen_dday_opening_counts() -> None:
    st = new_game(load_scenario("caen"))
    for face in (6, 6, 6, 6):  # Tonga and the three beaches all succeed: two-troop follow-ups everywhere
        st.apply_action(Roll((face,)))
    assert st.step == "dday_exploit"
    first = st.legal_actions()
    assert first[-1].to_str() == "pass"
    assert all(a.to_str().startswith("arrow A2 ") for a in first[:-1])


@pytest.mark.parametrize("scenario", ["caen", "lorraine", "norway"])
def test_seeded_walk_counts_are_stable(scenario: str) -> None:
    """The same seeded walk twice gives the same counts (legal_actions is a pure function)."""
    a = walk(new_game(load_scenario(scenario)), 11, 80)
    b = walk(new_game(load_scenario(scenario)), 11, 80)
    assert a == b and len(a) == 80
    assert all(n >= 1 for _, n in a)


def test_wrong_side_is_refused() -> None:
    st = new_game(load_scenario("lorraine"))
    st.apply_action(Roll((1,)))
    st.apply_action(Roll((6, 1)))
    arrow = st.legal_actions()[0]
    with pytest.raises(IllegalActionError, match="Germans cannot act now"):
        st.apply_action(arrow, "axis")
    st.apply_action(arrow, "allies")
    assert st.step == "attack_commit"


def test_norway_turn_1_opening_activations() -> None:
    """The Allies open turn 1 (Norway digest 3.1, 6.1): one `activate` per sea area with ships (a harbour's
    ships through its sea area: Rosyth's cruisers as A-4), per submarine location, and per base whose
    bombers have a target in range; then `pass`."""
    st = new_game(load_scenario("norway"))
    assert (st.step, st.current_player()) == ("sa_choose", "allies")
    assert [a.to_str() for a in st.legal_actions()] == [
        "activate A1 ships", "activate A2 ships", "activate A3 ships", "activate A4 ships", "activate B4 ships",
        "activate B4 subs", "activate C6 subs", "activate A5 air", "activate B4 air", "pass",
    ]


# (turn, step) -> the number of legal actions the first time the seed-11 Norway walk meets it
NORWAY_CHECKPOINTS = {
    (1, "sa_choose"): 10, (1, "fleet_moves"): 257,
    (2, "sa_stuka"): 4, (2, "sa_choose"): 13, (2, "fleet_moves"): 213,
    (3, "sa_stuka"): 4, (3, "sa_choose"): 14, (3, "fleet_moves"): 220,
    (4, "sa_stuka"): 4, (4, "sa_choose"): 12, (4, "fleet_moves"): 286,
}


def test_norway_golden_counts_at_each_turns_strategic_steps() -> None:
    """Legal-action counts at the Stuka step, the opening of the Strategic Actions and the first strategic
    move of every turn along a seeded walk: a change means the Strategic Game's legality changed."""
    st = new_game(load_scenario("norway"))
    st.record_events = False
    rng = random.Random(11)
    seen: dict[tuple[int, str], int] = {}
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
            continue
        legal = st.legal_actions()
        key = (st.turn, st.step)
        navy = st.navy
        assert navy is not None
        opening = st.step == "sa_choose" and navy.actions_left == st.sc.turn(st.turn).actions
        if key not in seen and (st.step in ("sa_stuka", "fleet_moves") or opening):
            seen[key] = len(legal)
        st.apply_action(legal[int(rng.random() * len(legal))])
    assert seen == NORWAY_CHECKPOINTS
