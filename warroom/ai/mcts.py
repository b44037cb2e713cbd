"""A bot that searches: Monte Carlo tree search, and information-set MCTS where sides hold secrets.

One search serves every registered system, through the state API and the system's declaration only:

- **Chance** is never a player. At a chance node the search rolls the node's own dice from its stream. Below a
  roll of at most `CHANCE_WIDTH` outcomes the tree keeps one branch per outcome, so what follows a good roll is
  not mixed with what follows a bad one; a larger roll (a Strategic Game fight's twenty dice, a shuffle) is
  sampled and passed through ("open loop"), since its branches would each be visited too rarely to learn from.
- **Secrets** (`RuleSystem.determinise`): every iteration starts from a *determinisation*, a copy of the position
  in which everything the searching side cannot see is dealt again at random. The tree is shared by all of them
  (single-observer IS-MCTS, after Cowling, Powley and Whitehouse 2012): a node is a sequence of actions, its
  children are chosen by UCB over the actions legal in the current determinisation, and each child counts how
  often it was available, which takes the place of its parent's visits in the exploration term. The real
  position is read only through `determinise`, so the bot's choice depends only on what its side may know.
  Where a system hides nothing, the copy is a plain clone and this is ordinary MCTS with chance.
- **Values.** Each side's standing in a position is the system's `value` (0 to 1, 1 the best the game allows):
  at the end of a rollout, or at the search's horizon when one is set (`horizon` actions after the root), where
  it is the evaluation. Every tree edge backs up the value of the side that chose it (max^n), so the search
  works for two sides or three; sides that share a result (Kampen om Norge's Norway and Allies) share a value.
- **Budget.** A number of iterations (rollouts), which makes the bot's choice a function of the position and its
  seed alone; or seconds of CPU time, which does not (the count reached depends on the machine).

The rollout policy is uniform random play (or, with `/g`, the system's heuristic for every side) through the trusted
path (`apply_unchecked`), as `core.game.play`, on copies that keep no log. Where the position offers
`random_action(rng)` (a uniform draw among its legal actions, made without listing them where the step knows how:
Kampen om Norge's moves), a random playout draws its moves with it.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from warroom.core.state import CHANCE, REPORT, Action
from warroom.core.system import FastPosition, Heuristic
from warroom.rulesets import heuristic, kernel_heuristic, of

CHANCE_WIDTH = 36
"""The most outcomes a roll may have to get one tree branch per outcome (two d6); larger rolls pass through."""
EXPLORATION = 0.7
"""UCB's exploration constant for values on a 0-1 scale."""
WIDENING = 2.0
"""Progressive widening: a node tries a new action only while it has tried fewer than WIDENING * sqrt(passes),
so a step with a hundred legal moves is searched deeply on a few rather than once each on all."""
HINT_BIAS = 1.0
"""The heuristic's choice gets HINT_BIAS / (visits + 1) on top of its UCB score (progressive bias)."""
KEEP_HINT = 1.0
"""The search leaves the heuristic's choice at the root only for an action whose mean value beats the choice's by
more than KEEP_HINT standard errors (values taken as shares in 0-1): with dice deciding much of a campaign, a few
rollouts each would otherwise trade a sound choice for a lucky one."""
DEFAULT_ROLLOUTS = 400
MAX_HORIZON = 1_000_000
_NUMBER = re.compile(r"[0-9]{1,12}")
_DECIMAL = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?")
"""Iterations per decision when a bot is named without a budget."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the search thinks per decision: `rollouts` iterations, or `seconds` of CPU time."""

    rollouts: int = DEFAULT_ROLLOUTS
    seconds: float | None = None
    horizon: int | None = None
    """Stop each rollout this many actions after the root and evaluate there (None: play to the end)."""
    guided: bool = False
    """Rollouts play the system's heuristic for every side instead of uniform random moves."""

    def text(self) -> str:
        spend = f"{self.seconds:g}s" if self.seconds is not None else str(self.rollouts)
        return spend + (f"/h{self.horizon}" if self.horizon is not None else "") + ("/g" if self.guided else "")


