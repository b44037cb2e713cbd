"""Kampen om Norge basic-game rules through the state API: movement, the combat sequence, retreats,
reinforcement, new cards and victory (K-digest 1.3, 4)."""

from __future__ import annotations

import random

import pytest

from warroom.ai import make_bot
from warroom.core.dice import Roll
from warroom.core.errors import IllegalActionError, SaveError
from warroom.core.game import replay
from warroom.core.log import GameRecord, LogEntry
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.actions import (
    DONE,
    Discard,
    Exchange,
    Fight,
    Lose,
    Move,
    Place,
    Play,
    Refuse,
    Remove,
    Retreat,
)
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY


def dealt(seed: int = 1) -> KampenState:
    """A new game past its opening shuffles and hands."""
    st = new_game()
    rng = random.Random(seed)
    while st.current_player() == CHANCE:
        st.apply_action(st.chance_dice().sample(rng))
    return st


def position(troops: dict[str, dict[str, int]], country: str = GERMANY, seed: int = 1) -> KampenState:
    """`country`'s movement phase with exactly these battalions on the board."""
    st = dealt(seed)
    elsewhere = {"finnmark": {NORWAY: 2}, "kristiansand": {GERMANY: 1}}  # so nobody is wiped out by a test
    st.troops = {a: dict(c) for a, c in {**elsewhere, **troops}.items()}
    st.allies_landed = True
    st.country = country
    st.flow.enter(st, "round_start")
    return st


def test_the_opening_deals_hands_from_shuffled_decks() -> None:
    st = dealt()
    sc = st.sc
    assert st.step == "move" and st.current_player() == GERMANY and st.round == 1
    for c in sc.countries:
        assert len(st.hands[c]) == sc.hand[c]
        assert sorted(st.hands[c] + st.draw[c]) == sorted(sc.deck(c)), "every card once"
    assert st.total(GERMANY) == 13 and st.total(NORWAY) == 9 and st.total(ALLIES) == 0  # digest 3
    assert dealt(1).hands != dealt(2).hands, "the seed decides the deal"


def test_a_battalion_moves_one_area_and_attacks_wait_at_the_border() -> None:
    st = position({"oslo": {GERMANY: 2}, "kongsvinger": {GERMANY: 1}, "hamar": {NORWAY: 1}})
    assert Move("oslo", "honefoss", 2) in st.legal_actions()
    with pytest.raises(IllegalActionError, match="not next to"):
        st.apply_action(Move("oslo", "bergen", 1))
    st.apply_action(Move("oslo", "honefoss", 2))
    assert st.at("honefoss", GERMANY) == 2 and st.at("oslo", GERMANY) == 0
    assert not any(isinstance(a, Move) and a.frm == "honefoss" for a in st.legal_actions()), "moved this round"
    st.apply_action(Move("kongsvinger", "hamar", 1))
    assert st.at("hamar", GERMANY) == 0 and st.attacks["hamar"].origins == {"kongsvinger": 1}


CARD_STEPS = ("attack_cards", "defend_cards", "react_cards")


def no_submarine(st: KampenState) -> None:
    """The enemy lets the reinforcements through (no Ubåt played)."""
    while st.step == "submarine":
        st.apply_action(DONE)


def decline(st: KampenState, *steps: str) -> None:
    """Whoever is asked at these steps plays nothing."""
    while st.step in steps:
        st.apply_action(DONE)


def end_moves(st: KampenState) -> None:
    """The mover ends its movement; Norway lets phase 1c pass."""
    st.apply_action(DONE)
    while st.step == "sabotage":
        st.apply_action(DONE)


def no_cards(st: KampenState) -> None:
    """Every seat at the battle's card steps plays nothing."""
    while st.step in CARD_STEPS:
        st.apply_action(DONE)


def give(st: KampenState, country: str, *cards: str) -> list[str]:
    """Put a copy of each card into `country`'s hand, taken from its deck; the hand cards they replace (from
    the first on) go back in their places."""
    keys = []
    for i, card in enumerate(cards):
        key = next(k for k in st.draw[country] + st.used[country] if k == card or k.startswith(card + "#"))
        pile = st.draw[country] if key in st.draw[country] else st.used[country]
        pile[pile.index(key)] = st.hands[country][i]
        st.hands[country][i] = key
        keys.append(key)
    return keys


