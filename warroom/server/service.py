"""Campaigns as positions (docs/server-plan.md): the only layer the web app calls.

A position is rebuilt by replaying the stored log (cached per process by campaign and sequence number).
Every request is checked against the holder's grant and `legal_actions()`; the server rolls every die,
from `random.Random(f"{seed}/{n}")` for the roll at log position `n`, so no dice state is kept and a
restart changes nothing. The seed never leaves this module.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
import tomllib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from warroom.ai import make_bot
from warroom.core.errors import IllegalActionError, ScenarioError, UnknownNameError
from warroom.core.game import replay
from warroom.core.log import GameRecord, LogEntry
from warroom.core.state import CHANCE, REPORT, TERMINAL
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import Report
from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.model import FirestormScenario, parse_scenario
from warroom.scenarios import bundled_ids, load_scenario
from warroom.server.store import (
    CampaignRow,
    ConflictError,
    EventStore,
    Grant,
    PendingReport,
    battle_label,
    signature,
)

CACHE_SIZE = 256
RESULT_RETRIES = 20
"""How often a battle's result is tried again on a newer position when others act at the same moment."""
BOT_KINDS = ("heuristic", "random")
ANY_SIDE = "*"
"""The side of a hot-seat general's link: it plays every side."""


K = TypeVar("K")
V = TypeVar("V")


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


class ForbiddenError(Exception):
    """The holder's role or side may not do this (HTTP 403)."""


class BadRequestError(Exception):
    """The request cannot be read: an unknown action word, area or counter (HTTP 422)."""


@dataclass(frozen=True, slots=True)
class Invitation:
    label: str  # e.g. "organiser", "allies general", "axis commanders"
    role: str
    side: str
    token_id: str
    secret: str


_UPLOADED: dict[str, FirestormScenario] = {}


def uploaded_scenario(text: str) -> FirestormScenario:
    """A scenario from one uploaded TOML file, validated like `warroom validate` (cached by content)."""
    key = hashlib.sha256(text.encode()).hexdigest()
    got = _UPLOADED.get(key)
    if got is None:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BadRequestError(f"the scenario is not valid TOML: {exc}") from exc
        try:
            got = parse_scenario(data, "uploaded scenario")
        except ScenarioError as exc:
            raise BadRequestError(f"the scenario has {len(exc.problems)} problem(s): " + "; ".join(exc.problems[:20])
                                  ) from exc
        _UPLOADED[key] = got
    return got


def scenario_of(row: CampaignRow) -> FirestormScenario:
    """The campaign's scenario: its uploaded text, or the bundled one."""
    return uploaded_scenario(row.scenario_toml) if row.scenario_toml else load_scenario(row.scenario_id)


def redact_unrolled(entries: list[LogEntry], in_allocation: bool, side: str) -> list[LogEntry]:
    """The log as `side` may read it: while a fight's dice are being allocated, the other side's
    allocations since the last roll stay hidden (they are declared before the dice, in secret).

    >>> log = [LogEntry("roll 3", "chance", 1, "x", True), LogEntry("allocate rodney 6", "axis", 1, "x")]
    >>> [e.action for e in redact_unrolled(log, True, "allies")]
    ['roll 3', '(hidden until the roll)']
    """
    if not in_allocation:
        return entries
    last_roll = max((i for i, e in enumerate(entries) if e.automatic), default=-1)
    return [e._replace(action="(hidden until the roll)", redacted=True)
            if i > last_roll and e.side != side and e.action.startswith("allocate ") else e
            for i, e in enumerate(entries)]


def roll_seed(seed: int, position: int) -> random.Random:
    """The dice of the roll at log position `position` (stable across processes and restarts)."""
    return random.Random(f"{seed}/{position}")


