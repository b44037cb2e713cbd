"""A Kampen om Norge position and the state API over its flow table (steps.py).

Battalions are counts per (area, country). Each deck is a face-down pile (top first) and a face-up pile of
used cards under it (oldest first): a deck is *used up* when no face-down card is left (2.4). Hands are
secret: `view(side)` shows a country only its own hand, and the deck order never.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import TYPE_CHECKING, Any, TypeVar

from mypy_extensions import mypyc_attr

from warroom.core.dice import Dice, MixedDice, Roll
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.events import Event
from warroom.core.flow import Flow
from warroom.core.log import LogEntry, Secret
from warroom.core.state import CHANCE, TERMINAL, Action, FlowRecording, vet
from warroom.rulesets.kampen.actions import KampenAction, parse_words
from warroom.rulesets.kampen.cards import CardUse
from warroom.rulesets.kampen.naval import Fleet, Hit

if TYPE_CHECKING:
    from warroom.rulesets.kampen.scenario import KampenScenario

GERMANY, NORWAY, ALLIES = "germany", "norway", "allies"
DEFENDERS = (NORWAY, ALLIES)


@dataclass(frozen=True, slots=True)
class Played:
    """A card played into the battle, for one of its uses."""

    country: str
    card: str  # the copy's key, e.g. germany_panzer#3
    type: str
    step: str
    use: CardUse
    side: str  # "attacker" | "defender"


@dataclass(frozen=True, slots=True)
class Moved:
    """German battalions that moved over land this phase (for Sprengt bro): from `start`, through `via`
    (a two-area move) into `to`, and whether they wait at its border to attack."""

    start: str
    via: str
    to: str
    n: int
    attack: bool

    def borders(self) -> list[tuple[str, str]]:
        return [(self.start, self.via), (self.via, self.to)] if self.via else [(self.start, self.to)]


@dataclass(slots=True)
class Attack:
    """Battalions waiting at a border to attack `to` (4.1): how many came over land and over water."""

    to: str
    country: str
    origins: dict[str, int] = field(default_factory=dict)  # area they came from -> battalions
    over_water: int = 0
    by_sea_or_air: int = 0  # arrived by sea or air: they retreat like defenders if beaten (4.2 step 8)

    @property
    def total(self) -> int:
        return sum(self.origins.values()) + self.by_sea_or_air

    def clone(self) -> Attack:
        return replace(self, origins=dict(self.origins))


@dataclass(slots=True)
class Battle:
    """The battle being fought: who, how many dice, the rolls, and what is left to decide."""

    area: str
    attack: Attack
    att_dice: int = 0
    def_dice: int = 0
    att_faces: tuple[int, ...] = ()
    att_rolled: bool = False
    def_faces: tuple[int, ...] = ()
    att_losses: int = 0  # battalions the defender's 6s eliminate
    att_to_remove: int = 0  # of those, still to take off (the attacker chooses from which group)
    def_losses: int = 0  # left to remove from the defence (a joint defence chooses whose)
    allied_lost: int = 0  # Allied battalions eliminated in this battle (Kystevakuering may save some)
    winner: str = ""  # "attacker" | "defender"
    proposal: list[str] = field(default_factory=list)  # Norway's share of a joint defence's losses, to agree
    played: list[Played] = field(default_factory=list)  # cards played into the battle, in order
    seats: list[str] = field(default_factory=list)  # who still may play at the current card step

    def clone(self) -> Battle:
        return replace(self, attack=self.attack.clone(), played=list(self.played), seats=list(self.seats),
                       proposal=list(self.proposal))


@dataclass(slots=True)
class SeaBattle:
    """The sea battle being fought (8.2): the attacker's side ('germany', or 'allies' for the Allied side, which
    Eidsvoll & Norge joins), the cards played, and the ships set aside by hits."""

    sea: str
    attacker: str
    played: list[Played] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    strikes: list[int] = field(default_factory=list)  # indices into `played` of strikes still to roll
    hits: list[Hit] = field(default_factory=list)  # ships set aside, in order: sunk or chased
    fired: int = 0  # how many sides have fired (0, 1, 2)
    chased: list[str] = field(default_factory=list)  # chased ships still to be moved by the enemy
    landing: bool = False  # a 9 April fight of Eidsvoll & Norge against ships about to land (7.2)

    def clone(self) -> SeaBattle:
        return replace(self, played=list(self.played), seats=list(self.seats), strikes=list(self.strikes),
                       hits=list(self.hits), chased=list(self.chased))


T = TypeVar("T")


def held(value: T | None) -> T:
    """A flag the current step relies on: it is set whenever the flow is in that step."""
    assert value is not None, "the flow is in a step whose flag is not set"
    return value


# not a native class when compiled (scripts/compile.py): clone() copies the instance dictionary
@mypyc_attr(native_class=False)
@dataclass
class Flags:
    """What the flow remembers between steps, besides the position proper: each a typed field with its default.
    Every value is immutable (a tuple, a frozenset, a number or text), so a copy may share them (`clone`)."""

    chance: Dice | MixedDice | None = None  # the dice of the chance node being entered
    resume: tuple[str, bool] | None = None  # the step the Allied deck-out broke into, and whether it had begun
    reshuffle: bool = False  # Norway's deck is used up: reshuffle at the end of the round
    ships_out: int = 0  # Allied ships still to withdraw (5.2)
    windows: frozenset[str] = frozenset()  # the card windows (`sea.window`) closed for now
    # a country's round: movement
    move_done: bool = False
    effect: tuple[str, int] | None = None  # the card being carried out, and which of its uses
    invading: bool = False  # the Allies' invasion: cards to exchange for the battalions that land
    landing: int = 0  # battalions of the invasion still to land
    moved: tuple[Moved, ...] = ()  # the moves of this round (a sabotage may take one back)
    drop: tuple[str, int] | None = None  # paratroops dropping: where, how many
    drop_seat: str = ""  # who answers the drop
    scatter: bool = False  # the paratroops are scattered
    airfield_places: int = 0  # new German battalions that may still go to German airfields (Transportfly)
    sabotage_done: bool = False
    sabotage: tuple[str, int, Action | None] | None = None  # Norway's sabotage card, its use, and its target
    fleeing: str = ""  # Norwegian battalions slipping out of this area by train
    # combat
    origins: frozenset[str] = frozenset()  # the areas this round's attacks came from
    bluff: str = ""  # the roll table of a bluff being rolled
    bluffed: bool = False
    rescue: int = 0  # Allied battalions still to save
    evacuation_offered: bool = False
    evacuating: bool | None = None  # None: not asked yet
    # reinforcement
    exchanging: bool = False
    submarine: tuple[str, ...] = ()  # the countries that may still answer with a submarine
    first_areas: tuple[str, ...] = ()  # the Allies' first landings
    sea_places: tuple[tuple[str, int], ...] = ()  # battalions placed from each sea area (8.3)
    # at sea (sea.py)
    sea_done: bool = False
    sea_moved: bool = False
    sailing: tuple[str, tuple[str, ...]] | None = None  # the sea area ships just sailed into, and which
    icept: tuple[str, tuple[str, ...]] | None = None  # the sea area of an interception, and who may still try
    icept_seas: tuple[str, ...] | None = None  # 9 April: the sea areas still to decide (None: not begun)
    icept_roll: tuple[str, str, tuple[str, ...]] | None = None  # sea, who tries, the cards it may find
    intercepted_by: frozenset[tuple[str, str]] = frozenset()  # (sea, country) interceptions tried this round
    smoke: int = 0  # ships a smoke screen may still hide
    smoke_keys: tuple[str, ...] = ()  # the German ships it may hide
    recalling: int | None = None  # symbols paid towards calling the raiders home (None: not calling)
    recalled: bool = False
    joined: bool = False
    strikes_listed: bool = False
    sailors: int = 0  # sailors of sunk ships still to come ashore
    withdrawn: tuple[str, ...] = ()  # the types of the Allied ships withdrawn
    # the 9 April round (april.py)
    choosing: tuple[str, ...] = ()  # the countries still to choose their 9 April cards
    deploy: tuple[str, ...] = ()  # Norway's deployment tasks still to do
    mob_used: tuple[str, ...] = ()  # mobilisation points used
    recon: str = ""  # the roll table of a reconnaissance (Rekognoseringsfly)
    recon_sea: str = ""
    feint: int = 0  # ship cards a feint may still shift
    feinted: frozenset[str] = frozenset()  # the German ship cards shifted by it
    redeploy: int = 0
    raided: bool = False
    landing_done: bool = False
    landing_battle: bool = False
    eidsvoll_fought: bool = False
    mines: str = ""  # the roll table of a minefield
    mines_sea: str = ""
    fort: str = ""  # the roll table of a coastal fort
    fort_city: str = ""
    fort_closed: bool = False
    barred: frozenset[str] = frozenset()  # cities whose fort turned the landings away
    diverting: tuple[str, ...] = ()  # the landings to turn to another beach
    mobilised: tuple[str, ...] = ()
    resisted: bool = False
    mobilising: int = 0
    reinforcing: str = "germany"  # whose reinforcements come next after the 9 April round

    def copy(self) -> Flags:
        """A copy sharing the (immutable) values: a dictionary copy, far cheaper than `dataclasses.replace`."""
        new = object.__new__(Flags)
        new.__dict__.update(self.__dict__)
        return new

    def new_round(self) -> None:
        """A country's round begins: what its movement, sea moves and placing remembered is cleared."""
        self.__dict__.update(_ROUND_FRESH)


