"""Kampen om Norge, worked example 1 (K-digest, basic game): a German round played from its movement phase to
the hand-over to Norway, with the book's position, cards and dice.

Position: Germany Oslo 2, Gjøvik 3, Kongsvinger 1; Norway Hamar 1 (plus the helper's out-of-the-way
battalions: Norway 2 in Finnmark, Germany 1 in Kristiansand).

Hands (the book names only some of them):
- Germany: Panzer, Speidertropp, the 5-symbol Forsterkninger (copy #3), and two Ubåt cards, which have no
  use in a German round of the basic game; no Ingeniørkompani.
- Norway: Veisperring, Bakhold and a second Bakhold (one Bakhold per battle step, so the second can never
  join the first).
- The Allies: two Forsterkninger and Kystbombardement, none of which can be played in a German round.
"""

from __future__ import annotations

from kampen_support import act, dice_if_nobody_plays_more, last_event, options, position, set_hand

from warroom.core.dice import Dice, Roll
from warroom.rulesets.kampen.board import BorderKind
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

PANZER, SCOUTS, REINFORCEMENTS = "germany_panzer#0", "germany_speidertropp#0", "germany_forsterkninger#3"
GERMAN_SPARE = ("germany_ubat#0", "germany_ubat#1")
ROADBLOCK, AMBUSH, SPARE_AMBUSH = "norway_veisperring#0", "norway_bakhold#0", "norway_bakhold#1"
ALLIED_HAND = ("allies_forsterkninger#0", "allies_forsterkninger#1", "allies_kystbombardement#0")


