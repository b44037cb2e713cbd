"""Kampen om Norge, worked example 3 (K-digest, basic game): a German round in the north played from its
movement phase to the hand-over to Norway, with the book's position, cards and dice.

Position: Germany Tysfjord 2 and Trondheim 1 (its airfield gives the air range); Norway Bardufoss 1; the
Allies Narvik 2 (plus the helper's out-of-the-way battalions: Norway 2 in Finnmark, Germany 1 in
Kristiansand).

Hands:
- Germany: exactly Rask forflytning, Fallskjermtropp, Bombefly, Panzer and Transportfly, as the book says.
- The Allies: Jagerfly and Kystevakuering, as the book says, and a Forsterkninger, which has no use but an
  exchange in the Allies' own round; no Panservernkanon.
- Norway: three Bakhold; no Veisperring or Sprengt bro, as the book says. Bakhold has no phase-1c use, and
  Norway declines it at Bardufoss, as the book's Norway plays no card there.
"""

from __future__ import annotations

from kampen_support import act, dice_if_nobody_plays_more, last_event, options, position, set_hand

from warroom.core.dice import Dice, Roll
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

RAPID, DROP, BOMBERS, PANZER, PLANES = ("germany_rask_forflytning#0", "germany_fallskjermtropp#0",
                                        "germany_bombefly#0", "germany_panzer#0", "germany_transportfly#0")
FIGHTERS, EVACUATION, ALLIED_SPARE = "allies_jagerfly#0", "allies_kystevakuering#0", "allies_forsterkninger#0"
NORWEGIAN_HAND = ("norway_bakhold#0", "norway_bakhold#1", "norway_bakhold#2")


