"""The searching bot (`ai.mcts`): its budget, chance handled as chance, determinism, and secrets kept.

The toy games here are small enough to know the best decision exactly; the twin tests play the real systems on
positions that differ only in what the searching side cannot see.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

import pytest
from depth import deep

from warroom import rulesets
from warroom.ai import MCTSBot, bot_problem, make_bot
from warroom.ai.mcts import Budget, Search, parse_budget, search_for
from warroom.core.dice import Dice, Roll
from warroom.core.state import CHANCE, TERMINAL
from warroom.rulesets.firestorm.state import FirestormState
from warroom.rulesets.kampen.state import KampenState
from warroom.scenarios import load_game
from warroom.sim.walk import decisions


@dataclass(frozen=True, slots=True)
class Word:
    text: str

    def to_str(self) -> str:
        return self.text


class Toy:
    """A one-decision game for side 'a' against nobody: `choices` maps a word to either a fixed value, or 'roll'
    (a d6 follows) with `after` deciding the value from the face and a second word ('keep' or 'swap')."""

    def __init__(self, fixed: dict[str, float], gamble: str, after: bool) -> None:
        self.fixed = fixed
        self.gamble = gamble
        self.after = after
        self.stage = "choose"
        self.face = 0
        self.result = 0.0
        self.record_events = True

    def current_player(self) -> str:
        return {"choose": "a", "roll": CHANCE, "keep": "a", "over": TERMINAL}[self.stage]

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def legal_actions(self) -> list[Word]:
        if self.stage == "choose":
            return [Word(w) for w in [*self.fixed, self.gamble]]
        return [Word("keep"), Word("swap")] if self.stage == "keep" else []

    def chance_dice(self) -> Dice:
        return Dice(1)

    def apply_action(self, action: Any, side: str | None = None) -> None:
        if self.stage == "choose":
            if action.text in self.fixed:
                self.result, self.stage = self.fixed[action.text], "over"
            else:
                self.stage = "roll"
        elif self.stage == "roll":
            assert isinstance(action, Roll)
            self.face = action.values[0]
            if self.after:
                self.stage = "keep"
            else:
                self.result, self.stage = (1.0 if self.face == 6 else 0.0), "over"
        else:
            self.result = self.face / 6 if action.text == "keep" else 1 - self.face / 6
            self.stage = "over"

    def clone(self) -> Toy:
        new = Toy(self.fixed, self.gamble, self.after)
        new.stage, new.face, new.result = self.stage, self.face, self.result
        return new


def toy_value(st: Any) -> dict[str, float]:
    return {"a": st.result}


def toy_choice(game: Toy, rollouts: int, seed: int = 1) -> str:
    search = Search(game, random.Random(seed), Budget(rollouts=rollouts), toy_value, None)
    search.run()
    best = search.best(game.legal_actions())
    assert isinstance(best, Word)
    return best.text


def test_a_gamble_worth_less_than_the_sure_thing_is_declined() -> None:
    """Safe is worth 0.3; the gamble wins only on a six (1/6): the search must weigh the die by its odds."""
    assert toy_choice(Toy({"safe": 0.3}, "gamble", after=False), 600) == "safe"
    assert toy_choice(Toy({"safe": 0.1}, "gamble", after=False), 600) == "gamble"


def test_a_decision_after_a_roll_is_learned_per_outcome() -> None:
    """After the roll the side keeps the face (face/6) or swaps it (1 - face/6). Played well, rolling is worth
    (5 + 4 + 3 + 4 + 5 + 6) / 36 = 0.75, more than a sure 0.7. A search that mixed the outcomes below the roll
    would see keeping worth 0.58 at best, and stay."""
    assert toy_choice(Toy({"stay": 0.7}, "roll", after=True), 3000) == "roll"
    assert toy_choice(Toy({"stay": 0.8}, "roll", after=True), 3000) == "stay"


class WhoNext:
    """After 'go', three dice (216 outcomes: passed through, not branched) decide who acts next, a or b; that side
    picks 'pass' (a scores 1) or 'other' (a scores 0). Played well 'go' is worth 1/2 to a; 'stay' is a sure 0.7."""

    def __init__(self) -> None:
        self.stage, self.who, self.result, self.record_events = "root", "a", 0.0, True

    def current_player(self) -> str:
        return {"root": "a", "roll": CHANCE, "after": self.who, "over": TERMINAL}[self.stage]

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def legal_actions(self) -> list[Word]:
        return [Word("stay"), Word("go")] if self.stage == "root" else [Word("pass"), Word("other")]

    def chance_dice(self) -> Dice:
        return Dice(3)

    def apply_action(self, action: Any, side: str | None = None) -> None:
        if self.stage == "root":
            self.result, self.stage = (0.7, "over") if action.text == "stay" else (0.0, "roll")
        elif self.stage == "roll":
            self.who, self.stage = ("a" if sum(action.values) % 2 else "b"), "after"
        else:
            self.result, self.stage = (1.0 if action.text == "pass" else 0.0), "over"

    def clone(self) -> WhoNext:
        new = WhoNext()
        new.stage, new.who, new.result = self.stage, self.who, self.result
        return new


@pytest.mark.parametrize("seed", range(4))
def test_each_side_reads_only_its_own_statistics_where_chance_decides_who_acts(seed: int) -> None:
    """Below a roll passed through, one node is reached with a to act and with b to act: each side's choice there
    is its own, so b's 'other' (worth 1 to b) is not mistaken for a's best reply."""
    search = Search(WhoNext(), random.Random(seed), Budget(rollouts=1500),
                    lambda st: {"a": st.result, "b": 1 - st.result}, None)
    search.run()
    best = search.best(WhoNext().legal_actions())
    assert isinstance(best, Word) and best.text == "stay"


@pytest.mark.parametrize(("text", "budget"), [
    ("", Budget()), ("800", Budget(rollouts=800)), ("1.5s", Budget(seconds=1.5)),
    ("300/h80", Budget(rollouts=300, horizon=80)), ("/h5", Budget(horizon=5)),
    ("2s/g/h9", Budget(seconds=2.0, horizon=9, guided=True)), ("50/g", Budget(rollouts=50, guided=True)),
])
def test_budgets_read_as_written(text: str, budget: Budget) -> None:
    assert parse_budget(text) == budget


@pytest.mark.parametrize(("kind", "says"), [
    ("mcts:abc", "got 'abc'"), ("mcts:0", "got '0'"), ("mcts:-3s", "got '-3s'"), ("mcts:9999s", "3600"),
    ("mcts:100/h", "/hN"), ("mcts:100/x3", "/hN"), ("mcts:100/g/g", "each once"), ("mcts:５", "got '５'"),
    ("mcts:²", "got '²'"), ("mcts:1_0s", "1.5s"), ("mcts:5/h99999999", "1 to 1000000"),
    ("mcts:9/h2/h3", "'/h3'"), ("mcts:", "needs a budget"), ("mcst", "unknown bot 'mcst'"),
])
def test_a_bad_bot_name_says_what_is_wrong(kind: str, says: str) -> None:
    assert says in bot_problem(kind)
    with pytest.raises(ValueError) as refused:
        make_bot(kind, random.Random(0))
    assert says in str(refused.value)


def first_decision(scenario: str, params: dict[str, Any] | None = None) -> Any:
    sc = load_game(scenario)
    system = rulesets.of(sc)
    st = system.new_game(sc, dict(system.sim_params) if params is None else params)
    return next(decisions(st, 3))


def root_stats(bot: MCTSBot) -> list[tuple[str, int, float]]:
    assert bot.last is not None
    return sorted((str(k), n.visits, round(n.total, 9)) for k, n in bot.last.root.children.items())


@pytest.mark.parametrize("scenario", ["lorraine", "kampen"])
def test_a_search_is_a_function_of_the_position_and_the_seed(scenario: str) -> None:
    st = first_decision(scenario)
    legal = st.legal_actions()
    n = 16
    bots = [MCTSBot(random.Random(11), Budget(rollouts=n)) for _ in range(2)]
    picks = [bot.choose(st.clone(), legal) for bot in bots]
    assert picks[0] == picks[1] and picks[0] in legal
    assert root_stats(bots[0]) == root_stats(bots[1])
    assert sum(v for _k, v, _t in root_stats(bots[0])) == n
    other = MCTSBot(random.Random(12), Budget(rollouts=n))
    other.choose(st.clone(), legal)
    assert root_stats(other) != root_stats(bots[0])  # the seed matters: the statistics are not a constant


def test_a_horizon_stops_the_rollouts_and_evaluates_there() -> None:
    st = first_decision("caen")
    who, log, seen = st.current_player(), len(st.log), repr(st.view(None))
    bot = MCTSBot(random.Random(2), Budget(rollouts=30, horizon=5))
    pick = bot.choose(st, st.legal_actions())
    assert pick in st.legal_actions() and bot.last is not None and bot.last.iterations == 30
    assert (st.current_player(), len(st.log), repr(st.view(None))) == (who, log, seen)  # the real one is untouched
    assert bot.last.nodes() <= 1 + 30 * 5  # no rollout went deeper than the horizon


def twins_search_alike(st: Any, twin: Any, seed: int = 5, rollouts: int = 40) -> None:
    legal = st.legal_actions()
    assert [a.to_str() for a in twin.legal_actions()] == [a.to_str() for a in legal]
    one, two = MCTSBot(random.Random(seed), Budget(rollouts=rollouts)), MCTSBot(random.Random(seed),
                                                                                Budget(rollouts=rollouts))
    assert one.choose(st, legal).to_str() == two.choose(twin, twin.legal_actions()).to_str()
    assert root_stats(one) == root_stats(two)


TWIN_ROLLOUTS = deep(8)
"""A Kampen twin search's rollouts (each a whole game on the reference engine): every one plays from a world dealt
by `determinise`, and a search that read a secret would almost surely show it within the first few (the other
hands and the deck order shape every game from its first cards on)."""


@pytest.mark.parametrize("params", [{}, {"advanced": True, "seats": 3}])
def test_kampen_twins_that_differ_only_in_secrets_get_the_same_search(params: dict[str, Any]) -> None:
    """A twin dealt for the side to act (other hands, face-down ships, deck order) is a position it cannot tell
    from the real one: the search, read through `determinise` only, is the same to the last visit."""
    system = rulesets.get("kampen")
    checked = 0
    for i, st in enumerate(decisions(system.new_game(load_game("kampen"), dict(params)), 17)):
        if i % 23 or len(st.legal_actions()) < 2:
            continue
        assert isinstance(st, KampenState)
        me = st.current_player()
        seat = system.seats(st.sc, st.params)[me]
        assert system.seat_determinise is not None
        twin = system.seat_determinise(st, seat, random.Random(i))
        held = [c for c in st.hands if system.seats(st.sc, st.params)[c] == seat]
        assert all(twin.hands[c] == st.hands[c] for c in held)  # the player's own cards, of each side it holds
        assert twin.hands != st.hands or not any(st.hands[c] for c in st.hands if c not in held)
        twins_search_alike(st, twin, rollouts=TWIN_ROLLOUTS)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_in_a_two_player_kampen_game_the_search_keeps_the_cards_its_player_holds() -> None:
    """With two players Norway's player holds the Allies too (1.2): deciding for Norway, the search's positions keep
    the Allies' real hand, which that player sees, and deal only Germany's again."""
    system = rulesets.get("kampen")
    st = next(s for s in decisions(system.new_game(load_game("kampen"), {}), 5)
              if s.current_player() == "norway" and s.hands["allies"] and len(s.legal_actions()) > 1)
    search = search_for(st, random.Random(3), Budget(rollouts=4))
    worlds = [search.world() for _ in range(6)]
    assert all(w.hands["allies"] == st.hands["allies"] and w.hands["norway"] == st.hands["norway"] for w in worlds)
    assert any(w.hands["germany"] != st.hands["germany"] for w in worlds)
    for country in st.sc.countries:  # every face-down deck comes in an order dealt again, so rollouts draw anew
        if len(st.draw[country]) > 2:
            assert len({tuple(w.draw[country]) for w in worlds}) > 1


def hidden_split(seed: int) -> FirestormState | None:
    """A Norway position where the side to act allocates its dice after the other side split its own."""
    sc = load_game("norway")
    for st in decisions(rulesets.get("firestorm").new_game(sc, {"mode": "gw"}), seed):
        assert isinstance(st, FirestormState)
        navy = st.navy
        if st.step == "nv_alloc" and navy is not None and navy.combat is not None:
            me = st.current_player()
            if any(v.side != me and len(v.targets) > 1 and v.alloc for v in navy.combat.volleys):
                return st
        if st.turn > 2:
            return None
    return None


def test_norway_twins_that_differ_only_in_the_hidden_split_get_the_same_search() -> None:
    """Norway 6.3: the other side's split of its dice stays hidden until the roll. A twin with another split
    (as the searching side reads the log) gets the same search."""
    st = next(found for seed in range(40) if (found := hidden_split(seed)) is not None)
    system = rulesets.get("firestorm")
    me = st.current_player()
    assert system.determinise is not None
    twin = next(t for k in range(50) if split(t := system.determinise(st, me, random.Random(k)), me) != split(st, me))
    navy, twin_navy = st.navy, twin.navy
    assert navy is not None and twin_navy is not None and navy.combat is not None and twin_navy.combat is not None
    theirs = [v for v in navy.combat.volleys if v.side != me]
    assert [sum(v.alloc.values()) for v in theirs] == [sum(v.alloc.values()) for v in twin_navy.combat.volleys
                                                        if v.side != me]
    assert repr(twin.view(me)) == repr(st.view(me))
    twins_search_alike(st, twin, rollouts=20)
    # the test has teeth: a search that read the real position (a clone, not a deal) tells the twins apart
    peeking = [Search(x, random.Random(5), Budget(rollouts=20), system.value, None) for x in (st, twin)]
    for search in peeking:
        search.run()
    assert [(str(k), n.visits, n.total) for k, n in peeking[0].root.children.items()] != [
        (str(k), n.visits, n.total) for k, n in peeking[1].root.children.items()]


def split(st: FirestormState, me: str) -> list[dict[str, int]]:
    """The other side's split of its dice in the fight being allocated."""
    assert st.navy is not None and st.navy.combat is not None
    return [dict(v.alloc) for v in st.navy.combat.volleys if v.side != me]


@pytest.mark.parametrize("thresholds", [(), ((-50, "Odd Victory"),)])
def test_the_firestorm_value_stands_an_outcome_table_with_no_or_odd_rows(thresholds: tuple[Any, ...]) -> None:
    st = first_decision("lorraine")
    assert isinstance(st, FirestormState)
    st.sc = dataclasses.replace(st.sc, rules=dataclasses.replace(st.sc.rules, thresholds=thresholds))
    a, b = st.sc.sides
    st.bonus_vp[b] += 190
    value = rulesets.get("firestorm").value
    assert value is not None
    got = value(st)
    assert got[a] < 0.01 and abs(got[a] + got[b] - 1) < 1e-12  # 190 VP behind is as bad as it gets
