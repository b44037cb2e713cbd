"""The Strategic Game's pure arithmetic (`rulesets/firestorm/naval.py`; Norway digest 5.1, 6.3-6.9)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from warroom.rulesets.firestorm import naval
from warroom.rulesets.firestorm.naval import (
    HIT,
    battleship_sunk,
    deal,
    half_up,
    interception_split,
    p_any_hit_with_reroll,
    p_battleship_sunk,
    tally,
)


def test_a_six_hits() -> None:
    """Every 6 destroys its target (5.1)."""
    assert HIT == 6
    assert tally(["a"] * 6, [1, 2, 3, 4, 5, 6]) == {"a": 1}


@pytest.mark.parametrize(("n", "half"), [(0, 0), (1, 1), (2, 1), (5, 3), (7, 4), (14, 7)])
def test_half_rounds_up(n: int, half: int) -> None:
    """Retreat fire, voluntary retreat (14 -> 7, 6.5) and a passing group's reply (5 -> 3, 6.8) round up."""
    assert half_up(n) == half


@pytest.mark.parametrize(("cv", "bombers", "split"), [
    (6, 3, (3, 3)),  # EX-5: 3 He-111 -> 3 at the aircraft, 3 at Ark Royal
    (7, 4, (3, 4)),  # the odd die goes at the ships (6.7)
    (1, 1, (0, 1)),
    (2, 1, (1, 1)),
    (8, 1, (1, 7)),  # at most one die per bomber counter at aircraft (11.13)
    (12, 6, (6, 6)),
    (0, 0, (0, 0)),
])
def test_interception_split(cv: int, bombers: int, split: tuple[int, int]) -> None:
    assert interception_split(cv, bombers) == split
    assert sum(split) == cv


def test_deal_and_tally_follow_allocation_order() -> None:
    targets = deal([("gneisenau", 2), ("scharnhorst", 1)])
    assert targets == ["gneisenau", "gneisenau", "scharnhorst"]
    assert tally(targets, [6, 6, 5]) == {"gneisenau": 2}
    assert tally(targets, [1, 6, 6]) == {"gneisenau": 1, "scharnhorst": 1}
    with pytest.raises(ValueError):
        tally(targets, [6, 6])  # one face per die


@pytest.mark.parametrize(("hits", "reroll", "sunk"), [
    (0, None, False), (1, None, False), (1, 5, False), (1, 6, True), (2, None, True), (3, 1, True),
])
def test_battleship_rule(hits: int, reroll: int | None, sunk: bool) -> None:
    """One hit is re-rolled and sinks only on a 6; two or more hits sink (5.1, EX-9)."""
    assert battleship_sunk(hits, reroll) is sunk


def exact_battleship(n: int) -> Fraction:
    """Enumerate n dice and the re-roll of a single hit."""
    sunk = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=n):
        hits = faces.count(6)
        if hits >= 2:
            sunk += Fraction(1, 6 ** n)
        elif hits == 1:
            sunk += Fraction(1, 6 ** n) * Fraction(1, 6)
    return sunk


@pytest.mark.parametrize("n", range(0, 6))
def test_p_battleship_sunk_matches_enumeration(n: int) -> None:
    assert p_battleship_sunk(n) == pytest.approx(float(exact_battleship(n)), abs=1e-12)


def test_p_battleship_sunk_closed_form() -> None:
    """The plan's formula: 1 - (5/6)^n - n(1/6)(5/6)^(n-1)(5/6)."""
    for n in range(1, 13):
        q = 5 / 6
        assert p_battleship_sunk(n) == pytest.approx(1 - q ** n - n * (1 / 6) * q ** (n - 1) * q)


@pytest.mark.parametrize("k", range(0, 4))
def test_p_harbour_hit_with_rerolls_matches_enumeration(k: int) -> None:
    """Each bomb at a harbour re-rolls a miss once (6.9): a die fails only on two misses, 25/36."""
    exact = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=2 * k):
        dice = [faces[2 * i:2 * i + 2] for i in range(k)]
        if any(a == 6 or b == 6 for a, b in dice):
            exact += Fraction(1, 36 ** k)
    assert p_any_hit_with_reroll(k) == pytest.approx(float(exact), abs=1e-12)
    if k == 3:
        assert p_any_hit_with_reroll(3) == pytest.approx(1 - (5 / 6) ** 6)  # the plan's 0.665


def test_module_doctests_hold() -> None:
    import doctest

    failed, tried = doctest.testmod(naval)
    assert tried >= 4 and failed == 0


def test_harbour_closure_is_named_and_lasts_the_rest_of_the_turn() -> None:
    """Norway 6.9: a special bombing mission's hit closes the harbour as an Allied supply port for this turn."""
    from warroom import rulesets
    from warroom.rulesets.firestorm.navy import close_harbour, harbour_closed, reopen_harbours
    from warroom.scenarios import load_game

    st = rulesets.new_game(load_game("norway"))
    assert st.navy is not None and not harbour_closed(st, "namsos_harbour")
    close_harbour(st, "namsos_harbour")
    assert harbour_closed(st, "namsos_harbour") and not harbour_closed(st, "andalsnes_harbour")
    assert st.events[-1][1] == "Namsos is hit: closed as an Allied supply port this turn"
    assert st.view(None)["strategic"]["bombed"] == ["namsos_harbour"]
    reopen_harbours(st.navy)
    assert not harbour_closed(st, "namsos_harbour")
