"""What a campaign carries from one server to another, or to and from the terminal (issue 11): its parameters,
its seats (the links it was played with) and the export document.

An export is the CLI save (`GameRecord`, its seed blanked: the log holds every roll) plus a `club` object with
what a new server needs besides: the title, the seats, and an uploaded scenario's file. `warroom resume`
reads an export as a save and ignores `club`; an import reads both, and refuses anything it could not
replay exactly, naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warroom import rulesets
from warroom.core.errors import SaveError, shown
from warroom.core.log import GameRecord, parse_json
from warroom.core.state import NOT_SIDES
from warroom.core.system import Capability
from warroom.server.errors import BadRequestError, readable

BOT_KINDS = ("heuristic", "random")
ANY_SIDE = "*"
"""The side of a hot-seat general's link: it plays every side."""
ROLES = ("organiser", "general", "commander")
SERVER_PARAMS = ("bots",)
CLI_PARAMS = ("players", "bot")
"""A terminal save's own parameters: who was a person and which bot played; an import turns them into `bots`."""
MAX_SEATS = 40
MAX_TITLE = 200
MAX_WAITING = 1000
CLUB = "club"

Seat = tuple[str, str]
"""(role, side) of a link: ("organiser", ""), ("general", "allies"), ("general", "*") ..."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A tabletop result that was reported and waits for the other side (or, disputed, for the organiser)."""

    battle: int
    attacker_vp: int
    defender_vp: int
    by_side: str
    disputed: bool = False


def campaign_params(sc: Any, raw: Any, where: str = "params") -> dict[str, Any]:
    """The campaign parameters in `raw`, checked: the rules' own (the system's `params`, e.g. Firestorm's `mode`,
    `allotment`, `parallel`) and the server's `bots` (side -> bot kind). A terminal save's `players`/`bot`
    become `bots`.

    assumption: a side the terminal game gave to the bot stays with the server's bot after an import, since
    that is how the campaign was being played; the organiser can still hand it to people by starting the
    campaign again from the export with `players` edited.

    Raises `BadRequestError` naming the parameter; anything unknown is refused rather than kept, so a
    parameter no rule reads can never change a replay."""
    if not isinstance(raw, dict):
        raise BadRequestError(f"{where}: must be an object, got {shown(raw)}")
    system = rulesets.of(sc)
    rule_params = tuple(system.params)
    unknown = [k for k in raw if k not in (*rule_params, *SERVER_PARAMS, *CLI_PARAMS)]
    if unknown:
        raise BadRequestError(f"{where}: unknown parameter {shown(unknown[0])} (known: "
                              f"{', '.join((*rule_params, *SERVER_PARAMS))})")
    params: dict[str, Any] = {k: raw[k] for k in rule_params if k in raw}
    try:
        system.check_params(params)
    except ValueError as exc:
        raise BadRequestError(f"{where}.{exc}") from exc
    bots = raw["bots"] if "bots" in raw else bots_of_terminal_save(sc, raw, params)
    players = player_sides(sc, params)
    if not isinstance(bots, dict) or any(not isinstance(k, str) or k not in players or not isinstance(v, str)
                                         or v not in BOT_KINDS for k, v in bots.items()):
        raise BadRequestError(f"{where}.bots: must map sides with a player ({', '.join(players)}) to a bot kind "
                              f"({', '.join(BOT_KINDS)}), got {shown(bots)}")
    if bots:
        params["bots"] = dict(bots)
    return params


def bots_of_terminal_save(sc: Any, raw: dict[str, Any], params: Mapping[str, Any]) -> dict[str, str]:
    players = raw.get("players")
    if not isinstance(players, dict):
        return {}
    # assumption: the server's bot moves answer a request at once, so it offers no searching bot; a terminal save
    # played against one (its "bot" an 'mcts...' name) goes on against the heuristic bot, as any other kind does.
    kind = raw.get("bot") if raw.get("bot") in BOT_KINDS else BOT_KINDS[0]
    return {side: str(kind) for side in player_sides(sc, params) if players.get(side) == "bot"}


MAX_SIDE_ID = 40
"""As long as the columns that keep a side's id (log entries, links, waiting results)."""


