"""What a rule system declares about itself, once (after OpenSpiel's `GameType` and `register_game`).

A rule system is a package of rules (`warroom.rulesets.<id>`) holding one declaration, a `RuleSystem`, which
the registry (`warroom.rulesets.registry`) lists by one line, or which another installed package offers as an
entry point of the group `warroom.systems`. The CLI, the simulator, the bots, the club server and the scenario loader
find a system there, by its id, its scenario or its state, and reach it only through this declaration and the
state API (`core.state.GameState`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from warroom.core.log import LogEntry
from warroom.core.state import Action


class Capability(StrEnum):
    """What a system may or may not offer; an adapter offers a feature only where the system declares it."""

    TABLETOP = "tabletop"
    """Battles can be fought at a real table: `current_player()` is `REPORT` until players report a result."""
    PARKED = "parked"
    """Battles at the table may wait while the turn goes on (results are reported out of turn)."""
    HIDDEN = "hidden"
    """Sides hold secrets (hands, deck order, face-down pieces): views differ per side beyond the public map."""
    CLUB = "club"
    """The club server hosts its campaigns."""


class FastPosition(Protocol):
    """A position in a rule system's simulation kernel (`RuleSystem.kernel`): random play to a horizon, and the
    system's `value` of where it stops."""

    def play_out(self, rngs: tuple[random.Random, random.Random], dice_rng: random.Random,
                 horizon: int = -1) -> int:
        """Play on with uniform random choices as `core.game.play` does with random bots (`rngs[i]` choosing for
        the i-th side, `dice_rng` rolling), to the end or for `horizon` actions (-1: no limit)."""
        ...

    def value(self) -> dict[str, float]:
        """`RuleSystem.value` of the position."""
        ...

    def code(self, action: Action) -> Any:
        """The kernel's code of a reference action of this position (what `legal_actions` offers for it)."""
        ...


FastGame = Callable[[Any, Mapping[str, Any], int, Mapping[str, str]], "GameSummary | None"]
"""(scenario, parameters, seed, each side's bot kind) -> the summary of the game `sim.runner.play_one` plays with
those bots and that seed, or None where the kernel does not play it (a scenario, a parameter or a bot it lacks)."""


FastFinish = Callable[[Any, Mapping[str, str], Mapping[str, random.Random], random.Random], "GameSummary | None"]
"""(a kernel position, each side's bot kind, each side's bot stream, the dice stream) -> the summary of the game
played on from there, or None where the kernel does not play one of the bots."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game as the simulator counts it: the outcome's label, the winning side ('' for a draw), the
    system's score difference and who holds each area at the end."""

    outcome: str
    winner: str
    diff: int
    held: dict[str, str]
    trace: tuple[float, ...] = ()
    """The first camp's lead (`RuleSystem.lead`) as each turn of the game ended, the last at its end: who led and
    by how much, turn by turn (the balance lab's lead changes, decisiveness and drama). Empty for a summary of a
    game not followed turn by turn."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A named way to play a system's scenarios (e.g. Kampen om Norge's advanced game with three players):
    the parameters that choose it. The conformance harness plays every variant of every bundled scenario."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Question:
    """A tabletop result a game asks for now (`Capability.TABLETOP`)."""

    no: int
    """0: the battle being fought now; otherwise the number of a battle waiting at the table (they restart each
    turn, so `asked_at` tells two battles of one number apart)."""
    title: str
    """The question in words: 'Battle 2: Allies attack B2 Creully from A2 Gold Beach'."""
    attacker: str | None = None
    """The attacking side; None when no battle is asked about (a D-Day roll): either side reports."""
    defender: str | None = None
    frm: str | None = None
    to: str | None = None
    asked_at: int | None = None
    """The log position the battle went to the table at (None: the battle being fought now)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Tabletop:
    """How a system with battles fought at a real table asks for their results and takes them."""

    vp: range
    """The victory points a side may report."""
    questions: Callable[[Any], dict[int, Question]]
    """Every result the position asks for now, by battle number."""
    report: Callable[[int, int, int], Action]
    """(battle number, attacker's VP, defender's VP) -> the action that reports that result."""
    reported: Callable[[Action], tuple[int, int, int] | None]
    """The (battle number, attacker's VP, defender's VP) an action reports, or None if it reports nothing."""
    only_results_since: Callable[[Any, int], bool]
    """Whether nothing but results of battles at the table happened after a log position."""
    effect: Callable[[Any, Question, int, int], tuple[str, Hashable, str]] | None = None
    """(position, question, attacker's VP, defender's VP) -> who wins the battle ('attacker', 'defender', or ''
    where nobody does: a D-Day landing), a key that two results share exactly when they change the game alike (the
    forecasts roll out one result of each kind), and what such a result does, in words. None: every result is its
    own kind, and what it does is not known before it is reported."""
    results: tuple[tuple[int, int], ...] = ()
    """The (attacker's VP, defender's VP) results a rollout draws, each as likely, for a battle whose result the
    table still owes (`ai.rollout`). Empty: every pair of `vp`."""
    for_bots: Callable[[Any], None] | None = None
    """Turn a copy of a position into one that bots can play on: battles not yet at the table are resolved without
    one (`ai.rollout`). None: nothing to change."""

    def reports(self, st: Any) -> list[Action]:
        """Every result that may be reported now (the conformance harness tries them)."""
        return [self.report(no, a, d) for no in self.questions(st) for a in self.vp for d in self.vp]


