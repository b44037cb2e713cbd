"""Kampen om Norge, worked example 4 of the K-digest (the 9 April round), played in one go with the book's own
dice: the choice of 9 April cards, deployment with Rekognoseringsfly, interception, the paratroop drop that
Jagerfly pushes aside, the sea battle in sea area III, Karlsruhe's landing, Norwegian resistance,
Bloff/trusler, then phases 3 and 4 of the round and the start of Germany's first ordinary round.

The example only follows sea area III and the land areas Haugesund, Stavanger and Egersund. Everything the
book leaves out is kept away from them: the other German ships wait in sea area I, the other Allied ships in
VIII, Eidsvoll & Norge in VII, and Norway's opening battalions and later mobilisation go to areas far away.

Every die fed to the engine is the book's, with two kinds of filler the book has no number for: the deck
shuffles and the Allies' draw of ships (set so that Warspite and the light cruisers are among the nine), and
the random draws of ship cards inside a chance node (set so that the card the book names is the one drawn).
The light cruisers' die after Warspite's sinking is never rolled in the book; the engine wants a value for it
but ignores it, which the test checks on a copy. When the engine asks a question the book never raises, the
answer is `done`, with a comment saying so.
"""

from __future__ import annotations

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.rulesets.kampen import KampenState, combat, naval, new_game
from warroom.rulesets.kampen.sea import RAID, stype
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

HIPPER, KARLSRUHE, WARSPITE, LIGHT = "admiral_hipper#0", "karlsruhe#0", "warspite#0", "lett_krysser_med_jagere#0"
EIDSVOLL = "eidsvoll_norge#0"
EXAMPLE_AREAS = ("haugesund", "stavanger", "egersund")

GERMAN_APRIL = ["germany_april_fallskjermtropp#0", "germany_april_fallskjermtropp#1", "germany_april_bombefly#0",
                "germany_april_bloff_trusler#0", "germany_april_gebirgsjager#0"]
NORWEGIAN_APRIL = ["norway_april_kystfort#0", "norway_april_jagerfly#0", "norway_april_ubat#0"]
ALLIED_APRIL = ["allies_april_rekognoseringsfly#0", "allies_april_stupbombefly#0",
                "allies_april_forsterkninger#0"]


# ----- helpers ---------------------------------------------------------------------------------------------------
def act(st: KampenState, *texts: str) -> None:
    """Apply each action, written as a player would type it, for whoever is to decide."""
    for text in texts:
        st.apply_action(st.parse_action(text), st.current_player())


def roll(st: KampenState, *values: int) -> None:
    st.apply_action(Roll(values))


def legal(st: KampenState) -> list[str]:
    return [a.to_str() for a in st.legal_actions()]


def roll_ones(st: KampenState) -> None:
    """Any chance node with its lowest faces (the shuffles of the play decks, which the example never shows)."""
    dice = st.chance_dice()
    count = dice.count if isinstance(dice, Dice) else len(dice.sides)
    st.apply_action(Roll((1,) * count))


def allied_draw_with(st: KampenState, first: list[str]) -> None:
    """Force the random draw of the Allies' 9 April ships to begin with `first` (the rest in list order)."""
    dice = st.chance_dice()
    assert isinstance(dice, MixedDice)
    rest = st.sc.ship_keys(ALLIES)
    values = []
    for key in first:
        values.append(rest.index(key) + 1)
        rest.remove(key)
    st.apply_action(Roll(tuple(values) + (1,) * (len(dice.sides) - len(values))))


def board_here(st: KampenState) -> dict[str, dict[str, int]]:
    """The battalions in the three land areas of the example."""
    return {a: {c: st.at(a, c) for c in (GERMANY, NORWAY) if st.at(a, c)} for a in EXAMPLE_AREAS}


def sea_iii(st: KampenState) -> dict[str, bool]:
    """The ship cards in sea area III, each with whether it lies face up."""
    return {c.key: c.face_up for c in st.fleet.ships("III")}


