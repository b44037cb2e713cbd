"""A Narvik position: where every unit is, who owns each place, whose player turn and phase it is; and the state
API verbs over it. The rules that change it are in `steps.py` (the flow), `movement.py` and `combat.py`."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from mypy_extensions import mypyc_attr

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.core.errors import IllegalActionError, clipped
from warroom.core.events import Event
from warroom.core.flow import Flow, Step
from warroom.core.log import LogEntry
from warroom.core.state import CHANCE, TERMINAL, Action, FlowRecording, vet
from warroom.rulesets.narvik.actions import NarvikAction, parse_words
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, NarvikScenario, UnitType

LETTERS = str.maketrans({"æ": "ae", "ø": "o", "å": "a"})


def folded(name: str) -> str:
    """A name to compare: lower case, Norwegian letters as ascii ('Åndalsnes' -> 'andalsnes'), accents off, spaces
    single."""
    plain = unicodedata.normalize("NFKD", name.lower().translate(LETTERS))
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


def other(side: str) -> str:
    return ALLIED if side == GERMAN else GERMAN


class NarvikRules(Flow["NarvikState"]):
    """The flow table, with the view of a position and the wording of a refusal (`steps.build_flow`)."""

    def __init__(self, steps: Sequence[Step[NarvikState]],
                 view: Callable[[NarvikState, str | None], dict[str, Any]],
                 explain: Callable[[NarvikState, Action], str]) -> None:
        super().__init__(steps)
        self.view = view
        self.explain = explain


# not a native class when compiled: clone() copies the instance dictionary
@mypyc_attr(native_class=False)
class NarvikState(FlowRecording):
    """A Narvik position. Drive it only through the state API verbs."""

    def __init__(self, scenario: NarvikScenario, flow: NarvikRules, params: dict[str, Any]) -> None:
        self.sc = scenario
        self.flow = flow
        self.params = params
        self.step = ""
        self.game_turn = 1
        self.phasing = GERMAN
        self.terminal = False
        self.result = ""  # the outcome's label once over
        self.pos: dict[str, str] = {}  # unit id -> its hex, for every unit on the map (absorbed ones too)
        self.types: dict[str, UnitType] = dict(scenario.units)  # units in play by id (substitutes added)
        self.gone: list[str] = []  # units eliminated, in order
        self.absorbed: dict[str, str] = {}  # unit -> the headquarters that absorbed it
        self.disrupted: dict[str, int] = {}  # unit -> the player turn at whose end it recovers
        self.moved: set[str] = set()  # units that have used their move this phase
        self.regrouped: set[str] = set()  # units made by a breakdown or a combining this phase
        self.beginning = True  # no unit has moved or been detached yet this phase (absorbing is allowed)
        self.owner: dict[str, str] = {}  # place hexes -> the side that owns it (all Norway's at the start)
        self.vp = {GERMAN: 0, ALLIED: 0}  # victory points for key units destroyed
        self.combats: list[str] = []  # hexes still to be fought over this combat phase, in order
        self.fighting = ""  # the hex being fought over now
        self.pending = ""  # what the chance node being rolled decides: 'first', 'withdraw' or 'combat'
        self.overstacked: set[str] = set()
        self.reachable: dict[str, dict[str, float]] = {}  # this phase's reachable hexes per unit (a cache)
        self.cache: dict[str, Any] = {}  # what the position now implies (supply lines, enemy blocks): see changed()
        self.options: dict[str, tuple[Action, ...]] = {}  # this phase's moves per unit (a cache)
        self.rails: dict[str, list[str]] = {}  # this phase's rail destinations per unit (a cache)
        self.phase_supply: dict[str, str] = {}  # the phasing units' supply state when the phase began
        self.waiting: list[str] = []  # reinforcements whose arrival is put off (no friendly place to land)
        self.closing = False  # the phasing player has ended the step
        self.air_at: dict[str, str] = {}  # air units that have arrived -> their base (an airfield place or off-map)
        self.flown: set[str] = set()  # air units that have flown this air phase
        self.missions: list[tuple[str, str, str, str]] = []  # this air phase's (air unit, mission, hex, unit)
        self.declaring = ""  # the side declaring air missions now
        self.resolving = 0  # the mission being resolved
        self.air_roll = ""  # what the die decides for it now: 'abort', 'flak' or 'bomb'
        self.support: dict[str, dict[str, int]] = {}  # hex -> side -> ground support missions that got through
        self.destroyers_sunk = False
        self.sunk: dict[str, str] = {}  # destroyers sunk -> the port they were sunk in
        self.interdicted = ""  # the port the Allied fleet holds this turn (German reinforcements avoid it)
        self.target = ""  # the port the fleet is attacking now (its die is next)
        self.landings = 0  # units the Allied landing craft have carried this phase
        self.log: list[LogEntry] = []
        self.events: list[tuple[int, str]] = []
        self.happened: list[Event] = []
        self.record_events = True

    # ----- the state API ------------------------------------------------------------------------------------
    def current_player(self) -> str:
        if self.terminal:
            return TERMINAL
        return self.flow.steps[self.step].actor(self)

    def legal_actions(self) -> Sequence[Action]:
        if self.terminal or self.current_player() == CHANCE:
            return ()
        return self.flow.steps[self.step].legal(self)

    def random_action(self, rng: Random) -> Action:
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError(f"no player chooses an action now (step {self.step!r})")
        return legal[int(rng.random() * len(legal))]

    def chance_dice(self) -> Dice | MixedDice:
        if self.current_player() != CHANCE:
            raise IllegalActionError(f"step {self.step!r} is not a chance node")
        return Dice(1)

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        return self.chance_dice().outcomes()

    def apply_action(self, action: Action, side: str | None = None) -> None:
        """Apply a legal action (or the roll of a chance node) and run the flow to the next decision."""
        self.apply_unchecked(action, vet(self, action, side))

    def apply_unchecked(self, action: Action, who: str | None = None) -> None:
        """Apply an action already known to be legal (a trusted bot's, a roll of the node's own dice)."""
        if who is None:
            who = self.current_player()
        self.log.append(LogEntry(action.to_str(), who, self.game_turn, self.phase(), who == CHANCE))
        self.flow.apply(self, action)

    def parse_action(self, text: str) -> NarvikAction:
        return parse_words(text.split(), self.place_hex)

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> dict[str, float]:
        levels = [label for _, label in self.sc.levels]
        if not self.terminal or self.result not in levels:
            return {GERMAN: 0.0, ALLIED: 0.0}
        middle = (len(levels) - 1) / 2
        german = middle - levels.index(self.result)
        return {GERMAN: german, ALLIED: -german}

    def clone(self) -> NarvikState:
        new = object.__new__(NarvikState)
        for name in ("sc", "flow", "step", "game_turn", "phasing", "terminal", "result", "beginning",
                     "fighting", "pending", "destroyers_sunk", "record_events", "closing", "declaring",
                     "resolving", "air_roll", "interdicted", "target", "landings"):
            setattr(new, name, getattr(self, name))
        new.params = dict(self.params)
        new.pos = dict(self.pos)
        new.types = dict(self.types)
        new.gone = list(self.gone)
        new.absorbed = dict(self.absorbed)
        new.disrupted = dict(self.disrupted)
        new.moved = set(self.moved)
        new.regrouped = set(self.regrouped)
        new.owner = dict(self.owner)
        new.vp = dict(self.vp)
        new.combats = list(self.combats)
        new.overstacked = set(self.overstacked)
        new.reachable = dict(self.reachable)  # each entry is replaced, never changed in place
        new.cache = dict(self.cache)  # entries are replaced, never changed in place
        new.options = dict(self.options)
        new.rails = dict(self.rails)
        new.phase_supply = dict(self.phase_supply)
        new.waiting = list(self.waiting)
        new.air_at = dict(self.air_at)
        new.sunk = dict(self.sunk)
        new.flown = set(self.flown)
        new.missions = list(self.missions)
        new.support = {h: dict(s) for h, s in self.support.items()}
        new.log = list(self.log)
        new.events = list(self.events)
        new.happened = list(self.happened)
        return new

    def view(self, side: str | None) -> dict[str, Any]:
        return self.flow.view(self, side)

    # ----- helpers for the rules, views and bots ------------------------------------------------------------
    def changed(self) -> None:
        """Units moved, arrived, left or changed hands: what the position implied is worked out again."""
        self.cache = {}

    @property
    def turn(self) -> int:
        return self.game_turn

    @property
    def player_turn(self) -> int:
        """The player turns played before this one: 0 for the German player turn of turn 1, 1 for the Allied."""
        return 2 * (self.game_turn - 1) + (0 if self.phasing == GERMAN else 1)

    def place_hex(self, text: str) -> str:
        """A place's hex by its name, in any case and with or without Norwegian letters ('andalsnes')."""
        wanted = folded(text)
        for name, place in self.sc.map.places.items():
            if folded(name) == wanted:
                return place.hex
        raise IllegalActionError(f"{clipped(text, 40)!r} is not a hex id or a place of the map")

    def units_in(self, hid: str, side: str | None = None) -> list[str]:
        """The units in a hex (absorbed ones too), of one side or both, in id order."""
        return sorted(u for u, h in self.pos.items() if h == hid and (side is None or self.types[u].side == side))

    def occupied(self, side: str) -> set[str]:
        """Hexes holding a ground unit of `side`."""
        return {h for u, h in self.pos.items() if self.types[u].side == side}

    def attack_of(self, uid: str) -> float:
        return self.types[uid].attack * (self.sc.charts.disruption if uid in self.disrupted else 1.0)

    def defense_of(self, uid: str) -> float:
        return self.types[uid].defense * (self.sc.charts.disruption if uid in self.disrupted else 1.0)

    def name(self, uid: str) -> str:
        return self.types[uid].name if uid in self.types else uid

    def hex_name(self, hid: str) -> str:
        return self.sc.map.name_of(hid)

    def outcome_label(self) -> str:
        return self.result

    def outcome_text(self) -> str:
        if not self.terminal:
            return "The game is not over"
        ports = [p for p in self.sc.victory_ports if self.owner.get(self.sc.map.place_hex(p), ALLIED) == GERMAN]
        return (f"{self.result} after {self.game_turn} turns ({len(ports)} of {len(self.sc.victory_ports)} ports "
                f"German; victory points {self.vp[GERMAN]} German, {self.vp[ALLIED]} Allied)")
