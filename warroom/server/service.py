"""Campaigns as positions (docs/server-plan.md): the only layer the web app calls.

A position is rebuilt by replaying the stored log (cached per process by campaign and sequence number).
Every request is checked against the holder's grant and `legal_actions()`; the server rolls every die.
The roll at log position `n` comes from a stream keyed by HMAC-SHA256 of the campaign's secret dice key,
its undo epoch and `n` (`core.dice.keyed_rng`), and so do the server's bot moves: no dice state is kept, a
restart changes nothing, no number of published rolls tells the next one, and an undo (a new epoch) rolls
fresh dice. The key never leaves this module.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import random
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

from warroom import rulesets
from warroom.ai import make_bot
from warroom.core.dice import keyed_rng
from warroom.core.errors import IllegalActionError, SaveError, ScenarioError, UnknownNameError, shown
from warroom.core.events import BattleResolved
from warroom.core.game import replay
from warroom.core.log import SEALED, GameRecord, LogEntry
from warroom.core.state import CHANCE, REPORT, TERMINAL
from warroom.core.system import Capability, Question, RuleSystem, Tabletop
from warroom.scenarios import bundled_ids, load_game
from warroom.server.errors import BadRequestError, ForbiddenError, readable
from warroom.server.portable import (
    ANY_SIDE,
    MAX_SIDE_ID,
    MAX_TITLE,
    Export,
    Seat,
    Waiting,
    campaign_params,
    check_seat,
    export_document,
    is_side_id,
    seat_label,
    seat_of,
    seats_in_order,
    standard_seats,
    whose,
)
from warroom.server.results import (
    asked,
    asked_at,
    check_seen,
    pending_view,
    still_valid,
)
from warroom.server.store import (
    CampaignRow,
    ConflictError,
    EventStore,
    Grant,
    PendingReport,
    battle_label,
    signature,
)
from warroom.server.svg import map_svgs
from warroom.server.words import undone_words

CACHE_SIZE = 256
RESULT_RETRIES = 20
"""How often a battle's result is tried again on a newer position when others act at the same moment."""


K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class LRU(Generic[K, V]):
    """A bounded map that forgets the least recently used entry; safe to share between request threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@dataclass(frozen=True, slots=True)
class Seen:
    """What a confirmation or dispute was sent about: the waiting result its sender was shown, in which undo
    epoch (each optional: what is given must still hold)."""

    attacker_vp: int | None = None
    defender_vp: int | None = None
    epoch: int | None = None


@dataclass(frozen=True, slots=True)
class Invitation:
    label: str  # e.g. "organiser", "allies general", "axis commanders"
    role: str
    side: str
    token_id: str
    secret: str


UPLOADED_CACHE = 64
MAX_LIVE_LINKS = 40
"""Links one campaign may have at once: a few per side is what clubs use."""
MAX_SCENARIO_ID = 100
"""As long as the column that keeps it."""
_UPLOADED = LRU[str, Any](UPLOADED_CACHE)
"""Uploaded scenarios parsed, by their text's SHA-256: bounded, so that many uploads cannot fill the memory."""
LOG = logging.getLogger("warroom.server")


def uploaded_scenario(text: str) -> Any:
    """A scenario from one uploaded TOML file, validated like `warroom validate` (cached by content)."""
    key = hashlib.sha256(text.encode()).hexdigest()
    got = _UPLOADED.get(key)
    if got is None:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BadRequestError(f"the scenario is not valid TOML: {exc}") from exc
        except RecursionError as exc:
            raise BadRequestError("the scenario is not valid TOML: nested too deeply") from exc
        try:
            got = parse_upload(data)
        except ScenarioError as exc:
            raise BadRequestError(f"the scenario has {len(exc.problems)} problem(s): " + "; ".join(exc.problems[:20])
                                  ) from exc
        except BadRequestError:
            raise
        except Exception as exc:  # a shape the validator did not foresee: still the file's fault, and logged
            LOG.warning("an uploaded scenario broke the validator", exc_info=exc)
            raise BadRequestError(f"the scenario cannot be read ({type(exc).__name__})") from exc
        _UPLOADED.put(key, got)
    return got


def club_system(system_id: object) -> RuleSystem:
    """The rule system of a campaign the club server may host (`Capability.CLUB`), named by a scenario."""
    system = rulesets.find(system_id) if isinstance(system_id, str) else None
    if system is None or not system.can(Capability.CLUB):
        hosted = ", ".join(s.id for s in rulesets.systems().values() if s.can(Capability.CLUB))
        raise BadRequestError(f"scenario: the club server hosts campaigns of the rule systems {hosted}, not "
                              f"{shown(system_id)}")
    return system


def named_system(data: dict[str, Any]) -> object:
    head = data.get("scenario")
    return head.get("system", rulesets.DEFAULT) if isinstance(head, dict) else rulesets.DEFAULT


