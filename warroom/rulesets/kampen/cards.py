"""Kampen om Norge cards and ships: a typed, frozen model, read and validated from data.

The rulebook names 35 cards but prints their effects only on the cards themselves. `cards.toml` and
`ships.toml` (in `warroom/scenarios/data/kampen/`) hold the designed card set: copies, reinforcement
symbols, uses (phase, timing, step, effect handler and its parameters), ship types and every dice table.
Each designed fact carries `assumption = "..."`, so someone with the physical cards can correct numbers
and texts there without touching the engine. The effect handlers themselves are specified in
`docs/kampen-cards.md`; this module only names them (`EFFECTS`) and checks their parameters.

Every loader reports every problem at once by raising `ScenarioError(problems)`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from warroom.core.errors import ScenarioError
from warroom.core.schema import Reader

OWNERS = ("germany", "norway", "allies")
DECKS = ("play", "april9")  # the play decks, and the 9 April decks (advanced game)
PLAY_TIMINGS = ("play", "stop", "react")  # green triangle, red square, green circle
APRIL_TIMINGS = ("april", "april_stop")  # orange triangle, orange square
TIMINGS = PLAY_TIMINGS + APRIL_TIMINGS
DECK_SIZES = {"germany": 62, "norway": 22, "allies": 28}  # stated (2.4)
APRIL9_TOTAL = 22  # the box's 9 April cards (Appendix K6)
APRIL9_CHOOSE = {"germany": 5, "norway": 3, "allies": 3}  # stated (7.0)
BORDER_KINDS = ("land", "fjord", "lake")
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Step:
    """Where in the sequence of play a card use is offered."""

    phase: int  # 0 = the 9 April opening phase (7.0); 1-3 = the round's phases
    timings: tuple[str, ...]  # play-deck timings this step accepts (empty: 9 April only)
    april: bool  # the step occurs in the 9 April round, so 9 April cards may be offered here
    advanced: bool  # the step exists only in the advanced game
    battle: str  # "land" | "sea" | "": a battle's card step (one card per type per side and step)
    doc: str


STEPS: dict[str, Step] = {
    "april_select": Step(0, (), True, True, "", "7.0: choosing 9 April cards and ships"),
    "april_deploy": Step(0, (), True, True, "", "7.0: deployment (Norway, then Germany, then the Allies)"),
    "interception": Step(1, (), True, True, "", "1a / 7.1: an interception roll at sea"),
    "move": Step(1, ("play", "stop"), True, False, "", "1b: the mover's land movement (9 April: air drops)"),
    "sabotage": Step(1, ("stop",), False, False, "", "1c: Norway answers German movement"),
    "sabotage_counter": Step(1, ("react",), False, False, "", "1c: Germany answers a sabotage card"),
    "sea_attack_cards": Step(2, ("play",), True, True, "sea", "2a step 1: the attacker's cards"),
    "sea_defend_cards": Step(2, ("stop",), True, True, "sea", "2a step 2: the defender's cards"),
    "sea_react_cards": Step(2, ("react",), True, True, "sea", "2a step 3: the attacker's reactions"),
    "sea_removal": Step(2, ("stop", "react"), True, True, "", "2a step 6: sunk ships are removed"),
    "landing": Step(2, (), True, True, "", "7.2: German ships land battalions"),
    "attack_cards": Step(2, ("play",), True, False, "land", "2b step 1: the attacker's cards"),
    "defend_cards": Step(2, ("stop",), True, False, "land", "2b step 2: the defender's cards"),
    "react_cards": Step(2, ("react",), True, False, "land", "2b step 3: the attacker's reactions"),
    "removal": Step(2, ("stop", "react"), True, False, "", "2b step 6: eliminated battalions are removed"),
    "retreat": Step(2, ("stop", "react"), True, False, "", "2b step 8: the loser withdraws"),
    "reinforce": Step(3, ("play",), True, False, "", "3: the player's own reinforcement phase"),
    "opponent_reinforce": Step(3, ("stop",), True, False, "", "3: an enemy country's reinforcement phase"),
}
"""The closed step vocabulary (docs/kampen-plan.md, section 1)."""

PARAM_KINDS = {
    "count": "a whole number, 0 or more",
    "dice": "a whole number of dice, 0 to 6",
    "types": "a non-empty list of card types",
    "roll": "the id of a [roll.*] table in ships.toml",
    "owners": "a non-empty list of countries",
    "borders": "a non-empty list of border kinds (land, fjord, lake)",
}


@dataclass(frozen=True, slots=True)
class EffectSpec:
    """An effect handler's contract: its parameters (name -> kind) and the roll outcomes it reads."""

    required: Mapping[str, str]
    optional: Mapping[str, str]
    outcomes: tuple[str, ...]  # a `roll` parameter's table must define these outcomes
    doc: str