# ----- the phases of the example -------------------------------------------------------------------------------
def choose_cards(st: KampenState) -> None:
    """The opening phase: the 9 April cards each country picks, and the ships each takes into hand."""
    while st.step == "shuffle":
        roll_ones(st)
    assert st.april and st.round == 0 and st.step == "april_choose"
    act(st, *(f"choose {k}" for k in GERMAN_APRIL))
    act(st, *(f"choose {k}" for k in NORWEGIAN_APRIL))
    act(st, *(f"choose {k}" for k in ALLIED_APRIL))
    assert st.hands == {GERMANY: GERMAN_APRIL, NORWAY: NORWEGIAN_APRIL, ALLIES: ALLIED_APRIL}
    assert [len(st.hands[c]) for c in (GERMANY, NORWAY, ALLIES)] == [5, 3, 3]
    # Germany has every ship card in hand, its false ships included; Norway only Eidsvoll & Norge
    assert sorted(st.ships_hand[GERMANY]) == sorted(st.sc.ship_keys(GERMANY)) and len(st.ships_hand[GERMANY]) == 17
    assert any(stype(st, k).false_ship for k in st.ships_hand[GERMANY])
    assert st.ships_hand[NORWAY] == [EIDSVOLL]
    # The Allies draw 9 of their 18 ships; the example's draw includes Warspite and the light cruisers
    assert len(st.sc.ship_keys(ALLIES)) == 18
    allied_draw_with(st, [WARSPITE, LIGHT])
    assert len(st.ships_hand[ALLIES]) == 9 and len(st.reserve) == 9
    assert WARSPITE in st.ships_hand[ALLIES] and LIGHT in st.ships_hand[ALLIES]
    assert st.step == "april_select"
    act(st, "done")  # engine question, not in the book: the Allies have no Skip til unnsetning to play


def deploy(st: KampenState) -> None:
    """Deployment, steps 1-3 and figure 4a: Norway, then Germany, then Rekognoseringsfly and the Allies."""
    # Norway deploys first, away from the example (the book ignores it): Finnmark by rule, Oslo, two
    # mobilisation points and Eidsvoll & Norge
    assert st.step == "deploy_norway" and st.current_player() == NORWAY
    assert st.at("finnmark", NORWAY) == 1
    act(st, "place oslo", "place hamar", "place gjovik", f"ship {EIDSVOLL} VII")
    # Step 1: Germany puts Admiral Hipper and Karlsruhe face down in III, off Stavanger; the rest in I
    assert st.step == "deploy_germany" and st.current_player() == GERMANY
    act(st, f"ship {HIPPER} III", f"ship {KARLSRUHE} III")
    for key in list(st.ships_hand[GERMANY]):
        act(st, f"ship {key} I")
    assert sea_iii(st) == {HIPPER: False, KARLSRUHE: False}
    assert not st.fleet.ships("III", ALLIES)
    # Step 2: Rekognoseringsfly over III; one die per German ship there (2 dice), then the draw of the card
    # to look at among the 2
    assert st.step == "april_recon" and st.current_player() == ALLIES
    act(st, "play allies_april_rekognoseringsfly#0", "sea III")
    assert st.chance_dice() == MixedDice((6, 6, 2, 1)), "2 dice, one per German ship in III"
    roll(st, 6, 2, 1, 1)  # the book's 6 and 2; the randomly drawn card is the first of the two: Hipper
    assert st.spotted == {HIPPER}, "6 and 2: one German ship card seen, and it is Admiral Hipper"
    assert not st.fleet.card(HIPPER).face_up, "the card is put back face down"
    assert {e["ship"] for e in st.view(ALLIES)["fleet"]["III"]} == {HIPPER, None}, "Karlsruhe stays unknown"
    assert {e["ship"] for e in st.view(NORWAY)["fleet"]["III"]} == {None}, "only the Allies looked"
    # Step 3: Warspite and the light cruisers go face down into III; the other Allied ships far away
    assert st.step == "deploy_allies" and st.current_player() == ALLIES
    act(st, f"ship {WARSPITE} III", f"ship {LIGHT} III")
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    # Figure 4a
    assert sea_iii(st) == {HIPPER: False, KARLSRUHE: False, WARSPITE: False, LIGHT: False}
    act(st, "done")  # engine question, not in the book: Germany has no Villedende manøver
    act(st, "done")  # engine question, not in the book: Norway has no Omdisponering