@dataclass(frozen=True, slots=True)
class Encoding:
    """A scenario's game in numbers, for frameworks that number every action and chance outcome (OpenSpiel,
    `warroom.adapters.openspiel`): what a bot game of the scenario with the given parameters may offer and score.

    The same action text keeps its number in every position and every process, so that a search keyed on
    numbers (information-set MCTS, CFR) or a network trained on them means the same action each time."""

    actions: tuple[str, ...]
    """Every action text a side may be offered, each once, in a fixed order: the adapter numbers them by it. The
    conformance harness checks that random bot games offer nothing else."""
    faces: int
    """The most faces one die may have (a shuffle of n cards rolls dice of n, n - 1, ..., 2 faces)."""
    returns: tuple[float, float]
    """The least and the most a side's `returns()` may be."""
    hidden: bool
    """Whether a side may hold anything another cannot see, besides the dice to come (imperfect information)."""


def stream_seeds(stream: int) -> Callable[[int, tuple[str, ...]], dict[str, int]]:
    """`RuleSystem.bot_seeds` drawn from a stream of its own: the game's seed mixed with `stream` seeds a
    generator that deals each side's bot seed in turn."""

    def bot_seeds(seed: int, sides: tuple[str, ...]) -> dict[str, int]:
        rng = random.Random(seed ^ stream)
        return {side: rng.getrandbits(62) for side in sides}

    return bot_seeds