def _spec(doc: str, required: dict[str, str] | None = None, optional: dict[str, str] | None = None,
          outcomes: tuple[str, ...] = ()) -> EffectSpec:
    return EffectSpec(MappingProxyType(required or {}), MappingProxyType(optional or {}), outcomes, doc)


EFFECTS: dict[str, EffectSpec] = {
    "extra_dice": _spec("extra combat dice for the player's side in this battle",
                        {"dice": "dice"}, {"water_dice": "dice"}),
    "ignore_water": _spec("the attacker's battalion dice are not halved for a fjord or lake"),
    "cancel": _spec("cancels one card of the given types just played by an enemy", {"targets": "types"}),
    "paradrop": _spec("new battalions dropped in German air range", {"battalions": "count"}),
    "divert_airdrop": _spec("a paratroop drop lands in an adjacent area the reacting player picks"),
    "extra_move": _spec("a group moves further than one area", {"battalions": "count", "areas": "count"}),
    "airlift": _spec("battalions fly between German-held airfields", {"battalions": "count"}),
    "airfield_reinforce": _spec("reinforcements may be placed on German-held airfields", {"battalions": "count"}),
    "rail_move": _spec("a group moves by rail through free areas", {"battalions": "count", "areas": "count"}),
    "flee": _spec("the Norwegians in an attacked area leave before the battle"),
    "block_attack": _spec("attackers of one area over the given border kinds go back", {"borders": "borders"}),
    "block_border": _spec("every German battalion that crossed one border goes back across it"),
    "invasion": _spec("an extra reinforcement exchange in phase 1, placed on the coast, may attack"),
    "evacuate": _spec("battalions move by sea between coastal areas", {"battalions": "count"}),
    "save_eliminated": _spec("eliminated battalions are saved to another coastal area", {"battalions": "count"}),
    "evacuate_retreat": _spec("the losers leave by sea instead of retreating"),
    "cut_reinforcements": _spec("an enemy places fewer reinforcements", {"battalions": "count", "against": "owners"}),
    "strike": _spec("one die against the enemy ships in a sea battle", {"roll": "roll"}, outcomes=("sink",)),
    "redeploy_ships": _spec("German ship cards shift one sea area after deployment", {"ships": "count"}),
    "smoke_screen": _spec("intercepted German ships slip away", {"ships": "count"}),
    "sailors_ashore": _spec("crews of sunk German ships come ashore as a battalion", {"battalions": "count"}),
    "bluff": _spec("one die: the Norwegian defenders withdraw without a battle",
                   {"roll": "roll", "max_defenders": "count"}, outcomes=("success",)),
    "redeploy": _spec("Norwegian battalions shift after deployment", {"battalions": "count"}),
    "coastal_fort": _spec("one die against a landing in a point city", {"roll": "roll"}, outcomes=("sink", "bar")),
    "extra_ships": _spec("the Allies draw more ships for the 9 April round", {"ships": "count"}),
    "reconnaissance": _spec("one die per German ship card: look at one per success", {"roll": "roll"},
                            outcomes=("success",)),
    "mines": _spec("one die per landing German ship: a mine sinks it", {"roll": "roll"}, outcomes=("sink",)),
}
"""The effect handler vocabulary, with each handler's parameters. Semantics: docs/kampen-cards.md."""

REQUIREMENTS = {
    "air_range": "the land area lies south of the 'Fra Tyskland' line or inside a German-held airfield's range",
    "sea_air_range": "Germany holds an airfield area facing the sea area (VII: or holds Bardufoss)",
    "german_airfields": "from and to land areas whose airfield German battalions hold",
    "allied_coast": "every land area acted on faces one of III-VII and neither I nor II",
    "allied_sea_zone": "the sea area is one of III-VII",
    "point_city": "the land area holds a point city",
}
"""Conditions a use may require (`requires = [...]`)."""