def test_example_3_narvik_and_bardufoss() -> None:
    st = position({"tysfjord": {GERMANY: 2}, "trondheim": {GERMANY: 1}, "bardufoss": {NORWAY: 1},
                   "narvik": {ALLIES: 2}}, country=GERMANY)
    set_hand(st, GERMANY, RAPID, DROP, BOMBERS, PANZER, PLANES)
    set_hand(st, ALLIES, FIGHTERS, EVACUATION, ALLIED_SPARE)
    set_hand(st, NORWAY, *NORWEGIAN_HAND)
    board = st.sc.board
    assert "bardufoss" in board.airfields and "trondheim" in board.airfields
    german_start, allied_start = st.total(GERMANY), st.total(ALLIES)
    assert (st.step, st.current_player()) == ("move", GERMANY)

    # ----- phase 1: movement -----
    # Rask forflytning: one battalion goes through Bjørnfjell and attacks Bardufoss from there
    act(st, GERMANY, f"play {RAPID}")
    assert st.step == "card_effect" and "move tysfjord bardufoss 1 via bjornfjell" in options(st)
    act(st, GERMANY, "move tysfjord bardufoss 1 via bjornfjell")
    assert st.attacks["bardufoss"].origins == {"bjornfjell": 1}
    # the other Tysfjord battalion attacks Narvik, an ordinary one-area move
    act(st, GERMANY, "move tysfjord narvik 1")
    assert st.attacks["narvik"].origins == {"tysfjord": 1} and st.at("tysfjord", GERMANY) == 0
    # Fallskjermtropp: the Trondheim airfield reaches Harstad, Narvik and Bjørnfjell, not Gratangen,
    # Bardufoss or Tromsø
    act(st, GERMANY, f"play {DROP}")
    drops = {a.to_str().split()[1] for a in st.legal_actions()}
    assert {"harstad", "narvik", "bjornfjell"} <= drops
    assert not drops & {"gratangen", "bardufoss", "tromso"}
    act(st, GERMANY, "place narvik 1")
    # the engine lets the Allies answer the drop with Jagerfly (the book has no such step); they keep it
    assert st.step == "drop_answer" and st.current_player() == ALLIES and f"play {FIGHTERS}" in options(st)
    act(st, ALLIES, "done")
    assert st.attacks["narvik"].origins == {"tysfjord": 1} and st.attacks["narvik"].by_sea_or_air == 1
    act(st, GERMANY, "done")
    # phase 1c: Norway has no Veisperring or Sprengt bro
    assert st.step == "sabotage" and st.current_player() == NORWAY and options(st) == {"done"}
    act(st, NORWAY, "done")

    # ----- phase 2: Germany picks the order of battles, Narvik first -----
    assert st.step == "pick" and options(st) == {"fight narvik", "fight bardufoss"}
    act(st, GERMANY, "fight narvik")

    # battle A: Narvik, 2 Germans (one by land, one from the air) against 2 Allies
    assert st.step == "attack_cards"
    assert dice_if_nobody_plays_more(st) == (2, 2)
    act(st, GERMANY, f"play {BOMBERS}", f"play {PANZER}")
    assert dice_if_nobody_plays_more(st) == (6, 2), "Bombefly +2, Panzer +2 (one attacker came by land)"
    assert options(st) == {"done"}, "Transportfly has no battle use"
    act(st, GERMANY, "done")
    assert st.step == "defend_cards" and st.current_player() == ALLIES
    assert f"play {FIGHTERS}" in options(st)
    act(st, ALLIES, f"play {FIGHTERS}")
    assert dice_if_nobody_plays_more(st) == (4, 2), "Jagerfly shoots down Bombefly"
    assert options(st) == {"done"}, "no Panservernkanon against the Panzer"
    act(st, ALLIES, "done")
    assert st.step == "react_cards" and st.current_player() == GERMANY
    assert options(st) == {"done"}, "no Jagerbomber to answer Jagerfly"
    act(st, GERMANY, "done")
    assert st.step == "attack_roll" and st.battle is not None
    assert (st.battle.att_dice, st.battle.def_dice) == (4, 2), "2 battalions + Panzer 2; Bombefly cancelled"
    assert st.chance_dice() == Dice(4)
    st.apply_action(Roll((2, 6, 3, 6)))
    assert st.chance_dice() == Dice(2)
    st.apply_action(Roll((6, 5)))
    assert last_event(st, "Battle of Narvik: Germany") == (
        "Battle of Narvik: Germany [2] [6] [3] [6] = 17 against [6] [5] = 11; 1 attacking and 2 defending "
        "battalions eliminated; the attacker wins")
    assert st.at("narvik", ALLIES) == 0, "both Allied battalions eliminated"
    # the engine asks Germany which of its two groups loses the battalion (the book does not say); the
    # survivor enters Narvik either way
    assert st.step == "attacker_losses" and options(st) == {"remove tysfjord", "remove narvik"}
    act(st, GERMANY, "remove tysfjord")
    # Kystevakuering saves one of the two eliminated Allied battalions to a coastal area on III-VII
    assert st.step == "rescue" and st.current_player() == ALLIES and f"play {EVACUATION}" in options(st)
    act(st, ALLIES, f"play {EVACUATION}")
    rescues = options(st)
    assert "place tromso 1" in rescues and "place tromso 2" not in rescues, "one battalion saved"
    assert not rescues & {"place narvik 1", "place tysfjord 1", "place bardufoss 1"}
    assert all(not board.coast(r.split()[1]) & {"I", "II"} for r in rescues)
    act(st, ALLIES, "place tromso 1")
    assert st.at("tromso", ALLIES) == 1
    assert st.at("narvik", GERMANY) == 1 and st.at("narvik", ALLIES) == 0, "Germany wins Narvik"

    # battle B: Bardufoss, 1 German from Bjørnfjell against 1 Norwegian; nobody plays a card
    assert st.step == "attack_cards" and st.battle is not None and st.battle.area == "bardufoss"
    assert options(st) == {"done"}
    act(st, GERMANY, "done")
    assert st.step == "defend_cards" and st.current_player() == NORWAY
    assert f"play {NORWEGIAN_HAND[0]}" in options(st), "Bakhold could be played; Norway does not"
    act(st, NORWAY, "done")
    # the engine asks the Allies in every German attack (their Jagerfly needs no battalions there); they pass
    assert st.current_player() == ALLIES and options(st) == {"done"}
    act(st, ALLIES, "done")
    assert st.step == "react_cards" and options(st) == {"done"}
    act(st, GERMANY, "done")
    assert st.step == "attack_roll" and st.chance_dice() == Dice(1)
    st.apply_action(Roll((5,)))
    assert st.chance_dice() == Dice(1)
    st.apply_action(Roll((4,)))
    assert last_event(st, "Battle of Bardufoss: Germany") == (
        "Battle of Bardufoss: Germany [5] = 5 against [4] = 4; 0 attacking and 0 defending battalions "
        "eliminated; the attacker wins")
    # Norway withdraws: not to Bjørnfjell, whence the attack came, nor to German Narvik
    assert st.step == "retreat" and st.current_player() == NORWAY
    retreats = options(st)
    assert "retreat tromso" in retreats
    assert "retreat bjornfjell" not in retreats and "retreat narvik" not in retreats
    act(st, NORWAY, "retreat tromso")
    assert st.at("tromso", NORWAY) == 1 and st.at("tromso", ALLIES) == 1, "Norwegians and Allies share Tromsø"
    assert st.at("bardufoss", GERMANY) == 1 and st.at("bardufoss", NORWAY) == 0

    # ----- phase 3: Transportfly puts the free battalion on the Bardufoss airfield -----
    assert st.step == "reinforce" and st.current_player() == GERMANY
    act(st, GERMANY, f"play {PLANES}", "done")
    assert st.to_place == 1, "the free battalion only"
    # the engine asks the Allies whether an Ubåt sinks a transport (the book has no such step); they pass
    assert st.step == "submarine" and st.current_player() == ALLIES
    act(st, ALLIES, "done")
    assert st.step == "place" and "place bardufoss 1" in options(st)
    assert "place oslo 1" in options(st), "the airfield comes on top of the usual coast on sea area I or II"

    # ----- phase 4: all 5 cards used, 5 drawn (the last placement ends phase 3 and runs phase 4) -----
    assert st.cards_used == 5 and st.hands[GERMANY] == []
    assert st.used[GERMANY] == [RAPID, DROP, BOMBERS, PANZER, PLANES], "under the deck, face up, in order"
    assert st.used[ALLIES] == [FIGHTERS, EVACUATION]
    top = st.draw[GERMANY][:5]
    deck = len(st.draw[GERMANY])
    act(st, GERMANY, "place bardufoss 1")
    assert st.hands[GERMANY] == top and len(st.draw[GERMANY]) == deck - 5, "Germany draws 5"

    # ----- play passes to Norway; the final state -----
    assert (st.country, st.current_player(), st.step) == (NORWAY, NORWAY, "move")
    assert (st.at("narvik", GERMANY), st.at("bardufoss", GERMANY), st.at("tysfjord", GERMANY)) == (1, 2, 0)
    assert st.at("trondheim", GERMANY) == 1
    assert st.at("tromso", ALLIES) == 1 and st.at("narvik", ALLIES) == 0
    assert st.at("tromso", NORWAY) == 1
    assert german_start + 2 - st.total(GERMANY) == 1, "German losses: 1 (2 battalions came: paratroop, free)"
    assert allied_start - st.total(ALLIES) == 1, "Allied losses: 1 (the other was saved)"
