"""Every registered rule system as an OpenSpiel game (the optional extra: `pip install 'warroom[openspiel]'`).

`load_game('caen')` (or, after `register()`, `pyspiel.load_game('python_warroom(scenario=caen)')`) gives a
`pyspiel.Game` whose states drive a warroom game through the registry and the state API only, so OpenSpiel's
algorithms (MCTS, information-set MCTS, its random simulation test) play any bundled or uploaded scenario.

**Players.** One OpenSpiel player per seat (`RuleSystem.seats`), in the order of the scenario's sides: in Kampen
om Norge with two players Norway's player also decides for the Allies, so that game has two players. Dice are
OpenSpiel's chance player. Only bot games are offered (`RuleSystem.bot_game_problem`): battles at the table
would need a fourth kind of player.

**Action numbers.** The system declares the action texts a game of the scenario may offer, in a fixed order
(`RuleSystem.encoding`, `core.system.Encoding.actions`); an action's number is its place in that list, in every
position and every process, so a search keyed on numbers across the positions of an information set (IS-MCTS,
CFR) or a network's output means one action each time. `num_distinct_actions` is that list's length plus
`SPARE`. assumption: an action outside the list (a system's list missing a rare case) is still played rather
than refused: it takes the next spare number the first time this process meets it, the same for the rest of the
process but not across processes. The conformance harness checks that random games need no spare number.

**Chance.** A warroom chance node rolls several dice at once, up to a Norway fight's 30 d6 or a 62-card shuffle
(`core.dice.MixedDice`: dice of 62, 61, ..., 2 faces), far too many outcomes to list. assumption: each die is an
OpenSpiel chance node of its own, in order: outcome `f` is face `f + 1`, each with probability 1 / faces, and
the roll goes to the warroom game when its last die is known (a node without dice has one outcome, 0). The dice
are independent and uniform, so this is the same distribution, exactly; `max_chance_outcomes` is the most faces
a die of the scenario has (`Encoding.faces`). `max_game_length` is the system's bound on a game's actions
(`RuleSystem.max_actions`), which bounds its decisions; assumption: OpenSpiel's default bound on chance nodes, the
same number, holds too (random games of every bundled scenario roll fewer than 800 dice against 20,000).

**What a player knows.** `information_state_string(p)` is the seat's reading of the whole log
(`RuleSystem.log_for`: the rules mark each secret entry) and what it sees now (`seat_view`, or `view`), never
the hidden position; `observation_string(p)` is what it sees now. assumption: the log does not record when a
hidden card came to a hand, so two histories that differ only in the order unseen cards were drawn, and nothing
since showed it, share a string (the warroom bots decide from the same knowledge). A scenario is of imperfect
information when its encoding says it hides anything (Kampen om Norge; Norway's dice allocations, 6.3).

**Returns** are the system's `returns()` of each seat's side at the end (0 before); two seats are zero-sum.

**Resampling** (`resample_from_infostate`) deals a twin through the system's `seat_determinise` (or
`determinise`), for the Python information-set MCTS (`open_spiel.python.algorithms.ismcts`). OpenSpiel's C++
`ISMCTSBot` cannot drive a Python game: its C++ state does not forward `ResampleFromInfostate` to Python. A twin
carries what each seat had read of the log before it was dealt, and cannot be serialised (it has no log to
replay).

**Serialising** a state pickles its game record (scenario, parameters and the log's actions), which replays it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from warroom import rulesets
from warroom.core.dice import Roll
from warroom.core.state import CHANCE, REPORT, TERMINAL
from warroom.core.system import Encoding, RuleSystem
from warroom.scenarios import bundled_ids
from warroom.scenarios import load_game as load_scenario

GAME = "python_warroom"
"""The OpenSpiel name of every scenario of every system (`python_warroom(scenario=kampen,seats=3)`); each system
also has its own, `python_warroom_<system id>`."""
SPARE = 1024
"""Numbers kept for actions missing from a system's list (see the module's notes)."""
Params = tuple[tuple[str, Any], ...]


@dataclass(slots=True)
class Table:
    """What every state of one game (a scenario with its parameters) shares: the system, the seats and the
    numbering. One per game in a process (`table`), so states of two `pyspiel.Game` objects of the same game
    number actions alike."""

    scenario: str
    params: Params
    system: RuleSystem
    sc: Any
    start: Any
    encoding: Encoding
    players: tuple[str, ...]
    """The seats, in the order of the scenario's sides: OpenSpiel's players 0, 1, ..."""
    player_of: dict[str, int]
    """Side -> the OpenSpiel player who decides for it."""
    ids: dict[str, int]
    texts: list[str]
    spare: dict[str, int] = field(default_factory=dict)

    def number(self, text: str) -> int:
        got = self.ids.get(text)
        if got is None:
            got = self.spare.get(text)
            if got is None:
                if len(self.spare) >= SPARE:
                    raise ValueError(f"{self.system.name}: more than {SPARE} actions outside its declared list; "
                                     f"{text!r} has no number")
                got = self.spare[text] = len(self.texts)
                self.texts.append(text)
        return got

    def text(self, number: int) -> str:
        if not 0 <= number < len(self.texts):
            raise ValueError(f"no action has the number {number} in {self.scenario} (yet)")
        return self.texts[number]


_TABLES: dict[tuple[str, Params], Table] = {}


def table(scenario: str, rule_params: Mapping[str, Any]) -> Table:
    """The shared table of a bot game of `scenario` (a bundled id or a path) with these rule parameters (the
    system's bot-game defaults fill the rest); `ValueError` names what is wrong with them."""
    key = (scenario, tuple(sorted(rule_params.items())))
    got = _TABLES.get(key)
    if got is None:
        sc = load_scenario(scenario)
        system = rulesets.of(sc)
        foreign = sorted(set(rule_params) - set(system.params) - set(parameters(system)))
        if foreign:
            raise ValueError(f"{scenario} is a game of {system.name}, which takes no parameter {', '.join(foreign)}")
        params = {**system.sim_params, **rule_params}
        system.check_params(params)
        problem = system.bot_game_problem(params)
        if problem:
            raise ValueError(f"OpenSpiel plays bot games only: {problem}")
        if system.encoding is None:
            raise ValueError(f"{system.name} declares no encoding (RuleSystem.encoding), which OpenSpiel needs "
                             "to number its actions")
        numbers = system.encoding(sc, params)
        seats = system.seats(sc, params)
        players = tuple(dict.fromkeys(seats[side] for side in sc.sides))
        start = system.new_game(sc, dict(params))
        start.record_events = False  # notes are for people; views and logs do not read them
        got = _TABLES[key] = Table(scenario, key[1], system, sc, start, numbers, players,
                                   {side: players.index(seats[side]) for side in sc.sides},
                                   {text: i for i, text in enumerate(numbers.actions)}, list(numbers.actions))
    return got


class Position:
    """A state's warroom game, the dice of a roll so far, and the numbered legal actions: the one attribute of a
    `WarroomState`, copied by `clone` (OpenSpiel deep-copies a Python state's attributes) and pickled as the game's
    record (OpenSpiel pickles them to serialise it)."""

    __slots__ = ("before", "dice", "faces", "legal", "lines", "read", "shown", "st", "table")

    def __init__(self, table: Table, st: Any, faces: tuple[int, ...] = (),
                 before: dict[str | None, tuple[str, ...]] | None = None) -> None:
        self.table = table
        self.st = st
        self.faces = faces
        """The dice of the roll being made, one OpenSpiel chance node each, so far."""
        self.dice: tuple[int, ...] | None = None
        """The faces of each die of the roll being made (None: not yet asked)."""
        self.legal: dict[int, Any] | None = None
        """The legal actions by number (None: not yet asked)."""
        self.before = before
        """A twin's (`resample`): what each seat (None: anyone) had read of the log before it was dealt."""
        self.lines: list[str] = []
        """The first entries of the game's log as 'side: action' lines, written once each: OpenSpiel asks for the
        history of every position of a game, and the log only grows."""
        self.read: dict[str | None, list[str]] = {}
        """Per seat, its `history` of the log's settled entries (`RuleSystem.log_settled`: they read the same for
        the rest of the game), kept so that each is read once. Lists never changed once kept (shared by copies)."""
        self.shown: dict[str | None, str] = {}
        """Per seat, what it sees of the game now (`seen`) as text, written once a position: OpenSpiel asks each
        seat's observation and its information state at every position. Emptied as the game moves on."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        copy = Position(self.table, self.st.clone(), self.faces, self.before)
        copy.dice, copy.legal = self.dice, self.legal  # the same position: the same answers
        copy.lines = list(self.lines)  # the same log so far
        copy.read = dict(self.read)  # the same settled readings (lists never changed in place)
        copy.shown = dict(self.shown)  # the same position: the same sights
        return copy

    def __reduce__(self) -> tuple[Callable[..., Position], tuple[Any, ...]]:
        if self.before is not None:
            raise TypeError("a resampled position cannot be serialised: it has no log to replay")
        t = self.table
        return revive, (t.scenario, dict(t.params), [(e.action, e.side) for e in self.st.log], self.faces)

    def sides_of_dice(self) -> tuple[int, ...]:
        if self.dice is None:
            dice = self.st.chance_dice()
            self.dice = dice.sides if isinstance(dice.sides, tuple) else (dice.sides,) * dice.count
        return self.dice

    def numbered(self) -> dict[int, Any]:
        if self.legal is None:
            get, number = self.table.ids.get, self.table.number
            legal: dict[int, Any] = {}
            for a in self.st.legal_actions():
                text = a.to_str()
                n = get(text)
                legal[n if n is not None else number(text)] = a
            self.legal = legal
        return self.legal

    def written(self) -> list[str]:
        """Every entry of the game's log as a 'side: action' line (`lines`, brought up to date)."""
        log, lines = self.st.log, self.lines
        if len(lines) > len(log):  # never, as a game's log only grows; but a shorter log is not this one
            lines.clear()
        lines.extend(f"{e.side}: {e.action}" for e in log[len(lines):])
        return lines

    def history(self, seat: str | None) -> list[str]:
        """The log as the player of `seat` (None: a spectator) may read it, one 'side: action' line per entry."""
        log, lines = self.st.log, self.written()
        system = self.table.system
        # the settled entries read before are read as they were (the log only grows: a kept reading longer than the
        # log is not of this game, and is read again)
        kept = self.read.get(seat, [])
        since = len(kept) if len(kept) <= len(log) else 0
        # an entry the seat reads as it stands is the log's own: its line is written already; one read in its
        # public form (a new entry) is written here
        read = kept[:since]
        read.extend(lines[i] if i < len(log) and e is log[i] else f"{e.side}: {e.action}"
                    for i, e in enumerate(system.log_for(self.st, seat, since), since))
        if system.log_settled is not None:
            settled = system.log_settled(self.st)
            if settled > since:
                self.read[seat] = read[:settled]
        if self.before is None:
            return read
        return [*self.before.get(seat, self.before[None]), *read]

    def seen(self, seat: str | None) -> dict[str, Any]:
        system = self.table.system
        return system.seat_view(self.st, seat) if system.seat_view is not None else dict(self.st.view(seat))

    def sight(self, seat: str | None) -> str:
        """`seen(seat)` as text (its `repr`), kept until the game moves on."""
        text = self.shown.get(seat)
        if text is None:
            text = self.shown[seat] = repr(self.seen(seat))
        return text


def revive(scenario: str, params: dict[str, Any], log: list[tuple[str, str]], faces: tuple[int, ...]) -> Position:
    """A position rebuilt from its record: the game's log replayed on a new game."""
    t = table(scenario, params)
    st = t.start.clone()
    for action, side in log:
        st.apply_action(st.parse_action(action), side)
    return Position(t, st, faces)


class WarroomState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types
    """An OpenSpiel state of a warroom game (see the module's notes)."""

    def __init__(self, game: WarroomGame, position: Position | None = None) -> None:
        super().__init__(game)
        self._w = position if position is not None else Position(game.table, game.table.start.clone())

    def current_player(self) -> int:
        who = self._w.st.current_player()
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if who == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if who == REPORT:
            raise RuntimeError("a bot game asks for a tabletop result")
        return self._w.table.player_of[who]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._w.numbered())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        w = self._w
        sides = w.sides_of_dice()
        if not sides:
            return [(0, 1.0)]
        faces = sides[len(w.faces)]
        return [(f, 1.0 / faces) for f in range(faces)]

    def _apply_action(self, action: int) -> None:
        w = self._w
        st = w.st
        who = st.current_player()
        unchecked = getattr(st, "apply_unchecked", None)
        if who == CHANCE:
            sides = w.sides_of_dice()
            if sides:
                if not 0 <= action < sides[len(w.faces)]:
                    raise ValueError(f"die {len(w.faces) + 1} of this roll has {sides[len(w.faces)]} faces, "
                                     f"not outcome {action}")
                w.faces = (*w.faces, action + 1)
                if len(w.faces) < len(sides):
                    return
            roll = Roll(w.faces)
            w.faces, w.dice = (), None
            if unchecked is not None:
                unchecked(roll, CHANCE)
            else:
                st.apply_action(roll)
        else:
            known = w.numbered().get(action)
            if known is not None and unchecked is not None:
                unchecked(known, who)  # one of the actions this very position offered
            else:
                st.apply_action(known if known is not None else st.parse_action(w.table.text(action)), who)
        w.legal = None
        w.shown = {}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            w = self._w
            if w.st.current_player() != CHANCE:  # an outcome of an earlier node (a history being printed)
                return f"die: {action + 1}"
            sides = w.sides_of_dice()
            if not sides:
                return "roll -"
            return f"die {len(w.faces) + 1} of {len(sides)} (d{sides[len(w.faces)]}): {action + 1}"
        return self._w.table.text(action)

    def is_terminal(self) -> bool:
        return bool(self._w.st.is_terminal())

    def returns(self) -> list[float]:
        w = self._w
        if not w.st.is_terminal():
            return [0.0] * len(w.table.players)
        final = w.st.returns()
        return [float(final[seat]) for seat in w.table.players]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> WarroomState:
        """A twin position the player cannot tell from this one: everything its seat cannot see dealt again
        (`RuleSystem.seat_determinise`, or `determinise`), from a stream seeded by `probability_sampler`."""
        w = self._w
        t = w.table
        seat = t.players[player_id]
        if not t.encoding.hidden:
            return self.clone()  # type: ignore[no-any-return]  # nothing is hidden: the position itself
        deal = t.system.seat_determinise
        if deal is None and all(t.players[p] == side for side, p in t.player_of.items()):
            deal = t.system.determinise
        if deal is None:
            raise NotImplementedError(f"{t.system.name} cannot deal a twin of {t.scenario} for a seat "
                                      "(it declares no determinise)")
        twin = deal(w.st, seat, random.Random(int(probability_sampler() * 2**53)))
        read = {seat: tuple(w.history(seat)), None: tuple(w.history(None))}
        return WarroomState(self.get_game(), Position(t, twin, w.faces, read))

    def __str__(self) -> str:
        w = self._w
        lines = list(w.written())
        if w.before is not None:
            lines = [*w.before[None], "(dealt again)", *lines]
        if w.faces:
            lines.append(f"dice so far: {' '.join(map(str, w.faces))}")
        return "\n".join(lines)