def test_example_1_the_german_round_at_hamar() -> None:
    st = position({"oslo": {GERMANY: 2}, "gjovik": {GERMANY: 3}, "kongsvinger": {GERMANY: 1},
                   "hamar": {NORWAY: 1}}, country=GERMANY)
    set_hand(st, GERMANY, PANZER, SCOUTS, REINFORCEMENTS, *GERMAN_SPARE)
    set_hand(st, NORWAY, ROADBLOCK, AMBUSH, SPARE_AMBUSH)
    set_hand(st, ALLIES, *ALLIED_HAND)
    assert st.sc.symbols_of(REINFORCEMENTS) == 5
    assert not any("ingeniorkompani" in k for k in st.hands[GERMANY])
    assert st.sc.board.border_kind("gjovik", "hamar") == BorderKind.LAKE, "Mjøsa"
    assert st.sc.board.border_kind("kongsvinger", "hamar") == BorderKind.LAND
    german_start = st.total(GERMANY)
    assert (st.step, st.current_player(), st.round) == ("move", GERMANY, 1)

    # ----- phase 1: movement -----
    act(st, GERMANY, "move oslo honefoss 2")
    assert st.at("honefoss", GERMANY) == 2 and st.at("oslo", GERMANY) == 0 and "honefoss" not in st.attacks
    act(st, GERMANY, "move kongsvinger hamar 1", "move gjovik hamar 3")
    attack = st.attacks["hamar"]
    assert attack.origins == {"kongsvinger": 1, "gjovik": 3} and attack.over_water == 3
    assert st.at("kongsvinger", GERMANY) == 0 and st.at("gjovik", GERMANY) == 0, "all four wait at the borders"
    act(st, GERMANY, "done")

    # phase 1c: Veisperring against the battalion on the Kongsvinger road; Germany has no Ingeniørkompani
    assert st.step == "sabotage" and st.current_player() == NORWAY
    assert options(st) == {f"play {ROADBLOCK}", "done"}
    act(st, NORWAY, f"play {ROADBLOCK}")
    assert options(st) == {"place hamar 1"}, "only the attack on Hamar came by road"
    act(st, NORWAY, "place hamar 1")
    assert st.step == "sabotage_counter" and options(st) == {"done"}, "no Ingeniørkompani to answer with"
    act(st, GERMANY, "done")
    assert st.at("kongsvinger", GERMANY) == 1, "turned back to Kongsvinger"
    assert st.attacks["hamar"].origins == {"gjovik": 3} and st.attacks["hamar"].over_water == 3
    assert st.step == "sabotage" and options(st) == {"done"}, "Norway has no second sabotage card"
    act(st, NORWAY, "done")

    # ----- phase 2: combat at Hamar, 3 Germans across Mjøsa against 1 Norwegian -----
    assert st.step == "attack_cards" and st.battle is not None and st.battle.area == "hamar"
    assert dice_if_nobody_plays_more(st) == (1, 1), "3 battalions across the lake: 3 / 2 rounded down = 1 die"
    act(st, GERMANY, f"play {PANZER}")
    assert dice_if_nobody_plays_more(st) == (2, 1), "Panzer: +1 die (every attacker came across water)"
    act(st, GERMANY, "done")  # Speidertropp is kept for step 3
    assert st.step == "defend_cards" and st.current_player() == NORWAY
    act(st, NORWAY, f"play {AMBUSH}")
    assert dice_if_nobody_plays_more(st) == (2, 3), "Bakhold: +2 dice for Norway"
    assert options(st) == {"done"}, "the second Bakhold cannot be played in the same step"
    act(st, NORWAY, "done")
    # the engine asks the Allies in every German attack (their Jagerfly needs no battalions there); they pass
    assert st.current_player() == ALLIES and options(st) == {"done"}
    act(st, ALLIES, "done")
    assert st.step == "react_cards" and st.current_player() == GERMANY
    act(st, GERMANY, f"play {SCOUTS}")
    assert dice_if_nobody_plays_more(st) == (2, 1), "Speidertropp cancels Bakhold"
    act(st, GERMANY, "done")
    assert st.step == "attack_roll" and st.chance_dice() == Dice(2)
    st.apply_action(Roll((3, 3)))
    assert st.chance_dice() == Dice(1)
    st.apply_action(Roll((6,)))
    assert last_event(st, "Battle of Hamar: Germany") == (
        "Battle of Hamar: Germany [3] [3] = 6 against [6] = 6; 1 attacking and 0 defending battalions "
        "eliminated; the defender wins")
    assert st.at("gjovik", GERMANY) == 2, "the 2 survivors go back to Gjøvik"
    assert st.at("hamar", NORWAY) == 1 and st.at("hamar", GERMANY) == 0, "the tie keeps Hamar Norwegian"
    assert st.battle is None and not st.attacks

    # ----- phase 3: reinforcements -----
    assert st.step == "reinforce" and st.current_player() == GERMANY
    act(st, GERMANY, f"exchange {REINFORCEMENTS}", "done")
    assert st.to_place == 2, "5 symbols buy 1 battalion, plus the free one"
    assert last_event(st, "Germany: ") == "Germany: 5 reinforcement symbols buy 1 battalions, plus 1 free"
    # the engine asks the Allies whether an Ubåt sinks a transport (the book has no such step); they pass
    assert st.step == "submarine" and st.current_player() == ALLIES and options(st) == {"done"}
    act(st, ALLIES, "done")
    assert st.step == "place" and "place oslo 1" in options(st)
    act(st, GERMANY, "place oslo 1")

    # ----- phase 4: new cards (the last placement ends phase 3 and runs phase 4) -----
    assert st.cards_used == 3
    assert st.used[GERMANY] == [PANZER, SCOUTS, REINFORCEMENTS], "under the deck, face up, in order of use"
    assert st.used[NORWAY] == [ROADBLOCK, AMBUSH]
    assert st.hands[GERMANY] == list(GERMAN_SPARE)
    top = st.draw[GERMANY][:3]
    deck = len(st.draw[GERMANY])
    act(st, GERMANY, "place oslo 1")
    assert st.hands[GERMANY] == [*GERMAN_SPARE, *top], "Germany draws 3, up to 5"
    assert len(st.draw[GERMANY]) == deck - 3
    assert st.used[GERMANY] == [PANZER, SCOUTS, REINFORCEMENTS]

    # ----- play passes to Norway; the final state -----
    assert (st.country, st.current_player(), st.step, st.round) == (NORWAY, NORWAY, "move", 2)
    for area, n in {"oslo": 2, "honefoss": 2, "gjovik": 2, "kongsvinger": 1}.items():
        assert st.at(area, GERMANY) == n, area
    assert st.at("hamar", NORWAY) == 1
    assert len(st.hands[GERMANY]) == 5
    assert german_start + 2 - st.total(GERMANY) == 1, "German losses: 1"