def parse_upload(data: dict[str, Any]) -> Any:
    """A scenario of one TOML file, read by the club system it names; one naming none of them by its exact id is
    read by the registry's default, as every upload was before there was a registry (so a campaign kept with
    `system = "Firestorm"` still loads; a new upload must name its system exactly: `uploadable`)."""
    named = named_system(data)
    system = rulesets.find(named) if isinstance(named, str) else None
    if system is None or not system.can(Capability.CLUB):
        system = rulesets.get(rulesets.DEFAULT)
    if system.parse is None:
        raise BadRequestError(f"scenario: a {system.name} scenario takes several files; it cannot be uploaded")
    return system.parse(data, "uploaded scenario")


def hosted_ids() -> list[str]:
    """The bundled scenarios of every rule system the club server hosts (the registry is asked each time)."""
    return [sid for s in rulesets.systems().values() if s.can(Capability.CLUB) for sid in bundled_ids(system=s.id)]


def storable(data: Any, where: str) -> None:
    """Refuse, naming where, a NUL character in any key or text of parsed data: the names in a scenario end
    up in the log, and PostgreSQL stores no NUL."""
    if isinstance(data, str):
        readable(data, where)
    elif isinstance(data, dict):
        for k, v in data.items():
            readable(k, where)
            storable(v, f"{where}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            storable(v, f"{where}[{i}]")


def uploadable(text: str) -> Any:
    """A scenario file uploaded for a new campaign: valid, and not posing as a bundled scenario (an uploaded
    id never shadows a bundled one, so an export always names the scenario it was played on)."""
    with contextlib.suppress(tomllib.TOMLDecodeError, RecursionError):  # a broken file is described by the parse
        club_system(named_system(tomllib.loads(readable(text, "scenario_toml"))))  # a new upload names its system
    sc = uploaded_scenario(text)  # parsed (and cached) before the stricter checks: these apply to new uploads,
    storable(tomllib.loads(text), "scenario_toml")  # never to campaigns already kept
    if not 0 < len(sc.id) <= MAX_SCENARIO_ID or not all(c.isascii() and (c.isalnum() or c in "_-.") for c in sc.id):
        raise BadRequestError(f"scenario_toml: the scenario id {shown(sc.id)} must be 1 to {MAX_SCENARIO_ID} "
                              "letters, digits, _, - or .")
    for side in sc.sides:
        if not is_side_id(side):
            raise BadRequestError(f"scenario_toml: {shown(side)} is not a side id for this server (1 to "
                                  f"{MAX_SIDE_ID} lower-case letters, digits or _, starting with a letter)")
    if sc.id in bundled_ids(drafts=True):
        raise BadRequestError(f"scenario_toml: its id {sc.id!r} is the id of a bundled scenario; give the uploaded "
                              "scenario an id of its own ([scenario] id in the file)")
    return sc


def scenario_of(row: CampaignRow) -> Any:
    """The campaign's scenario: its uploaded text, or the bundled one."""
    return uploaded_scenario(row.scenario_toml) if row.scenario_toml else load_game(row.scenario_id)


def reader(grant: Grant) -> str | None:
    """The side whose secrets a link may read: its own side's (None for the organiser and a hot-seat link, who
    read as spectators, as the log shows them)."""
    return None if grant.side in ("", ANY_SIDE) else grant.side


def table_of(st: Any) -> Tabletop:
    """The tabletop protocol of a campaign's rule system (asked only where a result is being reported)."""
    table = rulesets.of(st).tabletop
    if table is None:
        raise IllegalActionError(f"{rulesets.of(st).name} has no battles at the table to report")
    return table


def battle_lines(st: Any, last: int = 30) -> list[str]:
    """The game's latest battles in words, newest last, from the rules' typed events (every side may read them)."""
    names: dict[str, str] = st.sc.side_names
    out = []
    for e in st.happened:
        if isinstance(e, BattleResolved):
            att = names.get(e.attacker, e.attacker)
            dfn = " and ".join(names.get(d, d) for d in e.defenders) or "nobody"
            result = f"{att} win" if e.winner == "attacker" else f"{dfn} hold" if e.winner == "defender" \
                else "no winner: the defence holds"
            out.append(f"T{e.turn} {e.place}: {att} against {dfn} ({e.how}): {result}")
    return out[-last:]


def dice_for(row: CampaignRow, position: int) -> random.Random:
    """The dice of the roll at log position `position` in the campaign's current undo epoch (stable across
    processes and restarts, unforeseeable without the campaign's key)."""
    return keyed_rng(row.dice_key, "dice", row.epoch, position)


def bot_stream(row: CampaignRow, position: int) -> random.Random:
    """The random stream of the server's bot deciding at log position `position` (as unforeseeable)."""
    return keyed_rng(row.dice_key, "bot", row.epoch, position)


class Campaigns:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._cache = LRU[tuple[str, int, int], Any](CACHE_SIZE)  # (id, epoch, seq) -> position
        self._drawn = LRU[tuple[str, int, int, str], Any](CACHE_SIZE)  # + side: a page's drawings

    # ----- creating --------------------------------------------------------------------------------------------
    def create(self, scenario_id: str, title: str = "", params: dict[str, Any] | None = None,
               hotseat: bool = False, scenario_toml: str | None = None) -> tuple[str, list[Invitation]]:
        """A new campaign from a bundled scenario, or from an uploaded one-file scenario (`scenario_toml`)
        that `warroom validate` accepts, with its invitation links (shown once).

        `params["bots"]` maps sides to a bot kind (heuristic or random) that plays them; `hotseat` adds
        one general's link that plays every side (people sharing a screen)."""
        readable(title, "title")
        if scenario_toml is not None:
            sc = uploadable(scenario_toml)
        elif scenario_id not in hosted_ids():
            raise BadRequestError(f"scenario: unknown scenario {shown(scenario_id)} (the club server plays the "
                                  f"campaigns {', '.join(hosted_ids())})")
        else:
            sc = load_game(scenario_id)
        params = campaign_params(sc, params or {})
        seats = standard_seats(sc, params) + ([("general", ANY_SIDE)] if hotseat else [])
        return self._start(sc, title or sc.title, params, scenario_toml, seats, rulesets.new_game(sc, params))

    def _start(self, sc: Any, title: str, params: dict[str, Any], scenario_toml: str | None,
               seats: list[Seat], st: Any, waiting: dict[int, PendingReport] | None = None
               ) -> tuple[str, list[Invitation]]:
        """Store a new campaign at position `st` (its whole log is stored), with one link per seat and the
        `waiting` results of an import; nothing is left behind if that fails half-way. The rules' parameters are
        stored with the defaults the game took (its `revision` among them), so that it keeps its rules."""
        params = {**params, **{k: st.params[k] for k in rulesets.of(sc).params if k in st.params}}
        cid = self.store.create_campaign(title[:MAX_TITLE], sc.id, params, scenario_toml)
        try:
            invitations = [self._invite(cid, role, side, seat_label(sc, role, side, params)) for role, side in seats]
            self._settle(self.store.campaign(cid), st, 0, None, None)
            for no, pending in (waiting or {}).items():  # reported on the old server: they wait here as there
                self.store.add_pending(cid, no, pending)
        except BaseException:
            self.store.delete_campaign(cid)
            raise
        return cid, invitations

    # ----- export and import --------------------------------------------------------------------------------
    def export(self, cid: str) -> dict[str, Any]:
        """The campaign as the CLI save format with its seed blanked (every roll so far is in the log, which is
        all a replay needs; the dice key would tell the future dice), plus what a new server needs: the
        title, the seats and an uploaded scenario's file (`portable.export_document`)."""
        row = self.store.campaign(cid)
        sc = scenario_of(row)
        record = GameRecord(sc.id, sc.version, row.params, SEALED, self.store.log(cid))
        live = {(g.role, g.side) for g in self.store.tokens(cid)}
        seats = [seat for seat in seats_in_order(sc, sorted(live), row.params) if seat in live]
        st = self._state(row)
        waiting = [Waiting(no, p.attacker_vp, p.defender_vp, p.by_side, p.disputed)
                   for no, p in sorted(self.store.pendings(cid).items()) if still_valid(st, row.epoch, no, p)]
        return export_document(record, row.title, row.scenario_toml, seats, waiting)

    def import_record(self, saved: Export | GameRecord, title: str = "") -> tuple[str, list[Invitation]]:
        """A new campaign from an export or a terminal save, replayed in full first, with new links (one per
        seat the export names, besides the standard ones) and a new dice key. Refuses a scenario this server
        lacks, another version of it, bad parameters and a log that does not replay, naming the problem."""
        if isinstance(saved, GameRecord):
            saved = Export(saved)
        record = saved.record
        if saved.scenario_toml is not None:
            sc = uploadable(saved.scenario_toml)
            if sc.id != record.scenario:
                raise BadRequestError(f"the save is of scenario {shown(record.scenario)}, but the scenario file it "
                                      f"carries is {sc.id!r}")
        elif record.scenario in hosted_ids():
            sc = load_game(record.scenario)
        else:
            raise BadRequestError(f"scenario: the save is of scenario {shown(record.scenario)}, which this server does "
                                  "not have (an export of a campaign from an uploaded scenario carries its file; this "
                                  "save does not)")
        upgraded = rulesets.of(sc).replay_params(sc, record.scenario_version, record.params)
        if upgraded is None:
            raise BadRequestError(f"scenario_version: the save was made with {sc.id} version "
                                  f"{shown(record.scenario_version)}, but this server has version {sc.version}: "
                                  "replayed on other rules, the campaign could change")
        params = campaign_params(sc, upgraded)  # an older version goes on under the rules it began with
        for i, (role, side) in enumerate(saved.seats):
            check_seat(sc, role, side, f"club.seats[{i}]: ", params)
        try:
            st: Any = replay(record, lambda: rulesets.new_game(sc, dict(params)))
        except SaveError:
            raise
        except Exception as exc:  # a log that trips a rule in a way no legal game can: still the file's fault
            LOG.warning("an imported save failed to replay", exc_info=exc)
            raise SaveError(f"the save cannot be replayed: {type(exc).__name__} after "
                            f"{len(record.log)} log entries") from exc
        questions = asked(st)
        if saved.waiting and rulesets.of(st).tabletop is None:
            raise BadRequestError(f"club.waiting: {rulesets.of(st).name} has no battles at the table, so no "
                                  "result can wait for one")
        vp = table_of(st).vp if saved.waiting else range(0)
        for i, w in enumerate(saved.waiting):
            b = questions.get(w.battle)
            sides = (b.attacker, b.defender) if b is not None and b.attacker is not None else sc.sides
            if w.battle not in questions or w.by_side not in sides or not (
                    w.attacker_vp in vp and w.defender_vp in vp) or any(
                    o.battle == w.battle for o in saved.waiting[:i]):
                raise BadRequestError(f"club.waiting[{i}]: battle {w.battle} does not wait for a result from "
                                      f"{shown(w.by_side)} of {vp.start}-{vp.stop - 1} VP in this campaign (or it "
                                      "has one already)")
        waiting = {w.battle: PendingReport(len(st.log), w.attacker_vp, w.defender_vp, w.by_side, "", w.disputed,
                                           asked_at(st, w.battle), 0) for w in saved.waiting}
        return self._start(sc, title or saved.title or f"{sc.title} (imported)", params, saved.scenario_toml,
                           seats_in_order(sc, list(saved.seats), params), st, waiting)

    def reissue(self, grant: Grant, role: str, side: str) -> Invitation:
        """A new link for a role (after revoking a lost or leaked one): organiser only."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser issues links")
        row = self.store.campaign(grant.campaign_id)
        sc = scenario_of(row)
        check_seat(sc, role, side, params=row.params)
        return self._invite(grant.campaign_id, role, side, seat_label(sc, role, side, row.params), MAX_LIVE_LINKS)

    def links(self, grant: Grant) -> list[dict[str, Any]]:
        """The campaign's live links, without their secrets (only their holders have those): organiser only."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser manages links")
        row = self.store.campaign(grant.campaign_id)
        sc = scenario_of(row)
        return [{"token": g.token_id, "role": g.role, "side": g.side,
                 "label": seat_label(sc, g.role, g.side, row.params), "yours": g.token_id == grant.token_id}
                for g in self.store.tokens(grant.campaign_id)]

    def revoke(self, grant: Grant, token_id: str) -> None:
        """Revoke a link: organiser only, and never the campaign's last organiser link (a campaign without an
        organiser could not be undone, exported or managed again)."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser revokes links")
        self.store.revoke(grant.campaign_id, token_id)

    def _invite(self, cid: str, role: str, side: str, label: str, max_live: int | None = None) -> Invitation:
        tid, secret = self.store.issue_token(cid, role, side, max_live)
        return Invitation(label, role, side, tid, secret)

    def _remembered(self, grant: Grant, key: str | None) -> dict[str, Any] | None:
        """The stored answer to a request key this link sent before (a retry applies nothing twice)."""
        return self.store.remembered(grant.campaign_id, grant.token_id, key) if key is not None else None

    # ----- positions ---------------------------------------------------------------------------------------------
    def state(self, cid: str) -> Any:
        """The campaign's current position (a private copy the caller may change)."""
        row = self.store.campaign(cid)
        return self._state(row).clone()

    def position(self, row: CampaignRow) -> Any:
        """The campaign's position at `row` (shared with the cache: read it, never change it)."""
        return self._state(row)

    def _state(self, row: CampaignRow) -> Any:
        key = (row.id, row.epoch, row.seq)
        st = self._cache.get(key)
        if st is None:
            sc = scenario_of(row)
            record = GameRecord(sc.id, sc.version, row.params, 0, self.store.log(row.id))  # the log holds every roll
            st = replay(record, lambda: rulesets.new_game(sc, dict(row.params)))
            self._cache.put(key, st)
        return st

    @staticmethod
    def viewer(st: Any, grant: Grant) -> str | None:
        """The side whose view the holder of `grant` reads, in a system where each player holds one side: its own
        side; a hot-seat link the side to act's; the organiser a spectator's."""
        who = st.current_player()
        side = who if grant.side == ANY_SIDE else grant.side
        return side if side in st.sc.sides else None

    def seat_view(self, st: Any, grant: Grant) -> dict[str, Any]:
        """What the holder of `grant` sees of `st`: its player's view (a hot-seat link: the player to act's); the
        organiser a spectator's. A system whose player may decide for several sides says what that player sees
        (`RuleSystem.seat_view`)."""
        view_for = rulesets.of(st).seat_view
        if view_for is None:
            own: dict[str, Any] = st.view(self.viewer(st, grant))
            return own
        who = st.current_player()
        if grant.side == ANY_SIDE:
            return view_for(st, seat_of(st.sc, st.params, who) if who in st.sc.sides else None)
        return view_for(st, grant.side or None)

    def view(self, grant: Grant, row: CampaignRow | None = None) -> dict[str, Any]:
        """What the holder may see: a side's view, or the public view for the organiser."""
        row = row or self.store.campaign(grant.campaign_id)
        st = self._state(row)
        out: dict[str, Any] = self.seat_view(st, grant)
        out["seq"] = row.seq
        out["epoch"] = row.epoch  # how many undos: a position is (epoch, seq)
        out["you"] = {"role": grant.role, "side": grant.side}
        out["legal"] = [a.to_str() for a in self.legal_for(st, grant)]
        pendings = self.store.pendings(row.id)  # one query serves the results and their signature
        out["results"] = self._results(st, row.epoch, grant, pendings)
        out["waiting"] = signature(pendings)
        return out

    def page(self, grant: Grant) -> dict[str, Any]:
        """Everything a campaign page shows, from one reading of the campaign: its row, its position (shared:
        read it, never change it), the holder's view and the latest events."""
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        return {"row": row, "state": st, "view": self.view(grant, row), "events": self.events(grant, 60, row),
                "battles": battle_lines(st)}

    def drawing(self, row: CampaignRow, side: str | None, draw: Callable[[Any, str | None], T]) -> T:
        """`draw(position, side)`, drawn once per position and side (a page's maps and charts)."""
        key = (row.id, row.epoch, row.seq, side or "")
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = draw(self._state(row), side)
            self._drawn.put(key, drawn)
        return cast(T, drawn)

    def position_after_turn(self, row: CampaignRow, turn: int) -> Any:
        """The campaign's position at the end of `turn` (a Firestorm campaign: the log replayed up to the first
        entry of the next turn), cached with the page drawings. Raises `BadRequestError` unless the turn is over."""
        st = self._state(row)
        last = len(st.sc.turns) if st.is_terminal() else st.turn - 1
        if not 1 <= turn <= last:
            raise BadRequestError(f"turn: {turn} is not a finished turn of this campaign (turns 1 to {last} are)"
                                  if last else "turn: no turn of this campaign is finished yet")
        key = (row.id, row.epoch, -turn, "turn-end")  # negative: never a position's sequence number
        cached = self._drawn.get(key)
        if cached is None:
            log = self.store.log(row.id)
            end = next((i for i, e in enumerate(log) if e.turn > turn), len(log))
            sc = st.sc
            cached = replay(GameRecord(sc.id, sc.version, row.params, 0, log[:end]),
                            lambda: rulesets.new_game(sc, dict(row.params)))
            self._drawn.put(key, cached)
        return cached

    def drawing_after_turn(self, row: CampaignRow, turn: int, st: Any) -> list[tuple[str, str]]:
        """The land maps at the end of `turn` as every side may see them (`position_after_turn`), drawn once."""
        key = (row.id, row.epoch, -turn, "turn-end-maps")
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = [(m, svg) for m, svg in map_svgs(st, None) if st.sc.maps[m]["kind"] == "land"]
            self._drawn.put(key, drawn)
        return cast(list[tuple[str, str]], drawn)

    def log(self, grant: Grant) -> list[LogEntry]:
        """The action log as the holder may read it: the rules say what is secret (`RuleSystem.log_for`). The
        organiser and a hot-seat link (everyone at one screen) read it as a spectator."""
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        return rulesets.of(st).log_for(st, reader(grant), 0)

    def events(self, grant: Grant, last: int = 200, row: CampaignRow | None = None) -> list[str]:
        """The campaign's event log as text (what every side may read: dice and results as they fell)."""
        st = self._state(row or self.store.campaign(grant.campaign_id))
        return [f"T{turn} {text}" for turn, text in st.events[-last:]]

    def legal_for(self, st: Any, grant: Grant) -> list[Any]:
        """The actions the holder of `grant` may take now (none unless it is their decision)."""
        who = st.current_player()
        if who in (CHANCE, REPORT, TERMINAL) or grant.role != "general" or grant.side not in (
                seat_of(st.sc, st.params, who), ANY_SIDE):
            return []
        return list(st.legal_actions())

    # ----- acting ----------------------------------------------------------------------------------------------------
    def act(self, grant: Grant, text: str, key: str | None = None, expected_seq: int | None = None,
            expected_epoch: int | None = None) -> dict[str, Any]:
        """Apply one action typed as text for the holder of `grant`, then roll any dice that follow.
        `expected_seq` and `expected_epoch` are the position the sender saw (`view()["seq"]` and `["epoch"]`):
        any other is a conflict.

        Returns {"seq": new sequence number, "applied": [log entries as text]}. Raises `ForbiddenError`,
        `BadRequestError`, `IllegalActionError` or the store's `ConflictError`."""
        cid = grant.campaign_id
        if (done := self._remembered(grant, key)) is not None:
            return done
        row = self.store.campaign(cid)
        if (expected_seq is not None and expected_seq != row.seq) or (
                expected_epoch is not None and expected_epoch != row.epoch):
            raise ConflictError("the campaign changed since you looked: reload and try again")
        st = self._state(row).clone()
        who = st.current_player()
        if who == TERMINAL:
            raise IllegalActionError("the campaign is over")
        try:
            action = st.parse_action(text)
        except (IllegalActionError, UnknownNameError) as exc:
            raise BadRequestError(str(exc)) from exc
        reported = table.reported(action) if (table := rulesets.of(st).tabletop) is not None else None
        if reported is not None:
            return self.report(grant, *reported, key, expected_seq, expected_epoch)
        self._authorise(st, grant, who)
        st.apply_action(action, who)
        return self._settle(row, st, row.seq, grant.token_id, key, reader=reader(grant))

    # ----- undo ---------------------------------------------------------------------------------------------------
    def undo_preview(self, grant: Grant, count: int) -> dict[str, Any]:
        """What undoing the last `count` decisions of people would remove: those decisions and everything
        after the first of them (dice, the server bot's moves), and every waiting tabletop result that would
        no longer answer a question of the campaign (`discarded`); the others stay (`kept`). Pass the
        returned `seq` and `waiting` to `undo` to confirm exactly this."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser may undo actions")
        row = self.store.campaign(grant.campaign_id)
        log = self.store.log(row.id)
        bots = row.params.get("bots", {})  # the server's bot moves go with the decision they answered
        sc = scenario_of(row)
        decisions = [i for i, e in enumerate(log)  # a bot's decisions for another side of its player's go too
                     if not e.automatic and seat_of(sc, row.params, e.side) not in bots]
        if count < 1 or count > len(decisions):
            raise BadRequestError(f"count: there are {len(decisions)} decisions to undo; asked for {count}")
        keep = decisions[-count]
        back = replay(GameRecord(sc.id, sc.version, row.params, 0, log[:keep]),
                      lambda: rulesets.new_game(sc, dict(row.params)))
        pendings = self.store.pendings(row.id)
        st = self._state(row)
        kept: list[dict[str, Any]] = []
        discarded: list[dict[str, Any]] = []
        stale: list[int] = []  # left over from a question already answered: shown nowhere, dropped with the undo
        waiting_now, waiting_back = asked(st), asked(back)
        for no, pending in sorted(pendings.items()):
            if no not in waiting_now or not still_valid(st, row.epoch, no, pending):
                stale.append(no)
                continue
            # the same battle's trip to the table (or, for 0, no decision since) in the position undone to:
            survives = (no in waiting_back and (pending.seq <= keep if not no else pending.asked_at is not None)
                        and still_valid(back, row.epoch, no, pending))  # a result kept from before issue 11 names
            # no trip to the table: an undo cannot tell which battle of its number it answers, so it goes
            entry = {"battle": no, "title": waiting_now[no].title, **pending_view(st, pending)}
            (kept if survives else discarded).append(entry)
        return {"seq": row.seq, "epoch": row.epoch, "keep": keep, "waiting": signature(pendings),
                "undone": undone_words(back, log[keep:], rulesets.of(st).log_for(st, None, keep)),  # as the
                # organiser's log shows them, each decision in words
                "discarded": discarded, "kept": kept, "stale": stale}

    def undo(self, grant: Grant, count: int, seq: int, waiting: str | None = None, epoch: int | None = None
             ) -> dict[str, Any]:
        """Undo after the organiser saw `undo_preview` at position `seq` (of undo epoch `epoch`) with waiting
        results `waiting`: the log is cut back, the campaign replays without those actions, and the waiting
        results the preview listed as discarded go. Raises `ConflictError` if anyone acted, undid, or a result
        came in, since."""
        preview = self.undo_preview(grant, count)
        if preview["seq"] != seq or (waiting is not None and preview["waiting"] != waiting) or (
                epoch is not None and preview["epoch"] != epoch):
            raise ConflictError("the campaign changed since the preview: look again before undoing")
        self.store.truncate(grant.campaign_id, seq, preview["epoch"], preview["keep"],
                            [d["battle"] for d in preview["discarded"]] + preview["stale"], preview["waiting"])
        return {"seq": preview["keep"], "undone": preview["undone"], "discarded": preview["discarded"],
                "kept": preview["kept"]}

    # ----- tabletop results: reported by one side, confirmed by the other, or decided by the organiser -----
    # Each battle has at most one reported result waiting (`results.py` says which are still valid).
    def results(self, grant: Grant) -> list[dict[str, Any]]:
        """The tabletop results the campaign waits for, with what the holder may do about each."""
        row = self.store.campaign(grant.campaign_id)
        return self._results(self._state(row), row.epoch, grant, self.store.pendings(row.id))

    def _results(self, st: Any, epoch: int, grant: Grant, pendings: dict[int, PendingReport]
                 ) -> list[dict[str, Any]]:
        out = []
        for no, b in asked(st).items():
            sides = (b.attacker, b.defender) if b.attacker is not None else st.sc.sides
            pending = pendings.get(no)
            if pending is not None and not still_valid(st, epoch, no, pending):
                pending = None
            plays = grant.role in ("general", "commander") and (grant.side in sides or grant.side == ANY_SIDE)
            out.append({
                "battle": no, "title": b.title,
                "attacker": b.attacker, "defender": b.defender, "from": b.frm, "to": b.to,
                "pending": pending_view(st, pending) if pending is not None else None,
                "can_report": plays and pending is None,
                "can_confirm": plays and pending is not None and not pending.disputed and pending.by_side != grant.side
                and grant.side != ANY_SIDE,
                "can_decide": grant.role == "organiser",
            })
        return out

    def report(self, grant: Grant, battle: int, attacker_vp: int, defender_vp: int, key: str | None = None,
               seen: int | None = None, seen_epoch: int | None = None) -> dict[str, Any]:
        """One side's commanders (or general) report a tabletop result; the other side confirms it. A hot-seat
        link reports for both sides, so its result is applied at once."""
        if (done := self._remembered(grant, key)) is not None:
            return done
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row).clone()
        action = table_of(st).report(battle, attacker_vp, defender_vp)
        self._authorise_result(grant, battle, asked(st))
        check_seen(st, row.seq, row.epoch, battle, seen, seen_epoch)
        st.clone().apply_action(action, REPORT)  # a well-formed result for a battle that waits for one
        if grant.side == ANY_SIDE:  # hot-seat: both sides are at the table, nobody needs to confirm
            return self._apply_result(row, battle, attacker_vp, defender_vp, grant, key)
        stale = self.store.pendings(row.id).get(battle)
        if stale is not None and not still_valid(st, row.epoch, battle, stale):
            self.store.clear_pending(row.id, battle, stale)
        pending = PendingReport(row.seq, attacker_vp, defender_vp, grant.side, grant.token_id, False,
                                asked_at(st, battle), row.epoch)
        response = {"seq": row.seq, "battle": battle, "pending": pending_view(st, pending)}
        self.store.add_pending(row.id, battle, pending, key, response)
        return response

    def _open_result(self, grant: Grant, battle: int, seen: Seen | None
                     ) -> tuple[Any, CampaignRow, PendingReport]:
        """The waiting result of `battle` that the holder of `grant` answers; with `seen` (the result and undo
        epoch the sender was shown), a conflict unless it is still that one."""
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        table_of(st)  # a system without battles at the table says so
        pending = self.store.pendings(row.id).get(battle)
        waiting = asked(st)
        if pending is None or battle not in waiting or not still_valid(st, row.epoch, battle, pending):
            raise ConflictError(f"no reported result of {battle_label(battle)} is waiting to be confirmed (someone "
                                "may have just confirmed it: reload)")
        self._authorise_result(grant, battle, waiting)
        if seen is not None and (
                (seen.epoch is not None and seen.epoch != row.epoch)
                or (seen.attacker_vp is not None and seen.attacker_vp != pending.attacker_vp)
                or (seen.defender_vp is not None and seen.defender_vp != pending.defender_vp)):
            raise ConflictError(f"the result of {battle_label(battle)} waiting now is not the one you saw: reload")
        return st, row, pending

    def confirm(self, grant: Grant, battle: int = 0, seen: Seen | None = None) -> dict[str, Any]:
        """The other side agrees with the reported result: it is applied."""
        _, row, pending = self._open_result(grant, battle, seen)
        if grant.side == pending.by_side:
            raise ForbiddenError("the other side confirms a result, not the side that reported it")
        return self._apply_result(row, battle, pending.attacker_vp, pending.defender_vp, grant)

    def dispute(self, grant: Grant, battle: int = 0, seen: Seen | None = None) -> dict[str, Any]:
        """The other side disagrees: the organiser decides."""
        st, _, pending = self._open_result(grant, battle, seen)
        if grant.side == pending.by_side:
            raise ForbiddenError("the other side disputes a result, not the side that reported it")
        if not self.store.dispute_pending(grant.campaign_id, battle, pending):
            raise ConflictError(f"the reported result of {battle_label(battle)} is gone (just confirmed?): reload")
        return {"seq": self.store.campaign(grant.campaign_id).seq, "battle": battle,
                "pending": pending_view(st, replace(pending, disputed=True))}

    def decide(self, grant: Grant, attacker_vp: int, defender_vp: int, battle: int = 0, seen: int | None = None,
               seen_epoch: int | None = None, key: str | None = None) -> dict[str, Any]:
        """The organiser settles a battle's result (a dispute, or a result nobody reported); `seen` is the
        position the organiser looked at (a conflict if the question has changed since); a retry with the
        same `key` applies nothing twice."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser decides a tabletop result")
        if (done := self._remembered(grant, key)) is not None:
            return done
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        if battle not in asked(st):
            raise IllegalActionError(f"{battle_label(battle)} is not waiting for a tabletop result"
                                     if battle else "no battle is waiting for a tabletop result")
        check_seen(st, row.seq, row.epoch, battle, seen, seen_epoch)
        return self._apply_result(row, battle, attacker_vp, defender_vp, grant, key)

    def _apply_result(self, seen: CampaignRow, battle: int, attacker_vp: int, defender_vp: int, grant: Grant,
                      key: str | None = None) -> dict[str, Any]:
        """Apply a result and everything that follows, on the position `seen` that the request was checked
        against. A battle at the table takes its result at any decision, so when someone else acted first it
        is tried again on the newer position, provided it is still the same battle's trip to the table and
        nobody undid anything; the battle being fought now is not (the question it answered may be gone): that
        is a conflict. Its waiting result goes with the append."""
        cid = seen.id
        row = seen
        identity = asked_at(self._state(seen), battle)
        for attempt in range(RESULT_RETRIES):
            if attempt:
                row = self.store.campaign(cid)
                if row.epoch != seen.epoch:
                    raise ConflictError("the organiser undid decisions just now: reload")
            st = self._state(row).clone()
            if battle not in asked(st) or asked_at(st, battle) != identity:
                raise ConflictError(f"{battle_label(battle)} already has its result (someone applied it just now): "
                                    "reload")
            st.apply_action(table_of(st).report(battle, attacker_vp, defender_vp), REPORT)
            try:
                return self._settle(row, st, row.seq, grant.token_id, key, answered=battle, reader=reader(grant))
            except ConflictError:
                if battle:
                    continue
                raise
        raise ConflictError(f"the campaign is changing too fast to apply the result of {battle_label(battle)}: "
                            "try again")

    @staticmethod
    def _authorise_result(grant: Grant, battle: int, waiting: dict[int, Question]) -> None:
        if grant.role == "organiser":
            raise ForbiddenError("the organiser decides disputed results; the commanders report them")
        if grant.role not in ("general", "commander"):
            raise ForbiddenError("only the commanders (or generals) of the battle report its result")
        if battle not in waiting:
            numbers = ", ".join(str(n) for n in waiting if n) or "none"
            raise IllegalActionError(f"{battle_label(battle)} is not waiting for a tabletop result "
                                     f"(battles at the table waiting: {numbers})" if battle
                                     else "no tabletop result is asked for now")
        b = waiting[battle]
        if b.attacker is not None and grant.side not in (b.attacker, b.defender, ANY_SIDE):
            raise ForbiddenError(f"only the two sides of {battle_label(battle)} report its result")

    def _authorise(self, st: Any, grant: Grant, who: str) -> None:
        sc = st.sc
        if grant.role == "organiser":
            raise ForbiddenError("the organiser does not play a side: use a general's link")
        if who in (CHANCE, REPORT):
            raise IllegalActionError("no decision of a general is asked for now: the campaign waits for "
                                     "tabletop results")
        if grant.role != "general":
            raise ForbiddenError(f"commanders report tabletop results; the {sc.side_names.get(who, who)} general "
                                 "decides this")
        if grant.side not in (seat_of(sc, st.params, who), ANY_SIDE):
            raise ForbiddenError(f"it is {whose(sc, who)} decision, not {whose(sc, grant.side)}")

    def _settle(self, row: CampaignRow, st: Any, old_seq: int, token_id: str | None, key: str | None,
                answered: int | None = None, reader: str | None = None) -> dict[str, Any]:
        """Roll the dice of every chance node the position reaches (and play the server's bots), then store
        what happened after position `old_seq` of campaign `row` (with `answered`, the battle whose result
        this applies). A request key that a twin of this request stored meanwhile returns its response. The
        response lists what happened as `reader` (the side that asked; None: a spectator) may read it."""
        cid = row.id
        bots: dict[str, str] = st.params.get("bots", {})
        while True:
            who = st.current_player()
            if who == CHANCE:
                st.apply_action(st.chance_dice().sample(dice_for(row, len(st.log))))
            elif (player := seat_of(st.sc, st.params, who)) in bots:  # the server's bot plays its side at
                bot = make_bot(bots[player], bot_stream(row, len(st.log)))  # once, from its own keyed stream
                st.apply_action(bot.choose(st, st.legal_actions()), who)
            else:
                break
        entries = st.log[old_seq:]
        shown_to = rulesets.of(st).log_for(st, reader, old_seq)  # the server's bot may have played in secret
        response = {"seq": old_seq + len(entries), "applied": [e.action for e in shown_to]}
        try:
            self.store.append(cid, old_seq, entries, token_id, key, response, epoch=row.epoch, answered=answered)
        except ConflictError:
            done = self.store.remembered(cid, token_id or "", key) if key is not None else None
            if done is not None:  # the same request, sent twice at once: the first one's answer
                return done
            raise
        self._cache.put((cid, row.epoch, old_seq + len(entries)), st)
        return response
