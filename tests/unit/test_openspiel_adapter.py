"""The OpenSpiel adapter (`warroom.adapters.openspiel`) through OpenSpiel's own checks and bots.

OpenSpiel's `random_sim_test` plays whole games checking its API's promises (sorted and unique legal actions,
clones, serialisation, chance outcomes, returns within the utility bounds); its MCTS plays Caen and its Python
information-set MCTS plays Kampen om Norge from twins dealt by `resample_from_infostate`."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'warroom[openspiel]')")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from warroom import rulesets  # noqa: E402
from warroom.adapters import openspiel  # noqa: E402
from warroom.scenarios import load_game  # noqa: E402

GAMES = {
    "caen": "python_warroom(scenario=caen)",
    "lorraine": "python_warroom(scenario=lorraine)",
    "norway": "python_warroom(scenario=norway)",
    "kampen-2": "python_warroom(scenario=kampen)",
    "kampen-3": "python_warroom_kampen(seats=3)",
    "kampen-advanced-2": "python_warroom_kampen(advanced=true)",
    "kampen-advanced-3": "python_warroom_kampen(advanced=true,seats=3)",
}


@pytest.fixture(scope="module", autouse=True)
def registered() -> list[str]:
    return openspiel.register()


def walk(state: Any, rng: random.Random, decisions: int) -> Any:
    """`state` played at random (dice by their probabilities) for `decisions` decisions, then its dice rolled up
    to the next decision (or to its end)."""
    while not state.is_terminal() and (decisions > 0 or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_openspiel_random_simulation_test_passes(game: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(game), num_sims=1, serialize=True, verbose=False)


def test_each_system_and_the_common_name_are_registered(registered: list[str]) -> None:
    assert registered == ["python_warroom", *(f"python_warroom_{sid}" for sid in rulesets.systems())]
    assert set(registered) <= set(pyspiel.registered_names())
    assert openspiel.register() == registered  # once per process


def test_the_game_type_follows_the_scenario_and_the_seats() -> None:
    info = pyspiel.GameType.Information
    caen, norway = pyspiel.load_game(GAMES["caen"]), pyspiel.load_game(GAMES["norway"])
    two, three = openspiel.load_game("kampen"), openspiel.load_game("kampen", seats=3)
    assert caen.get_type().information == info.PERFECT_INFORMATION
    assert norway.get_type().information == info.IMPERFECT_INFORMATION  # each side's dice allocation (6.3)
    assert two.get_type().information == info.IMPERFECT_INFORMATION
    assert (caen.num_players(), two.num_players(), three.num_players()) == (2, 2, 3)
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert three.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (two.min_utility(), two.max_utility(), two.max_chance_outcomes()) == (-2.0, 2.0, 62)
    encoding = rulesets.get("firestorm").encoding
    assert encoding is not None
    assert caen.num_distinct_actions() == len(encoding(load_game("caen"), {"mode": "gw"}).actions) + openspiel.SPARE


def test_parameters_that_make_no_bot_game_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"bot games only.*tabletop"):
        pyspiel.load_game("python_warroom(scenario=caen,mode=tabletop)")
    with pytest.raises(ValueError, match="takes no parameter seats"):
        openspiel.load_game("caen", seats=3)
    with pytest.raises(ValueError, match="seats"):
        openspiel.load_game("kampen", seats=4)


def test_an_action_has_one_number_in_every_position_and_every_game_object() -> None:
    game = openspiel.load_game("kampen", advanced=True)
    again = openspiel.load_game("kampen", advanced=True)
    t = game.table
    numbers = {text: i for i, text in enumerate(t.encoding.actions)}
    for seed in (1, 2):
        state, other = game.new_initial_state(), again.new_initial_state()
        rng = random.Random(seed)
        for _ in range(40):
            walk(state, rng, 5)
            if state.is_terminal():
                break
            while other.history() != state.history():
                other.apply_action(state.history()[len(other.history())])
            if not state.is_chance_node():
                p = state.current_player()
                texts = [state.action_to_string(p, a) for a in state.legal_actions()]
                assert state.legal_actions() == sorted(numbers[x] for x in texts) == other.legal_actions()
    assert not t.spare  # every action offered was in the system's list


def test_each_die_is_a_chance_node_and_a_shuffle_rolls_dice_of_every_size() -> None:
    state = openspiel.load_game("kampen").new_initial_state()
    assert state.is_chance_node()
    sizes: list[int] = []
    while state.is_chance_node() and len(sizes) < 61:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(outcomes[-1][0])
    assert sizes == list(range(62, 1, -1))  # the German deck's shuffle, one die per card placed


def test_returns_are_each_seats_final_score_and_zero_before() -> None:
    state = openspiel.load_game("kampen").new_initial_state()
    walk(state, random.Random(3), 20)
    assert state.returns() == [0.0, 0.0]
    walk(state, random.Random(3), 100_000)
    final = state._w.st.returns()
    assert state.returns() == [final["germany"], final["norway"]] and sum(state.returns()) == 0.0


def test_twins_that_differ_in_another_countrys_hand_read_alike_to_the_viewer() -> None:
    for params, viewer, other in (({}, 1, "germany"), ({"seats": 3}, 2, "norway")):
        game = openspiel.load_game("kampen", **params)
        state = walk(game.new_initial_state(), random.Random(5), 60)
        twin = state.clone()
        st = twin._w.st
        hand, deck = st.hands[other], st.draw[other]
        hand[0], deck[0] = deck[0], hand[0]  # one card of the other's hand swapped for one face down
        assert twin._w.st.hands[other] != state._w.st.hands[other]
        assert twin.information_state_string(viewer) == state.information_state_string(viewer)
        assert twin.observation_string(viewer) == state.observation_string(viewer)
        holder = game.table.player_of[other]
        assert twin.information_state_string(holder) != state.information_state_string(holder)


@pytest.mark.parametrize("params", [{}, {"seats": 3}, {"advanced": True}], ids=["2", "3", "advanced-2"])
def test_a_resampled_twin_keeps_what_each_seat_knows(params: dict[str, Any]) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python: at decisions of a random game every player's twin reads the
    same to that player, with the same player to act (and the same legal actions when it is that player)."""
    game = openspiel.load_game("kampen", **params)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(7)
    dealt = 0
    while not state.is_terminal():
        walk(state, rng, 25)
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            twin = state.resample_from_infostate(p, sampler)
            assert twin.information_state_string(p) == state.information_state_string(p)
            assert twin.current_player() == state.current_player()
            if p == state.current_player():
                assert twin.legal_actions() == state.legal_actions()
            dealt += twin._w.st.hands != state._w.st.hands
    assert dealt  # the twins did deal the unseen cards again