def parse_budget(text: str) -> Budget:
    """A budget from its text: '' (the default), '800' (iterations) or '1.5s' (CPU seconds), then optionally
    '/hN' for a horizon of N actions and '/g' for rollouts guided by the heuristic ('300/h60/g'). Raises
    `ValueError` naming what is wrong."""
    spend, *options = text.split("/")
    horizon: int | None = None
    guided = False
    for option in options:
        if option == "g" and not guided:
            guided = True
        elif _NUMBER.fullmatch(option[1:]) and option.startswith("h") and 1 <= int(option[1:]) <= MAX_HORIZON \
                and horizon is None:
            horizon = int(option[1:])
        else:
            raise ValueError(f"after the budget come /hN (a horizon of N actions, 1 to {MAX_HORIZON}) and /g (rollouts "
                             f"guided by the heuristic), each once; got {'/' + option!r}")
    if not spend:
        return Budget(horizon=horizon, guided=guided)
    if spend.endswith("s"):
        seconds = float(spend[:-1]) if _DECIMAL.fullmatch(spend[:-1]) else -1.0
        if not 0 < seconds <= 3600:
            raise ValueError(f"a search time is written like 1.5s (above 0, at most 3600 seconds), got {spend!r}")
        return Budget(seconds=seconds, horizon=horizon, guided=guided)
    if not _NUMBER.fullmatch(spend) or not 1 <= int(spend) <= 10_000_000:
        raise ValueError(f"a search budget is a number of rollouts (1 to 10000000) or seconds like 1.5s, "
                         f"got {spend!r}")
    return Budget(rollouts=int(spend), horizon=horizon, guided=guided)


class Node:
    """A tree node: the edge into it (`side` chose it, or it is a roll's outcome) and its statistics."""

    __slots__ = ("avail", "children", "hints", "passes", "side", "total", "visits")

    def __init__(self, side: str) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        """The sum of the values `side` got in the iterations through this edge."""
        self.avail = 0
        """How often this edge was legal when its parent was reached (IS-MCTS's availability count)."""
        self.side = side
        self.passes = 0
        """How often a search passed through this node and chose among its children."""
        self.hints: dict[str, Any] | None = None
        """The heuristic's choice here for each side that acted here, once asked: tried first, and favoured while
        the evidence is thin."""


Value = Callable[[Any], dict[str, float]]
Deal = Callable[[Any, str, random.Random], Any]


def squashed_returns(st: Any) -> dict[str, float]:
    """The fallback value of a system that declares none: its `returns()` through a logistic curve."""
    return {side: 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, r)))) for side, r in st.returns().items()}