class SeatObserver:
    """What a player knows as text (OpenSpiel's Python observer protocol; no tensors): with `perfect_recall` the
    log as its seat reads it and what it sees now, otherwise only what it sees now; `private_info` NONE reads as
    a spectator, ALL_PLAYERS as every seat at once."""

    def __init__(self, iig_obs_type: Any) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}
        self.recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        self.private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info

    def set_from(self, state: WarroomState, player: int) -> None:
        pass

    def string_from(self, state: WarroomState, player: int) -> str:
        w = state._w
        seats: list[str | None] = [w.table.players[player]]
        if self.private == pyspiel.PrivateInfoType.NONE:
            seats = [None]
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            seats = list(w.table.players)
        parts = [f"player {player} ({', '.join(s or 'spectator' for s in seats)})"]
        for seat in seats:
            if self.recall:
                parts.extend(w.history(seat))
            parts.append(w.sight(seat))
        return "\n".join(parts)


class WarroomGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """A scenario of a registered system with its parameters, as an OpenSpiel game (see the module's notes)."""

    name = GAME
    """The OpenSpiel name this class is registered under (`register` makes one subclass per name)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        name = self.name
        spec = _SPECS[name]
        rule_params = {k: v for k, v in params.items() if k != "scenario" and k in spec and v != spec[k]}
        scenario = str(params.get("scenario", spec["scenario"]))
        self.table = t = table(scenario, rule_params)
        n = len(t.players)
        lo, hi = t.encoding.returns
        kind = game_type(name, t.system, n, information=t.encoding.hidden)
        info = pyspiel.GameInfo(num_distinct_actions=len(t.encoding.actions) + SPARE,
                                max_chance_outcomes=t.encoding.faces, num_players=n, min_utility=float(lo),
                                max_utility=float(hi), utility_sum=0.0 if n == 2 else None,
                                max_game_length=t.system.max_actions)
        super().__init__(kind, info, {**{k: params[k] for k in spec if k in params}, "scenario": scenario})

    def new_initial_state(self) -> WarroomState:
        return WarroomState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        if params:
            raise ValueError(f"warroom's observers take no parameters, got {params}")
        return SeatObserver(iig_obs_type)


def game_type(name: str, system: RuleSystem | None, players: int, information: bool) -> Any:
    """The OpenSpiel `GameType` of a game (`system` None: the name that takes every system's scenarios)."""
    return pyspiel.GameType(
        short_name=name,
        long_name=f"warroom: {system.name}" if system is not None else "warroom: any registered rule system",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players, 2), min_num_players=min(players, 2),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification=_SPECS[name])


