"""Kampen om Norge, the advanced game (sea.py): one focused test per rule of K-digest chapters 5-8 and
docs/kampen-cards.md sections 3-6, each driven through the flow with forced dice and scripted actions.

The helpers drive a game to any point of the 9 April round (as tests/scenarios/test_kampen_example4.py
does): `shuffle_with` orders the play decks, `april` chooses the 9 April cards, draws the Allied ships and
deploys everyone, `pass_until` passes every decision on the way to a step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.core.errors import IllegalActionError
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.state import ALLIES, GERMANY, NORWAY

# ----- ship cards ------------------------------------------------------------------------------------------------
SCHARNHORST, GNEISENAU, BLUCHER, HIPPER = "scharnhorst#0", "gneisenau#0", "blucher#0", "admiral_hipper#0"
LUTZOW, KARLSRUHE, KOLN, KONIGSBERG, EMDEN = "lutzow#0", "karlsruhe#0", "koln#0", "konigsberg#0", "emden#0"
FALSE0, FALSE1 = "falskt_skip#0", "falskt_skip#1"
EIDSVOLL = "eidsvoll_norge#0"
WARSPITE, RODNEY, FURIOUS, DEVONSHIRE = "warspite#0", "rodney#0", "furious#0", "devonshire#0"
LIGHT, LIGHT1 = "lett_krysser_med_jagere#0", "lett_krysser_med_jagere#1"
# The Allies' 9 ships when `april` draws them (the named ones first, then in data order)
ALLIED_NINE = [WARSPITE, LIGHT, FURIOUS, DEVONSHIRE, RODNEY, "valiant#0", "renown#0", "resolution#0", "glorious#0"]

# ----- 9 April cards ---------------------------------------------------------------------------------------------
G_FEINT, G_SMOKE = "germany_april_villedende_manover#0", "germany_april_roykdekke#0"
G_PARA0, G_PARA1, G_PARA2 = (f"germany_april_fallskjermtropp#{i}" for i in range(3))
G_SAILORS, G_BLUFF = "germany_april_evakuerte_matroser#0", "germany_april_bloff_trusler#0"
G_BOMBER, G_GEBIRGS, G_TRANSPORT = "germany_april_bombefly#0", "germany_april_gebirgsjager#0", \
    "germany_april_transportfly#0"
N_REDEPLOY, N_JAGERFLY, N_FORT0, N_FORT1, N_UBAT = (
    "norway_april_omdisponering#0", "norway_april_jagerfly#0", "norway_april_kystfort#0", "norway_april_kystfort#1",
    "norway_april_ubat#0")
A_SHIPS, A_RECON, A_DIVE, A_MINES, A_UBAT, A_FORST0, A_FORST1 = (
    "allies_april_skip_til_unnsetning#0", "allies_april_rekognoseringsfly#0", "allies_april_stupbombefly#0",
    "allies_april_minelegging#0", "allies_april_ubat#0", "allies_april_forsterkninger#0",
    "allies_april_forsterkninger#1")

G_CARDS = (G_PARA0, G_PARA1, G_BOMBER, G_BLUFF, G_GEBIRGS)  # Example 4's choice
N_CARDS = (N_FORT0, N_JAGERFLY, N_UBAT)
A_CARDS = (A_RECON, A_DIVE, A_FORST0)


# ----- driving the game --------------------------------------------------------------------------------------------
def act(st: KampenState, *texts: str) -> None:
    for text in texts:
        st.apply_action(st.parse_action(text), st.current_player())


def roll(st: KampenState, *values: int) -> None:
    """Force a chance node: the given values first, the rest of its dice on 1."""
    dice = st.chance_dice()
    count = dice.count if isinstance(dice, Dice) else len(dice.sides)
    assert len(values) <= count, (st.step, dice, values)
    st.apply_action(Roll(tuple(values) + (1,) * (count - len(values))))


def legal(st: KampenState) -> list[str]:
    return [a.to_str() for a in st.legal_actions()]


def shuffle_with(st: KampenState, tops: Mapping[str, Iterable[str]]) -> None:
    """The opening shuffles, with the given cards (card ids; the lowest free copy of each) on top."""
    while st.step == "shuffle":
        country = st.shuffling[0]
        rest = list(st.sc.deck(country))
        values = []
        for card in tops.get(country, ()):
            key = next(k for k in rest if k.split("#", 1)[0] == card)
            values.append(rest.index(key) + 1)
            rest.remove(key)
        dice = st.chance_dice()
        assert isinstance(dice, MixedDice)
        st.apply_action(Roll(tuple(values) + (1,) * (len(dice.sides) - len(values))))


def april(st: KampenState, *, germany: Iterable[str] = G_CARDS, norway: Iterable[str] = N_CARDS,
          allies: Iterable[str] = A_CARDS, german: Mapping[str, str] | None = None, german_rest: str = "I",
          allied: Mapping[str, str] | None = None, allied_rest: str = "VIII", eidsvoll: str = "VII",
          norway_places: tuple[str, str, str] = ("oslo", "hamar", "gjovik"), until: str = "april_icept",
          tops: Mapping[str, Iterable[str]] | None = None) -> None:
    """From a new game to the end of 7.0 (or the step `until` of it): cards chosen, the Allies' nine ships
    drawn (ALLIED_NINE), everyone deployed, no opening-phase card played unless the test plays it."""
    shuffle_with(st, tops or {})
    for key in (*germany, *norway, *allies):
        act(st, f"choose {key}")
    first = [WARSPITE, LIGHT, FURIOUS, DEVONSHIRE]
    rest = st.sc.ship_keys(ALLIES)
    values = []
    for key in first:
        values.append(rest.index(key) + 1)
        rest.remove(key)
    roll(st, *values)
    assert st.ships_hand[ALLIES] == ALLIED_NINE
    if until == "april_select":
        return
    act(st, "done")
    act(st, *(f"place {a}" for a in norway_places), f"ship {EIDSVOLL} {eidsvoll}")
    for key, sea in (german or {}).items():
        act(st, f"ship {key} {sea}")
    for key in list(st.ships_hand[GERMANY]):
        act(st, f"ship {key} {german_rest}")
    if until == "april_recon":
        return
    act(st, "done")
    for key, sea in (allied or {}).items():
        act(st, f"ship {key} {sea}")
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} {allied_rest}")
    if until == "april_feint":
        return
    act(st, "done")
    if until == "april_redeploy":
        return
    act(st, "done")


def pass_until(st: KampenState, step: str, country: str = "", limit: int = 600) -> None:
    """Every decision on the way to `step` (in `country`'s round) passes ('done', else the first legal action);
    dice roll 1s."""
    for _ in range(limit):
        if (st.step == step and st.country == (country or st.country)) or st.terminal:
            return
        if st.current_player() == "chance":
            roll(st)
            continue
        options = st.legal_actions()
        done = [a for a in options if a.to_str() == "done"]
        st.apply_action(done[0] if done else options[0])
    raise AssertionError(f"step {step!r} not reached; stuck at {st.step!r}")


def game() -> KampenState:
    return new_game(None, {"advanced": True})


# ----- 1. interception (8.1, 7.1) ------------------------------------------------------------------------------------
def test_germany_always_finds_eidsvoll_and_rolls_only_for_the_other_cards() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III"}, allied={WARSPITE: "III"}, eidsvoll="III")
    assert st.step == "icept_ask" and st.current_player() == GERMANY
    act(st, "intercept")
    dice = st.chance_dice()
    assert isinstance(dice, MixedDice) and dice.sides == (6, 1), "one die, for Warspite only"
    roll(st, 4)  # Warspite is not found
    assert st.fleet.card(EIDSVOLL).fighting, "Eidsvoll & Norge is found without a roll"
    assert not st.fleet.card(WARSPITE).fighting and not st.fleet.card(WARSPITE).face_up
    assert st.fleet.card(KARLSRUHE).face_up and st.fleet.card(KARLSRUHE).fighting, "the interceptor shows itself"


def test_eidsvoll_alone_is_found_with_no_chance_node() -> None:
    st = game()
    april(st, german={KARLSRUHE: "II"}, eidsvoll="II")
    act(st, "intercept")
    assert st.step == "icept_ask" and st.current_player() == NORWAY, "no dice were rolled"
    assert st.fleet.card(EIDSVOLL).fighting
    assert sorted(legal(st)) == ["done", "intercept"], \
        "Karlsruhe showed itself by trying, but was not found: Norway may still try to find it"
    act(st, "intercept")
    roll(st, 5, 1)
    assert st.fleet.card(KARLSRUHE).found and st.fleet.card(KARLSRUHE).fighting


def test_a_found_false_ship_is_removed_and_there_is_no_battle() -> None:
    st = game()
    april(st, german={FALSE0: "IV"}, allied={WARSPITE: "IV"})
    act(st, "done")  # Germany does not try
    assert st.current_player() == ALLIES
    act(st, "intercept")
    assert st.fleet.card(WARSPITE).face_up, "the interceptors turn face up to show the attempt"
    roll(st, 5, 1)
    assert not st.fleet.where(FALSE0), "the false ship is removed"
    assert not any(e.startswith("Sea battle") for _r, e in st.events)
    act(st, "done")  # no air drop
    assert st.step in ("raid", "landing"), "no sea battle: straight to raiding and landing"
    assert not st.fleet.card(WARSPITE).face_up and not st.fleet.card(WARSPITE).fighting, "it hides again"


def test_dice_are_one_per_enemy_card_and_each_find_is_drawn_at_random() -> None:
    st = game()
    april(st, german={HIPPER: "III", KARLSRUHE: "III", FALSE0: "III"}, allied={WARSPITE: "III", LIGHT: "III"})
    act(st, "done", "intercept")
    dice = st.chance_dice()
    assert isinstance(dice, MixedDice) and dice.sides == (6, 6, 6, 3, 2, 1), "3 cards: 3 dice, then the draws"
    roll(st, 6, 2, 5, 3, 1)  # two finds: the third card (the false ship), then the first of the other two
    assert not st.fleet.where(FALSE0)
    assert st.fleet.card(HIPPER).fighting and not st.fleet.card(KARLSRUHE).fighting


# ----- 2. the sea battle (8.2) ----------------------------------------------------------------------------------------
def battle_in_iii(german: Mapping[str, str], allied: Mapping[str, str], eidsvoll: str = "VII") -> KampenState:
    """Germany intercepts in III and finds every Allied card there (5s); both sides play no card: the first
    fire roll is next (Germany, the attacker on 9 April)."""
    st = game()
    april(st, german=german, allied=allied, eidsvoll=eidsvoll)
    act(st, "intercept")
    if st.current_player() == "chance":
        roll(st, *([5] * sum(1 for s in allied.values() if s == "III")))
    pass_until(st, "sea_fire")
    return st


def test_best_ships_fire_first_hits_are_drawn_among_cards_not_yet_set_aside_and_losses_cost_cards() -> None:
    st = battle_in_iii({HIPPER: "III", SCHARNHORST: "III"}, {WARSPITE: "III", LIGHT: "III"})
    german_top, allied_top = list(st.draw[GERMANY][:1]), list(st.draw[ALLIES][:2])
    german_deck, allied_deck = len(st.draw[GERMANY]), len(st.draw[ALLIES])
    # Germany: Scharnhorst (battleship) fires before Admiral Hipper though it lies second: its 4 chases, the
    # Hipper's 6 sinks. Draws: the 2nd of [Warspite, light cruisers], then the only card left.
    roll(st, 4, 6, 2, 1)
    hits = {(h.target, h.outcome) for h in st.sea_battle.hits} if st.sea_battle else set()
    assert hits == {(LIGHT, "chase"), (WARSPITE, "sink")}
    # The Allies: Warspite, already hit, still fires: 5 sinks the first of [Admiral Hipper, Scharnhorst]
    roll(st, 5, 1, 1)
    assert st.step == "sailors"
    act(st, "done")
    assert not st.fleet.where(WARSPITE) and not st.fleet.where(HIPPER)
    assert len(st.draw[ALLIES]) == allied_deck - 2 and st.used[ALLIES][-2:] == allied_top, "a battleship: 2 cards"
    assert len(st.draw[GERMANY]) == german_deck - 1 and st.used[GERMANY][-1:] == german_top, "a heavy cruiser: 1"
    # The chased light cruisers: Germany sends them to a sea area the Allies may enter, never II
    assert st.step == "sea_chase" and st.current_player() == GERMANY
    assert sorted(legal(st)) == [f"ship {LIGHT} IV", f"ship {LIGHT} VIII"]
    act(st, f"ship {LIGHT} IV")
    assert st.fleet.where(LIGHT) == "IV" and not st.fleet.card(LIGHT).face_up
    assert not st.fleet.card(SCHARNHORST).face_up and not st.fleet.card(SCHARNHORST).fighting, "survivors hide"


def test_a_chased_german_ship_is_sent_away_by_the_allies() -> None:
    st = battle_in_iii({KARLSRUHE: "III"}, {WARSPITE: "III"})
    roll(st, 1, 1)  # Karlsruhe misses
    roll(st, 3, 1)  # Warspite's 3 chases it
    assert st.step == "sea_chase" and st.current_player() == ALLIES
    assert sorted(legal(st)) == [f"ship {KARLSRUHE} {s}" for s in ("II", "IV", "VIII")]
    act(st, f"ship {KARLSRUHE} VIII")
    assert st.fleet.where(KARLSRUHE) == "VIII" and not st.fleet.card(KARLSRUHE).face_up
    pass_until(st, "landing")
    assert not any(a.startswith(f"land {KARLSRUHE}") for a in legal(st)), "a ship chased into VIII cannot land"


def test_a_german_ship_chased_into_a_coastal_sea_may_still_land_from_there() -> None:
    st = battle_in_iii({KARLSRUHE: "III"}, {WARSPITE: "III"})
    roll(st, 1, 1)
    roll(st, 3, 1)
    act(st, f"ship {KARLSRUHE} II")
    pass_until(st, "landing")
    assert sorted(a for a in legal(st) if KARLSRUHE in a) == [
        f"land {KARLSRUHE} {a}" for a in ("arendal", "kristiansand", "skien")], "only VIII forbids landing (7.2)"


def test_eidsvoll_is_always_the_first_allied_ship_sunk_and_costs_norway_nothing() -> None:
    st = battle_in_iii({SCHARNHORST: "III"}, {WARSPITE: "III"}, eidsvoll="III")
    norway = (list(st.draw[NORWAY]), list(st.used[NORWAY]))
    roll(st, 6, 2)  # a sink; the draw points at Warspite, but Eidsvoll & Norge goes first
    roll(st, 1, 1, 1)
    pass_until(st, "landing")
    assert not st.fleet.where(EIDSVOLL) and st.fleet.where(WARSPITE) == "III"
    assert (st.draw[NORWAY], st.used[NORWAY]) == norway


def test_eidsvoll_chased_is_sunk() -> None:
    st = battle_in_iii({SCHARNHORST: "III"}, {WARSPITE: "III"}, eidsvoll="III")
    targets = [c.key for c in st.fleet.ships("III") if c.owner != GERMANY]
    roll(st, 3, targets.index(EIDSVOLL) + 1)  # a chase, drawn on Eidsvoll & Norge
    roll(st, 1, 1, 1)
    assert st.step != "sea_chase"
    pass_until(st, "landing")
    assert not st.fleet.where(EIDSVOLL), "it cannot flee: chased means sunk"


# ----- 3. raiding (7.2) ---------------------------------------------------------------------------------------------
def test_battleships_and_heavy_cruisers_in_vi_to_viii_may_raid_and_cost_the_allies_cards() -> None:
    st = game()
    april(st, german={SCHARNHORST: "VI", BLUCHER: "VIII", KARLSRUHE: "VII", GNEISENAU: "V"})
    pass_until(st, "raid")
    assert sorted(legal(st)) == sorted(["done", f"raid {SCHARNHORST}", f"raid {BLUCHER}"]), \
        "only battleships and heavy cruisers, only from VI-VIII"
    top = list(st.draw[ALLIES][:3])
    deck = len(st.draw[ALLIES])
    act(st, f"raid {SCHARNHORST}")
    assert st.fleet.where(SCHARNHORST) == "raid" and len(st.draw[ALLIES]) == deck - 2
    act(st, f"raid {BLUCHER}")
    assert st.fleet.where(BLUCHER) == "raid" and len(st.draw[ALLIES]) == deck - 3
    assert st.used[ALLIES] == top, "from the top of the deck to the bottom, face up"
    act(st, "done")
    assert st.step == "landing"
    assert not any(SCHARNHORST in a or BLUCHER in a for a in legal(st)), "raiders land nothing"


# ----- 4. landings (7.2) ----------------------------------------------------------------------------------------------
def test_one_battalion_per_ship_only_onto_the_coast_of_its_sea_and_never_from_a_false_ship() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III", FALSE0: "III", EMDEN: "VIII"}, german_rest="II")
    pass_until(st, "landing")
    mine = sorted(a for a in legal(st) if KARLSRUHE in a)
    assert mine == [f"land {KARLSRUHE} {a}" for a in ("egersund", "haugesund", "stavanger")]
    assert not any(FALSE0 in a or EMDEN in a for a in legal(st)), "no false ship, nothing from VIII"
    act(st, f"land {KARLSRUHE} egersund")
    assert not any(KARLSRUHE in a for a in legal(st)), "one battalion per ship"
    act(st, "done")
    assert st.step == "mines"
    act(st, "done")
    assert st.step == "mobilise", "no Kystfort and no resistance: Egersund holds no point city"
    assert st.at("egersund", GERMANY) == 1 and st.fleet.card(KARLSRUHE).face_up, "the landing shows the ship"


def test_a_landing_from_the_sea_of_eidsvoll_fights_it_first() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III", KOLN: "III"}, eidsvoll="III")
    act(st, "done", "done")  # nobody intercepts
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} stavanger", "done")
    assert st.sea_battle is not None and st.sea_battle.sea == "III", "Eidsvoll & Norge fights the landing ship"
    assert st.fleet.card(KARLSRUHE).fighting and not st.fleet.card(KOLN).fighting, "only the ship that lands"
    pass_until(st, "sea_fire")
    roll(st, 1, 1)  # Karlsruhe misses
    roll(st, 6, 1)  # Eidsvoll & Norge chases it
    assert st.step == "sea_chase" and st.current_player() == NORWAY
    act(st, f"ship {KARLSRUHE} IV")
    assert st.landings == [], "a chased ship lands nothing"
    pass_until(st, "mobilise")
    assert not st.at("stavanger", GERMANY)


def test_a_landing_beats_eidsvoll_then_goes_ashore() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III"}, eidsvoll="III")
    act(st, "done", "done")
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} egersund", "done")
    pass_until(st, "sea_fire")
    roll(st, 6, 1)  # Karlsruhe sinks Eidsvoll & Norge
    roll(st, 1, 1)  # its last die misses (a ship hit still fires)
    pass_until(st, "mobilise")
    assert not st.fleet.where(EIDSVOLL) and st.at("egersund", GERMANY) == 1


def test_minelegging_sinks_a_landing_ship_on_6() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III", KOLN: "III"}, allies=(A_MINES, A_DIVE, A_FORST0))
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} haugesund", f"land {KOLN} egersund", f"land {SCHARNHORST} ostfold", "done")
    assert st.step == "mines" and st.current_player() == ALLIES
    deck = len(st.draw[GERMANY])
    act(st, f"play {A_MINES}")
    assert legal(st) == ["sea III"], "no mines in I or II"
    act(st, "sea III")
    assert st.chance_dice() == Dice(2), "one die per landing ship"
    roll(st, 5, 6)
    assert st.fleet.where(KARLSRUHE) and not st.fleet.where(KOLN), "the 6 sinks Köln"
    assert len(st.draw[GERMANY]) == deck - 1, "with its card loss"
    pass_until(st, "mobilise")
    assert st.at("haugesund", GERMANY) == 1 and not st.at("egersund", GERMANY)


def fort(result: int) -> KampenState:
    """Karlsruhe and Köln land at Stavanger; Norway plays Kystfort there and rolls `result` (the draw picks the
    second landing ship)."""
    st = game()
    april(st, german={KARLSRUHE: "III", KOLN: "III"}, norway=(N_FORT0, N_JAGERFLY, N_UBAT))
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} stavanger", f"land {KOLN} stavanger", "done")
    pass_until(st, "kystfort")
    act(st, f"play {N_FORT0}")
    assert legal(st) == ["place stavanger 1"], "only a point city where Germany lands"
    act(st, "place stavanger")
    roll(st, result, 2)
    return st


def test_kystfort_sink_result_sinks_one_landing_ship_and_germany_diverts_the_rest() -> None:
    st = fort(6)
    assert not st.fleet.where(KOLN) and st.fleet.where(KARLSRUHE) == "III"
    assert len(st.used[GERMANY]) == 1, "the sunk ship's card loss applies"
    assert st.step == "divert" and st.current_player() == GERMANY
    assert sorted(legal(st)) == [f"land {KARLSRUHE} egersund", f"land {KARLSRUHE} haugesund"], \
        "other land areas on the same sea"
    act(st, f"land {KARLSRUHE} haugesund")
    pass_until(st, "mobilise")
    assert st.at("haugesund", GERMANY) == 1 and not st.at("stavanger", GERMANY)


def test_kystfort_bar_result_diverts_every_landing_ship() -> None:
    st = fort(4)
    assert st.fleet.where(KOLN) and st.fleet.where(KARLSRUHE), "nothing sunk"
    assert st.step == "divert"
    act(st, f"land {KARLSRUHE} haugesund")
    assert sorted(legal(st)) == [f"land {KOLN} egersund", f"land {KOLN} haugesund"]
    act(st, f"land {KOLN} egersund")
    pass_until(st, "mobilise")
    assert st.at("haugesund", GERMANY) == 1 and st.at("egersund", GERMANY) == 1 and not st.at("stavanger", GERMANY)


def test_kystfort_misses_on_3() -> None:
    st = fort(3)
    assert st.step == "kystfort", "no effect: the window is open again (for a second Kystfort)"
    act(st, "done")
    assert st.step == "resistance"
    roll(st, 1)
    pass_until(st, "mobilise")
    assert st.at("stavanger", GERMANY) == 2


# ----- 5. resistance, the telegraph, mobilisation (7.2, 5.1, 7.3) -----------------------------------------------------
def test_resistance_in_each_point_city_where_germany_lands_succeeds_on_6() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III", KOLN: "IV"})
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} stavanger", f"land {KOLN} bergen", "done")
    pass_until(st, "resistance")
    assert st.chance_dice() == Dice(2), "one die per point city"
    roll(st, 5, 6)  # in the order of the cities: Bergen 5, Stavanger 6
    assert st.at("stavanger", NORWAY) == 1 and not st.at("bergen", NORWAY)
    assert st.step == "attack_cards" and st.battle is not None and st.battle.area == "stavanger"
    pass_until(st, "mobilise")
    assert st.at("bergen", GERMANY) == 1


def test_the_telegraph_germany_holding_egersund_after_the_land_battles_costs_the_allies_a_card() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III"})
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} egersund", "done")
    top, deck = st.draw[ALLIES][0], len(st.draw[ALLIES])
    pass_until(st, "mobilise")
    assert len(st.draw[ALLIES]) == deck - 1 and st.used[ALLIES] == [top]


def test_no_telegraph_loss_when_germany_does_not_hold_egersund() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III"})
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} stavanger", "done")
    deck = len(st.draw[ALLIES])
    pass_until(st, "mobilise")
    assert len(st.draw[ALLIES]) == deck and not st.used[ALLIES]


def test_mobilisation_a_battalion_in_each_free_point_city_and_one_per_two_free_mobilisation_points() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III", SCHARNHORST: "I"})
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} stavanger", f"land {SCHARNHORST} ostfold", "done")
    pass_until(st, "resistance")
    roll(st, 6)  # Stavanger mobilises in time, and holds (1 against 1, all dice 1: the defender wins)
    pass_until(st, "mobilise")
    assert st.at("ostfold", GERMANY) == 1 and st.at("stavanger", NORWAY) == 1, "Stavanger has mobilised already"
    assert st.at("oslo", NORWAY) == 2, "Oslo's deployed battalion does not count as mobilising"
    assert all(st.at(c, NORWAY) == 1 for c in ("kristiansand", "bergen", "trondheim", "narvik"))
    places = [a for a in legal(st)]
    assert "place ostfold 1" not in places and len(places) == 11, "every free mobilisation point"
    for area in ("hamar", "voss", "tromso", "mosjoen"):
        act(st, f"place {area}")
        assert f"place {area} 1" not in legal(st), "at most one per point"
    act(st, "place steinkjer")
    assert st.step != "mobilise", "11 free points: 5 battalions"
    assert st.at("hamar", NORWAY) == 2 and st.at("steinkjer", NORWAY) == 1


# ----- 6. after 9 April (7.4) -----------------------------------------------------------------------------------------
def test_after_9_april_cards_and_false_ships_go_hands_are_drawn_and_the_home_fleet_waits() -> None:
    st = game()
    april(st, german={FALSE0: "III", KARLSRUHE: "III"})
    pass_until(st, "sea_move", GERMANY)
    assert not st.april and st.round == 1
    assert [len(st.hands[c]) for c in (GERMANY, NORWAY, ALLIES)] == [5, 3, 3]
    assert not any(st.sc.is_april(k) for c in (GERMANY, NORWAY, ALLIES) for k in st.hands[c])
    assert not any(c.key.startswith("falskt_skip") for _s, c in st.fleet.all())
    assert st.fleet.where(KARLSRUHE) == "III"
    assert sorted(st.ships_hand[ALLIES]) == sorted(k for k in st.sc.ship_keys(ALLIES) if k not in ALLIED_NINE)
    assert not st.reserve


def test_the_allies_must_place_the_home_fleet_in_iii_to_viii_in_their_first_movement_phase() -> None:
    st = game()
    april(st)
    pass_until(st, "sea_move", ALLIES)
    fleet = list(st.ships_hand[ALLIES])
    assert len(fleet) == 9 and "done" not in legal(st), "they must place them before they are done"
    seas = {a.split()[2] for a in legal(st) if a.startswith(f"ship {fleet[0]} ")}
    assert seas == {"III", "IV", "V", "VI", "VII", "VIII"}
    for i, key in enumerate(fleet):
        act(st, f"ship {key} {('III', 'IV', 'V', 'VI', 'VII', 'VIII')[i % 6]}")
    assert not st.ships_hand[ALLIES] and st.fleet.where(fleet[0]) == "III" and not st.fleet.card(fleet[0]).face_up
    assert "done" in legal(st)


# ----- 7. ordinary movement at sea (8.1) ------------------------------------------------------------------------------
def first_round(german: Mapping[str, str], allied: Mapping[str, str], eidsvoll: str = "VII",
                country: str = GERMANY) -> KampenState:
    """Ships deployed on 9 April, nobody intercepting or landing; then `country`'s first sea movement."""
    st = game()
    april(st, german=german, allied=allied, eidsvoll=eidsvoll)
    pass_until(st, "sea_move", GERMANY)
    if country != GERMANY:
        act(st, "done")
        pass_until(st, "sea_move", country)
    return st


def test_a_ship_sails_up_to_two_sea_areas() -> None:
    st = first_round({HIPPER: "II"}, {})
    act(st, f"sail II III {HIPPER}")
    assert sorted(legal(st)) == ["done", "sail III II", "sail III IV", "sail III VIII"], "it may sail on"
    act(st, "sail III IV")
    assert st.fleet.where(HIPPER) == "IV"
    assert not any(HIPPER in a or a.startswith("sail IV") for a in legal(st)), "two areas: it stops"


def test_eidsvoll_sails_one_sea_area() -> None:
    st = first_round({}, {}, eidsvoll="VI", country=NORWAY)
    assert sorted(legal(st)) == ["done", f"sail VI V {EIDSVOLL}", f"sail VI VII {EIDSVOLL}",
                                 f"sail VI VIII {EIDSVOLL}"]
    act(st, f"sail VI V {EIDSVOLL}")
    assert legal(st) == ["done"]


def test_eidsvoll_cannot_intercept_after_9_april_but_germany_finds_it_without_a_roll() -> None:
    st = first_round({KARLSRUHE: "VI"}, {}, eidsvoll="VII", country=NORWAY)
    act(st, f"sail VII VI {EIDSVOLL}")
    assert st.step == "icept_ask" and st.current_player() == NORWAY and legal(st) == ["done"]
    act(st, "done", "intercept")
    assert st.step == "sea_move" and st.fleet.card(EIDSVOLL).fighting and st.fleet.card(KARLSRUHE).fighting
    act(st, "done")
    pass_until(st, "sea_fire")
    assert st.sea_battle is not None and st.sea_battle.attacker == ALLIES, "Norway's round: the Allied side attacks"


def test_allied_ships_never_sail_into_i_or_ii() -> None:
    st = first_round({}, {WARSPITE: "III"}, country=ALLIES)
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    assert not any(a.startswith("sail III II") for a in legal(st))
    assert {a.split()[2] for a in legal(st) if a.startswith("sail III IV")} == {"IV"}
    assert not any(a.split()[2] in ("I", "II") for a in legal(st) if a.startswith("sail "))


def test_allied_ships_are_never_deployed_in_i_or_ii() -> None:
    st = game()
    april(st, until="april_recon")
    act(st, "done")
    assert st.step == "deploy_allies"
    assert {a.split()[2] for a in legal(st)} == {"III", "IV", "V", "VI", "VII", "VIII"}

def test_entering_enemy_ships_the_mover_may_intercept_first_then_the_other_side() -> None:
    st = first_round({KARLSRUHE: "III", KOLN: "III"}, {WARSPITE: "IV"})
    act(st, "sail III IV")  # the group
    assert st.step == "icept_ask" and st.current_player() == GERMANY, "the mover first"
    act(st, "done")
    assert st.current_player() == ALLIES
    act(st, "intercept")
    assert st.chance_dice() == MixedDice((6, 6, 2, 1))
    roll(st, 5, 2, 1)  # one card found: the first of the two
    found = st.fleet.ships("IV", GERMANY)[0].key
    other = ({KARLSRUHE, KOLN} - {found}).pop()
    assert st.fleet.card(found).fighting and not st.fleet.card(other).fighting
    assert st.step == "sea_move"
    assert sorted(legal(st)) == ["done", "sail IV III", "sail IV V", "sail IV VIII"], \
        "the ship not found, with a move left, may sail on; the one found stops"
    act(st, "sail IV V")
    assert st.fleet.where(other) == "V" and st.fleet.where(found) == "IV"


def test_a_group_that_intercepts_stops_there() -> None:
    st = first_round({KARLSRUHE: "III", KOLN: "III"}, {WARSPITE: "IV"})
    act(st, "sail III IV", "intercept")
    roll(st, 1)  # Warspite is not found
    assert st.current_player() == ALLIES, "then the other side may try"
    assert sorted(legal(st)) == ["done", "intercept"], "ships that tried and found nothing may still be found"
    act(st, "done")
    assert st.step == "sea_move" and not any(a.startswith("sail IV") for a in legal(st)), \
        "its movement ends there, even after one area"
    act(st, "done")
    assert st.step == "move"
    pass_until(st, "reinforce", GERMANY)
    assert not st.fleet.card(KARLSRUHE).fighting and not st.fleet.card(KARLSRUHE).face_up, \
        "no battle (nothing was found): the interceptors hide again"


# ----- 8. 8.3 placement -----------------------------------------------------------------------------------------------
RICH_GERMAN_HAND = (G_FEINT, G_SMOKE, G_SAILORS, G_GEBIRGS, G_TRANSPORT)  # 10 symbols: 3 battalions + 1 free


def places(st: KampenState) -> set[str]:
    return {a.split()[1] for a in legal(st) if a.startswith("place ")}


def test_german_placement_free_seas_the_mined_coast_and_one_per_ship_on_controlled_seas() -> None:
    st = game()
    april(st, germany=RICH_GERMAN_HAND, german={KARLSRUHE: "V", KOLN: "V"}, allied={WARSPITE: "IV"})
    pass_until(st, "reinforce", GERMANY)
    act(st, *(f"exchange {k}" for k in RICH_GERMAN_HAND), "done")
    pass_until(st, "place")
    assert st.to_place == 4
    board = st.sc.board
    free = {a for a in board.land if not st.hostile(a, GERMANY)}
    expected = free & board.coastal({"I", "II", "III", "V"})
    assert places(st) == expected, "I and II; III (no Allied ships there or south); V (German ships); not IV"
    assert expected & board.coastal({"III"}) and expected & board.coastal({"V"})
    v = sorted(expected & board.coastal({"V"}))
    act(st, f"place {v[0]}")
    assert places(st) == expected, "two German ships in V: a second battalion may go there"
    act(st, f"place {v[1]}")
    assert places(st) == expected - board.coastal({"V"}), "Allied ships further south (IV): one per German ship"


def test_allied_placement_not_on_coasts_facing_german_controlled_seas() -> None:
    st = game()
    april(st, german={KARLSRUHE: "V"}, allied={WARSPITE: "IV"}, allies=(A_RECON, A_FORST0, A_FORST1))
    pass_until(st, "reinforce", ALLIES)
    act(st, f"exchange {A_FORST0}", f"exchange {A_FORST1}", "done")
    pass_until(st, "place", ALLIES)
    board = st.sc.board
    free = {a for a in board.land if not st.hostile(a, ALLIES)}
    assert places(st) == free & (board.coastal({"III", "IV", "VI", "VII"}) - board.coastal({"V"})), \
        "III-VII, but not V (German-controlled) and never I or II"


def test_german_placement_nowhere_north_of_allied_ships_without_german_control() -> None:
    st = game()
    april(st, germany=RICH_GERMAN_HAND, allied={WARSPITE: "III"})
    pass_until(st, "reinforce", GERMANY)
    act(st, "done")
    pass_until(st, "place")
    board = st.sc.board
    assert places(st) == {a for a in board.coastal({"I", "II"}) if not st.hostile(a, GERMANY)}


# ----- 9. the raiders' recall (7.2) -----------------------------------------------------------------------------------
def raiders_home() -> KampenState:
    """Scharnhorst and Blücher raid on 9 April; Germany's first hand holds Forsterkninger of 3 and 4 symbols."""
    st = game()
    april(st, german={SCHARNHORST: "VI", BLUCHER: "VII"},
          tops={GERMANY: ["germany_forsterkninger", "germany_forsterkninger"]})
    pass_until(st, "raid")
    act(st, f"raid {SCHARNHORST}", f"raid {BLUCHER}", "done")
    pass_until(st, "sea_move", GERMANY)
    return st


def test_recalling_the_raiders_costs_6_symbols_from_the_hand_then_the_raid_box_borders_vi_to_viii() -> None:
    st = raiders_home()
    assert not any(a.startswith("sail raid") for a in legal(st)), "the raiders stay until recalled"
    act(st, "recall")
    assert st.step == "recall_pay"
    act(st, "exchange germany_forsterkninger#0")
    assert st.step == "recall_pay", "3 symbols are not enough"
    act(st, "exchange germany_forsterkninger#1")
    assert st.step == "sea_move" and len(st.hands[GERMANY]) == 3
    assert st.used[GERMANY][-2:] == ["germany_forsterkninger#0", "germany_forsterkninger#1"]
    assert {a for a in legal(st) if a.startswith("sail raid") and a.endswith(SCHARNHORST)} == {
        f"sail raid {s} {SCHARNHORST}" for s in ("VI", "VII", "VIII")}
    assert "recall" not in legal(st)
    act(st, f"sail raid VI {SCHARNHORST}")
    assert "sail VI V" in legal(st), "the raid box counts as one sea area: one move left"
    act(st, "sail VI V")
    assert st.fleet.where(SCHARNHORST) == "V" and st.fleet.where(BLUCHER) == "raid"


def test_a_recalled_raider_sails_face_down() -> None:
    st = raiders_home()
    act(st, "recall", "exchange germany_forsterkninger#0", "exchange germany_forsterkninger#1")
    act(st, f"sail raid VIII {SCHARNHORST}", "done")
    assert st.fleet.where(SCHARNHORST) == "VIII"
    assert not st.fleet.card(SCHARNHORST).face_up
    assert {e["ship"] for e in st.view(ALLIES)["fleet"]["VIII"] if e["owner"] == GERMANY} == {None}


def test_the_recall_lasts_one_round() -> None:
    st = raiders_home()
    act(st, "recall", "exchange germany_forsterkninger#0", "exchange germany_forsterkninger#1")
    act(st, f"sail raid VIII {SCHARNHORST}", "done")
    act(st, "done")
    pass_until(st, "sea_move", NORWAY)
    pass_until(st, "sea_move", GERMANY)
    assert st.round == 4 and st.fleet.where(BLUCHER) == "raid"
    assert not any(a.startswith("sail raid") for a in legal(st)), "Blücher needs a new recall"


# ----- 10. the Allied deck runs out (5.2) -----------------------------------------------------------------------------
def test_when_the_allied_deck_runs_out_4_battalions_and_5_ships_leave_mostly_capital_ships() -> None:
    st = game()
    april(st, allies=(A_RECON, A_FORST0, A_FORST1), tops={ALLIES: ["allies_forsterkninger"] * 3})
    pass_until(st, "reinforce", ALLIES)
    act(st, f"exchange {A_FORST0}", f"exchange {A_FORST1}", f"exchange {A_RECON}", "done")
    pass_until(st, "sea_move", ALLIES)
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    del st.draw[ALLIES][1:]  # (a shortcut: the deck is nearly used up; 28 cards take many rounds to use)
    pass_until(st, "reinforce", ALLIES)
    act(st, *(f"exchange {k}" for k in list(st.hands[ALLIES])), "done")
    pass_until(st, "deck_removal")
    assert st.allies_out and st.removing == 4 and st.total(ALLIES) >= 4
    before = st.total(ALLIES)
    for _ in range(4):
        act(st, legal(st)[0])
    assert st.total(ALLIES) == before - 4
    assert st.step == "ship_withdrawal" and st.current_player() == ALLIES
    ships = {c.key for _s, c in st.fleet.all() if c.owner == ALLIES}
    assert len(ships) == 18 and {a.split()[1] for a in legal(st)} == ships, "any ship first"
    act(st, "withdraw york#0")
    assert not any(k in a for a in legal(st) for k in ("york", "devonshire", "suffolk", "berwick")), \
        "one heavy cruiser at most"
    act(st, f"withdraw {LIGHT}")
    kinds = {st.sc.cards.ships.ships[a.split()[1].split("#")[0]].type for a in legal(st)}
    assert kinds == {"battleship", "carrier"}, "the rest: battleships or carriers, while there are any"
    act(st, f"withdraw {WARSPITE}", f"withdraw {FURIOUS}", f"withdraw {RODNEY}")
    assert st.step != "ship_withdrawal"
    assert len([c for _s, c in st.fleet.all() if c.owner == ALLIES]) == 13


def test_an_allied_deck_that_runs_out_in_another_round_costs_its_battalions_and_ships_at_once() -> None:
    """2.4 and 5.2 say 'at once': a German raid that takes the Allies' last face-down cards makes the Allies
    remove 4 battalions and 5 ships before the German raid step goes on, not after phase 4 of some round."""
    st = game()
    april(st, german={SCHARNHORST: "VI", BLUCHER: "VIII"})
    pass_until(st, "raid")
    st.troops.setdefault("tromso", {})[ALLIES] = 3  # (a shortcut: Allied battalions already ashore)
    st.troops.setdefault("harstad", {})[ALLIES] = 2
    del st.draw[ALLIES][2:]  # (a shortcut: the Allied deck is down to two cards, what Scharnhorst's raid costs)
    act(st, f"raid {SCHARNHORST}")
    assert not st.draw[ALLIES] and st.allies_out
    assert st.step == "deck_removal" and st.current_player() == ALLIES and st.removing == 4
    assert sorted(legal(st)) == ["remove harstad", "remove tromso"]
    act(st, "remove tromso", "remove tromso", "remove tromso", "remove harstad")
    assert st.total(ALLIES) == 1
    assert st.step == "ship_withdrawal" and st.current_player() == ALLIES
    for _ in range(5):
        act(st, legal(st)[0])
    assert len([c for _s, c in st.fleet.all() if c.owner == ALLIES]) == 4
    assert st.step == "raid" and st.current_player() == GERMANY, "the raid step goes on where it was"
    assert f"raid {BLUCHER}" in legal(st) and f"raid {SCHARNHORST}" not in legal(st)
    act(st, f"raid {BLUCHER}", "done")
    assert st.step == "landing" and not st.removing and not st.flags.ships_out
    pass_until(st, "move", GERMANY)
    assert st.round == 1 and st.total(ALLIES) == 1, "nothing more is removed at the end of the round"


# ----- 11. 9 April cards (docs/kampen-cards.md section 4) -------------------------------------------------------------
def test_skip_til_unnsetning_brings_two_more_ships_from_those_set_aside() -> None:
    st = game()
    april(st, allies=(A_SHIPS, A_RECON, A_FORST0), until="april_select")
    assert st.step == "april_select" and legal(st) == [f"play {A_SHIPS}", "done"]
    reserve = list(st.reserve)
    act(st, f"play {A_SHIPS}")
    assert st.ships_hand[ALLIES] == ALLIED_NINE + reserve[:2] and st.reserve == reserve[2:]
    act(st, "place oslo", "place hamar", "place gjovik", f"ship {EIDSVOLL} VII")
    for key in list(st.ships_hand[GERMANY]):
        act(st, f"ship {key} I")
    act(st, "done")
    assert len(st.ships_hand[ALLIES]) == 11, "all eleven sail on 9 April"
    pass_until(st, "sea_move", GERMANY)
    assert sorted(st.ships_hand[ALLIES]) == sorted(reserve[2:]), "the Home Fleet brings 7"


def test_villedende_manover_shifts_two_german_cards_one_sea_area_each() -> None:
    st = game()
    april(st, germany=(G_FEINT, *G_CARDS[:4]), german={KARLSRUHE: "III", FALSE0: "III"},
          allied={WARSPITE: "III"}, until="april_feint")
    assert st.step == "april_feint" and st.current_player() == GERMANY
    act(st, f"play {G_FEINT}")
    moves = [a for a in legal(st) if a.endswith(KARLSRUHE)]
    assert sorted(moves) == [f"sail III {s} {KARLSRUHE}" for s in ("II", "IV", "VIII")], "to an adjacent area"
    act(st, f"sail III IV {KARLSRUHE}")
    assert not any(a.endswith(KARLSRUHE) for a in legal(st)), "each card shifts once"
    act(st, f"sail III II {FALSE0}")
    assert st.step == "april_redeploy", "two cards: done"
    assert st.fleet.where(KARLSRUHE) == "IV" and not st.fleet.card(KARLSRUHE).face_up
    act(st, "done")
    assert st.step == "move", "III holds no German card any more: nobody intercepts"


def test_omdisponering_moves_two_norwegian_battalions_to_free_points() -> None:
    st = game()
    april(st, norway=(N_REDEPLOY, N_FORT0, N_JAGERFLY), until="april_redeploy")
    assert st.step == "april_redeploy" and st.current_player() == NORWAY
    act(st, f"play {N_REDEPLOY}")
    targets = {a.split()[2] for a in legal(st) if a.startswith("move hamar ")}
    board = st.sc.board
    assert targets == (board.mobilisation_points | board.point_cities) - {"oslo", "hamar", "gjovik"}
    act(st, "move hamar bergen", "move finnmark trondheim")
    assert st.step != "redeploy_moves"
    assert st.at("bergen", NORWAY) == 1 and st.at("trondheim", NORWAY) == 1
    assert not st.at("hamar", NORWAY) and not st.at("finnmark", NORWAY)


def test_roykdekke_an_intercepted_german_ship_slips_away_and_does_not_fight() -> None:
    st = game()
    april(st, germany=(G_SMOKE, *G_CARDS[:4]), german={HIPPER: "III"}, allied={WARSPITE: "III"})
    act(st, "done", "intercept")
    roll(st, 5, 1)
    assert st.fleet.card(HIPPER).fighting
    assert st.step == "smoke" and st.current_player() == GERMANY
    act(st, f"play {G_SMOKE}")
    assert legal(st) == [f"withdraw {HIPPER}", "done"]
    act(st, f"withdraw {HIPPER}")
    assert not st.fleet.card(HIPPER).fighting and not st.fleet.card(HIPPER).face_up
    pass_until(st, "landing")
    assert st.fleet.where(HIPPER) == "III" and st.fleet.where(WARSPITE) == "III"
    assert not any(e.startswith("Sea battle") for _r, e in st.events)


def test_evakuerte_matroser_a_battalion_ashore_when_german_ships_are_sunk() -> None:
    st = game()
    april(st, germany=(G_SAILORS, *G_CARDS[:4]), german={HIPPER: "III"}, allied={WARSPITE: "III"})
    act(st, "intercept")
    roll(st, 5)
    pass_until(st, "sea_fire")
    roll(st, 1, 1)
    roll(st, 5, 1)  # Warspite sinks Admiral Hipper
    assert st.step == "sailors" and st.current_player() == GERMANY
    act(st, f"play {G_SAILORS}")
    assert {a for a in legal(st)} == {f"place {a} 1" for a in ("egersund", "haugesund", "stavanger")}
    act(st, "place egersund 1")
    assert st.at("egersund", GERMANY) == 1 and not st.fleet.where(HIPPER)


def test_transportfly_in_7_3_places_up_to_two_on_german_held_airfields() -> None:
    st = game()
    april(st, germany=RICH_GERMAN_HAND, german={KARLSRUHE: "V"}, allied={WARSPITE: "V", RODNEY: "IV"})
    pass_until(st, "landing")
    act(st, f"land {KARLSRUHE} trondheim", "done")
    pass_until(st, "resistance")
    roll(st, 1)  # too late: Trondheim is German
    pass_until(st, "reinforce", GERMANY)
    assert st.at("trondheim", GERMANY) == 1
    assert f"play {G_TRANSPORT}" in legal(st)
    act(st, f"play {G_TRANSPORT}", *(f"exchange {k}" for k in RICH_GERMAN_HAND if k != G_TRANSPORT), "done")
    pass_until(st, "place")
    assert st.to_place == 3 and "trondheim" in places(st), "V is shared with Allied ships: only by air"
    act(st, "place trondheim", "place trondheim")
    assert "trondheim" not in places(st), "two battalions at most"
    assert st.at("trondheim", GERMANY) == 3


def test_allied_ubat_in_7_3_cuts_one_german_reinforcement() -> None:
    st = game()
    april(st, allies=(A_UBAT, A_RECON, A_FORST0))
    pass_until(st, "reinforce", GERMANY)
    act(st, "done")
    assert st.step == "submarine" and st.current_player() == NORWAY, "each enemy is asked in turn, Norway first"
    act(st, "done")
    assert st.step == "submarine" and st.current_player() == ALLIES and st.to_place == 1
    act(st, f"play {A_UBAT}")
    assert st.to_place == 0 and st.step != "place"


def test_norwegian_ubat_in_7_3_cuts_one_german_reinforcement() -> None:
    st = game()
    april(st, norway=(N_UBAT, N_FORT0, N_JAGERFLY))
    pass_until(st, "reinforce", GERMANY)
    act(st, "done")
    assert st.step == "submarine" and st.current_player() == NORWAY
    act(st, f"play {N_UBAT}")
    assert st.to_place == 0 and st.step != "submarine", "nothing left to sink: the Allies are not asked"


# ----- 12. advanced card requirements (5.2, docs/kampen-cards.md section 3) -------------------------------------------
@pytest.mark.parametrize("carrier", [False, True], ids=["light-cruisers", "carrier"])
def test_bombefly_at_sea_needs_german_air_range_and_jagerfly_at_sea_an_allied_carrier(carrier: bool) -> None:
    allied = FURIOUS if carrier else LIGHT
    st = game()
    april(st, german={HIPPER: "III", KARLSRUHE: "II", KOLN: "V"}, allied={allied: "III", WARSPITE: "IV"},
          tops={GERMANY: ["germany_bombefly"], ALLIES: ["allies_jagerfly"]})
    pass_until(st, "landing")
    act(st, f"land {HIPPER} stavanger", "done")
    pass_until(st, "resistance")
    roll(st, 1)  # Stavanger and its airfield (Sola, facing III) are German
    pass_until(st, "sea_move", GERMANY)
    assert "germany_bombefly#0" in st.hands[GERMANY] and st.at("stavanger", GERMANY)
    act(st, f"sail II III {KARLSRUHE}", "intercept")
    roll(st, 5)
    act(st, "done", f"sail V IV {KOLN}", "intercept")
    roll(st, 5)
    act(st, "done", "done")
    pass_until(st, "sea_pick")
    assert sorted(legal(st)) == ["sea III", "sea IV"], "the attacker picks the order"
    act(st, "sea IV")
    assert st.step == "sea_attack_cards" and legal(st) == ["done"], "no German airfield faces IV"
    act(st, "done")
    pass_until(st, "sea_attack_cards")
    assert st.sea_battle is not None and st.sea_battle.sea == "III"
    assert legal(st) == ["play germany_bombefly#0", "done"], "Sola faces III"
    act(st, "play germany_bombefly#0", "done")
    assert st.step == "sea_defend_cards" and st.current_player() == ALLIES
    assert ("play allies_jagerfly#0" in legal(st)) == carrier, "Jagerfly at sea needs a carrier there"
    act(st, "done")
    pass_until(st, "sea_strike")
    roll(st, 6, 1)  # the bombers sink the Allied ship
    assert [(h.target, h.outcome) for h in st.sea_battle.hits] == [(allied, "sink")]


def test_invasjon_needs_allied_sea_control_of_a_sea_the_target_faces() -> None:
    st = game()
    april(st, german={KARLSRUHE: "III"}, allied={LIGHT: "III", WARSPITE: "IV"},
          tops={ALLIES: ["allies_invasjon", "allies_forsterkninger", "allies_forsterkninger"]})
    pass_until(st, "sea_move", ALLIES)
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    act(st, "done")
    act(st, "play allies_invasjon#0", "exchange allies_forsterkninger#0", "done")
    assert st.step == "invasion_landing"
    assert places(st) == set(st.sc.board.coastal({"IV"})), "IV is Allied; III is shared; V-VII hold no ship"


@pytest.mark.parametrize("ship_stays", [True, False], ids=["allied-ship-off-the-coast", "no-allied-ship"])
def test_kystevakuering_and_kystbombardement_need_an_allied_ship_off_the_coast(ship_stays: bool) -> None:
    st = game()
    april(st, german={KOLN: "IV"}, allied={WARSPITE: "IV"}, allies=(A_RECON, A_FORST0, A_FORST1),
          tops={ALLIES: ["allies_kystevakuering", "allies_kystbombardement", "allies_forsterkninger"]})
    pass_until(st, "landing")
    act(st, f"land {KOLN} bergen", "done")
    pass_until(st, "resistance")
    roll(st, 1)
    pass_until(st, "reinforce", ALLIES)
    act(st, f"exchange {A_FORST0}", f"exchange {A_FORST1}", f"exchange {A_RECON}", "done")
    pass_until(st, "place", ALLIES)
    act(st, "place forde", "place forde", "place namsos")
    pass_until(st, "sea_move", ALLIES)
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    if not ship_stays:
        act(st, f"sail IV VIII {WARSPITE}", "done")
    act(st, "done")
    assert st.step == "move" and st.at("bergen", GERMANY) and st.at("forde", ALLIES) == 2
    if ship_stays:
        act(st, "play allies_kystevakuering#0")
        sources = {a.split()[1] for a in legal(st)}
        assert sources == {"forde"}, "Forde faces IV (Warspite); Namsos faces V, where no Allied ship lies"
        act(st, "move forde alesund 1")
    else:
        assert "play allies_kystevakuering#0" not in legal(st)
    act(st, "move forde bergen 1", "done")
    pass_until(st, "attack_cards")
    assert st.battle is not None and st.battle.area == "bergen" and st.current_player() == ALLIES
    assert ("play allies_kystbombardement#0" in legal(st)) == ship_stays


def test_jagerfly_needs_allied_battalions_in_the_drop_area_or_a_carrier_off_its_coast() -> None:
    st = game()
    april(st, allied={FURIOUS: "III"},
          tops={GERMANY: ["germany_fallskjermtropp"] * 2, ALLIES: ["allies_jagerfly"]})
    pass_until(st, "sea_move", GERMANY)
    act(st, "done", "play germany_fallskjermtropp#0", "place drammen 1")
    assert st.step == "drop_answer" and st.current_player() == ALLIES
    assert legal(st) == ["done"], "no Allied battalion in Drammen and no carrier off its coast (I)"
    act(st, "done")
    act(st, "play germany_fallskjermtropp#1", "place egersund 1")
    assert legal(st) == ["play allies_jagerfly#0", "done"], "the carrier Furious lies in III, off Egersund"


def test_eidsvoll_beside_allied_ships_does_not_take_away_allied_sea_control() -> None:
    st = game()
    april(st, allied={WARSPITE: "IV"}, eidsvoll="IV",
          tops={ALLIES: ["allies_invasjon", "allies_forsterkninger", "allies_forsterkninger"]})
    pass_until(st, "sea_move", ALLIES)
    for key in list(st.ships_hand[ALLIES]):
        act(st, f"ship {key} VIII")
    act(st, "done")
    assert "play allies_invasjon#0" in legal(st)
    act(st, "play allies_invasjon#0", "exchange allies_forsterkninger#0", "done")
    assert places(st) == set(st.sc.board.coastal({"IV"}))


# ----- review findings -------------------------------------------------------------------------------------------
def test_germany_beaten_on_9_april_is_not_eliminated_before_its_reinforcements() -> None:
    st = game()
    april(st, german_rest="VIII", allied_rest="VI")
    pass_until(st, "move", GERMANY)
    act(st, f"play {G_PARA0}", "place oslo 1")
    pass_until(st, "attack_roll")
    roll(st, 1)
    roll(st, 6)  # Norway's 6 eliminates the only German battalion on the board
    assert not st.terminal, "Germany's 9 April reinforcements are still to come"
    assert st.total(GERMANY) == 0
    pass_until(st, "place", GERMANY)
    assert st.to_place >= 1, "the free battalion arrives in 7.3"


def test_a_false_ship_carries_no_reinforcement_under_8_3() -> None:
    st = game()
    april(st, german={FALSE0: "IV"}, german_rest="I", allied={WARSPITE: "III"}, allied_rest="VIII")
    pass_until(st, "place", GERMANY)
    assert not {"alesund", "forde", "sogndal"} & places(st), "IV is German-controlled by a false ship only"



def test_refusals_name_the_rule() -> None:
    st = game()
    april(st, until="april_select")
    act(st, "done", "place oslo", "place hamar", "place gjovik")
    with pytest.raises(IllegalActionError, match="any sea area but VIII"):
        act(st, f"ship {EIDSVOLL} VIII")
    act(st, "ship Eidsvoll_Norge VII")  # ship names are not case-sensitive
    with pytest.raises(IllegalActionError, match="no ship card 'bismarck#0'"):
        act(st, "ship bismarck I")
    for key in list(st.ships_hand[GERMANY]):
        act(st, f"ship {key} I")
    act(st, "done")
    with pytest.raises(IllegalActionError, match="never enter sea areas I and II"):
        act(st, f"ship {WARSPITE} II")
    with pytest.raises(IllegalActionError, match="unknown sea area 'IX'"):
        act(st, f"ship {WARSPITE} IX")
    assert WARSPITE in st.ships_hand[ALLIES], "a refused action changes nothing"


def test_a_home_fleet_ship_arriving_among_german_ships_may_intercept_and_sails_no_further() -> None:
    st = game()
    april(st, german={KARLSRUHE: "IV"})
    pass_until(st, "sea_move", ALLIES)
    key = st.ships_hand[ALLIES][0]
    act(st, f"ship {key} IV")
    assert st.step == "icept_ask" and st.current_player() == ALLIES, "arriving is entering: the Allies may try"
    act(st, "done")
    assert st.current_player() == GERMANY, "then Germany may try"
    act(st, "done")
    assert st.step == "sea_move" and not any(a.startswith("sail IV ") and a.endswith(key) for a in legal(st)), \
        "the arrival was its move for the round"
