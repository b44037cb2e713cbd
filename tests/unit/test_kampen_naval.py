"""Ships at sea (naval.py): control, interception, the sea battle's fire and losses, and the designed dice
tables, with Example 4's rolls (K-digest 6.1, 7.0-7.2, 8.1-8.2)."""

from __future__ import annotations

import pytest

from warroom.rulesets.kampen.naval import (
    Fleet,
    ShipCard,
    card_losses,
    control,
    fire_order,
    intercepted,
    lose_cards,
    may_enter,
    successes,
    volley,
)
from warroom.rulesets.kampen.scenario import bundled

DATA = bundled().cards.ships
ROLLS = DATA.rolls


def card(ship: str, owner: str) -> ShipCard:
    assert ship in DATA.ships, ship
    return ShipCard(f"{ship}#0", owner)


def allied_small() -> str:
    return next(s.id for s in DATA.ships.values() if s.owner == "allies" and s.type == "smaller")


def test_example_4_rekognoseringsfly_and_the_interception() -> None:
    hipper, karlsruhe = card("admiral_hipper", "germany"), card("karlsruhe", "germany")
    assert successes(ROLLS["reconnaissance"], (6, 2)) == 1  # one German card is looked at
    hits = successes(ROLLS["interception"], (5, 3))
    assert hits == 1
    assert intercepted([hipper, karlsruhe], hits, [1]) == [hipper]
    assert intercepted([hipper, karlsruhe], 5, [2, 1]) == [karlsruhe, hipper], "never more than there are"


def test_example_4_sea_battle_warspite_sinks_hipper_with_a_5() -> None:
    hipper = card("admiral_hipper", "germany")
    warspite, light = card("warspite", "allies"), card(allied_small(), "allies")
    assert volley(DATA, [hipper], (1,), [warspite, light], [1]) == [], "Hipper's 1 does nothing"
    assert fire_order(DATA, [light, warspite])[0] == warspite, "the battleship fires first"
    hits = volley(DATA, [light, warspite], (5, 6), [hipper], [1, 1])
    assert [(h.target, h.outcome) for h in hits] == [(hipper.key, "sink")], "the second die finds no target"
    assert card_losses(DATA, [hipper.key]) == {"germany": 1}
    draw, used = ["a", "b", "c"], ["z"]
    assert lose_cards(draw, used, 1) == 1 and draw == ["b", "c"] and used == ["z", "a"]


def test_chases_and_sinkings_by_type_and_eidsvoll_first() -> None:
    eidsvoll = next(s.id for s in DATA.ships.values() if s.owner == "norway")
    scharnhorst, warspite = card("scharnhorst", "germany"), card("warspite", "allies")
    norge = card(eidsvoll, "norway")
    hits = volley(DATA, [scharnhorst], (6,), [warspite, norge], [1], first_sunk=norge.key)
    assert hits[0].target == norge.key and hits[0].outcome == "sink"
    assert volley(DATA, [scharnhorst], (3,), [warspite], [1])[0].outcome == "chase"
    assert DATA.types[DATA.ships[eidsvoll].type].chased_is_sunk
    assert card_losses(DATA, [norge.key, warspite.key]) == {"norway": 0, "allies": 2}


def test_control_and_where_allied_ships_may_go() -> None:
    fleet = Fleet()
    fleet.place("III", card("warspite", "allies"))
    assert control(fleet, "III") == "allies" and control(fleet, "IV") == ""
    fleet.place("III", card("karlsruhe", "germany"))
    assert control(fleet, "III") == ""
    copy = fleet.clone()
    copy.remove("III", "karlsruhe#0")
    assert control(copy, "III") == "allies" and control(fleet, "III") == "", "clones are independent"
    assert not may_enter("allies", "I") and not may_enter("allies", "II") and may_enter("germany", "I")


@pytest.mark.parametrize(("roll", "face", "outcome"), [
    ("kystfort", 6, "sink"), ("kystfort", 4, "bar"), ("kystfort", 3, ""), ("bluff", 3, "success"),
    ("bluff", 2, ""), ("resistance", 6, "success"), ("resistance", 5, ""), ("dive_bomber", 3, ""),
])
def test_designed_tables_match_the_examples(roll: str, face: int, outcome: str) -> None:
    assert ROLLS[roll].outcome(face) == outcome