def fight(st: KampenState, area: str, attack: tuple[int, ...], defence: tuple[int, ...]) -> None:
    end_moves(st)
    if st.step == "pick":
        st.apply_action(Fight(area))
    no_cards(st)
    st.apply_action(Roll(attack))
    st.apply_action(Roll(defence))


def test_a_defender_whose_last_battalion_falls_still_wins_the_tie() -> None:
    """Both sides roll a 6 and lose a battalion: 3 Germans across Mjøsa (1 die) against Hamar's only
    Norwegian. The tie still goes to the defender, so the 2 German survivors go back to Gjøvik and Hamar is
    left empty. (The worked example with cards is tests/scenarios/test_kampen_example1.py.)"""
    st = position({"gjovik": {GERMANY: 3}, "hamar": {NORWAY: 1}})
    st.apply_action(Move("gjovik", "hamar", 3))
    assert st.attacks["hamar"].over_water == 3
    end_moves(st)
    no_cards(st)
    assert st.battle is not None and st.battle.att_dice == 1 and st.battle.def_dice == 1
    st.apply_action(Roll((6,)))
    st.apply_action(Roll((6,)))
    assert st.at("gjovik", GERMANY) == 2 and st.at("hamar", NORWAY) == 0, "the defender's battalion fell too"
    assert st.battle is None and st.step == "reinforce"


def test_a_beaten_defender_retreats_together_but_not_whence_the_attack_came() -> None:
    st = position({"tysfjord": {GERMANY: 1}, "bjornfjell": {GERMANY: 1}, "narvik": {ALLIES: 2}})
    st.apply_action(Move("tysfjord", "narvik", 1))
    st.apply_action(Move("bjornfjell", "narvik", 1))
    fight(st, "narvik", (6, 5), (1, 1))
    decline(st, "rescue", "evacuation")
    assert st.step == "losses" or st.step == "retreat"
    if st.step == "retreat":
        options = [a.to for a in st.legal_actions() if isinstance(a, Retreat)]
        assert "tysfjord" not in options and "bjornfjell" not in options
        assert all(not st.sc.board.crosses_water("narvik", a) for a in options), "Allies never across water"
        st.apply_action(st.legal_actions()[0])
    assert st.at("narvik", GERMANY) == 2