_ROUND_FRESH: dict[str, Any] = {
    name: getattr(Flags(), name)
    for name in ("move_done", "effect", "invading", "landing", "sabotage", "sabotage_done", "moved",
                 "airfield_places", "drop", "scatter", "sailing", "sea_moved", "recalled", "recalling", "sea_done",
                 "icept", "sea_places")}
"""The round's flags as a new round finds them (each value immutable, so shared)."""


class KampenRules(Flow["KampenState"]):
    """The flow table of the game, with the verbs that stand above the position: what a country sees of it
    (`view.py`) and why an action is refused (`legality.py`). `deckout.KampenFlow` gives them; the position asks
    its flow, so that this module, the data, imports nothing above it."""

    def view(self, st: KampenState, side: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def explain(self, st: KampenState, action: Action) -> str:
        raise NotImplementedError

    def secrecy(self, st: KampenState, step: str, action: Action, who: str) -> Secret | None:
        """Whether the log entry of `action`, just played by `who` at `step`, is secret (`secrets.py`)."""
        raise NotImplementedError


def level_label(winner: str, level: str) -> str:
    """An outcome level's name: 'Germany: clear victory' ('germany' or 'norway_allies', 'clear' or 'narrow')."""
    return f"{'Germany' if winner == GERMANY else 'Norway and the Allies'}: {level} victory"


LEVELS = tuple(level_label(w, lv) for w, lv in ((GERMANY, "clear"), (GERMANY, "narrow"),
                                                  ("norway_allies", "narrow"), ("norway_allies", "clear")))
"""Every outcome level, from Germany's best to its worst (`RuleSystem.levels`)."""


# not a native class when compiled (scripts/compile.py): clone() copies the instance dictionary
@mypyc_attr(native_class=False)
class KampenState(FlowRecording):
    """A Kampen om Norge position. Drive it only through the state API verbs.

    The legal actions listed for a moment are kept until an action is applied (`offered`): code that changes the
    position otherwise (a test's or a tool's set-up) calls `edited()` before the next verb. Listing them is the
    one thing a reader of the position writes to it, and it writes only that list."""

    def __init__(self, scenario: KampenScenario, flow: KampenRules, params: dict[str, Any]) -> None:
        self.sc = scenario
        self.flow = flow
        self.params = params
        self.step = ""
        self.round = 0  # rounds played, counting each country's round
        self.country = GERMANY  # whose round it is
        self.terminal = False
        self.result: tuple[str, str] = ("", "")  # (winner: "germany" | "norway_allies", level) once over
        self.advanced = bool(params.get("advanced"))  # ships and the 9 April round (5-8)
        self.troops: dict[str, dict[str, int]] = {}
        for country, placed in ({} if self.advanced else scenario.setup).items():
            for area, n in placed.items():
                self.troops.setdefault(area, {})[country] = n
        self.draw: dict[str, list[str]] = {c: [] for c in scenario.countries}  # face down, top first
        self.used: dict[str, list[str]] = {c: [] for c in scenario.countries}  # face up under the deck
        self.hands: dict[str, list[str]] = {c: [] for c in scenario.countries}
        self.shuffling: list[str] = [c for c in scenario.countries]  # decks still to shuffle at the start
        self.cards_used = 0  # cards the country used this round
        self.arrived: dict[str, int] = {}  # battalions that moved into an area this round (they move no more)
        self.attacks: dict[str, Attack] = {}  # attacked area -> its attack
        self.battle: Battle | None = None
        self.symbols = 0  # reinforcement symbols exchanged this phase, not yet spent
        self.to_place = 0  # battalions to place this phase
        self.placed: set[str] = set()  # Norway: areas that got a battalion this phase (one each)
        self.allies_landed = False  # the Allies' first six have come (3)
        self.first_groups: list[int] = []  # the Allies' first groups still to place
        self.removing = 0  # Allied battalions to remove when their deck runs out
        self.allies_out = False  # the Allied deck is used up: no more cards (2.4)
        self.april = False  # the 9 April round is being played (7)
        self.fleet = Fleet()  # ship cards at sea and in the raid box
        self.ships_hand: dict[str, list[str]] = {c: [] for c in scenario.countries}  # not yet at sea
        self.reserve: list[str] = []  # the Allied ships set aside for the Home Fleet (7.0, 7.4), top first
        self.april_deck: dict[str, list[str]] = {c: [] for c in scenario.countries}  # 9 April cards left to choose
        self.spotted: set[str] = set()  # German ship cards the Allies have looked at (Rekognoseringsfly)
        self.sea_battle: SeaBattle | None = None
        self.landings: list[tuple[str, str, str]] = []  # 9 April: (ship card, its sea area, land area)
        self.flags = Flags()
        self.log: list[LogEntry] = []
        self.secrets: dict[int, Secret] = {}  # log index -> what of that entry is secret (`secrets.py`)
        self.events: list[tuple[int, str]] = []  # (round, text)
        self.happened: list[Event] = []  # typed events (core.events)
        self.record_events = True
        self.record_log = True
        """Off: a trusted search's copy keeps no log nor its secrecy marks (it is never saved, replayed or shown)."""
        self.played = 0  # actions applied so far (the log's length when it is kept)
        self._offered: tuple[int, str, tuple[Action, ...]] | None = None  # the last `legal_actions()`, and when

    # ----- the state API ------------------------------------------------------------------------------------
    def current_player(self) -> str:
        if self.terminal:
            return TERMINAL
        return self.flow.steps[self.step].actor(self)

    def legal_actions(self) -> Sequence[Action]:
        if self.terminal or self.current_player() == CHANCE:
            return ()
        legal = self.flow.steps[self.step].legal(self)
        # remember what was offered (a copy the caller cannot change): applying one of these very objects at the
        # same moment needs no second check, and a refusal's reason reads the list instead of making it again
        self._offered = (self.played, self.step, tuple(legal))
        return legal

    def edited(self) -> None:
        """Say that the position was changed other than by `apply_action`: the legal actions listed before are
        not trusted again."""
        self._offered = None

    def offered(self) -> tuple[Action, ...] | None:
        """The legal actions last listed, if no action was applied since (None: not listed at this moment)."""
        offered = self._offered
        if offered is None or offered[0] != self.played or offered[1] != self.step:
            return None
        return offered[2]

    def random_action(self, rng: Random) -> Action:
        """One of `legal_actions()`, each as likely as any other (a search's random playout move), drawn by the
        step where it can do so without listing them all (`Step.sample`). Refused at a chance node and at the end."""
        sample = self.flow.steps[self.step].sample
        if sample is not None and not self.terminal:  # only a player's step has a sampler
            drawn: Action = sample(self, rng)
            return drawn
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError(f"no player chooses an action now (step {self.step!r})")
        return legal[int(rng.random() * len(legal))]

    def chance_dice(self) -> Dice | MixedDice:
        if self.current_player() != CHANCE:
            raise IllegalActionError(f"step {self.step!r} is not a chance node")
        spec = self.flags.chance
        if not isinstance(spec, Dice | MixedDice):
            raise IllegalActionError(f"step {self.step!r} has no dice to roll")
        return spec

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        return self.chance_dice().outcomes()

    def apply_action(self, action: Action, side: str | None = None) -> None:
        """Apply a legal action (or the roll of a chance node) and run the flow to the next decision.

        One of the very objects `legal_actions()` offered at this moment is applied as it is. Otherwise, where the
        step has no `problem` of its own, legality is membership in its legal actions (as `vet` checks it), listed
        once: a refusal's reason reads the list just made (`offered`)."""
        who = self.current_player()
        if side is None or side == who:
            offered = self.offered()
            if offered is not None and any(a is action for a in offered):
                self.apply_unchecked(action, who)
                return
            if who != CHANCE and who != TERMINAL and self.flow.steps[self.step].problem is None:
                if action not in self.legal_actions():
                    raise IllegalActionError(self.flow.explain(self, action))
                self.apply_unchecked(action, who)
                return
        self.apply_unchecked(action, vet(self, action, side))

    def apply_unchecked(self, action: Action, who: str | None = None) -> None:
        if who is None:
            who = self.current_player()
        step = self.step
        self.played += 1
        if not self.record_log:
            self.flow.apply(self, action)
            return
        self.log.append(LogEntry(action.to_str(), who, self.round, self.phase(), who == CHANCE))
        self.flow.apply(self, action)
        if (mark := self.flow.secrecy(self, step, action, who)) is not None:  # kept even when no events are
            self.secrets[len(self.log) - 1] = mark

    def parse_action(self, text: str) -> KampenAction:
        return parse_words(text.split(), self.area_or_raise)

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> dict[str, float]:
        winner, level = self.result
        score = 0.0 if not winner else (2.0 if level == "clear" else 1.0)
        german = score if winner == GERMANY else -score
        return {GERMANY: german, NORWAY: -german, ALLIES: -german}

    def clone(self, history: bool = True) -> KampenState:
        """An independent copy; without `history` its log and events start empty (for a bot's look-ahead)."""
        new = object.__new__(KampenState)
        for name in ("sc", "flow", "params", "step", "round", "country", "terminal", "result", "cards_used",
                     "symbols", "to_place", "allies_landed", "removing", "allies_out", "record_events", "record_log",
                     "advanced", "april"):
            setattr(new, name, getattr(self, name))
        new.troops = {a: dict(c) for a, c in self.troops.items()}
        new.draw = {c: list(d) for c, d in self.draw.items()}
        new.used = {c: list(d) for c, d in self.used.items()}
        new.hands = {c: list(h) for c, h in self.hands.items()}
        new.shuffling = list(self.shuffling)
        new.arrived = dict(self.arrived)
        new.attacks = {a: x.clone() for a, x in self.attacks.items()}
        new.battle = self.battle.clone() if self.battle is not None else None
        new.placed = set(self.placed)
        new.first_groups = list(self.first_groups)
        new.fleet = self.fleet.clone()
        new.ships_hand = {c: list(h) for c, h in self.ships_hand.items()}
        new.reserve = list(self.reserve)
        new.april_deck = {c: list(h) for c, h in self.april_deck.items()}
        new.spotted = set(self.spotted)
        new.sea_battle = self.sea_battle.clone() if self.sea_battle is not None else None
        new.landings = list(self.landings)
        new.flags = self.flags.copy()
        new.log = list(self.log) if history else []
        new.secrets = dict(self.secrets) if history else {}
        new.events = list(self.events) if history else []
        new.happened = list(self.happened) if history else []
        new.played = self.played
        new._offered = None  # a copy checks every action it is given
        return new

    def view(self, side: str | None) -> dict[str, Any]:
        return self.flow.view(self, side)

    # ----- helpers for the rules, views and bots ------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The round number, under the name the shared tools use for a game's clock."""
        return self.round

    def outcome_label(self) -> str:
        winner, level = self.result
        return level_label(winner, level) if winner else "Unfinished"

    def outcome_text(self) -> str:
        if not self.terminal:
            return "The game is not over"
        cities = self.sc.board.point_cities
        german = sum(1 for c in cities if self.holder(c) == GERMANY)
        return (f"{self.outcome_label()} after {self.round} rounds ({german} of {len(cities)} point cities "
                f"German; {self.total(NORWAY) + self.total(ALLIES)} Norwegian and Allied battalions left)")

    def area_or_raise(self, text: str) -> str:
        aid = self.sc.area_id(text)
        if aid is None:
            raise UnknownNameError(f"unknown area {text!r} on the Kampen om Norge board")
        return aid

    def spend(self, country: str, card: str) -> None:
        """A card leaves the hand for the bottom of its deck, face up (2.4); played in the country's own round
        it counts as a card used this round (4.4)."""
        self.hands[country].remove(card)
        if not self.sc.is_april(card):  # a 9 April card goes back in the box (7.4)
            self.used[country].append(card)
        if country == self.country:
            self.cards_used += 1

    def at(self, area: str, country: str) -> int:
        return self.troops.get(area, {}).get(country, 0)

    def add(self, area: str, country: str, n: int) -> None:
        here = self.troops.setdefault(area, {})
        left = here.get(country, 0) + n
        if left < 0:
            raise AssertionError(f"{country} would have {left} battalions in {area}")
        if left:
            here[country] = left
        else:
            here.pop(country, None)
            if not here:
                del self.troops[area]

    def holder(self, area: str) -> str:
        """Who holds an area: Germany, or 'norway_allies' for Norwegian or Allied battalions; '' if empty."""
        here = self.troops.get(area)
        if not here:
            return ""
        return GERMANY if GERMANY in here else "norway_allies"

    def enemies(self, country: str) -> tuple[str, ...]:
        return DEFENDERS if country == GERMANY else (GERMANY,)

    def hostile(self, area: str, country: str) -> bool:
        here = self.troops.get(area)
        if not here:
            return False
        if country == GERMANY:
            return here.get(NORWAY, 0) > 0 or here.get(ALLIES, 0) > 0
        return here.get(GERMANY, 0) > 0

    def total(self, country: str) -> int:
        return sum(c.get(country, 0) for c in self.troops.values())

    def name(self, area: str) -> str:
        return self.sc.board.land[area].name