class Campaigns:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._cache = LRU[tuple[str, int, int], FirestormState](CACHE_SIZE)  # (id, epoch, seq) -> position
        self._drawn = LRU[tuple[str, int, int, str], tuple[list[tuple[str, str]], str]](CACHE_SIZE)  # + side

    # ----- creating --------------------------------------------------------------------------------------------
    def create(self, scenario_id: str, title: str = "", params: dict[str, Any] | None = None,
               seed: int | None = None, hotseat: bool = False, scenario_toml: str | None = None
               ) -> tuple[str, list[Invitation]]:
        """A new campaign from a bundled scenario, or from an uploaded one-file scenario (`scenario_toml`)
        that `warroom validate` accepts, with its invitation links (shown once).

        `params["bots"]` maps sides to a bot kind (heuristic or random) that plays them; `hotseat` adds
        one general's link that plays every side (people sharing a screen)."""
        if scenario_toml is not None:
            sc = uploaded_scenario(scenario_toml)
            scenario_id = sc.id
        elif scenario_id not in bundled_ids(system="firestorm"):
            raise BadRequestError(f"unknown scenario {scenario_id!r} (the club server plays the Firestorm campaigns: "
                                  f"{', '.join(bundled_ids(system='firestorm'))})")
        else:
            sc = load_scenario(scenario_id)
        params = dict(params or {})
        mode = params.setdefault("mode", "gw")
        if mode not in ("gw", "tabletop", "mixed"):
            raise BadRequestError(f"unknown resolution mode {mode!r} (gw, tabletop or mixed)")
        bots = params.get("bots", {})
        if not isinstance(bots, dict) or any(s not in sc.sides or k not in BOT_KINDS for s, k in bots.items()):
            raise BadRequestError(f"bots must map sides ({', '.join(sc.sides)}) to a bot kind "
                                  f"({', '.join(BOT_KINDS)}), got {bots!r}")
        seed = secrets.randbelow(2**31) if seed is None else seed
        cid = self.store.create_campaign(title or sc.title, scenario_id, params, seed, scenario_toml)
        invitations = self._invite_all(cid, sc.sides, sc.side_names)
        if hotseat:
            invitations.append(self._invite(cid, "general", ANY_SIDE, "every side (hot-seat)"))
        st = new_game(sc, params)
        self._settle(self.store.campaign(cid), st, 0, None, None)
        return cid, invitations

    def _invite_all(self, cid: str, sides: tuple[str, ...], names: dict[str, str]) -> list[Invitation]:
        invitations = [self._invite(cid, "organiser", "", "organiser")]
        for side in sides:
            invitations.append(self._invite(cid, "general", side, f"{names[side]} general"))
            invitations.append(self._invite(cid, "commander", side, f"{names[side]} commanders"))
        return invitations

    # ----- export and import --------------------------------------------------------------------------------
    def export(self, cid: str) -> dict[str, Any]:
        """The campaign in the CLI save format. Its seed is 0: every roll so far is in the log, which is
        all a replay needs, and the real seed would tell the future dice (issue 4: no response holds them)."""
        row = self.store.campaign(cid)
        sc = scenario_of(row)
        record = GameRecord(sc.id, sc.version, row.params, 0, self.store.log(cid))
        out: dict[str, Any] = json.loads(record.to_json())
        return out

    def import_record(self, record: GameRecord, title: str = "") -> tuple[str, list[Invitation]]:
        """A new campaign from a save (CLI or export): replayed in full first; new links and a new seed."""
        if record.scenario not in bundled_ids(system="firestorm"):
            raise BadRequestError(f"the save is of scenario {record.scenario!r}, which this server does not have")
        sc = load_scenario(record.scenario)
        params = dict(record.params)
        st = replay(record, lambda: new_game(sc, dict(params)))
        assert isinstance(st, FirestormState)
        cid = self.store.create_campaign(title or f"{sc.title} (imported)", sc.id, params, secrets.randbelow(2**31))
        invitations = self._invite_all(cid, sc.sides, sc.side_names)
        self._settle(self.store.campaign(cid), st, 0, None, None)
        return cid, invitations

    def reissue(self, grant: Grant, role: str, side: str) -> Invitation:
        """A new link for a role (after revoking a lost or leaked one): organiser only."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser issues links")
        sc = scenario_of(self.store.campaign(grant.campaign_id))
        if role == "organiser" and side:
            raise BadRequestError("the organiser's link has no side")
        if role != "organiser" and side not in (*sc.sides, ANY_SIDE):
            raise BadRequestError(f"unknown side {side!r} (sides: {', '.join(sc.sides)})")
        if role not in ("organiser", "general", "commander"):
            raise BadRequestError(f"unknown role {role!r} (organiser, general or commander)")
        label = role if role == "organiser" else f"{sc.side_names.get(side, 'every side')} {role}"
        return self._invite(grant.campaign_id, role, side, label)

    def _invite(self, cid: str, role: str, side: str, label: str) -> Invitation:
        tid, secret = self.store.issue_token(cid, role, side)
        return Invitation(label, role, side, tid, secret)

    # ----- positions ---------------------------------------------------------------------------------------------
    def state(self, cid: str) -> FirestormState:
        """The campaign's current position (a private copy the caller may change)."""
        row = self.store.campaign(cid)
        return self._state(row).clone()

    def _state(self, row: CampaignRow) -> FirestormState:
        key = (row.id, row.epoch, row.seq)
        st = self._cache.get(key)
        if st is None:
            sc = scenario_of(row)
            record = GameRecord(sc.id, sc.version, row.params, row.seed, self.store.log(row.id))
            rebuilt = replay(record, lambda: new_game(sc, dict(row.params)))
            assert isinstance(rebuilt, FirestormState)
            st = rebuilt
            self._cache.put(key, st)
        return st

    def view(self, grant: Grant, row: CampaignRow | None = None) -> dict[str, Any]:
        """What the holder may see: a side's view, or the public view for the organiser."""
        row = row or self.store.campaign(grant.campaign_id)
        st = self._state(row)
        side = st.current_player() if grant.side == ANY_SIDE else grant.side
        out = st.view(side if side in st.sc.sides else None)
        out["seq"] = row.seq
        out["you"] = {"role": grant.role, "side": grant.side}
        out["legal"] = [a.to_str() for a in self._legal_for(st, grant)]
        pendings = self.store.pendings(row.id)  # one query serves the results and their signature
        out["results"] = self._results(st, grant, pendings)
        out["waiting"] = signature(pendings)
        return out

    def page(self, grant: Grant) -> dict[str, Any]:
        """Everything the campaign page shows, from one reading of the campaign: its row, the holder's view,
        the maps and chart, and the latest events."""
        row = self.store.campaign(grant.campaign_id)
        return {"row": row, "view": self.view(grant, row), "drawings": self.drawings(grant, row),
                "events": self.events(grant, 60, row)}

    def drawings(self, grant: Grant, row: CampaignRow | None = None) -> tuple[list[tuple[str, str]], str]:
        """The holder's maps as SVG (one per map) and the VP-over-time chart (docs/server-plan.md 6), drawn
        once per position and side."""
        from warroom.server.svg import map_svgs, vp_chart_svg, vp_history

        row = row or self.store.campaign(grant.campaign_id)
        key = (row.id, row.epoch, row.seq, grant.side)
        drawn = self._drawn.get(key)
        if drawn is None:
            st = self._state(row)
            drawn = map_svgs(st, grant.side or None), vp_chart_svg(vp_history(st), st.sc.side_names)
            self._drawn.put(key, drawn)
        return drawn

    def log(self, grant: Grant) -> list[LogEntry]:
        """The action log as the holder may read it (`redact_unrolled`)."""
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        return redact_unrolled(self.store.log(row.id), st.step == "nv_alloc", grant.side)

    def events(self, grant: Grant, last: int = 200, row: CampaignRow | None = None) -> list[str]:
        """The campaign's event log as text (what every side may read: dice and results as they fell)."""
        st = self._state(row or self.store.campaign(grant.campaign_id))
        return [f"T{turn} {text}" for turn, text in st.events[-last:]]

    def _legal_for(self, st: FirestormState, grant: Grant) -> list[Any]:
        who = st.current_player()
        if who in (CHANCE, REPORT, TERMINAL) or grant.role != "general" or grant.side not in (who, ANY_SIDE):
            return []
        return list(st.legal_actions())

    # ----- acting ----------------------------------------------------------------------------------------------------
    def act(self, grant: Grant, text: str, key: str | None = None, expected_seq: int | None = None
            ) -> dict[str, Any]:
        """Apply one action typed as text for the holder of `grant`, then roll any dice that follow.

        Returns {"seq": new sequence number, "applied": [log entries as text]}. Raises `ForbiddenError`,
        `BadRequestError`, `IllegalActionError` or the store's `ConflictError`."""
        cid = grant.campaign_id
        if key is not None:
            done = self.store.remembered(cid, key)
            if done is not None:
                return done
        row = self.store.campaign(cid)
        if expected_seq is not None and expected_seq != row.seq:
            raise ConflictError("the campaign changed since you looked: reload and try again")
        st = self._state(row).clone()
        who = st.current_player()
        if who == TERMINAL:
            raise IllegalActionError("the campaign is over")
        try:
            action = st.parse_action(text)
        except (IllegalActionError, UnknownNameError) as exc:
            raise BadRequestError(str(exc)) from exc
        if isinstance(action, Report):
            return self.report(grant, action.battle, action.attacker_vp, action.defender_vp, key, expected_seq)
        self._authorise(st, grant, who)
        st.apply_action(action, who)
        return self._settle(row, st, row.seq, grant.token_id, key)

    # ----- undo ---------------------------------------------------------------------------------------------------
    def undo_preview(self, grant: Grant, count: int) -> dict[str, Any]:
        """What undoing the last `count` decisions of people would remove: those decisions and everything
        after the first of them (dice, the server bot's moves). Pass the returned `seq` to `undo` to
        confirm exactly this."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser may undo actions")
        row = self.store.campaign(grant.campaign_id)
        log = self.store.log(row.id)
        bots = row.params.get("bots", {})  # the server's bot moves go with the decision they answered
        decisions = [i for i, e in enumerate(log) if not e.automatic and e.side not in bots]
        if count < 1 or count > len(decisions):
            raise BadRequestError(f"there are {len(decisions)} decisions to undo; asked for {count}")
        keep = decisions[-count]
        return {"seq": row.seq, "keep": keep,
                "undone": [{"action": e.action, "side": e.side, "turn": e.turn, "dice": e.automatic}
                           for e in log[keep:]]}

    def undo(self, grant: Grant, count: int, seq: int) -> dict[str, Any]:
        """Undo after the organiser saw `undo_preview` at position `seq`: the log is cut back and the
        campaign replays without those actions. Raises `ConflictError` if anyone acted since."""
        preview = self.undo_preview(grant, count)
        if preview["seq"] != seq:
            raise ConflictError("the campaign changed since the preview: look again before undoing")
        self.store.truncate(grant.campaign_id, seq, preview["keep"])
        return {"seq": preview["keep"], "undone": preview["undone"]}

    # ----- tabletop results: reported by one side, confirmed by the other, or decided by the organiser -----
    # A result belongs to a battle at the table (its number, battles in parallel) or to the battle being
    # fought now (0). Each battle has at most one reported result waiting.
    def results(self, grant: Grant) -> list[dict[str, Any]]:
        """The tabletop results the campaign waits for, with what the holder may do about each."""
        row = self.store.campaign(grant.campaign_id)
        return self._results(self._state(row), grant, self.store.pendings(row.id))

    def _results(self, st: FirestormState, grant: Grant, pendings: dict[int, PendingReport]
                 ) -> list[dict[str, Any]]:
        sc = st.sc
        asked = self._asked(st)
        out = []
        for no, b in asked.items():
            sides = (b.attacker, b.defender) if b is not None else sc.sides
            pending = pendings.get(no)
            if pending is not None and not self._still_valid(st, no, pending):
                pending = None
            plays = grant.role in ("general", "commander") and (grant.side in sides or grant.side == ANY_SIDE)
            title = f"{sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}" \
                if b is not None else "the tabletop roll asked for now"
            out.append({
                "battle": no, "title": (f"Battle {no}: " if no else "") + title,
                "attacker": b.attacker if b is not None else None, "defender": b.defender if b is not None else None,
                "from": b.frm if b is not None else None, "to": b.to if b is not None else None,
                "pending": self._pending_view(st, pending) if pending is not None else None,
                "can_report": plays and pending is None,
                "can_confirm": plays and pending is not None and not pending.disputed and pending.by_side != grant.side
                and grant.side != ANY_SIDE,
                "can_decide": grant.role == "organiser",
            })
        return out

    @staticmethod
    def _asked(st: FirestormState) -> dict[int, Battle | None]:
        """Battle number -> battle (None for a D-Day roll) of every result asked for now."""
        asked: dict[int, Battle | None] = {}
        if st.current_player() == REPORT and st.step != "await_reports":
            asked[0] = st.battle
        for b in st.parked:
            if not b.winner:
                asked[b.no] = b
        return asked

    @staticmethod
    def _still_valid(st: FirestormState, no: int, pending: PendingReport) -> bool:
        """A waiting result still answers its question: its battle is still at the table, or (0) the flow has
        not moved on since (only results of other battles came in)."""
        if no:  # numbers restart each turn: the result must be younger than this battle's trip to the table
            return any(b.no == no and not b.winner and b.parked_at <= pending.seq for b in st.parked)
        return st.current_player() == REPORT and all(e.side == REPORT and e.action.count(" ") == 3
                                                     for e in st.log[pending.seq:])

    def _check_seen(self, st: FirestormState, row: CampaignRow, battle: int, seen: int | None) -> None:
        """A result sent with the position its sender saw (`seen`) must still answer the same question: for
        the battle being fought now nothing may have happened since but results of other battles; for a
        battle at the table, it must have gone to the table by then (numbers restart every turn)."""
        if seen is None:
            return
        if battle:
            if any(b.no == battle and b.parked_at <= seen for b in st.parked):
                return
        elif seen <= row.seq and all(e.side == REPORT and e.action.count(" ") == 3 for e in st.log[seen:]):
            return
        raise ConflictError(f"{battle_label(battle)} is not the battle you saw: the campaign moved on; reload")

    def report(self, grant: Grant, battle: int, attacker_vp: int, defender_vp: int, key: str | None = None,
               seen: int | None = None) -> dict[str, Any]:
        """One side's commanders (or general) report a tabletop result; the other side confirms it. A hot-seat
        link reports for both sides, so its result is applied at once."""
        if key is not None:
            done = self.store.remembered(grant.campaign_id, key)
            if done is not None:
                return done
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row).clone()
        action = Report(attacker_vp, defender_vp, battle)
        asked = self._asked(st)
        self._authorise_result(st, grant, battle, asked)
        self._check_seen(st, row, battle, seen)
        st.clone().apply_action(action, REPORT)  # a well-formed result for a battle that waits for one
        if grant.side == ANY_SIDE:  # hot-seat: both sides are at the table, nobody needs to confirm
            return self._apply_result(row, battle, attacker_vp, defender_vp, grant.token_id, key)
        stale = self.store.pendings(row.id).get(battle)
        if stale is not None and not self._still_valid(st, battle, stale):
            self.store.clear_pending(row.id, battle)
        pending = PendingReport(row.seq, attacker_vp, defender_vp, grant.side, grant.token_id)
        self.store.add_pending(row.id, battle, pending)
        return {"seq": row.seq, "battle": battle, "pending": self._pending_view(st, pending)}

    def _pending_view(self, st: FirestormState, p: PendingReport) -> dict[str, Any]:
        return {"attacker_vp": p.attacker_vp, "defender_vp": p.defender_vp, "by": p.by_side, "disputed": p.disputed,
                "waiting_for": "the organiser" if p.disputed else st.sc.side_names.get(st.sc.other(p.by_side), "")}

    def _open_result(self, grant: Grant, battle: int) -> tuple[FirestormState, CampaignRow, PendingReport]:
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        pending = self.store.pendings(row.id).get(battle)
        asked = self._asked(st)
        if pending is None or battle not in asked or not self._still_valid(st, battle, pending):
            raise ConflictError(f"no reported result of {battle_label(battle)} is waiting to be confirmed (someone "
                                "may have just confirmed it: reload)")
        self._authorise_result(st, grant, battle, asked)
        return st, row, pending

    def confirm(self, grant: Grant, battle: int = 0) -> dict[str, Any]:
        """The other side agrees with the reported result: it is applied."""
        _, row, pending = self._open_result(grant, battle)
        if grant.side == pending.by_side:
            raise ForbiddenError("the other side confirms a result, not the side that reported it")
        return self._apply_result(row, battle, pending.attacker_vp, pending.defender_vp, grant.token_id)

    def dispute(self, grant: Grant, battle: int = 0) -> dict[str, Any]:
        """The other side disagrees: the organiser decides."""
        st, _, pending = self._open_result(grant, battle)
        if grant.side == pending.by_side:
            raise ForbiddenError("the other side disputes a result, not the side that reported it")
        if not self.store.dispute_pending(grant.campaign_id, battle):
            raise ConflictError(f"the reported result of {battle_label(battle)} is gone (just confirmed?): reload")
        disputed = PendingReport(pending.seq, pending.attacker_vp, pending.defender_vp, pending.by_side,
                                 pending.token_id, True)
        return {"seq": self.store.campaign(grant.campaign_id).seq, "battle": battle,
                "pending": self._pending_view(st, disputed)}

    def decide(self, grant: Grant, attacker_vp: int, defender_vp: int, battle: int = 0, seen: int | None = None
               ) -> dict[str, Any]:
        """The organiser settles a battle's result (a dispute, or a result nobody reported); `seen` is the
        position the organiser looked at (a conflict if the question has changed since)."""
        if grant.role != "organiser":
            raise ForbiddenError("only the organiser decides a tabletop result")
        row = self.store.campaign(grant.campaign_id)
        st = self._state(row)
        if battle not in self._asked(st):
            raise IllegalActionError(f"{battle_label(battle)} is not waiting for a tabletop result"
                                     if battle else "no battle is waiting for a tabletop result")
        self._check_seen(st, row, battle, seen)
        return self._apply_result(row, battle, attacker_vp, defender_vp, grant.token_id)

    def _apply_result(self, seen: CampaignRow, battle: int, attacker_vp: int, defender_vp: int, token_id: str,
                      key: str | None = None) -> dict[str, Any]:
        """Apply a result and everything that follows, on the position `seen` that the request was checked
        against. A battle at the table takes its result at any decision, so when someone else acted first it
        is tried again on the newer position; the battle being fought now is not (the question it answered
        may be gone): that is a conflict."""
        cid = seen.id
        row = seen
        for attempt in range(RESULT_RETRIES):
            if attempt:
                row = self.store.campaign(cid)
            st = self._state(row).clone()
            if battle not in self._asked(st):
                raise ConflictError(f"{battle_label(battle)} already has its result (someone applied it just now): "
                                    "reload")
            st.apply_action(Report(attacker_vp, defender_vp, battle), REPORT)
            try:
                response = self._settle(row, st, row.seq, token_id, key)
            except ConflictError:
                if battle:
                    continue
                raise
            self.store.clear_pending(cid, battle)
            return response
        raise ConflictError(f"the campaign is changing too fast to apply the result of {battle_label(battle)}: "
                            "try again")

    def _authorise_result(self, st: FirestormState, grant: Grant, battle: int, asked: dict[int, Battle | None]
                          ) -> None:
        if grant.role == "organiser":
            raise ForbiddenError("the organiser decides disputed results; the commanders report them")
        if grant.role not in ("general", "commander"):
            raise ForbiddenError("only the commanders (or generals) of the battle report its result")
        if battle not in asked:
            waiting = ", ".join(str(n) for n in asked if n) or "none"
            raise IllegalActionError(f"{battle_label(battle)} is not waiting for a tabletop result "
                                     f"(battles at the table waiting: {waiting})" if battle
                                     else "no tabletop result is asked for now")
        b = asked[battle]
        if b is not None and grant.side not in (b.attacker, b.defender, ANY_SIDE):
            raise ForbiddenError(f"only the two sides of {battle_label(battle)} report its result")

    def _authorise(self, st: FirestormState, grant: Grant, who: str) -> None:
        sc = st.sc
        if grant.role == "organiser":
            raise ForbiddenError("the organiser does not play a side: use a general's link")
        if who in (CHANCE, REPORT):
            raise IllegalActionError("no decision of a general is asked for now: the campaign waits for "
                                     "tabletop results")
        if grant.role != "general":
            raise ForbiddenError(f"commanders report tabletop results; the {sc.side_names.get(who, who)} general "
                                 "decides this")
        if grant.side not in (who, ANY_SIDE):
            raise ForbiddenError(f"it is the {sc.side_names.get(who, who)}' decision, not the "
                                 f"{sc.side_names.get(grant.side, grant.side)}'")

    def _settle(self, row: CampaignRow, st: FirestormState, old_seq: int, token_id: str | None, key: str | None
                ) -> dict[str, Any]:
        """Roll the dice of every chance node the position reaches (and play the server's bots), then store
        what happened after position `old_seq` of campaign `row`."""
        cid = row.id
        bots: dict[str, str] = st.params.get("bots", {})
        while True:
            who = st.current_player()
            if who == CHANCE:
                st.apply_action(st.chance_dice().sample(roll_seed(row.seed, len(st.log))))
            elif who in bots:  # the server's bot plays its side at once, from its own seeded stream
                bot = make_bot(bots[who], random.Random(f"{row.seed}/bot/{len(st.log)}"))
                st.apply_action(bot.choose(st, st.legal_actions()), who)
            else:
                break
        entries = st.log[old_seq:]
        response = {"seq": old_seq + len(entries), "applied": [e.action for e in entries]}
        self.store.append(cid, old_seq, entries, token_id, key, response)
        self._cache.put((cid, row.epoch, old_seq + len(entries)), st)
        return response