def test_norway_resamples_its_hidden_split_and_a_perfect_information_game_resamples_to_itself() -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    norway = walk(pyspiel.load_game(GAMES["norway"]).new_initial_state(), random.Random(1), 5)
    player = norway.current_player()
    if player >= 0:
        twin = norway.resample_from_infostate(player, sampler)
        assert twin.information_state_string(player) == norway.information_state_string(player)
    caen = walk(pyspiel.load_game(GAMES["caen"]).new_initial_state(), random.Random(1), 5)
    assert str(caen.resample_from_infostate(0, sampler)) == str(caen)


def test_a_serialised_state_replays_its_record_and_a_twin_is_not_serialised() -> None:
    game = openspiel.load_game("kampen", seats=3)
    state = walk(game.new_initial_state(), random.Random(2), 50)
    game2, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game2) == str(game) and str(back) == str(state) and back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    twin = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(Exception, match="cannot be serialised"):
        pyspiel.serialize_game_and_state(game, twin)


def bot_steps(bot: Any, state: Any, rng: random.Random, n: int) -> None:
    """`n` decisions by an OpenSpiel bot, each checked legal, with the dice before each rolled from `rng`."""
    for _ in range(n):
        walk(state, rng, 0)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiels_mcts_plays_caen() -> None:
    game = pyspiel.load_game(GAMES["caen"])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2 * game.max_utility(), max_simulations=6, evaluator=evaluator,
                       random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = random.Random(0)
    bot_steps(bot, state, rng, 3)
    # OpenSpiel's C++ MCTS searches a Python game too, through `mcts_search`; its `step` releases the GIL and
    # crashes on any Python game's clone (open_spiel 2.0.2), so the adapter's users call `mcts_search`.
    search = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2 * game.max_utility(), 4, 1000, False, 0,
                             False)
    walk(state, rng, 0)
    assert search.mcts_search(state).best_child().action in state.legal_actions()


def test_openspiels_python_ismcts_plays_kampen_and_its_cpp_one_cannot_resample_a_python_game() -> None:
    game = openspiel.load_game("kampen")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = random.Random(4)
    bot_steps(bot, state, rng, 2)
    while len(walk(state, rng, 0).legal_actions()) < 2:
        walk(state, rng, 1)
    cpp = pyspiel.ISMCTSBot(seed=0, evaluator=pyspiel.RandomRolloutEvaluator(1, 0), uct_c=2.0, max_simulations=2)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        cpp.get_policy(state)  # (its `step` releases the GIL and crashes on a Python game, as the MCTS's does)