ADVANCED_REQUIREMENTS = {
    "allied_sea_control": "only Allied ship cards lie in a sea area the target land area faces",
    "allied_ship_on_coast": "an Allied ship card lies in a sea area the land area faces",
    "carrier_or_battalions": "Allied battalions in the target area, or an Allied carrier on its coast",
}
"""The extra requirements printed at the bottom of some cards, in force in the advanced game (5.2)."""

USE_KEYS = {"phase", "timing", "step", "effect", "text", "requires", "advanced", "anywhere", "assumption", "stated"}
CARD_KEYS = {"id", "name", "owner", "deck", "type", "copies", "symbols", "text", "use", "advanced_requires",
             "assumption", "stated"}

SHIP_TYPES = ("battleship", "carrier", "heavy_cruiser", "smaller", "coastal_defence", "false")
ROLL_OUTCOMES = ("success", "sink", "chase", "bar")
REQUIRED_ROLLS = ("interception", "resistance")
ALLIED_SHIPS = 18  # stated (7.0)

ParamValue = int | str | tuple[str, ...]


def slug(name: str) -> str:
    """An ascii id for a card name: æ->ae, ø->o, å->a, ä->a; other runs of non-letters -> '_'."""
    text = name.lower()
    for a, b in (("æ", "ae"), ("ø", "o"), ("å", "a"), ("ä", "a"), ("ö", "o"), ("ü", "u")):
        text = text.replace(a, b)
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


def _faces(faces: tuple[int, ...], face: int) -> bool:
    return face in faces


@dataclass(frozen=True, slots=True)
class CardUse:
    """One printed function of a card at one timing symbol."""

    phase: int
    timing: str
    step: str
    effect: str
    params: Mapping[str, ParamValue]
    text: str
    requires: tuple[str, ...] = ()
    advanced: bool = False  # offered only in the advanced game
    anywhere: bool = False  # usable in a battle where the owner has no battalions (Jagerfly, 4.2)
    assumption: str = ""
    stated: str = ""

    def count(self, name: str, default: int = 0) -> int:
        value = self.params.get(name, default)
        return value if isinstance(value, int) else default

    def names(self, name: str) -> tuple[str, ...]:
        value = self.params.get(name, ())
        return value if isinstance(value, tuple) else ()

    def dice(self, no_land_route: bool = False) -> int:
        """An `extra_dice` use's dice; `water_dice` instead when no attacker came over a land border."""
        if no_land_route and "water_dice" in self.params:
            return self.count("water_dice")
        return self.count("dice")


@dataclass(frozen=True, slots=True)
class Card:
    """A card name of one country's deck, with its copies and their reinforcement symbols."""

    id: str
    name: str
    owner: str
    deck: str
    type: str  # the one-card-per-type key (Bombefly and Jagerbomber share one)
    copies: int
    symbols: tuple[int, ...]  # per copy
    text: str
    uses: tuple[CardUse, ...]
    advanced_requires: tuple[str, ...] = ()
    assumption: str = ""
    stated: str = ""

    def uses_at(self, step: str) -> tuple[CardUse, ...]:
        return tuple(u for u in self.uses if u.step == step)


@dataclass(frozen=True, slots=True)
class CardCopy:
    """One physical card: a card id and its copy index (0-based)."""

    card: str
    copy: int
    symbols: int

    @property
    def key(self) -> str:
        return f"{self.card}#{self.copy}"


@dataclass(frozen=True, slots=True)
class Roll:
    """A designed dice table: outcome name -> the die faces giving it; other faces do nothing."""

    id: str
    name: str
    outcomes: Mapping[str, tuple[int, ...]]
    assumption: str = ""
    stated: str = ""

    def outcome(self, face: int) -> str:
        """The outcome a die face gives, or '' for none."""
        return next((name for name, faces in self.outcomes.items() if _faces(faces, face)), "")