def intercept(st: KampenState) -> None:
    """Step 4: Germany lets the chance pass, the Allies intercept and find Admiral Hipper."""
    assert st.step == "icept_ask" and st.current_player() == GERMANY
    assert "intercept" in legal(st), "Germany could try"
    act(st, "done")  # ... and does not want to
    assert st.step == "icept_ask" and st.current_player() == ALLIES
    act(st, "intercept")
    assert st.fleet.card(WARSPITE).face_up and st.fleet.card(LIGHT).face_up, "the Allies show their ships"
    assert st.chance_dice() == MixedDice((6, 6, 2, 1)), "2 dice, one per German ship in III"
    roll(st, 5, 3, 1, 1)  # the book's 5 and 3; the random card is again Admiral Hipper
    assert st.fleet.card(HIPPER).found and st.fleet.card(HIPPER).face_up, "5 and 3: one found, Hipper, face up"
    assert not st.fleet.card(KARLSRUHE).found and not st.fleet.card(KARLSRUHE).face_up
    assert st.step == "smoke"
    act(st, "done")  # engine question, not in the book: Germany holds no Røykdekke


def paratroops(st: KampenState) -> None:
    """Step 5 and figure 4b: Fallskjermtropp aimed at Stavanger, Jagerfly sends it to Haugesund."""
    assert st.step == "move" and st.current_player() == GERMANY
    act(st, "play germany_april_fallskjermtropp#0", "place stavanger 1")
    assert st.step == "drop_answer" and st.current_player() == NORWAY
    act(st, "play norway_april_jagerfly#0")
    assert st.current_player() == NORWAY, "Norway picks where the paratroops come down"
    assert sorted(legal(st)) == ["place egersund 1", "place haugesund 1"], "an area next to Stavanger"
    act(st, "place haugesund 1")
    assert st.step == "move" and st.current_player() == GERMANY
    act(st, "done")  # Germany moves nothing else (its second Fallskjermtropp stays in hand)
    # Figure 4b
    assert board_here(st) == {"haugesund": {GERMANY: 1}, "stavanger": {}, "egersund": {}}
    assert sea_iii(st) == {HIPPER: True, KARLSRUHE: False, WARSPITE: True, LIGHT: True}


def sea_battle(st: KampenState) -> None:
    """Step 6, phase 2a: Warspite and the light cruisers against Admiral Hipper in III."""
    assert st.step == "sea_join" and st.current_player() == GERMANY
    assert legal(st) == [f"join {KARLSRUHE}", "done"], "Germany may add the hidden Karlsruhe"
    act(st, "done")  # ... and chooses not to
    assert not st.fleet.card(KARLSRUHE).fighting and not st.fleet.card(KARLSRUHE).face_up
    sb = st.sea_battle
    assert sb is not None and sb.sea == "III" and sb.attacker == GERMANY, "Germany attacks on 9 April"
    assert {c.key for c in st.fleet.ships("III") if c.fighting} == {HIPPER, WARSPITE, LIGHT}
    # 6.1 the attacker plays no card
    assert st.step == "sea_attack_cards" and st.current_player() == GERMANY
    act(st, "done")
    # 6.2 the Allies play Stupbombefly
    assert st.step == "sea_defend_cards" and st.current_player() == ALLIES
    act(st, "play allies_april_stupbombefly#0")
    act(st, "done")  # engine question, not in the book: a second defending card (the Allies have none)
    # 6.3 Germany has no reaction card
    assert st.step == "sea_react_cards" and st.current_player() == GERMANY and legal(st) == ["done"]
    act(st, "done")
    # 6.2 (rolled after the card steps) the dive bombers: one die, 3, nothing sunk
    assert st.step == "sea_strike" and st.chance_dice() == MixedDice((6, 1))
    roll(st, 3, 1)
    assert st.sea_battle is sb and sb.hits == []
    # 6.4 Germany fires first, one die for Admiral Hipper: 1, no effect
    assert st.step == "sea_fire" and st.chance_dice() == MixedDice((6, 2)), "1 die, for Hipper"
    roll(st, 1, 1)
    assert st.sea_battle is sb and sb.hits == []
    # 6.5 the Allies fire best ship first: Warspite 5 sinks the only German ship; the light cruisers' die is
    # never rolled in the book, and the engine indeed ignores it (checked on a copy with a 6 there)
    assert st.step == "sea_fire" and st.chance_dice() == MixedDice((6, 6, 1))
    assert [c.key for c in naval.fire_order(st.sc.cards.ships, [st.fleet.card(LIGHT), st.fleet.card(WARSPITE)])] \
        == [WARSPITE, LIGHT]
    other = st.clone()
    roll(other, 5, 6, 1)
    roll(st, 5, 1, 1)
    assert other.sea_battle is not None and other.sea_battle.hits == sb.hits
    assert st.sea_battle is sb and sb.hits == [naval.Hit(HIPPER, "sink")], "one German ship sunk, none chased"
    assert st.step == "sailors" and st.current_player() == GERMANY
    top = st.draw[GERMANY][0]
    german_deck, allied_deck = len(st.draw[GERMANY]), len(st.draw[ALLIES])
    assert st.used[GERMANY] == []
    act(st, "done")  # engine question, not in the book: Evakuerte matroser (Germany holds none)
    # 6.6 Hipper leaves the game; a heavy cruiser costs 1 card, from the top to the bottom, face up
    assert not st.fleet.where(HIPPER) and HIPPER not in st.ships_hand[GERMANY]
    assert stype(st, HIPPER).id == "heavy_cruiser" and stype(st, HIPPER).card_loss == 1
    assert len(st.draw[GERMANY]) == german_deck - 1 and st.used[GERMANY] == [top]
    assert len(st.draw[ALLIES]) == allied_deck and st.used[ALLIES] == []
    # 6.7 nobody is chased: the Allied ships are still in III; 6.8 they are turned face down
    assert st.sea_battle is None
    assert sea_iii(st) == {KARLSRUHE: False, WARSPITE: False, LIGHT: False}
    assert not any(c.fighting for c in st.fleet.ships("III"))