def is_side_id(text: str) -> bool:
    """A side's id in a scenario uploaded to the server: a short lower-case word that no log, link or turn can
    mistake for anything else (not `ANY_SIDE`, not "chance").

    >>> is_side_id("allies"), is_side_id("*"), is_side_id("chance"), is_side_id("a" * 41)
    (True, False, False, False)
    """
    return (0 < len(text) <= MAX_SIDE_ID and text[0].isascii() and text[0].islower()
            and all(c.isascii() and (c.islower() or c.isdigit() or c == "_") for c in text)
            and text not in NOT_SIDES)


def player_sides(sc: Any, params: Mapping[str, Any] | None = None) -> list[str]:
    """The sides that have a player of their own in a game with these parameters (with two players, Kampen om
    Norge's Allies are played by Norway's player)."""
    seats = rulesets.of(sc).seats(sc, params or {})
    return [s for s in sc.sides if seats.get(s, s) == s]


def seat_of(sc: Any, params: Mapping[str, Any], side: str) -> str:
    """The side whose player decides for `side`."""
    return rulesets.of(sc).seats(sc, params).get(side, side)


def roles_of(sc: Any) -> tuple[str, ...]:
    """The roles of a side's links: its general, and its commanders where battles are fought at the table."""
    return ("general", "commander") if rulesets.of(sc).can(Capability.TABLETOP) else ("general",)


def standard_seats(sc: Any, params: Mapping[str, Any] | None = None) -> list[Seat]:
    """The links every campaign starts with: the organiser's, then each player's general (and commanders)."""
    return [("organiser", ""), *((role, side) for side in player_sides(sc, params) for role in roles_of(sc))]


def the(sc: Any, side: str) -> str:
    """A side's name in a sentence: "the Allies", "the Germans", "Germany", "the Allies" (for "The Allies").

    >>> class Sc: side_names = {"allies": "Allies", "germany": "Germany", "kallies": "The Allies"}
    >>> [the(Sc, s) for s in ("allies", "germany", "kallies", "unknown")]
    ['the Allies', 'Germany', 'the Allies', 'unknown']
    """
    name: str = sc.side_names.get(side, side)
    if name.startswith("The "):
        return "the " + name[4:]
    return f"the {name}" if name.endswith("s") else name


def whose(sc: Any, side: str) -> str:
    """A side's name as an owner: "the Allies'", "Germany's"."""
    name = the(sc, side)
    return name + ("'" if name.endswith("s") else "'s")


def seat_label(sc: Any, role: str, side: str, params: Mapping[str, Any] | None = None) -> str:
    """How a link is named on the links page: "organiser", "Allies general", "every side (hot-seat)", "Norway and
    The Allies player" ..."""
    if role == "organiser":
        return "organiser"
    if side == ANY_SIDE:
        return "every side (hot-seat)"
    if len(roles_of(sc)) == 1:  # no battles at the table: a side has one player, who plays its cards
        seats = rulesets.of(sc).seats(sc, params or {})
        names = [the(sc, s) for s in sc.sides if seats.get(s, s) == side]
        return " and ".join([names[0][0].upper() + names[0][1:], *names[1:]]) + " player"
    return f"{sc.side_names[side]} {'commanders' if role == 'commander' else role}"


def check_seat(sc: Any, role: str, side: str, where: str = "", params: Mapping[str, Any] | None = None) -> None:
    """Raise `BadRequestError` unless (role, side) is a seat of this campaign."""
    if role not in ROLES:
        raise BadRequestError(f"{where}unknown role {shown(role)} (organiser, general or commander)")
    if role == "organiser" and side:
        raise BadRequestError(f"{where}the organiser's link has no side")
    if role != "organiser" and side not in (*sc.sides, ANY_SIDE):
        raise BadRequestError(f"{where}unknown side {shown(side)} (sides: {', '.join(sc.sides)}, or * for every "
                              "side)")
    if role == "commander" and side == ANY_SIDE:
        raise BadRequestError(f"{where}commanders belong to one side (a hot-seat link is a general's, side *)")
    if role not in ("organiser", *roles_of(sc)):
        raise BadRequestError(f"{where}{rulesets.of(sc).name} has no commanders (no battles are fought at the "
                              "table): a side's link is its general's")
    if role != "organiser" and side != ANY_SIDE and (player := seat_of(sc, params or {}, side)) != side:
        raise BadRequestError(f"{where}in this game {the(sc, side)} are played by {whose(sc, player)} player: "
                              "give that player the link")


