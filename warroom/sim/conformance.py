"""One conformance harness for every registered rule system (after OpenSpiel's `random_sim_test`).

Random legal play of a system's scenario and variant, checking at every step what the state API promises:

- **contracts**: `current_player()` is a side, `CHANCE`, `REPORT` or `TERMINAL`, and `is_terminal()` agrees;
  a side to act has legal actions, each written in a form that reads back to itself; a chance node rolls dice
  whose listed outcomes (where few enough to list) add up to 1; a finished game has returns for every side;
- **exact replay**: the game's record, through its JSON form, replays to the same log and the same view;
- **clone independence**: a fresh clone looks like its original to every side, and playing a decision or a roll
  on a clone leaves the original as it was (every side's view, the returns, the legal actions);
- **legality**: a legal action picked at random applies, and a probe that is not legal (another moment's action)
  is refused with `IllegalActionError`;
- **secrets** (systems that determinise): the side to act sees the same view, the same legal actions and the
  same refusals on a twin position in which everything it cannot see is dealt again, and so does a spectator;
- **numbering** (systems that declare an encoding): a bot game offers no action outside the system's list;
- **no dead ends, and termination** within the system's bound.

A broken promise is a `Problem` naming the system, scenario, variant and seed, so that it can be played again.
"""

from __future__ import annotations

import io
import pickle
import random
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from warroom import rulesets
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action
from warroom.core.system import Encoding, RuleSystem, Variant
from warroom.scenarios import bundled_ids, load_game

PROBES = 3
"""Illegal-action probes tried at a checked decision."""
CHECK_EVERY = 7
"""A decision in this many gets the costly checks (probes, clone independence, twins)."""
MAX_LISTED = 1296
"""Chance nodes with at most this many outcomes have their probabilities summed."""
REPORT_RATE = 0.25
"""How often a random player reports a waiting battle's result when it could also decide."""


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str  # crash, contract, replay, clone, legality, leak, dead end, endless
    system: str
    scenario: str
    variant: str
    seed: int
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.system}/{self.scenario} ({self.variant}) seed {self.seed}: {self.detail}"


@dataclass(slots=True)
class Tally:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.actions += other.actions
        self.seconds += other.seconds
        self.problems.extend(other.problems)