def landing(st: KampenState) -> None:
    """Steps 7-9 and figure 4c: no raid, Karlsruhe lands at Stavanger, and Norway's resistance roll is a 6."""
    # Step 7: no raid (the engine does not even ask: no German ship lies in a sea area raiders leave from)
    assert st.step == "landing" and not st.fleet.ships(RAID)
    # Step 8: the hidden Karlsruhe may land one battalion next to III
    assert not st.fleet.card(KARLSRUHE).face_up
    assert {f"land {KARLSRUHE} {a}" for a in EXAMPLE_AREAS} <= set(legal(st))
    act(st, f"land {KARLSRUHE} stavanger", "done")
    assert st.step == "mines" and legal(st) == ["done"]
    act(st, "done")  # engine question, not in the book: the Allies hold no mines
    assert st.step == "kystfort" and "play norway_april_kystfort#0" in legal(st)
    act(st, "done")  # Norway keeps Kystfort in hand, as in the book
    # Step 9: one die for the point city Stavanger: 6, one Norwegian battalion there in time
    assert st.step == "resistance" and st.chance_dice() == Dice(1)
    roll(st, 6)
    # Figure 4c: Karlsruhe revealed, one Norwegian battalion in Stavanger, one German battalion landing
    assert sea_iii(st) == {KARLSRUHE: True, WARSPITE: False, LIGHT: False}
    assert board_here(st) == {"haugesund": {GERMANY: 1}, "stavanger": {NORWAY: 1}, "egersund": {}}
    assert st.battle is not None and st.battle.area == "stavanger"
    assert st.battle.attack.country == GERMANY and st.battle.attack.total == 1


def land_battle(st: KampenState) -> None:
    """Step 10, phase 2b: 1 German against 1 Norwegian in Stavanger; Bloff/trusler's 3 makes Norway go."""
    b = st.battle
    assert b is not None
    assert st.step == "attack_cards" and st.current_player() == GERMANY
    water = b.attack.over_water
    assert combat.attack_dice(combat.Attackers(b.attack.total - water, water)) == 1, "1 die before cards"
    assert combat.defence_dice(st.at("stavanger", NORWAY)) == 1, "1 die before cards"
    act(st, "play germany_april_bloff_trusler#0")
    assert st.chance_dice() == Dice(1)
    roll(st, 3)
    # Norway withdraws, and Egersund is the only way out: Stavanger borders Haugesund (German) and Egersund
    assert sorted(st.sc.board.neighbours("stavanger")) == ["egersund", "haugesund"]
    assert st.step == "retreat" and st.current_player() == NORWAY and legal(st) == ["retreat egersund"]
    act(st, "retreat egersund")