Heuristic = Callable[[Any, Sequence[Action], random.Random], Action]
"""A heuristic bot's choice: (state, legal actions, the bot's own random stream) -> one of the actions."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSystem:
    """One rule system's declaration: everything an adapter needs besides the state API.

    Scenarios and states are typed `Any` here because each system has its own; `scenario_type` and
    `state_type` say which, and the registry finds a system from either.
    """

    id: str
    """The id a scenario names in `[scenario] system = ...` (e.g. 'firestorm', 'kampen')."""
    name: str
    """The system's name for people, e.g. 'the Firestorm campaign system'."""
    scenario_type: type
    state_type: type
    load: Callable[[Path], Any]
    """Read and validate a scenario file or folder; raises `ScenarioError` naming every problem."""
    parse: Callable[[dict[str, Any], str], Any] | None
    """Validate a scenario already read from one TOML text (an upload), or None if it takes several files."""
    new_game: Callable[[Any, dict[str, Any] | None], Any]
    """A new game of a scenario with the given parameters, at its very start."""
    replay_params: Callable[[Any, str, Mapping[str, Any]], dict[str, Any] | None]
    """(scenario, the scenario version a save was made with, its parameters) -> the parameters that replay it
    under the rules it began with, or None if this version of the scenario cannot replay it."""
    check_params: Callable[[Mapping[str, Any]], None]
    """Raise `ValueError`, naming the parameter, unless the rule parameters given are well formed."""
    params: Mapping[str, str]
    """The rule parameters the system reads, each with what it does (a game's other parameters belong to whoever
    drives it: players, bots)."""
    sim_params: Mapping[str, Any]
    """The parameters of a bot-against-bot game when none are given."""
    seats: Callable[[Any, Mapping[str, Any]], dict[str, str]]
    """Who decides for each side in a game with these parameters: side -> the side whose player decides for it
    (itself, but in Kampen om Norge with two players Norway's player also decides for the Allies)."""
    bot_seeds: Callable[[int, tuple[str, ...]], dict[str, int]]
    """The seed of each side's bot in a bot-against-bot game whose dice use the given seed (independent of the
    dice stream, so that a bot's choices and the dice do not correlate)."""
    bot_game_problem: Callable[[Mapping[str, Any]], str]
    """Why bots cannot play a whole game with these parameters ('' if they can): e.g. battles at the table."""
    heuristic: str | None
    """The system's heuristic bot as an entry point, 'module:function' with the `Heuristic` signature (the bots
    sit above the rules, so a rule package names its bot rather than importing it); None: random play."""
    summarise: Callable[[Any], GameSummary]
    """A finished game as the simulator counts it."""
    score_sides: Callable[[Any], tuple[str, str]]
    """The two camps a simulation report compares (e.g. Germany against Norway and the Allies)."""
    score_label: str
    """What `GameSummary.diff` counts, for reports, e.g. 'point cities German at the end'."""
    log_for: Callable[[Any, str | None, int], list[LogEntry]]
    """`log_for(state, side, since)`: the position's log from entry `since` as a side (None: a spectator) may
    read it. The rules mark what is secret, and every adapter shows the log only through this."""
    log_settled: Callable[[Any], int] | None = None
    """How many first entries of the position's log every side (and a spectator) reads through `log_for` as it
    will read them for the rest of the game, whatever is played next: an adapter that reads the log again and
    again may keep its reading of those. None: no promise (an entry may read differently later)."""
    describe: Callable[[Any, Action], str]
    """An action in words, as the player to act would read it."""
    title: Callable[[Any, Mapping[str, Any]], str]
    """The title of a game of the scenario with these parameters."""
    assumptions: Callable[[Any], int]
    """How many decisions the scenario's data records as `assumption:`."""
    facts: Callable[[Any], str]
    """One line on a scenario's size, for `warroom validate` and `warroom scenarios`."""
    tabletop: Tabletop | None
    """How results of battles at the table are asked for and reported (`Capability.TABLETOP`); None: none are."""
    determinise: Callable[[Any, str, random.Random], Any] | None
    """A copy of a position in which everything the given side cannot see is dealt again at random (every size
    kept): a position that side cannot tell from this one, with an empty log and no event notes (the history is
    not dealt again, so a twin has none). None: the system hides nothing but the future."""
    listing: Callable[[Any], tuple[str, str, str, str, str]]
    """A scenario's row in a list of games: its title, length, sides, areas and troops."""
    about: str
    """A sentence on how the system's games are measured, for under such a list ('' if nothing needs saying)."""
    variants: tuple[Variant, ...]
    """The variants the conformance harness plays (the first is the default game)."""
    max_actions: int
    """No game of any bundled scenario lasts longer than this many actions: the harness's termination bound."""
    capabilities: frozenset[Capability] = frozenset()
    value: Callable[[Any], dict[str, float]] | None = None
    """Each side's standing in a position on a scale of 0 to 1 (1: the best result the game allows), read by
    searching bots (`ai.mcts`) at a game's end and, as their evaluation, at a search horizon. None: the bots
    squash `returns()`."""
    lead: Callable[[Any], float] | None = None
    """The first camp of `score_sides`' lead in a position: above 0 when it would win were the game to end now,
    below 0 when the other camp would, 0 for a draw; its size says by how much, in the system's own measure
    (Firestorm: VP; Kampen om Norge and Narvik: outcome levels). None: its `value` less a half."""
    levels: Callable[[Any], tuple[str, ...]] | None = None
    """The scenario's outcome levels (`GameSummary.outcome`) from the first camp of `score_sides` at its best to
    its worst, for reports that list levels in order. None: they are ordered by the mean score difference of the
    games that ended at each, which is enough where that difference decides the level."""
    asking: Callable[[Any], str] | None = None
    """The decision a position asks for, and why, in a sentence for everyone watching (pages and the terminal put
    it above the choices): it may say only what every side may see. None: '<side> to decide'."""
    seat_view: Callable[[Any, str | None], dict[str, Any]] | None = None
    """What the player of a seat sees (`seats`: one person may decide for several sides): everything any of
    its sides may see. None: each seat is one side, and this is `state.view(side)`."""
    seat_determinise: Callable[[Any, str, random.Random], Any] | None = None
    """`determinise` for the player of a seat (`seats`): a twin position with everything that player cannot see
    dealt again, keeping what any of its sides may see. None: each seat is one side, and this is `determinise`."""
    encoding: Callable[[Any, Mapping[str, Any]], Encoding] | None = None
    """(scenario, the parameters of a bot game) -> the game in numbers (`Encoding`); None: not declared."""
    kernel: Callable[[Any], FastPosition | None] | None = None
    """A position -> the same position in the system's simulation kernel, which plays random rollouts fast
    (`FastPosition`), or None where the kernel does not play it. None: the system has no kernel."""
    fast_game: str | None = None
    """The system's simulation kernel playing a whole bot game, as an entry point 'module:function' with the
    `FastGame` signature: the same game `sim.runner.play_one` plays, faster. None: the system has no kernel."""
    kernel_finish: str | None = None
    """The system's simulation kernel playing a position of its own (`kernel`) on to the end with bots, as an
    entry point 'module:function' with the `FastFinish` signature: the same game the reference engine plays from
    the same position with the same bots and streams, faster. None: not declared."""
    kernel_heuristic: str | None = None
    """The system's heuristic on its kernel's positions, as an entry point 'module:function' with the `Heuristic`
    signature over kernel positions and codes: the same choices as `heuristic`. None: not declared."""

    def can(self, capability: Capability) -> bool:
        return capability in self.capabilities