@dataclass(frozen=True, slots=True)
class ShipType:
    id: str
    name: str
    rank: int  # sea-combat firing order: lower fires first ("best to weakest", 8.2)
    sink: tuple[int, ...]
    chase: tuple[int, ...]
    card_loss: int  # cards the owner loses when one is sunk (8.2)
    raid_loss: int  # Allied cards lost per raiding German ship of this type; 0 = may not raid (7.2)
    move: int  # sea areas per round (8.1)
    intercept: bool  # may roll to intercept in an ordinary round
    intercept_april9: bool  # ... and at the 9 April invasion
    face_up: bool  # always lies face up
    chased_is_sunk: bool  # cannot flee: chased means sunk
    false_ship: bool  # not a ship: removed when intercepted and after the 9 April round
    assumption: str = ""
    stated: str = ""

    def outcome(self, face: int) -> str:
        """'sink', 'chase' or '' for a die this ship rolls in sea combat."""
        if _faces(self.sink, face):
            return "sink"
        return "chase" if _faces(self.chase, face) else ""


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    name: str
    owner: str
    type: str
    copies: int = 1
    assumption: str = ""
    stated: str = ""


@dataclass(frozen=True, slots=True)
class ShipCopy:
    ship: str
    copy: int

    @property
    def key(self) -> str:
        return f"{self.ship}#{self.copy}"


@dataclass(frozen=True, slots=True)
class ShipData:
    ships: Mapping[str, Ship]
    types: Mapping[str, ShipType]
    rolls: Mapping[str, Roll]


@dataclass(frozen=True, slots=True)
class CardSet:
    """Everything `load_cards` reads: the cards, and the ships with their dice tables."""

    cards: Mapping[str, Card]
    ships: ShipData

    def deck(self, owner: str, deck: str = "play") -> list[CardCopy]:
        return deck_cards(self.cards, owner, deck)


def deck_cards(cards: Mapping[str, Card], owner: str, deck: str = "play") -> list[CardCopy]:
    """A country's deck expanded into its physical cards, in file order, copies in order."""
    return [CardCopy(c.id, i, c.symbols[i]) for c in cards.values() if c.owner == owner and c.deck == deck
            for i in range(c.copies)]


def ship_cards(ships: Mapping[str, Ship], owner: str) -> list[ShipCopy]:
    """A country's ship cards expanded into physical cards, in file order."""
    return [ShipCopy(s.id, i) for s in ships.values() if s.owner == owner for i in range(s.copies)]


# ----- reading ------------------------------------------------------------------------------------------


def _designed(r: Reader, what: str, need_assumption: bool) -> tuple[str, str]:
    """Read `assumption` and `stated`. A designed entry must say why (`assumption`); an entry whose
    facts are all stated may give `stated` instead, unless `need_assumption`."""
    assumption = r.text("assumption", "")
    stated = r.text("stated", "")
    if not assumption.strip() and (need_assumption or not stated.strip()):
        r.fail(f"missing key 'assumption': every designed {what} says why it is designed so")
    return assumption, stated


def _param(r: Reader, name: str, kind: str, value: Any, card_types: set[str] | None) -> ParamValue | None:
    def bad() -> None:
        r.fail(f"parameter {name!r}: expected {PARAM_KINDS[kind]}, got {value!r}")

    if kind in ("count", "dice"):
        hi = 6 if kind == "dice" else 99
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= hi:
            bad()
            return None
        return value
    if kind == "roll":
        if not isinstance(value, str) or not ID_RE.match(value):
            bad()
            return None
        return value
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        bad()
        return None
    known = {"owners": set(OWNERS), "borders": set(BORDER_KINDS)}.get(kind, card_types)
    if known is not None:
        for v in value:
            if v not in known:
                r.fail(f"parameter {name!r}: {v!r} is not a known {kind[:-1]} (known: {', '.join(sorted(known))})")
    return tuple(value)


