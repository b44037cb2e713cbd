"""The campaign sense of the Kampen om Norge heuristic (ai/kampen_plan.py): Germany keeps its point cities
garrisoned, sends a column to each city that needs one, spends its cards slowly while it cannot win and ends the
game when it can; Norway trades its cards for battalions and the defenders gather in one fortress. And the
German bot beats random Norwegian and Allied play in most games (issue 12)."""

from __future__ import annotations

import random

from test_kampen_rules import dealt

from warroom.ai import kampen_plan as plan
from warroom.ai import make_bot
from warroom.ai.kampen_heuristic import KampenHeuristic
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState
from warroom.rulesets.kampen.actions import DONE, Exchange, Move
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY
from warroom.sim.runner import play_one


def german_moves(st: KampenState, seed: int = 0) -> list[Move]:
    """Germany's moves of one movement phase, as the heuristic plays them."""
    bot = KampenHeuristic(random.Random(seed))
    moves: list[Move] = []
    while st.step == "move" and st.current_player() == GERMANY:
        action = bot.choose(st, st.legal_actions())
        if isinstance(action, Move):
            moves.append(action)
        st.apply_action(action)
        if action == DONE:
            break
    return moves


def test_germany_never_marches_out_of_a_point_city_it_holds() -> None:
    for seed in range(5):
        st = dealt(seed)
        german_moves(st, seed)
        for city in st.sc.board.point_cities:
            assert st.at(city, GERMANY) >= 1, f"seed {seed}: {city} left empty"


def test_distances_count_land_steps_and_narvik_is_eleven_from_oslo() -> None:
    st = dealt()
    assert plan.dist(st, "oslo", "oslo") == 0 and plan.dist(st, "oslo", "honefoss") == 1
    assert plan.dist(st, "oslo", "narvik") == 11


def test_a_column_is_sent_to_each_city_short_of_battalions_nearest_first() -> None:
    st = dealt()
    st.troops = {"oslo": {GERMANY: 9}, "kristiansand": {GERMANY: 1}, "stavanger": {GERMANY: 1},
                 "bergen": {GERMANY: 1}, "trondheim": {GERMANY: 6}, "narvik": {NORWAY: 1}, "finnmark": {NORWAY: 2}}
    st.allies_out = True  # no Allied landings to fear: garrisons of 1 suffice
    need = plan.targets(st, GERMANY)
    assert need == {"narvik": 4}, "Narvik to take back: its defender and 3 more"
    orders = plan.orders(st, GERMANY)
    assert orders["trondheim"] == {"narvik": 5}, "Trondheim is nearest: its 5 spare go north (4 needed, 1 over)"
    assert orders["oslo"] == {"narvik": 8}, "Oslo keeps its garrison of 1; what is left heads for the need"


def test_germany_trades_its_cards_to_end_a_won_game_and_one_card_a_round_otherwise() -> None:
    st = dealt()
    st.troops = {c: {GERMANY: 3} for c in st.sc.board.point_cities} | {"finnmark": {NORWAY: 2}}
    st.allies_landed = True
    st.draw[GERMANY], rest = st.draw[GERMANY][:4], st.draw[GERMANY][4:]
    st.used[GERMANY] += rest
    st.flow.enter(st, "round_start")
    while st.step != "reinforce":
        st.apply_action(DONE)
    bot = make_bot("heuristic", random.Random(1))
    while st.current_player() == GERMANY and not st.is_terminal():
        st.apply_action(bot.choose(st, st.legal_actions()))
        while st.current_player() not in (GERMANY, CHANCE) and not st.is_terminal():
            st.apply_action(DONE)
    assert st.is_terminal() and st.result[0] == GERMANY, "4 cards left, all cities held: the draw ends it"
    slow = dealt()
    slow.troops = {"narvik": {NORWAY: 2}, "oslo": {GERMANY: 5}, "bergen": {GERMANY: 2}}
    slow.allies_landed = True
    slow.flow.enter(slow, "round_start")
    while slow.step != "reinforce":
        slow.apply_action(DONE)
    before = len(slow.draw[GERMANY])
    while slow.step == "reinforce":
        slow.apply_action(bot.choose(slow, slow.legal_actions()))
    assert slow.cards_used == 1, "one card a round while a city is missing: the clock runs slowly"
    while slow.country == GERMANY and not slow.is_terminal():
        slow.apply_action(bot.choose(slow, slow.legal_actions()) if slow.current_player() != CHANCE
                          else slow.chance_dice().sample(random.Random(0)))
    assert len(slow.draw[GERMANY]) == before - 1


def test_norway_trades_cards_for_battalions_and_keeps_one_for_the_defence() -> None:
    st = dealt(3)
    st.country = NORWAY
    st.flow.enter(st, "round_start")
    while st.step != "reinforce":
        st.apply_action(DONE)
    bot = KampenHeuristic(random.Random(2))
    hand = list(st.hands[NORWAY])
    traded = []
    while st.step == "reinforce":
        action = bot.choose(st, st.legal_actions())
        if isinstance(action, Exchange):
            traded.append(action.card)
        st.apply_action(action)
    symbols = sum(st.sc.symbols_of(k) for k in traded)
    assert traded and symbols >= 3, f"Norway traded {traded} from {hand}"


def test_the_defenders_hold_one_fortress_with_all_five_dice_and_two_to_spare() -> None:
    st = dealt()
    st.troops = {"bergen": {NORWAY: 2, ALLIES: 3}, "trondheim": {NORWAY: 1}, "voss": {GERMANY: 4},
                 "oslo": {GERMANY: 2}}
    assert plan.fortress(st) == "bergen"
    assert plan.fortress_need(st, "bergen") == 7 and plan.targets(st, NORWAY) == {"bergen": 2}
    assert plan.surplus(st, "trondheim", NORWAY) == 1, "other cities need no garrison: empty, they still count"
    assert plan.surplus(st, "bergen", ALLIES) == -2, "the fortress is 2 short: nobody leaves it"


def test_heuristic_germany_beats_random_norway_and_allies_in_most_games() -> None:
    wins = sum(play_one("kampen", 7000 + i, {"germany": "heuristic", "norway": "random", "allies": "random"},
                        {"seats": 2}).result[0] == GERMANY for i in range(16))
    assert wins >= 12, f"Germany won {wins} of 16"