class Search:
    """One search from one position, for the side to act there."""

    def __init__(self, root: Any, rng: random.Random, budget: Budget, value: Value | None,
                 determinise: Deal | None, heuristic: Heuristic | None = None,
                 kernel: Callable[[Any], FastPosition | None] | None = None) -> None:
        """`value`, `determinise`, `heuristic` and `kernel` are the rule system's (`RuleSystem.value`,
        `RuleSystem.determinise`, `rulesets.heuristic`, `RuleSystem.kernel`). Random rollouts are played in the
        kernel where it takes the position: the same rollouts (the same choices in the same order, from the
        same stream), faster."""
        self.root_state = root
        self.me: str = root.current_player()
        self.rng = rng
        self.budget = budget
        self.value: Value = value or squashed_returns
        self.determinise = determinise
        self.heuristic = heuristic
        self.hint_rng = random.Random(rng.getrandbits(64))
        self.root = Node(self.me)
        self.iterations = 0
        self.kernel = kernel
        self.encode: Callable[[Action], Any] | None = None
        """How the tree keys an action of the position asked about: set when the search runs on a kernel position
        (`kernel_search`), whose actions are codes."""

    def world(self) -> Any:
        """The position one iteration searches: dealt again where the side cannot see, else a copy."""
        det = self.determinise
        world = det(self.root_state, self.me, self.rng) if det is not None else self.root_state.clone()
        if self.encode is None:  # a kernel position keeps neither
            world.record_events = False
            world.record_log = False  # the trusted path: a search's copy is never saved, replayed or shown
        return world

    def run(self) -> None:
        budget = self.budget
        if budget.seconds is None:
            for _ in range(budget.rollouts):
                self.iterate()
            return
        end = time.process_time() + budget.seconds
        self.iterate()
        while time.process_time() < end:
            self.iterate()

    def iterate(self) -> None:
        """Select down the tree, grow it by one node, play the rest out (at random, or by the heuristic with
        `Budget.guided`), back the values up."""
        rng = self.rng
        world = self.world()
        apply = getattr(world, "apply_unchecked", None) or world.apply_action
        draw = getattr(world, "random_action", None)  # a uniform draw of a legal action without the list
        node = self.root
        path: list[Node] = []
        horizon = self.budget.horizon
        guide = self.heuristic if self.budget.guided else None
        depth = 0
        grown = False
        while not world.is_terminal() and (horizon is None or depth < horizon):
            who = world.current_player()
            depth += 1
            if who == CHANCE:
                dice = world.chance_dice()
                roll = dice.sample(rng)
                if not grown and _width(dice) <= CHANCE_WIDTH:
                    key = roll.values
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = Node(CHANCE)
                    node = child
                apply(roll, who)
                continue
            if who == REPORT:
                raise ValueError("a search cannot play a battle at the table: search games use the General's "
                                 "Wargame")
            if grown and guide is None and self.kernel is not None:
                fast = self.kernel(world)
                if fast is not None:
                    fast.play_out((rng, rng), rng, -1 if horizon is None else horizon - depth + 1)
                    self.backup(path, fast.value())
                    return
            if grown and guide is None and draw is not None:
                apply(draw(rng), who)
                continue
            legal = world.legal_actions()
            if grown:
                if guide is not None and len(legal) > 1:
                    action = guide(world, legal, self.hint_rng)
                else:
                    action = legal[int(rng.random() * len(legal))]
            else:
                action, node, grown = self.select(node, legal, who, world)
                path.append(node)
            apply(action, who)
        self.backup(path, self.value(world))

    def backup(self, path: list[Node], values: dict[str, float]) -> None:
        """Count the iteration, and add each side's value to the edges it chose on the way down."""
        self.iterations += 1
        for n in path:
            n.visits += 1
            n.total += values.get(n.side, 0.5)

    def select(self, node: Node, legal: Sequence[Action], who: str, world: Any) -> tuple[Action, Node, bool]:
        """The action to take at `node` in `world`: a new one (the tree grows) while the node may widen, else the
        best by UCB among those tried and legal here. Marks every tried legal child as available.

        Children are keyed by (side, action): where a large roll or a dealt secret decides who acts next, one
        node may be reached with different sides to act, and each must read only its own statistics."""
        node.passes += 1
        children = node.children
        untried: list[Action] = []
        tried = 0
        for a in legal:
            child = children.get((who, a))
            if child is None:
                untried.append(a)
            else:
                child.avail += 1
                tried += 1
        hint = self.hint_at(node, world, legal, who)
        if untried and (not tried or tried < WIDENING * math.sqrt(node.passes)):
            action = hint if hint is not None and hint in untried else untried[int(self.rng.random() * len(untried))]
            child = children[(who, action)] = Node(who)
            child.avail += 1
            return action, child, True
        best: Action | None = None
        best_child: Node | None = None
        best_score = -math.inf
        for a in legal:
            child = children.get((who, a))
            if child is None:
                continue
            score = child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
            if a == hint:
                score += HINT_BIAS / (child.visits + 1)
            if score > best_score:
                best, best_child, best_score = a, child, score
        assert best is not None and best_child is not None
        return best, best_child, False

    def hint_at(self, node: Node, world: Any, legal: Sequence[Action], who: str) -> Action | None:
        """The system's heuristic choice for `who` at `node`, asked once (in the first position that reaches it)."""
        hints = node.hints
        if hints is None:
            hints = node.hints = {}
        if who not in hints:
            hints[who] = self.heuristic(world, legal, self.hint_rng) if self.heuristic and len(legal) > 1 else None
        hint: Action | None = hints[who]
        return hint

    def best(self, legal: Sequence[Action]) -> Action:
        """The most visited of the root's legal actions (ties: the better mean, then the earlier in `legal`); but
        the heuristic's choice where the search tried it and has no clear evidence against it (`KEEP_HINT`)."""
        children = self.root.children
        best = legal[0]
        best_child: Node | None = None
        key = (-1, -1.0)
        encode = self.encode
        hint = (self.root.hints or {}).get(self.me)
        kept: Action | None = None
        for a in legal:
            code = a if encode is None else encode(a)
            child = children.get((self.me, code))
            if child is None or not child.visits:
                continue
            if hint is not None and code == hint:
                kept = a
            mine = (child.visits, child.total / child.visits)
            if mine > key:
                best, best_child, key = a, child, mine
        if kept is None or kept == best or best_child is None:
            return best
        held = children[(self.me, hint)]
        p, q = best_child.total / best_child.visits, held.total / held.visits
        spread = math.sqrt(max(0.0, p * (1 - p)) / best_child.visits + max(0.0, q * (1 - q)) / held.visits)
        return best if p - q > KEEP_HINT * spread else kept

    def nodes(self) -> int:
        """How many nodes the tree holds."""
        count = 0
        stack = [self.root]
        while stack:
            n = stack.pop()
            count += 1
            stack.extend(n.children.values())
        return count