def _use(r: Reader, card_deck: str, card_types: set[str] | None,
         roll_refs: list[tuple[Reader, str, str]]) -> CardUse:
    phase = r.integer("phase", lo=0, hi=4)
    timing = r.text("timing", choices=TIMINGS)
    step_name = r.text("step", choices=tuple(STEPS))
    effect = r.text("effect", choices=tuple(EFFECTS))
    step = STEPS.get(step_name)
    april = card_deck == "april9"
    advanced = r.flag("advanced", False)
    anywhere = r.flag("anywhere", False)
    if step is not None:
        if phase != step.phase:
            r.fail(f"step {step_name!r} belongs to phase {step.phase}, not phase {phase}")
        if timing in TIMINGS:
            if april and timing not in APRIL_TIMINGS:
                r.fail(f"timing {timing!r} on a 9 April card (expected april or april_stop)")
            elif not april and timing not in PLAY_TIMINGS:
                r.fail(f"timing {timing!r} on a play card (expected play, stop or react)")
            elif april and not step.april:
                r.fail(f"step {step_name!r} does not occur in the 9 April round")
            elif not april and timing not in step.timings:
                r.fail(f"timing {timing!r} is not offered at step {step_name!r} "
                       f"(offered: {', '.join(step.timings) or 'none on play cards'})")
        if step.advanced and not april and not advanced:
            r.fail(f"step {step_name!r} exists only in the advanced game: set advanced = true")
        if anywhere and not step.battle:
            r.fail(f"'anywhere' (no own battalions needed) applies only to a battle's card step, not {step_name!r}")
    requires = r.texts("requires")
    for q in requires:
        if q not in REQUIREMENTS:
            r.fail(f"unknown requirement {q!r} (known: {', '.join(REQUIREMENTS)})")
    params: dict[str, ParamValue] = {}
    spec = EFFECTS.get(effect)
    if spec is not None:
        for name, kind in spec.required.items():
            if name not in r.data:
                r.fail(f"effect {effect!r} needs parameter {name!r} ({PARAM_KINDS[kind]})")
        for name, value in r.data.items():
            if name in USE_KEYS:
                continue
            found = spec.required.get(name) or spec.optional.get(name)
            if found is None:
                takes = ", ".join([*spec.required, *spec.optional]) or "none"
                r.fail(f"effect {effect!r} takes no parameter {name!r} (takes: {takes})")
                continue
            kind = found
            got = _param(r, name, kind, value, card_types)
            if got is not None:
                params[name] = got
                if kind == "roll" and isinstance(got, str):
                    for outcome in spec.outcomes:
                        roll_refs.append((r, got, outcome))
    assumption, stated = _designed(r, "card use", need_assumption=False)
    text = r.text("text")
    if not text.strip():
        r.fail("key 'text': a use needs its effect in words")
    return CardUse(phase=phase, timing=timing, step=step_name, effect=effect, params=MappingProxyType(params),
                   text=text, requires=requires, advanced=advanced, anywhere=anywhere, assumption=assumption,
                   stated=stated)


def _card_types(data: Any) -> set[str]:
    out: set[str] = set()
    cards = data.get("card") if isinstance(data, dict) else None
    for c in cards if isinstance(cards, list) else []:
        if isinstance(c, dict):
            kind = c.get("type", slug(str(c.get("name", ""))))
            if isinstance(kind, str):
                out.add(kind)
    return out


def _parse_cards(data: Any, where: str, problems: list[str], rolls: Mapping[str, Roll] | None) -> dict[str, Card]:
    root = Reader(where, data, problems)
    root.unknown_keys({"card"})
    card_types = _card_types(data)
    roll_refs: list[tuple[Reader, str, str]] = []
    cards: dict[str, Card] = {}
    for c in root.tables("card"):
        c.unknown_keys(CARD_KEYS)
        cid = c.text("id")
        if cid in cards:
            c.fail(f"duplicate card id {cid!r}")
        elif cid and not ID_RE.match(cid):
            c.fail(f"card id {cid!r}: use lower-case ascii letters, digits and '_'")
        name = c.text("name")
        owner = c.text("owner", choices=OWNERS)
        deck = c.text("deck", choices=DECKS)
        kind = c.text("type", slug(name))
        copies = c.integer("copies", lo=1, hi=20)
        symbols = c.integers("symbols")
        if c.has("symbols") and len(symbols) != copies:
            c.fail(f"key 'symbols': {len(symbols)} values for {copies} copies (one value per copy)")
        if any(s < 1 for s in symbols):
            c.fail(f"key 'symbols': every copy carries at least one reinforcement symbol, got {list(symbols)}")
        if not c.has("symbols"):
            c.fail("missing key 'symbols' (the reinforcement symbols of each copy)")
        advanced_requires = c.texts("advanced_requires")
        for q in advanced_requires:
            if q not in ADVANCED_REQUIREMENTS:
                c.fail(f"unknown advanced requirement {q!r} (known: {', '.join(ADVANCED_REQUIREMENTS)})")
        uses = tuple(_use(u, deck, card_types, roll_refs) for u in c.tables("use", label="effect"))
        assumption, stated = _designed(c, "card", need_assumption=True)
        text = c.text("text")
        if not text.strip():
            c.fail("key 'text': a card needs a summary in words")
        cards[cid] = Card(id=cid, name=name, owner=owner, deck=deck, type=kind, copies=copies, symbols=symbols,
                          text=text, uses=uses, advanced_requires=advanced_requires, assumption=assumption,
                          stated=stated)
    _check_decks(cards, where, problems)
    if rolls is not None:
        for r, roll, outcome in roll_refs:
            if roll not in rolls:
                r.fail(f"roll {roll!r} is not a [roll.*] table of ships.toml (known: {', '.join(rolls)})")
            elif outcome not in rolls[roll].outcomes:
                r.fail(f"roll {roll!r} has no {outcome!r} faces, which this effect reads")
    return cards


