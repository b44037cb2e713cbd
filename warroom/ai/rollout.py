"""Playing a position on to its end many times, as one player may know it: what the plan advisor, the club
forecasts and the analysis after a game (`ai.advisor`, `ai.forecast`, `ai.analysis`) all stand on.

- **Secrets.** Each rollout starts from a twin of the position dealt for its viewer (`RuleSystem.determinise`,
  or `seat_determinise` where one player holds several sides): everything the viewer cannot see is dealt again
  at random, so what a rollout finds depends only on what the viewer may know. The viewer `SPECTATOR` keeps only
  the public position; `EVERYTHING` (the analysis of a finished game, whose secrets are out) keeps the real one.
- **Battles at the table.** A rollout cannot wait for players. A battle still to be fought is resolved by the
  General's Wargame (`Tabletop.for_bots`), and a result the table still owes is drawn from `Tabletop.results`.
- **Streams.** Rollout number i takes its dice, its deal and its bots' choices from streams seeded by (seed, i)
  alone, so two things compared over the same rollout numbers meet the same luck where they can (common random
  numbers), and the same seed gives the same rollouts.
- **Speed.** Where the system's simulation kernel takes the position and plays the bots (`RuleSystem.kernel`,
  `kernel_finish`), the rest of the game is played there: the same game from the same streams, faster.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warroom.ai.bots import make_bot
from warroom.core.state import CHANCE, REPORT, Action
from warroom.rulesets import camps, kernel_finish, of

SPECTATOR = ""
"""The viewer who sees only the public position (no side has this id)."""
EVERYTHING = None
"""The viewer who sees everything: after the game, when its secrets are out."""
Progress = Callable[[int, int], None]
"""(rollouts done, rollouts expected in all) -> None; the expectation may grow or shrink as the work goes on."""
_DEAL = 0x5DEECE66D
_MASK = (1 << 62) - 1


@dataclass(frozen=True, slots=True)
class Ending:
    """How one rollout ended: the outcome level's label, the winning camp ('' for a draw) and the score difference
    (`GameSummary.diff`: the first camp of `RuleSystem.score_sides` minus the second)."""

    outcome: str
    winner: str
    diff: int


def camp_names(sc: Any, params: Any) -> dict[str, str]:
    """Each camp's name for people: its side's name, or the names of the sides that win together ('Norway and
    the Allies')."""
    names: dict[str, str] = dict(sc.side_names)
    members: dict[str, list[str]] = {}
    for side, camp in camps(sc, params).items():
        members.setdefault(camp, []).append(names.get(side, side))
    def joined(sides: list[str]) -> str:  # 'Norway and the Allies', not 'Norway and The Allies'
        return " and ".join([sides[0], *(re.sub(r"^The ", "the ", s) for s in sides[1:])])

    return {camp: names.get(camp) or joined(sides) for camp, sides in members.items()}


def rollout_seed(seed: int, index: int) -> int:
    """The seed of rollout `index` of a run seeded `seed`."""
    return random.Random(seed * 1_000_003 + index).getrandbits(62)


class Roller:
    """Rollouts from one position for one viewer, with one bot kind per side (`ai.bots.make_bot`)."""

    def __init__(self, root: Any, viewer: str | None, bots: Mapping[str, str], seed: int) -> None:
        system = self.system = of(root)
        sc = root.sc
        self.root = root
        self.viewer = viewer
        self.seed = seed
        self.sides: tuple[str, ...] = tuple(sc.sides)
        self.seats = system.seats(sc, root.params)
        self.bots = {side: bots.get(self.seats[side], bots.get(side, "heuristic")) for side in self.sides}
        self.camps = camps(sc, root.params)
        self.first_camp = system.score_sides(sc)[0]
        self.finish_fast = kernel_finish(system) if system.kernel is not None else None
        tabletop = system.tabletop
        self.results: tuple[tuple[int, int], ...] = ()
        self.for_bots: Callable[[Any], None] | None = None
        if tabletop is not None:
            self.results = tabletop.results or tuple((a, d) for a in tabletop.vp for d in tabletop.vp)
            self.for_bots = tabletop.for_bots

    def world(self, index: int, owed: Sequence[Action] = ()) -> Any:
        """The position rollout `index` starts from: a twin dealt for the viewer, keeping no log, with the results
        `owed` by the table reported if the rules take them now, then made playable by bots (`Tabletop.for_bots`:
        which may turn the table's question into a roll, so the results go in first)."""
        root, system = self.root, self.system
        if self.viewer is EVERYTHING or system.determinise is None:
            world = root.clone()
        else:
            rng = random.Random(rollout_seed(self.seed, index) ^ _DEAL)
            if system.seat_determinise is not None and self.viewer in self.seats:
                world = system.seat_determinise(root, self.seats[self.viewer], rng)
            else:
                world = system.determinise(root, self.viewer, rng)
        world.record_events = False
        world.record_log = False
        if owed and world.current_player() != CHANCE:
            for result in owed:
                world.apply_action(result)
        if self.for_bots is not None:
            self.for_bots(world)
        return world

    def streams(self, index: int) -> tuple[random.Random, dict[str, random.Random]]:
        """Rollout `index`'s dice stream and each side's bot stream (sides one player holds share it)."""
        seed = rollout_seed(self.seed, index)
        seeds = self.system.bot_seeds(seed, self.sides)
        by_seat = {seat: random.Random(seeds[seat]) for seat in set(self.seats.values())}
        return random.Random(seed), {side: by_seat[self.seats[side]] for side in self.sides}

    def finish(self, world: Any, index: int, before: Any = None, owed: Sequence[Action] = ()) -> Ending:
        """Play `world` on to its end with the bots and rollout `index`'s streams; how it ended. `before`: the
        position one action before `world` (as the viewer may know it). Its own first action is drawn first and set
        aside (a roll from the dice stream, a bot's choice from that bot's stream), so that from then on the streams
        are those a rollout from `before` meets after its first action: the two rollouts differ by that action
        alone, which is how the analysis measures an action's worth sharply. `owed`: results from the table to
        report as soon as the rules take them (at the first position that is not a roll)."""
        dice, rngs = self.streams(index)
        made = {side: make_bot(self.bots[side], rngs[side]) for side in self.sides}
        if before is not None and not before.is_terminal():
            first = before.current_player()
            if first == CHANCE:
                before.chance_dice().sample(dice)
            elif first == REPORT:
                self.report(before, dice)
            else:
                made[first].choose(before, before.legal_actions())
        apply: Callable[[Action, str], None] = getattr(world, "apply_unchecked", None) or \
            (lambda action, _who: world.apply_action(action))
        fast = self.finish_fast
        kernel = self.system.kernel
        while not world.is_terminal():
            who = world.current_player()
            if owed and who != CHANCE:
                for result in owed:
                    world.apply_action(result)
                owed = ()
                continue
            if who == CHANCE:
                action: Action = world.chance_dice().sample(dice)
            elif who == REPORT:
                action = self.report(world, dice)
            else:
                if fast is not None and kernel is not None:
                    k = kernel(world)
                    if k is not None:
                        got = fast(k, self.bots, rngs, dice)
                        if got is not None:
                            return Ending(got.outcome, got.winner, got.diff)
                        fast = None  # a bot the kernel does not play: the reference engine plays on
                action = made[who].choose(world, world.legal_actions())
            apply(action, who)
        got = self.system.summarise(world)
        return Ending(got.outcome, got.winner, got.diff)

    def report(self, world: Any, dice: random.Random) -> Action:
        """A result the table still owes, drawn from `Tabletop.results`: for the lowest-numbered question."""
        tabletop = self.system.tabletop
        assert tabletop is not None, "only a system with battles at the table asks for their results"
        no = min(tabletop.questions(world))
        a, d = self.results[int(dice.random() * len(self.results))]
        return tabletop.report(no, a, d)

    def play(self, index: int, prepare: Callable[[Any], None] | None = None, before: Any = None,
             owed: Sequence[Action] = ()) -> Ending:
        """Rollout `index`: the viewer's twin of the position, `prepare`d (a plan applied), played to its end
        (`before`, `owed`: see `finish`)."""
        world = self.world(index, owed)
        if prepare is not None:
            prepare(world)
        return self.finish(world, index, before, owed if self.root.current_player() == CHANCE else ())

    def margin(self, ending: Ending, side: str) -> int:
        """The score difference as `side`'s camp counts it: its own camp's score minus the other's. Where the
        system's score is a count rather than a difference (`RuleSystem.score_label`: Kampen om Norge's German
        point cities), it is that count, the same for every side."""
        return ending.diff if self.system.score_label or self.camps[side] == self.first_camp else -ending.diff

    def order(self, margins: Mapping[str, float], side: str | None) -> list[str]:
        """Outcome levels from the best for `side`'s camp (None: the first camp) to its worst: as the system ranks
        them (`RuleSystem.levels`), else by `margins`, each level's mean margin as the camp counts it."""
        ranked = self.system.levels(self.root.sc) if self.system.levels is not None else ()
        if ranked and side is not None and self.camps[side] != self.first_camp:
            ranked = ranked[::-1]
        place = {label: i for i, label in enumerate(ranked)}
        return sorted(margins, key=lambda label: (place.get(label, len(place)), -margins[label]))

    def score(self, ending: Ending, side: str) -> float:
        """`side`'s result: 1 for its camp's win, 0.5 for a draw, 0 for a loss."""
        if not ending.winner:
            return 0.5
        return 1.0 if ending.winner == self.camps[side] else 0.0
