"""Seeded games written out in full, to compare the compiled engine with pure Python (`test_compiled_engine.py`
runs this once with `WARROOM_PURE=1` and once without, and compares the output line by line).

Usage:
    python tests/e2e/compiled_games.py play SCENARIO GAMES BOT [advanced]
    python tests/e2e/compiled_games.py conformance GAMES

The first line names the engine in use. `play`: per game (BOT, random or heuristic, on every side, seeded; the
checked path, with notes) every log entry, every note, the returns and each side's view at the end, and whether
the record replays to the same log; last, the searching bot's first decision (a few rollouts: clones and, where
the system has secrets, determinised twins) with its visit counts. `conformance`: the conformance harness
(`warroom.sim.conformance`: every system, scenario and variant, with tabletop reports, clone and twin checks) for
GAMES seeds each, its actions and any broken promise.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
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


def search_lines(scenario: str, params: dict[str, Any]) -> Iterator[str]:
    """The searching bot's first decision from the opening, with the visits of each choice."""
    st = next(decisions(new_game(scenario, params), 1))
    bot = MCTSBot(random.Random(1), Budget(rollouts=24, horizon=30))
    choice = bot.choose(st, st.legal_actions())
    assert bot.last is not None
    visits = sorted((str(action), node.visits) for action, node in bot.last.root.children.items())
    yield f"search: {choice.to_str()} {visits}"


def conformance_lines(games: int) -> Iterator[str]:
    """Every case of the conformance harness, `games` seeds each: its actions and its problems."""
    for system, scenario, variant in conformance.cases():
        tally = conformance.run(system, scenario, variant, range(games))
        yield f"{system.id} {scenario} {variant.name}: {tally.games} games, {tally.actions} actions"
        yield from (f"problem: {problem}" for problem in tally.problems)


def main() -> None:
    print(compiled.status().describe())
    if sys.argv[1] == "conformance":
        lines = conformance_lines(int(sys.argv[2]))
    else:
        scenario, games, bot = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        params = {"advanced": True} if sys.argv[5:] == ["advanced"] else {}
        lines = (line for seed in range(games) for line in game_lines(scenario, params, bot, seed))
    for line in lines:
        print(line)
    if sys.argv[1] == "play":
        for line in search_lines(scenario, params):
            print(line)


if __name__ == "__main__":
    main()