def seats_in_order(sc: Any, extra: list[Seat], params: Mapping[str, Any] | None = None) -> list[Seat]:
    """The standard seats, then any others (a hot-seat link ...) once each, in a stable order."""
    seats = standard_seats(sc, params)
    for seat in extra:
        if seat not in seats:
            seats.append(seat)
    return seats


@dataclass(frozen=True, slots=True)
class Export:
    """An uploaded export or terminal save: the save, and the `club` object when it has one."""

    record: GameRecord
    title: str | None = None
    scenario_toml: str | None = None
    seats: tuple[Seat, ...] = ()
    waiting: tuple[Waiting, ...] = ()


def export_document(record: GameRecord, title: str, scenario_toml: str | None, seats: list[Seat],
                    waiting: list[Waiting]) -> dict[str, Any]:
    """The export of a campaign: the save, and in `club` its title, seats, waiting results and uploaded
    scenario."""
    out: dict[str, Any] = json.loads(record.to_json())
    club: dict[str, Any] = {"title": title, "seats": [{"role": r, "side": s} for r, s in seats],
                            "waiting": [{"battle": w.battle, "attacker_vp": w.attacker_vp, "defender_vp": w.defender_vp,
                                         "by_side": w.by_side, "disputed": w.disputed} for w in waiting]}
    if scenario_toml is not None:
        club["scenario_toml"] = scenario_toml
    out[CLUB] = club
    return out


def read_export(raw: bytes, max_toml: int) -> Export:
    """An uploaded export or terminal save. Anything unreadable is a `SaveError` naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(f"not a warroom save: the file is not UTF-8 text (byte {exc.start})") from exc
    data = parse_json(text)
    record = GameRecord.from_data(data)
    for field, value in (("scenario", record.scenario), ("scenario_version", record.scenario_version)):
        try:
            readable(value, field)
        except BadRequestError as exc:
            raise SaveError(str(exc)) from exc
    club = data.get(CLUB, {})
    if not isinstance(club, dict):
        raise SaveError(f"{CLUB}: must be an object")
    title = club.get("title")
    if title is not None and (not isinstance(title, str) or len(title) > MAX_TITLE):
        raise SaveError(f"{CLUB}.title: must be text of at most {MAX_TITLE} characters")
    toml = club.get("scenario_toml")
    if toml is not None and (not isinstance(toml, str) or len(toml) > max_toml):
        raise SaveError(f"{CLUB}.scenario_toml: must be the text of a scenario file of at most {max_toml} characters")
    raw_seats = club.get("seats", [])
    if not isinstance(raw_seats, list) or len(raw_seats) > MAX_SEATS:
        raise SaveError(f"{CLUB}.seats: must be a list of at most {MAX_SEATS} links")
    seats: list[Seat] = []
    for i, seat in enumerate(raw_seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("role"), str) or not isinstance(
                seat.get("side", ""), str):
            raise SaveError(f"{CLUB}.seats[{i}]: must be an object with a role and a side")
        seats.append((seat["role"], seat.get("side", "")))
    try:
        return Export(record, readable(title, f"{CLUB}.title") if title else None,
                      readable(toml, f"{CLUB}.scenario_toml") if toml is not None else None,
                      tuple((readable(r, f"{CLUB}.seats"), readable(s, f"{CLUB}.seats")) for r, s in seats),
                      read_waiting(club.get("waiting", [])))
    except BadRequestError as exc:
        raise SaveError(str(exc)) from exc


def read_waiting(raw: Any) -> tuple[Waiting, ...]:
    """`club.waiting` of an export: well-formed entries (whether they still apply is the importer's check)."""
    where = f"{CLUB}.waiting"
    if not isinstance(raw, list) or len(raw) > MAX_WAITING:
        raise SaveError(f"{where}: must be a list of at most {MAX_WAITING} results")
    out = []
    for i, w in enumerate(raw):
        fields = w if isinstance(w, dict) else {}
        numbers = [fields.get(k) for k in ("battle", "attacker_vp", "defender_vp")]
        if (not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
                or not isinstance(fields.get("by_side"), str) or not isinstance(fields.get("disputed", False), bool)):
            raise SaveError(f"{where}[{i}]: must have a battle, attacker_vp, defender_vp (numbers), by_side and "
                            "disputed")
        out.append(Waiting(fields["battle"], fields["attacker_vp"], fields["defender_vp"],
                           readable(fields["by_side"], f"{where}[{i}].by_side"), fields.get("disputed", False)))
    return tuple(out)