def test_reinforcements_come_from_symbols_and_go_where_the_country_may_place() -> None:
    st = position({"oslo": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    st.apply_action(DONE)
    assert st.step == "reinforce"
    card = st.hands[GERMANY][0]
    symbols = st.sc.symbols_of(card)
    st.apply_action(Exchange(card))
    st.apply_action(DONE)
    no_submarine(st)
    assert st.to_place == symbols // 3 + 1  # one free German battalion a round (4.3)
    places = {a.area for a in st.legal_actions() if isinstance(a, Place)}
    assert places and all(st.sc.board.coast(a) & {"I", "II"} for a in places)
    assert card in st.used[GERMANY] and card not in st.hands[GERMANY]


def test_germany_that_used_no_card_discards_one_and_draws() -> None:
    st = position({"oslo": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    st.apply_action(DONE)
    st.apply_action(DONE)
    no_submarine(st)
    while st.step == "place":
        st.apply_action(st.legal_actions()[0])
    assert st.step == "discard" and st.current_player() == GERMANY
    card = st.hands[GERMANY][0]
    with pytest.raises(IllegalActionError, match="not in your hand"):
        st.apply_action(Discard("nothing#0"))
    st.apply_action(Discard(card))
    assert st.used[GERMANY][-1] == card and len(st.hands[GERMANY]) == 5
    assert st.country == NORWAY and st.step == "move"


def test_the_german_deck_running_out_ends_the_game_with_the_outcome_table() -> None:
    st = position({"oslo": {GERMANY: 2}, "bergen": {NORWAY: 1}, "hamar": {NORWAY: 1}})
    st.draw[GERMANY] = st.draw[GERMANY][:1]
    st.apply_action(DONE)
    for card in list(st.hands[GERMANY]):
        st.apply_action(Exchange(card))
    st.apply_action(DONE)
    no_submarine(st)
    while st.step == "place":
        st.apply_action(st.legal_actions()[0])
    assert st.is_terminal() and st.result == ("norway_allies", "clear")  # 5 point cities not German
    assert st.returns()[GERMANY] < 0 < st.returns()[NORWAY]


def test_seeded_random_games_finish_keep_their_counts_and_replay() -> None:
    for seed in range(3):
        st = new_game()
        dice = random.Random(seed)
        bots = {c: make_bot("random", random.Random(seed * 7 + i)) for i, c in enumerate(st.sc.countries)}
        while not st.is_terminal():
            who = st.current_player()
            action = st.chance_dice().sample(dice) if who == CHANCE else bots[who].choose(st, st.legal_actions())
            st.apply_action(action)
            for c in st.sc.countries if st.round else ():  # from the deal on
                cards = st.hands[c] + st.draw[c] + st.used[c]
                assert sorted(cards) == sorted(st.sc.deck(c)), "no card lost or doubled"
            assert all(n > 0 for here in st.troops.values() for n in here.values())
            assert all(not (GERMANY in here and len(here) > 1) for here in st.troops.values()), "one side an area"
        record = GameRecord.from_json(st.record(seed).to_json())
        params = dict(record.params)
        again = replay(record, lambda: new_game(None, dict(params)))  # noqa: B023 (used at once)
        assert isinstance(again, KampenState)
        assert again.troops == st.troops and again.events == st.events and again.result == st.result
    bad = GameRecord("kampen", "1", {}, 0, [LogEntry("move oslo honefoss 1", GERMANY, 0, "setup", False)])
    with pytest.raises(SaveError):
        replay(bad, lambda: new_game())


def test_a_view_shows_only_the_viewers_hand() -> None:
    st = dealt()
    for side in (*st.sc.countries, None):
        view = st.view(side)
        for c in st.sc.countries:
            shown = view["hands"][c]
            assert shown == st.hands[c] if c == side else shown == len(st.hands[c])
        text = repr(view)
        for c in st.sc.countries:
            if c != side:
                assert not any(card in text for card in st.hands[c] + st.draw[c])


def test_a_card_needs_its_requirement_and_one_per_type_per_step() -> None:
    st = position({"tysfjord": {GERMANY: 2}, "narvik": {ALLIES: 2}})  # no German airfield: Narvik out of range
    [bombers] = give(st, GERMANY, "germany_bombefly")
    st.apply_action(Move("tysfjord", "narvik", 2))
    end_moves(st)
    legal = st.legal_actions() if st.step == "attack_cards" else []
    assert Play(bombers) not in legal, "Bombefly needs German air range over Narvik"
    with pytest.raises(IllegalActionError):
        st.apply_action(Play(bombers)) if st.step == "attack_cards" else st.apply_action(Play("nothing#0"))


def test_sprengt_bro_and_the_engineers() -> None:
    """Sprengt bro sends back everyone who crossed the chosen border; Ingeniørkompani answers it."""
    st = position({"kongsvinger": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    [bridge] = give(st, NORWAY, "norway_sprengt_bro")
    [engineers] = give(st, GERMANY, "germany_ingeniorkompani")
    st.apply_action(Move("kongsvinger", "hamar", 2))
    st.apply_action(DONE)
    st.apply_action(Play(bridge))
    st.apply_action(Move("kongsvinger", "hamar", 1))
    assert st.step == "sabotage_counter" and st.current_player() == GERMANY
    st.apply_action(Play(engineers))
    decline(st, "sabotage")
    assert st.battle is not None and st.battle.attack.origins == {"kongsvinger": 2}, "the engineers rebuilt it"
    st2 = position({"kongsvinger": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    st2.hands[GERMANY] = [k for k in st2.hands[GERMANY] if "ingenior" not in k]
    [bridge] = give(st2, NORWAY, "norway_sprengt_bro")
    st2.apply_action(Move("kongsvinger", "hamar", 2))
    st2.apply_action(DONE)
    st2.apply_action(Play(bridge))
    st2.apply_action(Move("kongsvinger", "hamar", 1))
    decline(st2, "sabotage_counter", "sabotage")
    assert "hamar" not in st2.attacks and st2.at("kongsvinger", GERMANY) == 2


def test_togtransport_lets_the_norwegians_slip_away() -> None:
    st = position({"kongsvinger": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    [train] = give(st, NORWAY, "norway_togtransport")
    st.apply_action(Move("kongsvinger", "hamar", 2))
    st.apply_action(DONE)
    st.apply_action(Play(train))
    st.apply_action(Place("hamar"))
    decline(st, "sabotage_counter")  # Germany has no Ingeniørkompani to answer with
    assert st.step == "flight"
    to = st.legal_actions()[0]
    assert isinstance(to, Retreat) and to.to != "kongsvinger"
    st.apply_action(to)
    assert st.at(to.to, NORWAY) == 1 and st.at("hamar", GERMANY) == 2 and "hamar" not in st.attacks


def test_an_ubat_sinks_one_reinforcement() -> None:
    st = position({"oslo": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    [sub] = give(st, ALLIES, "allies_ubat")
    st.apply_action(DONE)
    st.apply_action(DONE)
    assert st.step == "submarine" and st.current_player() == ALLIES and st.to_place == 1
    st.apply_action(Play(sub))
    assert st.to_place == 0 and sub in st.used[ALLIES]


def test_allied_fighters_scatter_a_paratroop_drop() -> None:
    st = position({"trondheim": {GERMANY: 2}, "narvik": {ALLIES: 2}})
    [drop] = give(st, GERMANY, "germany_fallskjermtropp")
    [fighters] = give(st, ALLIES, "allies_jagerfly")
    st.apply_action(Play(drop))
    st.apply_action(Place("narvik"))
    assert st.step == "drop_answer" and st.current_player() == ALLIES
    st.apply_action(Play(fighters))
    choices = st.legal_actions()
    assert choices and all(isinstance(a, Place) and a.area in st.sc.board.neighbours("narvik") for a in choices)
    st.apply_action(choices[0])
    assert "narvik" not in st.attacks and st.step == "move" and fighters in st.used[ALLIES]


def test_beaten_allied_attackers_may_leave_by_sea_with_kystevakuering() -> None:
    """The Allies attack Narvik (on sea VI) from Gratangen and lose; Kystevakuering takes the survivors off
    by sea to a coastal area of their choice instead of back to Gratangen."""
    st = position({"gratangen": {ALLIES: 2}, "narvik": {GERMANY: 3}}, country=ALLIES)
    [evacuation] = give(st, ALLIES, "allies_kystevakuering")
    st.apply_action(Move("gratangen", "narvik", 2))
    end_moves(st)
    no_cards(st)
    st.apply_action(Roll((1, 1)))
    st.apply_action(Roll((2, 2, 3)))
    assert st.step == "evacuation" and st.current_player() == ALLIES
    st.apply_action(Play(evacuation))
    target = next(a for a in st.legal_actions() if isinstance(a, Place) and a.area != "gratangen")
    st.apply_action(target)
    assert st.at(target.area, ALLIES) == 2 and st.at("gratangen", ALLIES) == 0 and st.battle is None


def test_transportfly_airlifts_between_held_airfields() -> None:
    st = position({"oslo": {GERMANY: 3}, "trondheim": {GERMANY: 1}, "tromso": {NORWAY: 1}})
    [planes] = give(st, GERMANY, "germany_transportfly")
    st.apply_action(Play(planes))
    options = st.legal_actions()
    assert Move("oslo", "trondheim", 2) in options and Move("oslo", "trondheim", 3) not in options, "2 at most"
    assert all(isinstance(a, Move) and a.to in st.sc.board.airfields for a in options)
    st.apply_action(Move("oslo", "trondheim", 2))
    assert st.at("trondheim", GERMANY) == 3 and st.step == "move"
    assert not any(isinstance(a, Move) and a.frm == "trondheim" and a.n > 1 for a in st.legal_actions()), \
        "the flown battalions move no more"


def test_kystevakuering_moves_allied_battalions_by_sea_in_phase_1() -> None:
    st = position({"tromso": {ALLIES: 3}, "narvik": {GERMANY: 1}}, country=ALLIES)
    [boats] = give(st, ALLIES, "allies_kystevakuering")
    st.apply_action(Play(boats))
    options = st.legal_actions()
    assert Move("tromso", "alesund", 3) in options and not any(isinstance(a, Move) and a.to == "narvik"
                                                               for a in options), "never into enemies"
    assert not any(isinstance(a, Move) and st.sc.board.coast(a.to) & {"I", "II"} for a in options)
    st.apply_action(Move("tromso", "alesund", 3))
    assert st.at("alesund", ALLIES) == 3


def test_togtransport_carries_norwegians_three_areas_by_land_only() -> None:
    st = position({"kongsvinger": {NORWAY: 2}, "oslo": {GERMANY: 2}}, country=NORWAY)
    [train] = give(st, NORWAY, "norway_togtransport")
    st.apply_action(Play(train))
    options = [a for a in st.legal_actions() if isinstance(a, Move)]
    board = st.sc.board
    assert options and all(not st.at(a.to, GERMANY) for a in options)
    assert any(a.to not in board.neighbours("kongsvinger") for a in options), "further than one area"
    st.apply_action(options[-1])
    assert st.at(options[-1].to, NORWAY) >= options[-1].n


def test_speidertropp_attacking_ignores_the_lake_and_panservernkanon_stops_panzer() -> None:
    st = position({"gjovik": {GERMANY: 3}, "hamar": {NORWAY: 1}})
    scouts, panzer = give(st, GERMANY, "germany_speidertropp", "germany_panzer")
    [gun] = give(st, NORWAY, "norway_panservernkanon")
    st.apply_action(Move("gjovik", "hamar", 3))
    end_moves(st)
    st.apply_action(Play(scouts))  # attack use: no halving for the lake
    st.apply_action(Play(panzer))
    while st.step == "attack_cards":
        st.apply_action(DONE)
    uses = st.sc.cards.cards["norway_panservernkanon"].uses
    plays = [a for a in st.legal_actions() if isinstance(a, Play) and a.card == gun and a.use is not None
             and uses[a.use].effect == "cancel"]
    assert plays, "the anti-tank gun answers the Panzer (one of its two functions, named by its number)"
    st.apply_action(plays[0])
    no_cards(st)
    b = st.battle
    assert b is not None and b.att_dice == 3 and b.def_dice == 1, "3 unhalved, Panzer cancelled"


# ----- regressions from the review of the basic game ------------------------------------------------------------
def test_norwegians_alone_may_retreat_across_a_lake() -> None:
    st = position({"kongsvinger": {GERMANY: 3}, "hamar": {NORWAY: 1}})
    st.apply_action(Move("kongsvinger", "hamar", 3))
    fight(st, "hamar", (6, 6, 6), (1,))
    if st.step == "losses":
        st.apply_action(st.legal_actions()[0])
    assert st.step in ("retreat", "reinforce", "submarine", "place")
    if st.step == "retreat":
        assert Retreat("gjovik") in st.legal_actions(), "across Mjøsa is open to Norwegians"


def test_every_route_of_a_long_move_is_offered() -> None:
    st = position({"fagernes": {GERMANY: 1}, "hamar": {NORWAY: 1}})
    [rapid] = give(st, GERMANY, "germany_rask_forflytning")
    st.apply_action(Play(rapid))
    options = set(st.legal_actions())
    assert {Move("fagernes", "hamar", 1, "gjovik"), Move("fagernes", "hamar", 1, "lillehammer")} <= options
    train = position({"gjovik": {NORWAY: 1}, "lillehammer": {GERMANY: 1}}, country=NORWAY)
    [rail] = give(train, NORWAY, "norway_togtransport")
    train.apply_action(Play(rail))
    assert Move("gjovik", "hamar", 1) in train.legal_actions(), "Gjøvik - Oslo - Hamar is all land"


def test_the_game_goes_on_while_the_last_attackers_wait_at_a_border() -> None:
    st = position({"tysfjord": {GERMANY: 1}, "kongsvinger": {GERMANY: 1}, "narvik": {ALLIES: 2},
                   "hamar": {NORWAY: 1}})
    del st.troops["kristiansand"]  # Germany's last two battalions attack two areas
    st.apply_action(Move("tysfjord", "narvik", 1))
    st.apply_action(Move("kongsvinger", "hamar", 1))
    end_moves(st)
    st.apply_action(Fight("narvik"))
    no_cards(st)
    st.apply_action(Roll((1,)))
    st.apply_action(Roll((6, 6)))
    assert (not st.is_terminal() and "hamar" in st.attacks) or st.battle is not None


def test_a_rescue_never_lands_where_german_attackers_came_from() -> None:
    st = position({"bergen": {GERMANY: 3}, "forde": {ALLIES: 2}})
    [evacuation] = give(st, ALLIES, "allies_kystevakuering")
    st.apply_action(Move("bergen", "forde", 3))  # across the fjord: 1 die
    end_moves(st)
    no_cards(st)
    st.apply_action(Roll((6,)))
    st.apply_action(Roll((1, 1)))
    assert st.step == "rescue"
    st.apply_action(Play(evacuation))
    places = [a for a in st.legal_actions() if isinstance(a, Place)]
    assert places and all(a.area != "bergen" for a in places), "Bergen is empty only while its Germans attack"


def test_the_attacker_chooses_which_of_its_battalions_are_lost() -> None:
    """4.2 step 6: each owner chooses; for an attacker from two areas the choice decides where survivors go."""
    st = position({"tysfjord": {GERMANY: 1}, "bjornfjell": {GERMANY: 1}, "narvik": {ALLIES: 1}})
    st.apply_action(Move("tysfjord", "narvik", 1))
    st.apply_action(Move("bjornfjell", "narvik", 1))
    end_moves(st)
    no_cards(st)
    st.apply_action(Roll((1, 1)))
    st.apply_action(Roll((6,)))
    assert st.step == "attacker_losses" and st.current_player() == GERMANY
    assert set(st.legal_actions()) == {Remove("bjornfjell"), Remove("tysfjord")}
    st.apply_action(Remove("bjornfjell"))
    decline(st, "rescue", "evacuation")
    assert st.at("tysfjord", GERMANY) == 1 and st.at("bjornfjell", GERMANY) == 0, "the survivor went home"


def test_the_five_battalion_cap_comes_before_the_water_halving() -> None:
    """J19, read in the order the rule states it: 7 Germans across Mjøsa give dice from 5 battalions, halved
    to 2 (halving first would give 3); with 2 more from Kongsvinger by road, those 2 count first among the 5
    and the 3 from across the lake add 1: 3 dice."""
    st = position({"gjovik": {GERMANY: 7}, "hamar": {NORWAY: 1}})
    st.apply_action(Move("gjovik", "hamar", 7))
    end_moves(st)
    no_cards(st)
    assert st.battle is not None and (st.battle.att_dice, st.battle.def_dice) == (2, 1)
    mixed = position({"gjovik": {GERMANY: 7}, "kongsvinger": {GERMANY: 2}, "hamar": {NORWAY: 1}})
    mixed.apply_action(Move("gjovik", "hamar", 7))
    mixed.apply_action(Move("kongsvinger", "hamar", 2))
    end_moves(mixed)
    no_cards(mixed)
    assert mixed.battle is not None and mixed.battle.att_dice == 3


def joint_battle(seats: int) -> KampenState:
    """Germany's 5 from Kongsvinger beat Norway's 2 and the Allies' 2 in Hamar with two 6s: two losses."""
    st = position({"kongsvinger": {GERMANY: 5}, "hamar": {NORWAY: 2, ALLIES: 2}})
    st.params["seats"] = seats
    st.apply_action(Move("kongsvinger", "hamar", 5))
    end_moves(st)
    no_cards(st)
    st.apply_action(Roll((6, 6, 1, 1, 1)))
    st.apply_action(Roll((1, 1, 1, 1)))
    assert st.step == "losses" and st.current_player() == NORWAY
    return st


def test_three_players_norway_shares_out_joint_losses_and_the_allies_must_agree() -> None:
    st = joint_battle(3)
    st.apply_action(Lose(ALLIES))
    assert Lose(ALLIES) in st.legal_actions(), "a proposal counts only what is there"
    st.apply_action(Lose(ALLIES))
    assert st.step == "losses_answer" and st.current_player() == ALLIES
    assert (st.at("hamar", NORWAY), st.at("hamar", ALLIES)) == (2, 2), "nothing is lost before the answer"
    shown = st.view(ALLIES)["battle"]
    assert shown["defence_losses"] == 2 and shown["losses_proposed"] == [ALLIES, ALLIES]
    assert st.legal_actions() == [DONE, Refuse()]
    st.apply_action(Refuse())
    assert st.step == "losses_forced" and st.current_player() == GERMANY
    st.apply_action(Lose(NORWAY))
    st.apply_action(Lose(NORWAY))
    assert (st.at("hamar", NORWAY), st.at("hamar", ALLIES)) == (0, 2), "Germany decided"
    assert sum("Germany decides: a Norwegian battalion is lost" in text for _r, text in st.events) == 2
    agreed = joint_battle(3)
    agreed.apply_action(Lose(NORWAY))
    agreed.apply_action(Lose(ALLIES))
    agreed.apply_action(DONE)
    assert (agreed.at("hamar", NORWAY), agreed.at("hamar", ALLIES)) == (1, 1), "as Norway proposed"


def test_nothing_to_agree_when_every_defender_is_lost() -> None:
    st = position({"kongsvinger": {GERMANY: 5}, "hamar": {NORWAY: 1, ALLIES: 1}})
    st.params["seats"] = 3
    st.apply_action(Move("kongsvinger", "hamar", 5))
    end_moves(st)
    no_cards(st)
    st.apply_action(Roll((6, 6, 1, 1, 1)))
    st.apply_action(Roll((1, 1)))
    assert st.step == "losses"
    st.apply_action(Lose(NORWAY))
    st.apply_action(Lose(ALLIES))
    assert st.step != "losses_answer" and not st.at("hamar", NORWAY) and not st.at("hamar", ALLIES)


def test_two_players_one_person_shares_out_joint_losses_alone() -> None:
    st = joint_battle(2)
    st.apply_action(Lose(ALLIES))
    st.apply_action(Lose(NORWAY))
    assert (st.at("hamar", NORWAY), st.at("hamar", ALLIES)) == (1, 1)
    assert st.step not in ("losses_answer", "losses_forced")


def test_one_card_of_a_type_per_step_so_two_speidertropp_may_serve_one_battle() -> None:
    """The card-type limit counts per card step (effects.playable, after Example 3's Jagerbomber remark): a
    Speidertropp at step 1 ignores Mjøsa, the second is not offered again at step 1, and at step 3 it cancels
    Norway's Bakhold."""
    st = position({"gjovik": {GERMANY: 3}, "hamar": {NORWAY: 1}})
    first, second = give(st, GERMANY, "germany_speidertropp", "germany_speidertropp")
    [ambush] = give(st, NORWAY, "norway_bakhold")
    st.apply_action(Move("gjovik", "hamar", 3))
    end_moves(st)
    assert st.step == "attack_cards" and Play(first) in st.legal_actions()
    st.apply_action(Play(first))
    assert st.step == "attack_cards" and not any(
        isinstance(a, Play) and a.card == second for a in st.legal_actions()), "one Speidertropp per step"
    st.apply_action(DONE)
    st.apply_action(Play(ambush))
    while st.step == "defend_cards":
        st.apply_action(DONE)
    assert st.step == "react_cards" and Play(second) in st.legal_actions(), "a new step: the second may come"
    st.apply_action(Play(second))
    no_cards(st)
    assert st.battle is not None and (st.battle.att_dice, st.battle.def_dice) == (3, 1), \
        "3 across the lake count in full, and the ambush is cancelled"