class Broken(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind


def cases(system_id: str | None = None) -> Iterator[tuple[RuleSystem, str, Variant]]:
    """Every registered system's every bundled, playable scenario in each of its variants."""
    for system in rulesets.systems().values():
        if system_id is not None and system.id != system_id:
            continue
        for scenario in bundled_ids(system=system.id):
            for variant in system.variants:
                yield system, scenario, variant


def snapshot(data: Any) -> bytes | str:
    """A copy of `data` (a view: dicts, lists and text) that later changes to it cannot reach, equal for equal data
    written alike (keys in the same order; 1, 1.0 and True told apart, as `repr` tells them). It is the data pickled
    without the pickler's memo (so that how objects are shared or interned makes no difference), some four times
    quicker than `repr` on a large view; data that cannot be pickled so (a cycle, an object pickle refuses) is
    compared by its `repr`."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: equal data, equal bytes
    try:
        pickler.dump(data)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError, ValueError):  # ValueError: a cycle
        return repr(data)
    return out.getvalue()


def fingerprint(st: Any) -> bytes | str:
    """Who is to act, what each side and a spectator see, the returns and the legal actions: equal fingerprints
    for positions nobody can tell apart."""
    views = [st.view(side) for side in (None, *st.sc.sides)]
    return snapshot((st.current_player(), views, st.returns(), [a.to_str() for a in st.legal_actions()]))


def check_clone(st: Any, dice: random.Random) -> None:
    """A fresh clone looks like the original; a roll played on a clone leaves the original as it was."""
    before = fingerprint(st)
    copy = st.clone()
    if fingerprint(copy) != before:
        raise Broken("clone", "a fresh clone differs from its original")
    copy.apply_action(copy.chance_dice().sample(dice))
    if fingerprint(st) != before:
        raise Broken("clone", "rolling dice on a clone changed the original position")


def legal_strings(st: Any) -> list[str]:
    return [a.to_str() for a in st.legal_actions()]


def refusal(st: Any, action: Action, side: str) -> str | None:
    """The refusal message for `action` by `side` on a copy of `st`, or None if it was accepted."""
    probe = st.clone()
    try:
        probe.apply_action(action, side)
    except IllegalActionError as exc:
        return str(exc)
    return None


def check_decision(system: RuleSystem, st: Any, who: str, legal: Sequence[Action], texts: list[str],
                   seen: list[str], read_back: set[str], rng: random.Random) -> None:
    """The costly checks at one decision by side `who`, whose legal actions `legal` are written `texts`.
    `read_back` holds the texts this game has already read back to themselves: reading depends on the text and
    the scenario's names only (never on the position: `GameState.parse_action`), so each is read once a game, but
    for the first and the last of each decision, read again wherever they come: that promise is checked too."""
    again = {texts[0], texts[-1]} if texts else set()
    for text in texts:
        if text in read_back and text not in again:
            continue
        back = st.parse_action(text)
        if back.to_str() != text:
            raise Broken("contract", f"{text!r} reads back as {back.to_str()!r}")
        read_back.add(text)
    allowed = set(texts) | ({r.to_str() for r in system.tabletop.reports(st)} if system.tabletop else set())
    probes = [t for t in rng.sample(seen, min(len(seen), PROBES * 3)) if t not in allowed][:PROBES]
    before = fingerprint(st)
    refused: dict[str, str | None] = {}
    for text in probes:
        try:
            action = st.parse_action(text)
        except (IllegalActionError, UnknownNameError):
            continue
        refused[text] = refusal(st, action, who)
        if refused[text] is None:
            raise Broken("legality", f"{text!r} by {who} was accepted but is not among the legal actions {texts[:8]}")
    pick = legal[rng.randrange(len(legal))]
    why = refusal(st, pick, who)
    if why is not None:
        raise Broken("legality", f"the legal action {pick.to_str()!r} by {who} was refused: {why}")
    if fingerprint(st) != before:
        raise Broken("clone", "playing on a clone changed the original position")
    if system.determinise is not None:
        twin = system.determinise(st, who, random.Random(rng.getrandbits(32)))
        if snapshot(twin.view(who)) != snapshot(st.view(who)):
            raise Broken("leak", f"{who}'s view differs on a twin position (something it cannot see shows)")
        if snapshot(twin.view(None)) != snapshot(st.view(None)):
            raise Broken("leak", f"a spectator's view differs on a twin position dealt for {who} (it shows "
                                 "something hidden)")
        if legal_strings(twin) != texts:
            raise Broken("leak", f"{who}'s legal actions differ on a twin position")
        for text, why_not in refused.items():
            if refusal(twin, twin.parse_action(text), who) != why_not:
                raise Broken("leak", f"the refusal of {text!r} differs on a twin position: {why_not!r}")


def listed(system: RuleSystem, scenario: str, variant: Variant) -> frozenset[str]:
    """Every action the system's encoding lists for a bot game of the scenario (empty: it declares none, or the
    variant is not a bot game)."""
    if system.encoding is None or system.bot_game_problem(variant.params):
        return frozenset()
    return _listed(system.encoding, scenario, tuple(sorted(variant.params.items())))


@cache
def _listed(encoding: Callable[[Any, Mapping[str, Any]], Encoding], scenario: str,
            params: tuple[tuple[str, Any], ...]) -> frozenset[str]:
    return frozenset(encoding(load_game(scenario), dict(params)).actions)


def play_checked(system: RuleSystem, scenario: str, variant: Variant, seed: int) -> int:
    """Play one random game with every check; returns its length in actions; raises `Broken`."""
    sc = load_game(scenario)
    st = system.new_game(sc, dict(variant.params))
    rng = random.Random(seed)
    dice = random.Random(seed ^ 0x9E3779B97F4A7C15)
    sides = set(sc.sides)
    seen: list[str] = []
    known: set[str] = set()
    read_back: set[str] = set()
    numbered = listed(system, scenario, variant)
    for step in range(system.max_actions):
        who = st.current_player()
        if (who == TERMINAL) != st.is_terminal():
            raise Broken("contract", f"current_player() is {who!r} but is_terminal() is {st.is_terminal()}")
        if who == TERMINAL:
            returns = st.returns()
            if set(returns) != sides:
                raise Broken("contract", f"returns() names {sorted(returns)}, not the sides {sorted(sides)}")
            check_replay(system, sc, variant, st, seed)
            return step
        if who == CHANCE:
            if st.legal_actions():
                raise Broken("contract", "a chance node lists legal actions")
            roll_dice = st.chance_dice()
            sizes = getattr(roll_dice, "sides", 6)
            count = len(sizes) if isinstance(sizes, tuple) else roll_dice.count
            if count and (max(sizes) if isinstance(sizes, tuple) else sizes) ** count <= MAX_LISTED:
                total = sum(p for _, p in roll_dice.outcomes())
                if abs(total - 1.0) > 1e-9:
                    raise Broken("contract", f"the chance outcomes add up to {total}, not 1")
            if step % CHECK_EVERY == 0:
                check_clone(st, random.Random(rng.getrandbits(32)))
            st.apply_action(roll_dice.sample(dice))
            continue
        reports = system.tabletop.reports(st) if system.tabletop is not None else []
        if who == REPORT:
            if not reports:
                raise Broken("dead end", f"a tabletop result is asked for (step {getattr(st, 'step', '?')}) but "
                                         "none can be reported")
            st.apply_action(reports[rng.randrange(len(reports))], REPORT)
            continue
        if who not in sides:
            raise Broken("contract", f"current_player() is {who!r}, not a side, chance, report or terminal")
        legal = st.legal_actions()
        if not legal:
            raise Broken("dead end", f"{who} is to act (step {getattr(st, 'step', '?')}) with no legal action")
        texts = [a.to_str() for a in legal]
        for text in texts:
            if text not in known and len(known) < 5000:
                known.add(text)
                seen.append(text)
            if numbered and text not in numbered:
                raise Broken("contract", f"{text!r} is not among the actions the system's encoding lists")
        if step % CHECK_EVERY == 0:
            check_decision(system, st, who, legal, texts, seen, read_back, rng)
        if reports and rng.random() < REPORT_RATE:
            st.apply_action(reports[rng.randrange(len(reports))], REPORT)
        else:
            st.apply_action(legal[rng.randrange(len(legal))], who)
    raise Broken("endless", f"no end after {system.max_actions} actions")


def check_replay(system: RuleSystem, sc: Any, variant: Variant, st: Any, seed: int) -> None:
    record = GameRecord.from_json(st.record(seed).to_json())
    again: Any = replay(record, lambda: system.new_game(sc, dict(variant.params)))
    if [e.action for e in again.log] != [e.action for e in st.log]:
        raise Broken("replay", "the replayed log differs from the game's")
    for side in (None, *sc.sides):
        if snapshot(again.view(side)) != snapshot(st.view(side)):
            raise Broken("replay", f"the replayed game's view for {side} differs")


def run(system: RuleSystem, scenario: str, variant: Variant, seeds: Sequence[int]) -> Tally:
    """Play `seeds` games of one case; every broken promise (or crash) becomes a `Problem`."""
    tally = Tally()
    start = time.perf_counter()
    for seed in seeds:
        tally.games += 1
        try:
            tally.actions += play_checked(system, scenario, variant, seed)
        except Broken as exc:
            tally.problems.append(Problem(exc.kind, system.id, scenario, variant.name, seed, str(exc)))
        except Exception as exc:  # a crash is a finding, with where it happened
            where = traceback.extract_tb(exc.__traceback__)[-1]
            tally.problems.append(Problem("crash", system.id, scenario, variant.name, seed,
                                          f"{type(exc).__name__}: {exc} ({where.filename}:{where.lineno})"))
    tally.seconds = time.perf_counter() - start
    return tally
