"""The Kampen om Norge card set (`rulesets/kampen/cards.py`, `scenarios/data/kampen/cards.toml` and
`ships.toml`): the bundled data loads, the decks add up, everything the digest states holds, the worked
examples come out as written with the designed effects, and malformed data is refused with messages
naming the problem."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from warroom.core.errors import ScenarioError
from warroom.rulesets.kampen.cards import (
    APRIL9_CHOOSE,
    DECK_SIZES,
    EFFECTS,
    OWNERS,
    STEPS,
    Card,
    CardSet,
    CardUse,
    deck_cards,
    load_cards,
    parse_cards,
    parse_ships,
    ship_cards,
)

DATA = Path(__file__).resolve().parents[2] / "warroom" / "scenarios" / "data" / "kampen"


@pytest.fixture(scope="module")
def cs() -> CardSet:
    return load_cards(DATA)


def raw(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"))


def card(cs: CardSet, owner: str, name: str, deck: str = "play") -> Card:
    found = [c for c in cs.cards.values() if c.owner == owner and c.name == name and c.deck == deck]
    assert len(found) == 1, (owner, name, deck)
    return found[0]


def use(c: Card, step: str, effect: str = "", timing: str = "") -> CardUse:
    found = [u for u in c.uses_at(step) if effect in ("", u.effect) and timing in ("", u.timing)]
    assert len(found) == 1, (c.id, step, effect, timing)
    return found[0]


# ----- the bundled data -----------------------------------------------------------------------------------


def test_bundled_cards_load(cs: CardSet) -> None:
    assert len(cs.cards) == 46  # (name, owner, deck) entries, Appendix A
    assert len({c.name for c in cs.cards.values()}) == 35  # the rulebook's 35 card names
    assert len({c.name for c in cs.cards.values() if c.deck == "play"}) == 25
    assert all(u.effect in EFFECTS and u.step in STEPS for c in cs.cards.values() for u in c.uses)


def test_deck_totals(cs: CardSet) -> None:
    for owner in OWNERS:
        play = deck_cards(cs.cards, owner, "play")
        assert len(play) == DECK_SIZES[owner]
        assert len({c.key for c in play}) == len(play)
        assert [c.symbols for c in play if c.card == play[0].card] == list(cs.cards[play[0].card].symbols)
        assert len(deck_cards(cs.cards, owner, "april9")) >= APRIL9_CHOOSE[owner] + 1  # a real choice
    assert (len(cs.deck("germany")), len(cs.deck("norway")), len(cs.deck("allies"))) == (62, 22, 28)
    assert sum(len(cs.deck(o, "april9")) for o in OWNERS) == 22  # Appendix K6


def test_every_card_has_symbols_and_says_why(cs: CardSet) -> None:
    for c in cs.cards.values():
        assert len(c.symbols) == c.copies and min(c.symbols) >= 1, c.id
        assert c.assumption, c.id
        assert c.text
        for u in c.uses:
            assert u.assumption or u.stated, c.id
            assert u.text


def test_reinforcement_symbols_of_the_examples(cs: CardSet) -> None:
    assert 5 in card(cs, "germany", "Forsterkninger").symbols  # Example 1
    assert 7 in card(cs, "allies", "Forsterkninger").symbols  # Example 2
    assert 2 in card(cs, "allies", "Kystevakuering").symbols  # Example 2
    assert 7 // 3 + 2 // 3 < (7 + 2) // 3 == 3  # Example 2: symbols add up across cards before dividing


# ----- timings: the Appendix A.5 matrix and the 9 April lists -------------------------------------------------

G, N, A = "germany", "norway", "allies"
PLAY_MATRIX: dict[tuple[str, str], dict[str, set[str]]] = {
    ("move", "play"): {G: {"Fallskjermtropp", "Rask forflytning", "Transportfly"}, N: {"Togtransport"},
                       A: {"Invasjon", "Kystevakuering"}},
    ("move", "stop"): {A: {"Jagerfly"}},
    ("sabotage", "stop"): {N: {"Sprengt bro", "Togtransport", "Veisperring"}},
    ("sabotage_counter", "react"): {G: {"Ingeniørkompani"}},
    ("attack_cards", "play"): {
        G: {"Artilleri", "Bombefly", "Gebirgsjäger", "Jagerbomber", "Panzer", "Speidertropp"}, N: {"Bakhold"},
        A: {"Fransk alpejeger", "Fremmedlegionær", "Kystbombardement", "Polsk bergjeger", "Stridsvogn"}},
    ("defend_cards", "stop"): {
        G: {"Artilleri", "Gebirgsjäger", "Ingeniørkompani", "Panzer"}, N: {"Bakhold", "Panservernkanon"},
        A: {"Fransk alpejeger", "Fremmedlegionær", "Jagerfly", "Polsk bergjeger", "Stridsvogn", "Panservernkanon"}},
    ("react_cards", "react"): {G: {"Jagerbomber", "Speidertropp"}, N: {"Panservernkanon"}, A: {"Panservernkanon"}},
    ("removal", "stop"): {A: {"Kystevakuering"}},
    ("removal", "react"): {A: {"Kystevakuering"}},
    ("retreat", "stop"): {A: {"Kystevakuering"}},
    ("retreat", "react"): {A: {"Kystevakuering"}},
    ("reinforce", "play"): {G: {"Transportfly"}},
    ("opponent_reinforce", "stop"): {G: {"Ubåt"}, A: {"Ubåt"}},
    ("sea_attack_cards", "play"): {G: {"Bombefly", "Ubåt"}, A: {"Ubåt"}},
    ("sea_defend_cards", "stop"): {G: {"Ubåt"}, A: {"Jagerfly", "Ubåt"}},
    ("sea_react_cards", "react"): {G: {"Jagerbomber"}},
}
APRIL_MATRIX: dict[tuple[str, str], dict[str, set[str]]] = {
    ("april_select", "april"): {A: {"Skip til unnsetning"}},
    ("april_deploy", "april"): {G: {"Villedende manøver"}, N: {"Omdisponering"}, A: {"Rekognoseringsfly"}},
    ("interception", "april_stop"): {G: {"Røykdekke"}},
    ("move", "april"): {G: {"Fallskjermtropp"}},
    ("move", "april_stop"): {N: {"Jagerfly"}},
    ("sea_removal", "april_stop"): {G: {"Evakuerte matroser"}},
    ("sea_defend_cards", "april"): {A: {"Stupbombefly"}},
    ("landing", "april_stop"): {N: {"Kystfort"}, A: {"Minelegging"}},
    ("attack_cards", "april"): {G: {"Bloff/trusler", "Bombefly", "Gebirgsjäger"}},
    ("reinforce", "april"): {G: {"Transportfly"}},
    ("opponent_reinforce", "april_stop"): {N: {"Ubåt"}, A: {"Ubåt"}},
}


def offered(cs: CardSet, deck: str) -> dict[tuple[str, str], dict[str, set[str]]]:
    out: dict[tuple[str, str], dict[str, set[str]]] = {}
    for c in cs.cards.values():
        if c.deck == deck:
            for u in c.uses:
                out.setdefault((u.step, u.timing), {}).setdefault(c.owner, set()).add(c.name)
    return out


@pytest.mark.parametrize(("deck", "matrix"), [("play", PLAY_MATRIX), ("april9", APRIL_MATRIX)])
def test_timings_follow_the_stated_matrix(cs: CardSet, deck: str, matrix: dict[tuple[str, str],
                                                                               dict[str, set[str]]]) -> None:
    """Appendix A.5 (play cards) and the 7.0-7.3 card lists (9 April cards), exactly: no missing and no
    extra use."""
    assert offered(cs, deck) == matrix


def test_card_illustration_footnotes(cs: CardSet) -> None:
    geb = card(cs, G, "Gebirgsjäger")
    assert [(u.phase, u.timing) for u in geb.uses] == [(2, "play"), (2, "stop")]  # footnote 1
    assert [(u.phase, u.timing) for u in card(cs, N, "Sprengt bro").uses] == [(1, "stop")]  # footnote 2
    pvk = card(cs, A, "Panservernkanon")  # footnote 3: effect 1 stop; effect 2 stop and react
    assert use(pvk, "defend_cards", "extra_dice").timing == "stop"
    assert {(u.step, u.timing) for u in pvk.uses if u.effect == "cancel"} == {("defend_cards", "stop"),
                                                                              ("react_cards", "react")}
    assert [(u.phase, u.timing) for u in card(cs, G, "Fallskjermtropp").uses] == [(1, "play")]  # footnote 4


def test_ship_and_coast_restrictions(cs: CardSet) -> None:
    """2.3: no Invasjon, Kystbombardement or Kystevakuering on a coast facing I or II; 5.2: those and
    Jagerfly carry extra requirements in the advanced game."""
    for name in ("Invasjon", "Kystbombardement", "Kystevakuering"):
        c = card(cs, A, name)
        assert c.uses and all("allied_coast" in u.requires for u in c.uses), name
    extra = {c.name for c in cs.cards.values() if c.advanced_requires}
    assert extra == {"Jagerfly", "Kystbombardement", "Kystevakuering", "Invasjon"}


def test_only_jagerfly_fights_where_its_owner_has_no_battalions(cs: CardSet) -> None:
    anywhere = {(c.owner, c.name) for c in cs.cards.values() for u in c.uses if u.anywhere}
    assert anywhere == {(A, "Jagerfly")}
    assert use(card(cs, A, "Jagerfly"), "defend_cards").anywhere


def test_bombefly_and_jagerbomber_are_one_type(cs: CardSet) -> None:
    assert card(cs, G, "Bombefly").type == card(cs, G, "Jagerbomber").type == "bombefly"
    by_type: dict[str, set[str]] = {}
    for c in cs.cards.values():
        by_type.setdefault(c.type, set()).add(c.name)
    shared = {t: names for t, names in by_type.items() if len(names) > 1}
    assert shared == {"bombefly": {"Bombefly", "Jagerbomber"}}


def cancels(c: Card) -> set[str]:
    return {t for u in c.uses if u.effect == "cancel" for t in u.names("targets")}


def test_stated_and_inferred_counters(cs: CardSet) -> None:
    ing = use(card(cs, G, "Ingeniørkompani"), "sabotage_counter")
    assert (ing.phase, ing.timing, set(ing.names("targets"))) == (1, "react", {"veisperring", "sprengt_bro"})
    assert cancels(card(cs, G, "Speidertropp")) == {"bakhold"}  # Example 1
    assert cancels(card(cs, A, "Jagerfly")) == {"bombefly"}  # Example 3
    assert cancels(card(cs, G, "Jagerbomber")) == {"jagerfly"}  # Example 3
    assert cancels(card(cs, A, "Panservernkanon")) == cancels(card(cs, N, "Panservernkanon")) == {"panzer"}


def test_designed_numbers_the_issue_names(cs: CardSet) -> None:
    panzer = use(card(cs, G, "Panzer"), "attack_cards")
    assert (panzer.dice(no_land_route=True), panzer.dice(no_land_route=False)) == (1, 2)  # Examples 1 and 3
    assert use(card(cs, N, "Bakhold"), "defend_cards").dice() == 2
    rask = use(card(cs, G, "Rask forflytning"), "move")
    assert (rask.effect, rask.count("battalions"), rask.count("areas")) == ("extra_move", 2, 2)
    kyst = card(cs, N, "Kystfort", "april9")
    k = use(kyst, "landing")
    assert (k.effect, k.timing, k.requires) == ("coastal_fort", "april_stop", ("point_city",))
    table = cs.ships.rolls[str(k.params["roll"])]
    assert (table.outcomes["sink"], table.outcomes["bar"]) == ((6,), (4, 5))  # Appendix G best reading
    assert [table.outcome(f) for f in range(1, 7)] == ["", "", "", "bar", "bar", "sink"]


# ----- the worked examples, played with the designed effects ------------------------------------------------

Play = tuple[str, str, str, str]  # side, card id, step, effect


def resolve(cs: CardSet, plays: list[Play]) -> list[tuple[str, Card, CardUse, bool]]:
    """The cancellation rules of docs/kampen-cards.md: one card per type per side and step; a cancel hits
    the latest enemy card of its target types; a cancelled canceller restores its target."""
    stack: list[tuple[str, Card, CardUse, str]] = []
    target: dict[int, int] = {}
    for side, cid, step, effect in plays:
        c = cs.cards[cid]
        assert not any(s == side and st == step and k.type == c.type for s, k, _, st in stack), "one per type"
        u = use(c, step, effect)
        if u.effect == "cancel":
            hits = [j for j, (s, k, _, _) in enumerate(stack) if s != side and k.type in u.names("targets")]
            assert hits, f"{cid} has nothing to cancel"
            target[len(stack)] = hits[-1]
        stack.append((side, c, u, step))
    active = [True] * len(stack)
    for k in reversed(range(len(stack))):
        if active[k] and k in target:
            active[target[k]] = False
    return [(s, c, u, active[i]) for i, (s, c, u, _) in enumerate(stack)]


def card_dice(cs: CardSet, plays: list[Play], no_land_route: bool) -> dict[str, int]:
    out = {"attacker": 0, "defender": 0}
    for side, _, u, active in resolve(cs, plays):
        if active and u.effect == "extra_dice":
            out[side] += u.dice(no_land_route)
    return out


def test_example_1_panzer_plus_one_and_bakhold_cancelled(cs: CardSet) -> None:
    """3 Germans attack Hamar across Mjosa (the Kongsvinger battalion was sent back by Veisperring):
    1 battalion die + Panzer 1; Norway 1 + Bakhold 2, cancelled by Speidertropp: 2 dice against 1."""
    veis = use(card(cs, N, "Veisperring"), "sabotage")
    assert veis.names("borders") == ("land",)  # Kongsvinger-Hamar is a land border, Gjovik-Hamar a lake
    plays: list[Play] = [
        ("attacker", "germany_panzer", "attack_cards", "extra_dice"),
        ("defender", "norway_bakhold", "defend_cards", "extra_dice"),
        ("attacker", "germany_speidertropp", "react_cards", "cancel"),
    ]
    dice = card_dice(cs, plays, no_land_route=True)
    assert (3 // 2 + dice["attacker"], 1 + dice["defender"]) == (2, 1)


def test_example_3_panzer_plus_two_and_jagerfly(cs: CardSet) -> None:
    """Narvik: one attacker from Tysfjord over land, one paratrooper; Bombefly and Panzer; Jagerfly
    cancels Bombefly: 2 + 2 = 4 dice. With a Jagerbomber in step 3 (allowed: the type limit is per step)
    Bombefly would have counted again; with a Panservernkanon, Panzer would have been cancelled."""
    base: list[Play] = [
        ("attacker", "germany_bombefly", "attack_cards", "extra_dice"),
        ("attacker", "germany_panzer", "attack_cards", "extra_dice"),
        ("defender", "allies_jagerfly", "defend_cards", "cancel"),
    ]
    assert 2 + card_dice(cs, base, no_land_route=False)["attacker"] == 4
    jb: Play = ("attacker", "germany_jagerbomber", "react_cards", "cancel")
    assert 2 + card_dice(cs, [*base, jb], no_land_route=False)["attacker"] == 6
    pvk: Play = ("defender", "allies_panservernkanon", "defend_cards", "cancel")
    assert 2 + card_dice(cs, [*base, pvk], no_land_route=False)["attacker"] == 2
    with pytest.raises(AssertionError, match="one per type"):
        resolve(cs, [*base[:2], ("attacker", "germany_jagerbomber", "attack_cards", "extra_dice")])


def test_example_3_other_cards(cs: CardSet) -> None:
    evac = use(card(cs, A, "Kystevakuering"), "removal", "save_eliminated", "stop")
    assert evac.count("battalions") == 1  # one of two eliminated saved to Tromso
    fj = use(card(cs, G, "Fallskjermtropp"), "move")
    assert (fj.effect, fj.count("battalions"), fj.requires) == ("paradrop", 1, ("air_range",))
    tf = use(card(cs, G, "Transportfly"), "reinforce")
    assert (tf.phase, tf.effect) == (3, "airfield_reinforce") and tf.count("battalions") >= 1


def test_example_4_nine_april(cs: CardSet) -> None:
    rolls, types = cs.ships.rolls, cs.ships.types

    def names(owner: str) -> list[str]:
        return [cs.cards[c.card].name for c in cs.deck(owner, "april9")]

    assert names(G).count("Fallskjermtropp") >= 2
    assert {"Bombefly", "Bloff/trusler", "Gebirgsjäger"} <= set(names(G))
    assert {"Kystfort", "Jagerfly", "Ubåt"} <= set(names(N))
    assert {"Rekognoseringsfly", "Stupbombefly", "Forsterkninger"} <= set(names(A))
    assert [rolls["reconnaissance"].outcome(f) for f in (6, 2)] == ["success", ""]
    assert [rolls["interception"].outcome(f) for f in (5, 3)] == ["success", ""]
    assert use(card(cs, N, "Jagerfly", "april9"), "move").effect == "divert_airdrop"
    dive = use(card(cs, A, "Stupbombefly", "april9"), "sea_defend_cards")
    assert rolls[str(dive.params["roll"])].outcome(3) == ""
    assert types["heavy_cruiser"].outcome(1) == ""  # Admiral Hipper rolls 1
    assert types["battleship"].outcome(5) == "sink"  # Warspite rolls 5
    assert types["battleship"].rank < types["smaller"].rank  # Warspite fires first
    assert types[cs.ships.ships["admiral_hipper"].type].card_loss == 1
    assert rolls["resistance"].outcome(6) == "success"
    bluff = use(card(cs, G, "Bloff/trusler", "april9"), "attack_cards")
    assert rolls[str(bluff.params["roll"])].outcome(3) == "success" and bluff.count("max_defenders") >= 1


def test_ships(cs: CardSet) -> None:
    ships, types = cs.ships.ships, cs.ships.types
    assert len(ship_cards(ships, A)) == 18
    assert len(ship_cards(ships, G)) == 17  # Appendix K8
    assert len(ship_cards(ships, N)) == 1
    assert sum(len(ship_cards(ships, o)) for o in OWNERS) == 36  # the box's ship cards (K8)
    assert ships["warspite"].type == "battleship" and ships["blucher"].type == "heavy_cruiser"
    assert [types[t].card_loss for t in ("battleship", "carrier", "heavy_cruiser", "smaller",
                                         "coastal_defence")] == [2, 2, 1, 1, 0]
    assert {t.id for t in types.values() if t.raid_loss} == {"battleship", "heavy_cruiser"}
    en = types[ships["eidsvoll_norge"].type]
    assert (en.move, en.face_up, en.chased_is_sunk, en.intercept, en.intercept_april9) == (1, True, True, False,
                                                                                           True)
    assert en.sink == () and en.card_loss == 0
    assert all(types[s.type].false_ship is False or s.owner == G for s in ships.values())
    big = sum(1 for s in ship_cards(ships, A) if ships[s.ship].type in ("battleship", "carrier"))
    assert big >= 3  # the 5-ship removal (5.2): at most one smaller and one heavy cruiser


# ----- malformed data ---------------------------------------------------------------------------------------


def first(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in data["card"] if c["id"] == card_id)


def problems_of(mutate: Callable[[dict[str, Any]], None], rolls: bool = True) -> list[str]:
    data = copy.deepcopy(raw("cards.toml"))
    mutate(data)
    known: Mapping[str, Any] | None = load_cards(DATA).ships.rolls if rolls else None
    with pytest.raises(ScenarioError) as info:
        parse_cards(data, "cards.toml", known)
    return info.value.problems


def test_unknown_effect_is_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        first(d, "germany_panzer")["use"][0]["effect"] = "teleport"
    msgs = problems_of(m)
    assert any("germany_panzer" in p and "'effect'" in p and "'teleport'" in p for p in msgs), msgs


def test_missing_and_unknown_parameters_are_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        del first(d, "germany_panzer")["use"][0]["dice"]
        first(d, "norway_bakhold")["use"][0]["range"] = 3
    msgs = problems_of(m)
    assert any("effect 'extra_dice' needs parameter 'dice'" in p for p in msgs), msgs
    assert any("effect 'extra_dice' takes no parameter 'range'" in p for p in msgs), msgs


def test_bad_parameter_values_are_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        first(d, "germany_speidertropp")["use"][1]["targets"] = ["bakhald"]
        first(d, "germany_artilleri")["use"][0]["dice"] = "two"
        first(d, "allies_april_stupbombefly")["use"][0]["roll"] = "torpedo"
    msgs = problems_of(m)
    assert any("'bakhald' is not a known type" in p for p in msgs), msgs
    assert any("parameter 'dice': expected a whole number of dice" in p for p in msgs), msgs
    assert any("roll 'torpedo' is not a [roll.*] table" in p for p in msgs), msgs


def test_wrong_deck_total_is_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        panzer = first(d, "germany_panzer")
        panzer["copies"], panzer["symbols"] = 6, panzer["symbols"][:6]
    msgs = problems_of(m)
    assert any("the germany play deck has 61 cards; the rulebook says 62" in p for p in msgs), msgs


def test_symbols_copies_mismatch_is_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        first(d, "norway_bakhold")["symbols"] = [1, 1, 1, 2, 2]
        first(d, "allies_jagerfly")["symbols"] = [1, 0, 2, 2]
    msgs = problems_of(m)
    assert any("norway_bakhold" in p and "5 values for 6 copies" in p for p in msgs), msgs
    assert any("allies_jagerfly" in p and "at least one reinforcement symbol" in p for p in msgs), msgs


def test_missing_assumption_is_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        del first(d, "germany_panzer")["assumption"]
        rask = first(d, "germany_rask_forflytning")["use"][0]
        del rask["assumption"], rask["stated"]
    msgs = problems_of(m)
    assert any("germany_panzer" in p and "missing key 'assumption'" in p for p in msgs), msgs
    assert any("germany_rask_forflytning" in p and "missing key 'assumption'" in p for p in msgs), msgs


def test_timing_and_step_mismatches_are_refused() -> None:
    def m(d: dict[str, Any]) -> None:
        first(d, "germany_panzer")["use"][0]["timing"] = "stop"  # attack_cards offers only play
        first(d, "germany_bombefly")["use"][1]["advanced"] = False  # a sea step in the basic game
        first(d, "norway_bakhold")["use"][1]["anywhere"] = True  # fine: a battle step ...
        first(d, "norway_togtransport")["use"][0]["anywhere"] = True  # ... but not at 'move'
        first(d, "norway_april_kystfort")["use"][0]["timing"] = "stop"  # a play timing on a 9 April card
        first(d, "germany_artilleri")["use"][0]["phase"] = 3
    msgs = problems_of(m)
    assert any("timing 'stop' is not offered at step 'attack_cards'" in p for p in msgs), msgs
    assert any("exists only in the advanced game" in p for p in msgs), msgs
    assert any("'anywhere'" in p and "'move'" in p for p in msgs), msgs
    assert not any("norway_bakhold" in p for p in msgs), msgs
    assert any("timing 'stop' on a 9 April card" in p for p in msgs), msgs
    assert any("step 'attack_cards' belongs to phase 2, not phase 3" in p for p in msgs), msgs


def test_every_problem_is_reported_at_once() -> None:
    def m(d: dict[str, Any]) -> None:
        first(d, "germany_panzer")["use"][0]["effect"] = "teleport"
        first(d, "norway_bakhold")["symbols"] = [1]
        del first(d, "allies_ubat")["assumption"]
        first(d, "allies_invasjon")["owner"] = "sweden"
    msgs = problems_of(m)
    assert len(msgs) >= 5, msgs  # + the deck totals the bad owner upsets


def test_rolls_are_checked_only_when_known() -> None:
    data = raw("cards.toml")
    first(data, "allies_april_stupbombefly")["use"][0]["roll"] = "torpedo"
    assert parse_cards(data, "cards.toml")  # without ships.toml the roll name cannot be checked


def test_malformed_ships_are_refused() -> None:
    data = copy.deepcopy(raw("ships.toml"))
    data["ship"] = [s for s in data["ship"] if s["id"] != "york"]
    data["roll"]["bluff"]["success"] = [3, 4, 7]
    data["roll"]["kystfort"]["bar"] = [5, 6]  # 6 already sinks
    del data["roll"]["mines"]["assumption"]
    del data["ship_type"]["false"]
    data["ship"].append({"id": "ark_royal", "name": "Ark Royal", "owner": "germany", "type": "carrier",
                         "assumption": "x"})
    with pytest.raises(ScenarioError) as info:
        parse_ships(data, "ships.toml")
    msgs = info.value.problems
    for needle in ("the Allies have 17 ship cards; the rulebook says 18", "distinct die faces 1-6",
                   "faces [6] give two outcomes", "missing key 'assumption'", "missing ship type 'false'",
                   "only the Allies have carriers"):
        assert any(needle in p for p in msgs), (needle, msgs)


def test_load_cards_reports_missing_files(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text((DATA / "cards.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"ships\.toml: no such file"):
        load_cards(tmp_path)
    (tmp_path / "ships.toml").write_text("[roll\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_cards(tmp_path)


def test_the_spec_documents_every_handler_step_and_card(cs: CardSet) -> None:
    """docs/kampen-cards.md is the engine's spec: each handler, step and card name appears in it."""
    doc = (DATA.parents[3] / "docs" / "kampen-cards.md").read_text(encoding="utf-8")
    for name in [*EFFECTS, *STEPS]:
        assert f"`{name}`" in doc, name
    for c in cs.cards.values():
        assert f"**{c.name}**" in doc, c.name
