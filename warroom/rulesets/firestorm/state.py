"""The Firestorm campaign state: the one state API over a flow table.

Locations of a troop: an area id, or one of `POOL` (Reinforcement Pool), `OFFMAP` (not yet in play),
`RESERVE` (Caen Tactical Reserve), `CAPTURED`, `GONE` (destroyed for good) or `WITHDRAWN`.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from warroom.core.dice import Dice, Roll, d6s
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.events import Event
from warroom.core.flow import Flow
from warroom.core.log import LogEntry
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action, FlowRecording
from warroom.rulesets.firestorm.actions import FirestormAction, Report, parse_words
from warroom.rulesets.firestorm.battle import VP_RANGE, Battle
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.movebook import MoveBook
from warroom.rulesets.firestorm.places import CAPTURED as CAPTURED
from warroom.rulesets.firestorm.places import GONE as GONE
from warroom.rulesets.firestorm.places import OFF_BOARD as OFF_BOARD
from warroom.rulesets.firestorm.places import OFFMAP as OFFMAP
from warroom.rulesets.firestorm.places import POOL as POOL
from warroom.rulesets.firestorm.places import RESERVE as RESERVE
from warroom.rulesets.firestorm.places import WITHDRAWN as WITHDRAWN
from warroom.rulesets.firestorm.places import Locations as Locations

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.fleet import NavalState



# not a native class when compiled (scripts/compile.py): clone() copies the instance dictionary
@mypyc_attr(native_class=False)
@dataclass
class Flags:
    """What the flow remembers between steps, besides the position proper: each a typed field with its default."""

    # a step's dice and its decisions
    dice: int = 0  # d6 the chance node about to be entered rolls (chance.py)
    committed: bool = False  # the defender has committed its Firestorm Troops
    mode_chooser: str = ""  # mixed mode: the side that may claim the battle for the tabletop
    mode_set: bool = False  # the battle's way of resolution is settled
    tabletop_left: dict[str, int] | None = None  # mixed mode with an allotment: claims left this turn per side
    may_pass: bool = False  # the side with the initiative may, not must, attack (core 4 suggestion)
    advance_done: bool = False  # the winner's advance is settled
    last_battle: Battle | None = None  # the battle just ended (the flow goes on by its kind)
    move_menu: MoveBook | None = None  # the strategic moves of (side, turn), kept up to date (moves.py)
    # the D-Day turn and the Caumont Gap (dday.py)
    dday_done: bool = False
    beach_idx: int = 0  # Neptune: the next beach
    exploits: list[tuple[str, int]] = field(default_factory=list)  # follow-up attacks: (beach, Firestorm Troops)
    no_attack_from: dict[str, int] = field(default_factory=dict)  # beach -> the turn its troops attack again
    pz21_done: bool = False
    caumont_done: bool = False
    # Norway (norway.py, strategic.py)
    closed_maps: tuple[str, ...] = ()  # land maps where the fighting is over (3.4)
    bodo: bool = False  # Bodø's airfield serves the Germans this turn (7.6)
    bodo_barred: int = 0  # the turn Bodø is closed to the Germans by a failed closure (3.4); 0: none
    landing_wait: list[str] = field(default_factory=list)  # troops waiting to land next turn (3.2)
    naval_infantry: bool = False  # ships' infantry landed this turn (6.x)
    bonus_paid: dict[str, tuple[str, int]] = field(default_factory=dict)  # bonus VP paid once: key -> (side, VP)

    def clone(self) -> Flags:
        """A copy with its own containers (a dictionary copy, then the containers copied)."""
        new = object.__new__(Flags)
        new.__dict__.update(self.__dict__)
        if self.tabletop_left is not None:
            new.tabletop_left = dict(self.tabletop_left)
        new.exploits = list(self.exploits)
        new.no_attack_from = dict(self.no_attack_from)
        new.landing_wait = list(self.landing_wait)
        new.bonus_paid = dict(self.bonus_paid)
        if self.move_menu is not None:
            new.move_menu = self.move_menu.copy()
        return new


class FirestormRules(Flow["FirestormState"]):
    """The flow table of a campaign, with the verbs that stand above the position: what a side sees of it, why an
    action is refused, a battle's result from the table, a campaign's rule on losses, and Norway's Strategic Game.
    `steps.FirestormFlow` gives them; the position asks its flow, so that this module, the data, imports nothing
    above it."""

    def view(self, st: FirestormState, side: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def explain(self, st: FirestormState, action: Action) -> str:
        raise NotImplementedError

    def check_report(self, st: FirestormState, action: Report) -> None:
        """Raise `IllegalActionError` unless a battle at the table waits for this result (parallel.py)."""
        raise NotImplementedError

    def lost_as_captured(self, st: FirestormState, unit: str) -> bool:
        """Whether `unit`, destroyed, counts as captured (a campaign rule: Lorraine's Panzer Units)."""
        raise NotImplementedError

    def waiting_for(self, st: FirestormState) -> list[int]:
        """The battles at the table whose results are awaited."""
        raise NotImplementedError

    def record_result(self, st: FirestormState, action: Report) -> None:
        """The result of a battle at the table, reported whenever it comes in (parallel.py)."""
        raise NotImplementedError

    def new_navy(self, sc: FirestormScenario) -> NavalState:
        """The Strategic Game's naval position at the start (Norway)."""
        raise NotImplementedError


def outcome_of(sc: FirestormScenario, diff: int) -> tuple[str, str, int]:
    """(winning side or '', level, margin) of a campaign ending with the first side `diff` VP ahead (core 8)."""
    a, b = sc.sides
    winner = a if diff > 0 else b if diff < 0 else ""
    margin = abs(diff)
    for minimum, level in sc.rules.thresholds:
        if margin >= minimum and winner:
            return winner, level, margin
    return "", "Draw", margin


def lead_of(sc: FirestormScenario, diff: int) -> float:
    """`RuleSystem.lead` of a position with the first side `diff` VP ahead: the difference where it would win a
    victory were the campaign to end now, else 0 (a draw, core 8)."""
    winner, _level, _margin = outcome_of(sc, diff)
    return float(diff) if winner else 0.0


def standing_of(sc: FirestormScenario, diff: int) -> dict[str, float]:
    """Each side's standing for a searching bot when the first side is `diff` VP ahead: 0.5 + 0.5 tanh(diff / the
    smallest victory margin), so a draw is 0.5 and the least victory already 0.88 (core 8)."""
    a, b = sc.sides
    margin = max(1, min((m for m, _level in sc.rules.thresholds), default=1))  # a table of no or odd rows: 1 VP
    ahead = 0.5 + 0.5 * math.tanh(diff / margin)
    return {a: ahead, b: 1.0 - ahead}


def outcome_label_of(sc: FirestormScenario, diff: int) -> str:
    """The outcome level with its winner, e.g. 'Allied Operational Victory', or 'Draw' (`outcome_of`)."""
    winner, level, _ = outcome_of(sc, diff)
    if not winner:
        return "Draw"
    adjective = sc.side_adjectives.get(winner, sc.side_names[winner])
    return f"{adjective} {level}"


# not a native class when compiled (scripts/compile.py): clone() copies the instance dictionary
@mypyc_attr(native_class=False)
class FirestormState(FlowRecording):
    """A Firestorm campaign position. Drive it only through the state API verbs."""

    def __init__(self, scenario: FirestormScenario, flow: FirestormRules, params: dict[str, Any]) -> None:
        self.sc = scenario
        self.flow = flow
        self.params = params
        self.mode: str = params.get("mode", "gw")
        self.step = ""
        self.turn = 1
        self.terminal = False
        self.control: dict[str, str] = {a.id: a.control for a in scenario.areas.values()}
        self.loc = Locations({t.id: t.start for t in scenario.troops.values()})
        self.unit_vp: dict[str, int] = dict.fromkeys(scenario.sides, 0)
        self.bonus_vp: dict[str, int] = dict.fromkeys(scenario.sides, 0)
        self.battles_left = 0
        self.battles_total = 0
        self.battle_no = 0
        self.air_left: dict[str, int] = dict.fromkeys(scenario.sides, 0)
        self.carpet_left = 0
        self.battle: Battle | None = None
        self.parked: list[Battle] = []  # battles at the table, in battle order (parallel.py)
        self.attacker = ""
        self.idx = 0  # which side acts in a two-sided strategic step
        self.placing: list[str] = []
        self.arrived: dict[str, tuple[str, ...]] = {}  # fresh arrivals -> their listed areas
        self.returned: set[str] = set()  # came back from the pool this turn (Lorraine redeploy)
        self.moved: set[str] = set()
        self.flags = Flags()
        self.log: list[LogEntry] = []
        self.events: list[tuple[int, str]] = []
        self.happened: list[Event] = []
        self.record_events = True
        self.record_log = True
        """Off: a trusted search's copy keeps no log (it is never saved, replayed or shown); `played` still counts."""
        self.played = 0  # actions applied so far (the log's length when it is kept)
        self._offered: tuple[int, str, Sequence[Action]] | None = None
        # facts derived from control alone, cleared whenever control changes: supply per side,
        # strategic-move reach per (side, area, steps), and pool placement areas per side
        self._derived: dict[str | tuple[str, str, int], frozenset[str] | tuple[str, ...]] = {}
        self.navy: NavalState | None = None  # Norway's Strategic Game (hook strategic_game)
        if scenario.has("strategic_game"):
            self.navy = flow.new_navy(scenario)

    # ----- the state API ------------------------------------------------------------------
    def current_player(self) -> str:
        if self.terminal:
            return TERMINAL
        return self.flow.steps[self.step].actor(self)

    def legal_actions(self) -> Sequence[Action]:
        if self.terminal:
            return ()
        who = self.current_player()
        if who in (CHANCE, REPORT):
            return ()
        legal = self.flow.steps[self.step].legal(self)
        # remember which objects were offered, so applying one of them needs no second check
        self._offered = (self.played, self.step, legal)
        return legal

    def chance_dice(self) -> Dice:
        if self.current_player() != CHANCE:
            raise IllegalActionError(f"step {self.step!r} is not a chance node")
        return d6s(self.dice_needed())

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        return self.chance_dice().outcomes()

    def dice_needed(self) -> int:
        """How many d6 the current chance node rolls."""
        return self.flags.dice

    def apply_action(self, action: Action, side: str | None = None) -> None:
        """Apply a legal action (or a roll at a chance node) and run the flow to the next decision.

        `side`, when given, must be the one to act (`current_player()`).
        """
        who = self.current_player()
        if who == TERMINAL:
            raise IllegalActionError("the campaign is over: no more actions")
        if isinstance(action, Report) and action.battle and side in (None, REPORT):
            # a battle at the table reports whenever its result is in (parallel.py), at any decision
            if who == CHANCE:
                raise IllegalActionError(f"dice must be rolled now (step {self.step}) before a result is taken")
            self.flow.check_report(self, action)
            self.apply_unchecked(action, REPORT)
            return
        if side is not None and side != who:
            name = self.sc.side_names.get(side, side)
            raise IllegalActionError(f"{name} cannot act now: it is {self.sc.side_names.get(who, who)}'s decision "
                                     f"(step {self.step})")
        if who == CHANCE:
            if not isinstance(action, Roll):
                raise IllegalActionError(f"dice must be rolled now (step {self.step}), not {action.to_str()!r}")
            Dice(self.dice_needed()).check(action)
        elif who == REPORT:
            if not isinstance(action, Report):
                raise IllegalActionError(f"a tabletop result must be reported now, not {action.to_str()!r}")
            if self.step == "await_reports":  # waiting for battles at the table, not for the one being fought
                raise IllegalActionError("name the battle: 'report N ATTACKER_VP DEFENDER_VP' (battles waiting: "
                                         f"{', '.join(map(str, self.flow.waiting_for(self)))})")
            for v in (action.attacker_vp, action.defender_vp):
                if v not in VP_RANGE:
                    raise IllegalActionError(f"tabletop victory points run from 0 to 6, got {v}")
        elif not self._was_offered(action) and not self.flow.steps[self.step].is_legal(self, action):
            raise IllegalActionError(self.explain_illegal(action))
        self.apply_unchecked(action, who)

    def _was_offered(self, action: Action) -> bool:
        offered = self._offered
        if offered is None or offered[0] != self.played or offered[1] != self.step:
            return False
        return any(a is action for a in offered[2])

    def apply_unchecked(self, action: Action, who: str | None = None) -> None:
        """Fast path for search code: apply `action` WITHOUT checking legality."""
        if who is None:
            who = self.current_player()
        self.played += 1
        if self.record_log:
            self.log.append(LogEntry(action.to_str(), who, self.turn, self.flow.steps[self.step].phase,
                                     who == CHANCE))
        if isinstance(action, Report) and action.battle:
            self.flow.record_result(self, action)
            self.flow.settle(self)
            return
        self.flow.apply(self, action)

    def parse_action(self, text: str) -> FirestormAction:
        """Read an action from its text form (unknown areas raise `UnknownNameError`)."""
        return parse_words(text.split(), self.area_or_raise)

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> dict[str, float]:
        a, b = self.sc.sides
        diff = self.total_vp(a) - self.total_vp(b)
        return {a: float(diff), b: float(-diff)}

    def clone(self) -> FirestormState:
        new = object.__new__(FirestormState)
        new.__dict__.update(self.__dict__)
        new.control = dict(self.control)
        new.loc = self.loc.copy()
        new.unit_vp = dict(self.unit_vp)
        new.bonus_vp = dict(self.bonus_vp)
        new.air_left = dict(self.air_left)
        new.battle = self.battle.clone() if self.battle is not None else None
        new.parked = [b.clone() for b in self.parked]
        new.placing = list(self.placing)
        new.arrived = dict(self.arrived)
        new.returned = set(self.returned)
        new.moved = set(self.moved)
        new.flags = self.flags.clone()
        new.log = list(self.log)
        new.events = list(self.events)
        new.happened = list(self.happened)
        new._derived = dict(self._derived)
        new.navy = self.navy.clone() if self.navy is not None else None
        new._offered = None
        return new

    def view(self, side: str | None) -> dict[str, Any]:
        return self.flow.view(self, side)

    # ----- helpers used by the rules, bots and views -----------------------------------------
    def area_or_raise(self, text: str) -> str:
        aid = self.sc.area_id(text)
        if aid is None:
            raise UnknownNameError(f"unknown area {text!r} in scenario {self.sc.id!r}")
        return aid

    def name(self, unit: str) -> str:
        t = self.sc.troops.get(unit)
        return t.name if t is not None else unit

    def area_label(self, area: str) -> str:
        a = self.sc.areas[area]
        return f"{a.id} {a.name}" if a.name else a.id

    def units_at(self, area: str, side: str | None = None) -> list[str]:
        troops = self.sc.troops
        return [u for u, where in self.loc.items() if where == area and (side is None or troops[u].side == side)]

    def stack_count(self, area: str) -> int:
        return self.loc.counts.get(area, 0)

    def stack_counts(self) -> dict[str, int]:
        """Troops per location (a live view: read it, do not change it)."""
        return self.loc.counts

    def has_room(self, area: str, extra: int = 1) -> bool:
        limit = self.sc.rules.stacking
        return limit == 0 or self.loc.counts.get(area, 0) + extra <= limit

    def set_control(self, area: str, side: str) -> None:
        if self.control[area] != side:
            self.control[area] = side
            self._derived = {}

    def per_control(self, key: tuple[str, str, int], make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
        """A value that depends on control alone (`key` names it), made once per control state."""
        got = self._derived.get(key)
        if isinstance(got, tuple):
            return got
        made = self._derived[key] = make()
        return made

    def supplied_areas(self, side: str) -> frozenset[str]:
        """Areas linked to one of `side`'s held supply sources through friendly areas (core 6)."""
        got = self._derived.get(side)
        if isinstance(got, frozenset):
            return got
        control = self.control
        adjacency = self.sc.adjacency
        start = [a.id for a in self.sc.areas.values() if a.supply == side and control[a.id] == side]
        seen = set(start)
        queue = deque(start)
        while queue:
            for n in adjacency[queue.popleft()]:
                if n not in seen and control[n] == side:
                    seen.add(n)
                    queue.append(n)
        result = frozenset(seen)
        self._derived[side] = result
        return result

    def reach(self, side: str, start: str, steps: int) -> tuple[str, ...]:
        """Areas within `steps` of `start` through `side`'s areas (sorted), cached per control."""
        key = (side, start, steps)
        got = self._derived.get(key)
        if isinstance(got, tuple):
            return got
        control = self.control
        adjacency = self.sc.adjacency
        seen = {start}
        frontier = [start]
        for _ in range(steps):
            nxt = []
            for cur in frontier:
                for n in adjacency[cur]:
                    if n not in seen and control[n] == side:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        seen.discard(start)
        result = tuple(sorted(seen - self.sc.no_stop))  # a pass-through area is never a destination
        self._derived[key] = result
        return result

    def pool_spots(self, side: str) -> tuple[str, ...]:
        """Areas where `side` places troops from its pool, by its pool rule (any friendly area, its
        beaches, or its depots), before stacking; cached per control."""
        key = ("pool", side, 0)
        got = self._derived.get(key)
        if isinstance(got, tuple):
            return got
        control = self.control
        rule = self.sc.rules.pool_areas[side]
        areas = [a for a in self.sc.areas.values() if control[a.id] == side]
        if rule == "beach":
            areas = [a for a in areas if "beach" in a.flags]
        elif rule == "depot":
            areas = [a for a in areas if a.supply == side]
        no_stop = self.sc.no_stop
        result = tuple(a.id for a in areas if a.id not in no_stop)
        self._derived[key] = result
        return result

    def in_supply(self, area: str, side: str) -> bool:
        return area in self.supplied_areas(side)

    def area_vp(self, side: str) -> int:
        return sum(a.vp for a in self.sc.areas.values() if self.control[a.id] == side)

    def total_vp(self, side: str) -> int:
        return self.area_vp(side) + self.unit_vp[side] + self.bonus_vp[side]

    def outcome(self) -> tuple[str, str, int]:
        """(winning side or '', level, margin) from the final VP (core 8)."""
        a, b = self.sc.sides
        return outcome_of(self.sc, self.total_vp(a) - self.total_vp(b))

    def outcome_label(self) -> str:
        """The outcome level with its winner, e.g. 'Allied Operational Victory', or 'Draw'."""
        return outcome_label_of(self.sc, self.total_vp(self.sc.sides[0]) - self.total_vp(self.sc.sides[1]))

    def outcome_text(self) -> str:
        """E.g. 'Allied Operational Victory by 112 VP' (core 8)."""
        winner, _, margin = self.outcome()
        if not winner:
            return f"Draw (VP difference {margin}, within 50)"
        return f"{self.outcome_label()} by {margin} VP"

    def capture(self, unit: str) -> None:
        """A captured troop: removed for good; the enemy scores its capture VP."""
        troop = self.sc.troops[unit]
        self.loc[unit] = CAPTURED
        enemy = self.sc.other(troop.side)
        self.unit_vp[enemy] += troop.capture_vp
        self.note(f"{troop.name} is captured: {self.sc.side_names[enemy]} +{troop.capture_vp} VP")

    def destroy(self, unit: str) -> None:
        """A destroyed troop goes to its pool, or is gone for good with VP to the enemy (rules.destroyed_to)."""
        troop = self.sc.troops[unit]
        if self.flow.lost_as_captured(self, unit):
            self.note(f"{troop.name} (Panzer Unit) is destroyed and counts as captured")
            self.capture(unit)
        elif self.sc.rules.destroyed_to == "gone":
            self.loc[unit] = GONE
            enemy = self.sc.other(troop.side)
            self.unit_vp[enemy] += troop.capture_vp
            self.note(f"{troop.name} is destroyed for good: {self.sc.side_names[enemy]} +{troop.capture_vp} VP")
        else:
            self.loc[unit] = POOL
            self.note(f"{troop.name} is destroyed and goes to the Reinforcement Pool")

    def explain_illegal(self, action: Action) -> str:
        return self.flow.explain(self, action)