def parameters(system: RuleSystem) -> dict[str, Any]:
    """The rule parameters a game string may set: those the system's bot-game defaults or variants give a value
    of, each at its type's zero ('', 0, false), which leaves it to the system (`seats=3`, `advanced=true`)."""
    spec: dict[str, Any] = {}
    for params in (system.sim_params, *(v.params for v in system.variants)):
        for key, value in params.items():
            spec.setdefault(key, False if isinstance(value, bool) else 0 if isinstance(value, int) else "")
    return spec


_SPECS: dict[str, dict[str, Any]] = {}


def register() -> list[str]:
    """Register `python_warroom` and `python_warroom_<system>` for every registered system with OpenSpiel (once
    per process; loading the adapter registers nothing) and return their names."""
    systems = rulesets.systems()
    names = [GAME, *(f"{GAME}_{sid}" for sid in systems)]
    if GAME in _SPECS:
        return names
    every: dict[str, Any] = {"scenario": "caen" if "caen" in bundled_ids() else bundled_ids()[0]}
    most = 2
    for sid, system in systems.items():
        own = bundled_ids(system=sid)
        spec = {"scenario": own[0] if own else "", **parameters(system)}
        every.update({k: v for k, v in spec.items() if k != "scenario"})
        sides = max((len(load_scenario(s).sides) for s in own), default=2)
        most = max(most, sides)
        _SPECS[f"{GAME}_{sid}"] = spec
        pyspiel.register_game(game_type(f"{GAME}_{sid}", system, sides, system.encoding is None or any(
            system.encoding(load_scenario(s), system.sim_params).hidden for s in own)), _creator(f"{GAME}_{sid}"))
    _SPECS[GAME] = every
    pyspiel.register_game(game_type(GAME, None, most, True), _creator(GAME))
    return names


def _creator(name: str) -> type[WarroomGame]:
    """The class registered under `name`. A class, not a closure: OpenSpiel's registry keeps its creators until
    the process ends, after Python itself has stopped, and releasing a closure then aborts the process."""
    return WarroomGame if name == GAME else type(f"WarroomGame_{name}", (WarroomGame,), {"name": name})


def load_game(scenario: str, **params: Any) -> Any:
    """The OpenSpiel game of a bundled scenario (or a scenario file or folder) with its rule parameters, e.g.
    `load_game('kampen', seats=3)`; `ValueError` if they do not make a bot game."""
    register()
    return pyspiel.load_game(GAME, {"scenario": scenario, **params})
