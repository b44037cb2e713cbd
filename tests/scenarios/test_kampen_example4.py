"""Kampen om Norge, worked example 4 (K-digest, the 9 April round) with forced dice: the opening phase,
Rekognoseringsfly, interception, a paratroop drop diverted by Jagerfly, the sea battle in sea area III, the
landing at Stavanger with Norwegian resistance, and Bloff/trusler.

Only sea area III and Haugesund, Stavanger and Egersund matter in the example; everything else is placed
out of the way (the other German ships in sea area I, the other Allied ships in VIII, Eidsvoll & Norge in VII).
"""

from __future__ import annotations

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

HIPPER, KARLSRUHE, WARSPITE, LIGHT = "admiral_hipper#0", "karlsruhe#0", "warspite#0", "lett_krysser_med_jagere#0"


def act(st: KampenState, *texts: str) -> None:
    for text in texts:
        st.apply_action(st.parse_action(text), st.current_player())


def roll(st: KampenState, *values: int) -> None:
    st.apply_action(Roll(values))


def roll_ones(st: KampenState) -> None:
    """Any chance node with its lowest faces (the deck shuffles, which the example does not show)."""
    dice = st.chance_dice()
    count = dice.count if isinstance(dice, Dice) else len(dice.sides)
    st.apply_action(Roll((1,) * count))


def allied_draw_with(st: KampenState, first: list[str]) -> None:
    """Force the Allies' random draw of 9 ships to start with `first`."""
    dice = st.chance_dice()
    assert isinstance(dice, MixedDice)
    rest = st.sc.ship_keys(ALLIES)
    values = []
    for key in first:
        values.append(rest.index(key) + 1)
        rest.remove(key)
    st.apply_action(Roll(tuple(values) + (1,) * (len(dice.sides) - len(values))))


def opening(st: KampenState) -> None:
    while st.step == "shuffle":
        roll_ones(st)
    assert st.april and st.round == 0 and st.step == "april_choose"
    act(st, "choose germany_april_fallskjermtropp#0", "choose germany_april_fallskjermtropp#1",
        "choose germany_april_bombefly#0", "choose germany_april_bloff_trusler#0",
        "choose germany_april_gebirgsjager#0")
    act(st, "choose norway_april_kystfort#0", "choose norway_april_jagerfly#0", "choose norway_april_ubat#0")
    act(st, "choose allies_april_rekognoseringsfly#0", "choose allies_april_stupbombefly#0",
        "choose allies_april_forsterkninger#0")
    assert len(st.hands[GERMANY]) == 5 and len(st.hands[NORWAY]) == 3 and len(st.hands[ALLIES]) == 3
    allied_draw_with(st, [WARSPITE, LIGHT])
    assert len(st.ships_hand[ALLIES]) == 9 and len(st.reserve) == 9
    assert len(st.ships_hand[GERMANY]) == 17 and st.ships_hand[NORWAY] == ["eidsvoll_norge#0"]
    act(st, "done")  # no Skip til unnsetning
    # Norway deploys first: Finnmark (automatic), Oslo, two mobilisation points, Eidsvoll & Norge
    assert st.at("finnmark", NORWAY) == 1
    act(st, "place oslo", "place hamar", "place gjovik", "ship eidsvoll_norge VII")
    # Germany: Admiral Hipper and Karlsruhe face down in III, off Stavanger; the rest in I
    act(st, f"ship {HIPPER} III", f"ship {KARLSRUHE} III")
    for key in list(st.ships_hand[GERMANY]):
        act(st, f"ship {key} I")