def _width(dice: Any) -> int:
    """How many outcomes a roll has."""
    sides = getattr(dice, "sides", 6)
    if isinstance(sides, tuple):
        total = 1
        for s in sides:
            total *= s
        return total
    width: int = sides ** dice.count
    return width


def search_for(state: Any, rng: random.Random, budget: Budget) -> Search:
    """A search from `state` with its rule system's value, determinisation and heuristic."""
    system = of(state)
    deal: Deal | None = system.determinise
    if system.seat_determinise is not None:  # deal only what the deciding player cannot see: a player holding
        seat = system.seats(state.sc, state.params)[state.current_player()]  # two sides knows both hands
        seat_deal = system.seat_determinise

        def deal(st: Any, _side: str, rng: random.Random) -> Any:
            return seat_deal(st, seat, rng)

    # the whole search in the kernel only where its heuristic is there too: the tree's hints must be the same
    same_hints = system.heuristic is None or system.kernel_heuristic is not None
    fast = system.kernel(state) if system.kernel is not None and same_hints else None
    if fast is not None:
        return kernel_search(state, fast, rng, budget)
    return Search(state, rng, budget, system.value, deal, heuristic(system), system.kernel)


def kernel_search(state: Any, fast: FastPosition, rng: random.Random, budget: Budget) -> Search:
    """The search from `state` run wholly in its system's simulation kernel (`fast`, the same position there): the
    tree, the hints and the rollouts, with the kernel's heuristic (`RuleSystem.kernel_heuristic`). It is the same
    search as on the reference engine, the same statistics from the same seed, faster (tests/property/
    test_kernel.py); a kernel position holds no secret, so every iteration searches a copy."""
    system = of(state)
    search = Search(fast, rng, budget, _kernel_value, None, kernel_heuristic(system), _itself)
    search.encode = fast.code
    return search


def _kernel_value(fast: Any) -> dict[str, float]:
    values: dict[str, float] = fast.value()
    return values


def _itself(fast: Any) -> Any:
    return fast


class MCTSBot:
    """Decides by a search from each position it is asked about (a fresh tree each time), with its own stream."""

    def __init__(self, rng: random.Random, budget: Budget | None = None) -> None:
        self.rng = rng
        self.budget = budget or Budget()
        self.last: Search | None = None

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        search = search_for(state, self.rng, self.budget)
        search.run()
        self.last = search
        return search.best(legal)
