"""Kampen om Norge, worked example 2 (K-digest, basic game): an Allied round played from its movement phase to
the hand-over to Germany, with the book's position, cards and dice.

Position: no Allied battalions on the board; Germany Åndalsnes 2; Norway Dombås 1 (plus the helper's
out-of-the-way battalions: Norway 2 in Finnmark, Germany 1 in Kristiansand). The Allies' first six count as
landed in an earlier round, so phase 3 brings no first groups, as in the book.

Hands:
- The Allies: Invasjon, Forsterkninger with 7 symbols (copy #2) and Kystevakuering with 2 (copy #0), as the
  book says.
- Germany: Fallskjermtropp, Rask forflytning, Transportfly and two Forsterkninger; none of them has a use
  when Germany defends, matching the book's "no cards that help its defence".
- Norway keeps its dealt hand: Norway has no battalion in the battle and is never asked.
"""

from __future__ import annotations

from kampen_support import act, last_event, options, position, set_hand

from warroom.core.dice import Dice, Roll
from warroom.rulesets.kampen.board import BorderKind
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

INVASION, REINFORCEMENTS, EVACUATION = "allies_invasjon#0", "allies_forsterkninger#2", "allies_kystevakuering#0"
GERMAN_HAND = ("germany_fallskjermtropp#0", "germany_rask_forflytning#0", "germany_transportfly#0",
               "germany_forsterkninger#0", "germany_forsterkninger#1")
ALLIED_SEAS = {"III", "IV", "V", "VI", "VII"}


def test_example_2_the_allied_invasion_at_andalsnes() -> None:
    st = position({"andalsnes": {GERMANY: 2}, "dombas": {NORWAY: 1}}, country=ALLIES)
    set_hand(st, ALLIES, INVASION, REINFORCEMENTS, EVACUATION)
    set_hand(st, GERMANY, *GERMAN_HAND)
    board = st.sc.board
    assert st.sc.symbols_of(REINFORCEMENTS) == 7 and st.sc.symbols_of(EVACUATION) == 2
    assert set(board.neighbours("andalsnes")) == {"alesund", "kristiansund", "dombas"}
    assert board.border_kind("andalsnes", "alesund") == BorderKind.FJORD
    assert board.border_kind("andalsnes", "kristiansund") == BorderKind.FJORD
    assert board.border_kind("andalsnes", "dombas") == BorderKind.LAND
    assert board.coast("andalsnes") <= ALLIED_SEAS
    assert st.total(ALLIES) == 0
    german_start = st.total(GERMANY)
    assert (st.step, st.current_player()) == ("move", ALLIES)

    # ----- phase 1: Invasjon, an exchange of 7 + 2 symbols, 3 battalions landed on Åndalsnes' coast -----
    assert f"play {INVASION}" in options(st)
    act(st, ALLIES, f"play {INVASION}")
    assert st.step == "invasion_exchange"
    assert options(st) == {f"exchange {REINFORCEMENTS}", f"exchange {EVACUATION}", "done"}
    act(st, ALLIES, f"exchange {REINFORCEMENTS}", f"exchange {EVACUATION}", "done")
    assert last_event(st, "The Allies' invasion") == "The Allies' invasion: 9 symbols buy 3 battalions"
    assert st.step == "invasion_landing"
    landings = {a.to_str().split()[1] for a in st.legal_actions()}
    assert "andalsnes" in landings
    assert all(board.coast(a) & ALLIED_SEAS and not board.coast(a) & {"I", "II"} for a in landings)
    act(st, ALLIES, "place andalsnes 1", "place andalsnes 1", "place andalsnes 1")
    attack = st.attacks["andalsnes"]
    assert attack.by_sea_or_air == 3 and attack.over_water == 0 and not attack.origins, "from the sea"
    assert not st.hands[ALLIES] and st.cards_used == 3, "Kystevakuering's own text is ignored"
    assert options(st) == {"done"}, "no Allied battalion on the board to move"
    act(st, ALLIES, "done")

    # ----- phase 2: combat at Åndalsnes, 3 Allies from the sea against 2 Germans -----
    # the Allies have no cards left (steps 1 and 3 are skipped); Germany holds none that helps it defend
    assert st.step == "defend_cards" and st.current_player() == GERMANY and options(st) == {"done"}
    act(st, GERMANY, "done")
    assert st.step == "attack_roll" and st.battle is not None
    assert (st.battle.att_dice, st.battle.def_dice) == (3, 2)
    assert st.chance_dice() == Dice(3)
    st.apply_action(Roll((3, 5, 4)))
    assert st.chance_dice() == Dice(2)
    st.apply_action(Roll((6, 1)))
    assert last_event(st, "Battle of Åndalsnes: The Allies") == (
        "Battle of Åndalsnes: The Allies [3] [5] [4] = 12 against [6] [1] = 7; 1 attacking and 0 defending "
        "battalions eliminated; the attacker wins")
    assert last_event(st, "Åndalsnes is surrounded") == "Åndalsnes is surrounded: 2 Germany battalions are lost", \
        "fjords to Ålesund and Kristiansund, Norwegians in Dombås: nowhere to retreat"
    assert st.at("andalsnes", GERMANY) == 0 and st.at("andalsnes", ALLIES) == 2
    assert st.battle is None

    # ----- phase 3: no cards, no reinforcements -----
    assert st.step == "reinforce" and st.current_player() == ALLIES and options(st) == {"done"}
    assert st.hands[ALLIES] == [] and st.cards_used == 3
    assert st.used[ALLIES] == [INVASION, REINFORCEMENTS, EVACUATION], "under the deck, face up"
    top = st.draw[ALLIES][:3]
    deck = len(st.draw[ALLIES])
    act(st, ALLIES, "done")  # nothing to place: phase 4 follows at once

    # ----- phase 4: the Allies draw 3 -----
    assert st.hands[ALLIES] == top and len(st.draw[ALLIES]) == deck - 3
    assert st.used[ALLIES] == [INVASION, REINFORCEMENTS, EVACUATION]

    # ----- play passes to Germany; the final state -----
    assert (st.country, st.current_player(), st.step) == (GERMANY, GERMANY, "move")
    assert st.at("andalsnes", ALLIES) == 2 and st.total(ALLIES) == 2, "3 landed, 1 lost"
    assert st.at("dombas", NORWAY) == 1
    assert german_start - st.total(GERMANY) == 2, "both German defenders lost"
    assert len(st.hands[ALLIES]) == 3
    assert st.hands[GERMANY] == list(GERMAN_HAND) and not st.used[GERMANY], "Germany played no card"