def test_example_4_the_9_april_round() -> None:
    st = new_game(None, {"advanced": True})
    opening(st)
    # Rekognoseringsfly over sea area III: 6 and 2, one look, at Admiral Hipper
    assert st.step == "april_recon"
    act(st, "play allies_april_rekognoseringsfly#0", "sea III")
    roll(st, 6, 2, 1, 1)
    assert st.spotted == {HIPPER}
    view = st.view(ALLIES)
    assert {e["ship"] for e in view["fleet"]["III"]} == {HIPPER, None}, "the Allies know Hipper, not Karlsruhe"
    assert {e["ship"] for e in st.view(NORWAY)["fleet"]["III"]} == {None}, "Norway saw nothing"
    # The Allies place Warspite and the light cruisers in III; the rest out of the way
    act(st, f"ship {WARSPITE} III", f"ship {LIGHT} III")
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    act(st, "done", "done")  # no Villedende manøver, no Omdisponering
    # 7.1 interception in III: Germany does not try; the Allies do, 5 and 3: one card found, Admiral Hipper
    assert st.step == "icept_ask" and st.current_player() == GERMANY
    act(st, "done", "intercept")
    roll(st, 5, 3, 1, 1)
    assert st.fleet.card(HIPPER).fighting and st.fleet.card(HIPPER).face_up
    assert not st.fleet.card(KARLSRUHE).fighting and not st.fleet.card(KARLSRUHE).face_up
    assert st.fleet.card(WARSPITE).face_up, "the interceptors show themselves"
    act(st, "done")  # no Røykdekke in hand: Germany can only pass
    # Movement: Fallskjermtropp aimed at Stavanger; Norway's Jagerfly sends it to Haugesund
    assert st.step == "move"
    act(st, "play germany_april_fallskjermtropp#0", "place stavanger 1", "play norway_april_jagerfly#0",
        "place haugesund 1", "done")
    assert st.at("haugesund", GERMANY) == 1 and not st.at("stavanger", GERMANY)
    # 2a: Warspite and the light cruisers against Admiral Hipper; Germany keeps Karlsruhe out
    assert st.step == "sea_join" and st.current_player() == GERMANY
    act(st, "done")
    act(st, "done")  # Germany, attacker, plays no card
    act(st, "play allies_april_stupbombefly#0", "done")  # the defender's card
    act(st, "done")  # Germany has no reaction
    roll(st, 3, 1)  # the dive bombers roll 3: nothing
    roll(st, 1, 1)  # Admiral Hipper rolls 1: nothing
    german_deck = len(st.draw[GERMANY])
    roll(st, 5, 1, 1)  # Warspite 5: one German ship sunk, the only one, so no more dice count
    assert st.step == "sailors" and st.current_player() == GERMANY
    act(st, "done")
    assert not st.fleet.where(HIPPER), "Admiral Hipper is sunk"
    assert len(st.draw[GERMANY]) == german_deck - 1 and len(st.used[GERMANY]) == 1, "a heavy cruiser costs a card"
    assert not st.fleet.card(WARSPITE).face_up and not st.fleet.card(LIGHT).face_up, "survivors hide again"
    # No raid (nothing in VI-VIII); Karlsruhe lands a battalion at Stavanger
    assert st.step == "landing"
    act(st, f"land {KARLSRUHE} stavanger", "done")
    act(st, "done")  # the Allies lay no mines
    act(st, "done")  # Norway holds Kystfort back, as in the example
    roll(st, 6)  # resistance at Stavanger: Norway mobilises in time
    assert st.fleet.card(KARLSRUHE).face_up, "the landing shows the ship"
    # 2b: 1 German against 1 Norwegian at Stavanger; Bloff/trusler rolls 3: Norway withdraws to Egersund
    assert st.step == "attack_cards" and st.battle is not None and st.battle.area == "stavanger"
    act(st, "play germany_april_bloff_trusler#0")
    roll(st, 3)
    assert st.step == "retreat" and [a.to_str() for a in st.legal_actions()] == ["retreat egersund"]
    act(st, "retreat egersund")
    # The end of the example (figure 4d)
    assert st.at("haugesund", GERMANY) == 1 and st.at("stavanger", GERMANY) == 1
    assert st.at("egersund", NORWAY) == 1 and not st.at("stavanger", NORWAY)
    assert {c.key for c in st.fleet.ships("III")} == {WARSPITE, LIGHT, KARLSRUHE}
    finish_april(st)
    assert len(st.draw[ALLIES]) + len(st.hands[ALLIES]) == 28, "Egersund is not German: no telegraph loss"
    # 7.3 and 7.4 (outside the example area): then every 9 April card leaves and hands are drawn
    assert not st.april and st.round == 1 and st.country == GERMANY
    assert [len(st.hands[c]) for c in st.sc.countries] == [5, 3, 3]
    assert not any(st.sc.is_april(k) for c in st.sc.countries for k in st.hands[c])
    assert not any(c.key.startswith("falskt_skip") for _s, c in st.fleet.all()), "false ships are gone"
    assert not st.fleet.card(KARLSRUHE).face_up
    assert len(st.ships_hand[ALLIES]) == 9, "the Home Fleet waits to sail in the Allies' first movement phase"


def finish_april(st: KampenState) -> None:
    """Pass through mobilisation and reinforcements, placing where the rules first allow."""
    while st.april:
        legal = st.legal_actions()
        done = [a for a in legal if a.to_str() == "done"]
        st.apply_action(done[0] if done else legal[0])