def _check_decks(cards: Mapping[str, Card], where: str, problems: list[str]) -> None:
    april_total = 0
    for owner in OWNERS:
        play = sum(c.copies for c in cards.values() if c.owner == owner and c.deck == "play")
        if play != DECK_SIZES[owner]:
            problems.append(f"{where}: the {owner} play deck has {play} cards; the rulebook says "
                            f"{DECK_SIZES[owner]} (2.4)")
        april = sum(c.copies for c in cards.values() if c.owner == owner and c.deck == "april9")
        april_total += april
        if april < APRIL9_CHOOSE[owner]:
            problems.append(f"{where}: the {owner} 9 April deck has {april} cards, fewer than the "
                            f"{APRIL9_CHOOSE[owner]} it chooses (7.0)")
    if april_total != APRIL9_TOTAL:
        problems.append(f"{where}: the 9 April decks have {april_total} cards in all; the box holds "
                        f"{APRIL9_TOTAL} (Appendix K6)")


def _faces_list(r: Reader, key: str) -> tuple[int, ...]:
    faces = r.integers(key)
    if any(not 1 <= f <= 6 for f in faces) or len(set(faces)) != len(faces):
        r.fail(f"key {key!r}: expected distinct die faces 1-6, got {list(faces)}")
    return tuple(sorted(faces))


def _parse_ships(data: Any, where: str, problems: list[str]) -> ShipData:
    root = Reader(where, data, problems)
    root.unknown_keys({"ship", "ship_type", "roll"})
    types: dict[str, ShipType] = {}
    types_r = root.table("ship_type", required=True)
    for tid in types_r.data:
        t = types_r.table(tid)
        if tid not in SHIP_TYPES:
            t.fail(f"unknown ship type {tid!r} (known: {', '.join(SHIP_TYPES)})")
        sink, chase = _faces_list(t, "sink"), _faces_list(t, "chase")
        if set(sink) & set(chase):
            t.fail(f"faces {sorted(set(sink) & set(chase))} both sink and chase")
        assumption, stated = _designed(t, "ship type", need_assumption=False)
        types[tid] = ShipType(
            id=tid, name=t.text("name"), rank=t.integer("rank", lo=0, hi=9), sink=sink, chase=chase,
            card_loss=t.integer("card_loss", lo=0, hi=5), raid_loss=t.integer("raid_loss", 0, lo=0, hi=5),
            move=t.integer("move", lo=0, hi=4), intercept=t.flag("intercept", True),
            intercept_april9=t.flag("intercept_april9", True), face_up=t.flag("face_up", False),
            chased_is_sunk=t.flag("chased_is_sunk", False), false_ship=t.flag("false_ship", False),
            assumption=assumption, stated=stated)
    for tid in SHIP_TYPES:
        if tid not in types:
            types_r.fail(f"missing ship type {tid!r}")
    ships: dict[str, Ship] = {}
    for s in root.tables("ship"):
        sid = s.text("id")
        if sid in ships:
            s.fail(f"duplicate ship id {sid!r}")
        elif sid and not ID_RE.match(sid):
            s.fail(f"ship id {sid!r}: use lower-case ascii letters, digits and '_'")
        owner = s.text("owner", choices=OWNERS)
        stype = s.text("type")
        if stype not in types:
            s.fail(f"ship type {stype!r} is not a [ship_type.*] table")
        assumption, stated = _designed(s, "ship", need_assumption=False)
        ships[sid] = Ship(id=sid, name=s.text("name"), owner=owner, type=stype,
                          copies=s.integer("copies", 1, lo=1, hi=10), assumption=assumption, stated=stated)
    rolls: dict[str, Roll] = {}
    rolls_r = root.table("roll", required=True)
    for rid in rolls_r.data:
        r = rolls_r.table(rid)
        outcomes = {o: _faces_list(r, o) for o in ROLL_OUTCOMES if r.has(o)}
        r.unknown_keys({"name", "assumption", "stated", *ROLL_OUTCOMES})
        if not outcomes:
            r.fail(f"a roll needs at least one outcome ({', '.join(ROLL_OUTCOMES)})")
        seen: set[int] = set()
        for faces in outcomes.values():
            if seen & set(faces):
                r.fail(f"faces {sorted(seen & set(faces))} give two outcomes")
            seen |= set(faces)
        assumption, stated = _designed(r, "dice table", need_assumption=True)
        rolls[rid] = Roll(rid, r.text("name"), MappingProxyType(outcomes), assumption, stated)
    for rid in REQUIRED_ROLLS:
        if rid not in rolls:
            rolls_r.fail(f"missing dice table [roll.{rid}]")
    _check_fleets(ships, types, where, problems)
    return ShipData(MappingProxyType(ships), MappingProxyType(types), MappingProxyType(rolls))


