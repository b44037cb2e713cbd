"""Seeded games written out in full, to compare the compiled engine with pure Python (`test_compiled_engine.py`
runs this once with `WARROOM_PURE=1` and once without, and compares the output line by line).

Usage:
    python tests/e2e/compiled_games.py play SCENARIO GAMES BOT [advanced]
    python tests/e2e/compiled_games.py conformance SYSTEM GAMES

The first line names the engine in use. `play`: per game (BOT, random or heuristic, on every side, seeded; the
checked path, with notes) every log entry, every note, the returns and each side's view at the end, and whether
the record replays to the same log; last, the searching bot's first decision (a few rollouts: clones and, where
the system has secrets, determinised twins) with its visit counts; whether the scenario deep-copies and pickles
to an equal one, and can be subclassed as a plug-in does. `conformance`: the conformance harness
(`warroom.sim.conformance`: every scenario and variant of one rule system, with tabletop reports, clone and twin
checks) for GAMES seeds each, its actions and any broken promise.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import pickle
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

from warroom import compiled, rulesets
from warroom.ai import make_bot
from warroom.ai.mcts import Budget, MCTSBot
from warroom.core.game import play, replay
from warroom.scenarios import load_game
from warroom.sim import conformance
from warroom.sim.walk import decisions


def new_game(scenario: str, params: dict[str, Any]) -> Any:
    sc = load_game(scenario)
    system = rulesets.of(sc)
    return system.new_game(sc, {**system.sim_params, **params})


def game_lines(scenario: str, params: dict[str, Any], bot: str, seed: int) -> Iterator[str]:
    """One game of `scenario` between `bot`s, written out."""
    st = new_game(scenario, params)
    system = rulesets.of(st)
    seats = sorted(system.seats(st.sc, st.params))
    play(st, {s: make_bot(bot, random.Random(seed * 7919 + k)) for k, s in enumerate(seats)}, random.Random(seed))
    yield f"game {seed}: {len(st.log)} actions, returns {st.returns()}"
    yield from ("|".join(str(field) for field in entry) for entry in st.log)
    yield from (f"note {turn}: {text}" for turn, text in st.events)
    for side in st.sc.sides:
        yield f"view {side}: {json.dumps(st.view(side), sort_keys=True, default=str)}"
    again: Any = replay(st.record(seed), lambda: new_game(scenario, params))
    yield f"replay {'same' if again.log == st.log else 'DIFFERS'}"


def copy_lines(scenario: str) -> Iterator[str]:
    """Whether the scenario and the first legal actions deep-copy and pickle to equal ones, and a subclass of the
    scenario's type (as a plug-in declares) can be made."""
    sc = load_game(scenario)
    actions = next(decisions(new_game(scenario, {}), 1)).legal_actions()
    copies: dict[str, Callable[[Any], Any]] = {"deepcopy": copy.deepcopy,
                                               "pickle": lambda x: pickle.loads(pickle.dumps(x))}
    for (how, twin), (what, thing) in itertools.product(copies.items(), (("scenario", sc), ("actions", actions))):
        try:
            yield f"{how} {what}: {'same' if twin(thing) == thing else 'DIFFERS'}"
        except Exception as exc:  # the same failure, if any, in both engines
            yield f"{how} {what}: {type(exc).__name__}: {exc}"
    variant = type("Variant", (type(sc),), {"__slots__": ()} if hasattr(type(sc), "__slots__") else {})
    fields = {f.name: getattr(sc, f.name) for f in dataclasses.fields(sc)}
    yield f"subclass: {type(variant(**fields)).__name__}"


def search_lines(scenario: str, params: dict[str, Any]) -> Iterator[str]:
    """The searching bot's first decision from the opening, with the visits of each choice."""
    st = next(decisions(new_game(scenario, params), 1))
    bot = MCTSBot(random.Random(1), Budget(rollouts=24, horizon=30))
    choice = bot.choose(st, st.legal_actions())
    assert bot.last is not None
    visits = sorted((str(action), node.visits) for action, node in bot.last.root.children.items())
    yield f"search: {choice.to_str()} {visits}"


def conformance_lines(system_id: str, games: int) -> Iterator[str]:
    """Every case of the conformance harness for one rule system, `games` seeds each: its actions and its
    problems."""
    for system, scenario, variant in conformance.cases(system_id):
        tally = conformance.run(system, scenario, variant, range(games))
        yield f"{system.id} {scenario} {variant.name}: {tally.games} games, {tally.actions} actions"
        yield from (f"problem: {problem}" for problem in tally.problems)


def main() -> None:
    print(compiled.status().describe())
    if sys.argv[1] == "conformance":
        lines = conformance_lines(sys.argv[2], int(sys.argv[3]))
    else:
        scenario, games, bot = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        params = {"advanced": True} if sys.argv[5:] == ["advanced"] else {}
        lines = itertools.chain((line for seed in range(games) for line in game_lines(scenario, params, bot, seed)),
                                search_lines(scenario, params), copy_lines(scenario))
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