def reinforcement(st: KampenState) -> None:
    """Steps 11-12, phase 3, all outside the example: Norway mobilises elsewhere, Germany places elsewhere."""
    board = st.sc.board
    assert not set(EXAMPLE_AREAS) & board.mobilisation_points, "no mobilisation point in the example"
    assert st.step == "mobilise" and st.current_player() == NORWAY
    assert not any(f"place {a} 1" in legal(st) for a in EXAMPLE_AREAS)
    # the book does not say where Norway mobilises; six free mobilisation points far from the example
    act(st, "place andalsnes 1", "place bardufoss 1", "place gjovik 1", "place hamar 1", "place honefoss 1",
        "place kongsberg 1")
    # Germany exchanges no 9 April card (they are still in hand at phase 4) and gets its free battalion
    assert st.step == "reinforce" and st.current_player() == GERMANY
    act(st, "done")
    assert st.step == "submarine" and st.current_player() == NORWAY
    act(st, "done")  # engine question, not in the book: Norway does not play Ubåt
    assert st.step == "submarine" and st.current_player() == ALLIES
    act(st, "done")  # engine question, not in the book: the Allies have no Ubåt
    assert st.step == "place" and st.current_player() == GERMANY
    act(st, "place arendal 1")  # the free battalion, outside the example area
    # Norway and the Allies keep their 9 April cards too
    assert st.step == "reinforce" and st.current_player() == NORWAY
    act(st, "done")
    assert st.step == "reinforce" and st.current_player() == ALLIES
    assert board_here(st) == {"haugesund": {GERMANY: 1}, "stavanger": {GERMANY: 1}, "egersund": {NORWAY: 1}}


# ----- the example ------------------------------------------------------------------------------------------------
def test_example_4_the_9_april_round() -> None:
    st = new_game(None, {"advanced": True})
    choose_cards(st)
    deploy(st)
    intercept(st)
    paratroops(st)
    sea_battle(st)
    landing(st)
    land_battle(st)

    # End of the combat phase (figure 4d): Haugesund G1, Stavanger G1, Egersund N1; in III Warspite and the
    # light cruisers face down, Karlsruhe face up; one German card at the bottom of the deck, face up
    assert board_here(st) == {"haugesund": {GERMANY: 1}, "stavanger": {GERMANY: 1}, "egersund": {NORWAY: 1}}
    assert st.total(GERMANY) == 2, "Germany has done nothing else in the example"
    assert sea_iii(st) == {KARLSRUHE: True, WARSPITE: False, LIGHT: False}
    assert len(st.used[GERMANY]) == 1
    assert st.sc.board.telegraph == "egersund" and st.holder("egersund") != GERMANY, "no telegraph loss"

    reinforcement(st)

    # Step 13, phase 4: the 9 April cards still in hand leave the game; each draws a new hand from its deck
    assert st.hands == {
        GERMANY: ["germany_april_fallskjermtropp#1", "germany_april_bombefly#0", "germany_april_gebirgsjager#0"],
        NORWAY: ["norway_april_kystfort#0", "norway_april_ubat#0"],
        ALLIES: ["allies_april_forsterkninger#0"],
    }
    drawn = {GERMANY: 5, NORWAY: 3, ALLIES: 3}
    tops = {c: st.draw[c][:n] for c, n in drawn.items()}
    decks = {c: len(st.draw[c]) for c in drawn}
    used = {c: list(st.used[c]) for c in drawn}
    act(st, "done")  # the Allies keep Forsterkninger: phase 3 ends, phase 4 follows at once
    assert not st.april
    assert st.hands == tops, "Germany draws 5, Norway 3, the Allies 3, from the top of their decks"
    assert {c: len(st.draw[c]) for c in drawn} == {c: decks[c] - n for c, n in drawn.items()}
    assert st.used == used, "the 9 April cards do not go under the decks"
    april_cards = set(GERMAN_APRIL + NORWEGIAN_APRIL + ALLIED_APRIL)
    assert not april_cards & {k for c in drawn for k in st.hands[c] + st.draw[c] + st.used[c]}
    assert len(st.draw[ALLIES]) + len(st.hands[ALLIES]) == 28, "the Allies lost no card all round"
    assert len(st.used[GERMANY]) == 1, "the German deck still has Hipper's card at the bottom, face up"
    # The example area and sea area III are as the round left them
    assert board_here(st) == {"haugesund": {GERMANY: 1}, "stavanger": {GERMANY: 1}, "egersund": {NORWAY: 1}}
    assert {c.key for c in st.fleet.ships("III")} == {WARSPITE, LIGHT, KARLSRUHE}
    # Engine readings beyond the book (7.4): false ships are gone, every ship lies face down again, and the
    # rest of the Allied ships wait to sail in the Allies' first movement phase
    assert not any(stype(st, c.key).false_ship for _s, c in st.fleet.all())
    assert not st.fleet.card(KARLSRUHE).face_up
    assert len(st.ships_hand[ALLIES]) == 9 and not st.reserve
    # Germany plays the first ordinary round
    assert st.round == 1 and st.country == GERMANY and st.current_player() == GERMANY