def _check_fleets(ships: Mapping[str, Ship], types: Mapping[str, ShipType], where: str, problems: list[str]) -> None:
    allied = sum(s.copies for s in ships.values() if s.owner == "allies")
    if allied != ALLIED_SHIPS:
        problems.append(f"{where}: the Allies have {allied} ship cards; the rulebook says {ALLIED_SHIPS} (7.0)")
    norway = [s for s in ships.values() if s.owner == "norway"]
    if sum(s.copies for s in norway) != 1 or any(s.type != "coastal_defence" for s in norway):
        problems.append(f"{where}: Norway has exactly one ship card, the coastal defence ship (6.1)")
    for s in ships.values():
        t = types.get(s.type)
        if t is not None and t.false_ship and s.owner != "germany":
            problems.append(f"{where}: ship {s.id!r}: only Germany has false ships (6.1)")
        if s.type == "carrier" and s.owner != "allies":
            problems.append(f"{where}: ship {s.id!r}: only the Allies have carriers (6.1)")


def parse_cards(data: dict[str, Any], where: str, rolls: Mapping[str, Roll] | None = None) -> dict[str, Card]:
    """Build and validate the cards of `cards.toml`; with `rolls`, check the dice tables they name.
    Raises `ScenarioError` listing every problem."""
    problems: list[str] = []
    cards = _parse_cards(data, where, problems, rolls)
    if problems:
        raise ScenarioError(problems)
    return cards


def parse_ships(data: dict[str, Any], where: str) -> ShipData:
    """Build and validate the ships, ship types and dice tables of `ships.toml`."""
    problems: list[str] = []
    ships = _parse_ships(data, where, problems)
    if problems:
        raise ScenarioError(problems)
    return ships


def _read(path: Path, problems: list[str]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{path}: no such file")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: not valid TOML: {exc}")
    except UnicodeDecodeError:
        problems.append(f"{path}: not UTF-8 text")
    return {}


def load_cards(folder: Path | str) -> CardSet:
    """Read `cards.toml` and `ships.toml` of a folder; every problem of both is reported at once."""
    folder = Path(folder)
    problems: list[str] = []
    cards_path, ships_path = folder / "cards.toml", folder / "ships.toml"
    cards_data, ships_data = _read(cards_path, problems), _read(ships_path, problems)
    if problems:
        raise ScenarioError(problems)
    ships = _parse_ships(ships_data, str(ships_path), problems)
    cards = _parse_cards(cards_data, str(cards_path), problems, ships.rolls)
    if problems:
        raise ScenarioError(problems)
    return CardSet(MappingProxyType(cards), ships)
