"""The event store (docs/server-plan.md 3): campaigns as append-only action logs.

Appends are transactions guarded by the campaign's sequence number (optimistic concurrency): of two
requests made against the same position one wins and the other gets `ConflictError`. A request key
seen before returns the stored response and applies nothing twice. Invitation tokens are stored only as
SHA-256 hashes of their secrets.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import and_, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from warroom.core.errors import shown
from warroom.core.log import LogEntry
from warroom.server import db

ROLES = ("organiser", "general", "commander")
DICE_KEY_BYTES = 32
"""A campaign's dice key: 256 bits from `secrets` (issue 11 asks for at least 128)."""


class ConflictError(Exception):
    """Someone else acted first: the position changed since the client looked at it."""


class NotFoundError(Exception):
    """An unknown campaign or token."""


@dataclass(frozen=True, slots=True)
class CampaignRow:
    id: str
    title: str
    scenario_id: str
    scenario_toml: str | None
    params: dict[str, Any]
    dice_key: bytes  # the secret behind every roll and bot move: never leaves the service
    seq: int
    epoch: int = 0
    advisor: bool = True  # the organiser's switches: the sides may ask the plan advisor,
    forecast: bool = True  # and the page shows the forecast

    def __repr__(self) -> str:  # a row printed into a log line or a traceback never shows the key
        return f"CampaignRow(id={self.id!r}, scenario_id={self.scenario_id!r}, seq={self.seq}, epoch={self.epoch})"


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token lets its holder do: a role in one campaign, for one side (none for the organiser)."""

    token_id: str
    campaign_id: str
    role: str
    side: str


@dataclass(frozen=True, slots=True)
class PendingReport:
    """A tabletop result one side reported, waiting for the other side (or the organiser)."""

    seq: int  # the position it was reported at
    attacker_vp: int
    defender_vp: int
    by_side: str
    token_id: str
    disputed: bool = False
    asked_at: int | None = None  # the position its battle went to the table at (None: the battle fought then)
    epoch: int = 0  # the campaign's undo epoch it was reported in (kept results move on with an undo)


def signature(pendings: dict[int, PendingReport]) -> str:
    """A short text that changes whenever a result is reported, disputed, applied or dropped: pages that
    follow the campaign reload on it as on a new position (a report appends nothing to the log)."""
    return ";".join(f"{no}:{p.seq}:{p.by_side}:{int(p.disputed)}" for no, p in sorted(pendings.items()))


def battle_label(battle: int) -> str:
    """'battle 2' for a battle at the table; 'this battle' for the one being fought now (0)."""
    return f"battle {battle}" if battle else "this battle"


def is_id(text: str) -> bool:
    """Whether `text` could be a campaign's or a link's id (hex, as `secrets.token_hex` writes them)."""
    return 0 < len(text) <= 32 and all(c in "0123456789abcdef" for c in text)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class EventStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ----- campaigns -------------------------------------------------------------------------------------
    def create_campaign(self, title: str, scenario_id: str, params: dict[str, Any],
                        scenario_toml: str | None = None) -> str:
        """A new campaign with an empty log and a fresh dice key of `DICE_KEY_BYTES` random bytes."""
        cid = secrets.token_hex(8)
        with self.engine.begin() as conn:
            conn.execute(insert(db.campaign).values(
                id=cid, title=title, scenario_id=scenario_id, scenario_toml=scenario_toml,
                params_json=json.dumps(params, sort_keys=True), dice_key=secrets.token_hex(DICE_KEY_BYTES), seq=0))
        return cid

    def delete_campaign(self, cid: str) -> None:
        """Remove a campaign and everything that belongs to it (a creation that failed half-way)."""
        with self.engine.begin() as conn:
            for table in (db.request, db.pending_result, db.event, db.token):
                conn.execute(delete(table).where(table.c.campaign_id == cid))
            conn.execute(delete(db.campaign).where(db.campaign.c.id == cid))

    def campaign(self, cid: str) -> CampaignRow:
        if not is_id(cid):  # never sent to the database: PostgreSQL refuses a NUL, or a key longer than its column
            raise NotFoundError(f"unknown campaign {shown(cid)}")
        with self.engine.connect() as conn:
            row = conn.execute(select(db.campaign).where(db.campaign.c.id == cid)).mappings().first()
        if row is None:
            raise NotFoundError(f"unknown campaign {shown(cid)}")
        return CampaignRow(row["id"], row["title"], row["scenario_id"], row["scenario_toml"],
                           json.loads(row["params_json"]), bytes.fromhex(row["dice_key"]), row["seq"], row["epoch"],
                           bool(row["advisor"]), bool(row["forecast"]))

    def switch(self, cid: str, advisor: bool | None = None, forecast: bool | None = None) -> None:
        """Set the organiser's switches (None: leave as it is)."""
        values = {k: v for k, v in (("advisor", advisor), ("forecast", forecast)) if v is not None}
        if values:
            with self.engine.begin() as conn:
                conn.execute(update(db.campaign).where(db.campaign.c.id == cid).values(**values))

    def campaign_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(db.campaign.c.id).order_by(db.campaign.c.created))]

    def log(self, cid: str) -> list[LogEntry]:
        """The campaign's actions in order."""
        self.campaign(cid)
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.event).where(db.event.c.campaign_id == cid)
                                .order_by(db.event.c.seq)).mappings().all()
        return [LogEntry(r["action"], r["side"], r["turn"], r["phase"], r["chance"]) for r in rows]

    # ----- appending ---------------------------------------------------------------------------------------
    def remembered(self, cid: str, token_id: str, key: str) -> dict[str, Any] | None:
        """The stored response of a request key that the link `token_id` already applied, or None. Keys are
        scoped to their link: another link's key, however it was learnt, finds nothing."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.request.c.response_json).where(and_(
                db.request.c.campaign_id == cid, db.request.c.token_id == token_id, db.request.c.key == key))).first()
        return json.loads(row[0]) if row is not None else None

    def append(self, cid: str, expected_seq: int, entries: Sequence[LogEntry], token_id: str | None,
               key: str | None = None, response: dict[str, Any] | None = None, epoch: int | None = None,
               answered: int | None = None) -> int:
        """Append `entries` after position `expected_seq` (of undo epoch `epoch`, when given) in one
        transaction; returns the new sequence number.

        Raises `ConflictError` if the log has moved on since `expected_seq` (an undo and new actions may
        bring it back to the same length: the epoch tells those apart), or if `key` was used already by the
        same link (the caller checks `remembered` first; this closes the race). `answered`: the battle whose
        result the entries apply; its waiting result goes in the same transaction (one reported later, for
        a question the entries raise, stays)."""
        new_seq = expected_seq + len(entries)
        guard = and_(db.campaign.c.id == cid, db.campaign.c.seq == expected_seq)
        if epoch is not None:
            guard = and_(guard, db.campaign.c.epoch == epoch)
        with self.engine.begin() as conn:
            moved = conn.execute(update(db.campaign).where(guard).values(seq=new_seq))
            if moved.rowcount != 1:
                self._raise_moved(conn, cid)
            if answered is not None:
                conn.execute(delete(db.pending_result).where(and_(
                    db.pending_result.c.campaign_id == cid, db.pending_result.c.battle == answered,
                    db.pending_result.c.seq <= expected_seq)))
            if entries:
                conn.execute(insert(db.event), [
                    {"campaign_id": cid, "seq": expected_seq + i + 1, "action": e.action, "side": e.side,
                     "turn": e.turn, "phase": e.phase, "chance": e.automatic, "token_id": token_id}
                    for i, e in enumerate(entries)])
            if key is not None:
                scope = token_id or ""
                if conn.execute(select(db.request.c.key).where(and_(
                        db.request.c.campaign_id == cid, db.request.c.token_id == scope,
                        db.request.c.key == key))).first() is not None:
                    raise ConflictError("this request was already applied")
                conn.execute(insert(db.request).values(campaign_id=cid, token_id=scope, key=key, seq_after=new_seq,
                                                       response_json=json.dumps(response or {})))
        return new_seq

    @staticmethod
    def _lock(conn: Connection, cid: str) -> None:
        """Take the campaign's row lock for the rest of the transaction (a no-op update: PostgreSQL locks the
        row, SQLite the database); `NotFoundError` for an unknown campaign."""
        if not is_id(cid) or conn.execute(
                update(db.campaign).where(db.campaign.c.id == cid).values(seq=db.campaign.c.seq)).rowcount != 1:
            raise NotFoundError(f"unknown campaign {shown(cid)}")

    @staticmethod
    def _raise_moved(conn: Connection, cid: str) -> NoReturn:
        """The guarded update found no row: an unknown campaign, or one that moved on. Asked on the
        transaction's own connection (a second one could wait for the write lock this one holds)."""
        if conn.execute(select(db.campaign.c.id).where(db.campaign.c.id == cid)).first() is None:
            raise NotFoundError(f"unknown campaign {shown(cid)}")
        raise ConflictError("the campaign changed since you looked: reload and try again")

    def truncate(self, cid: str, expected_seq: int, expected_epoch: int, keep: int, drop: Sequence[int] = (),
                 waiting: str | None = None) -> None:
        """Drop every event after `keep` (undo) of the log at `expected_seq` in `expected_epoch` (guarded like
        `append`), and start a new undo epoch. Of the waiting results, those of the battles in `drop` go; the
        others move on to the new epoch, as if reported at `keep` at the latest. `waiting` is the results'
        signature the caller decided on: `ConflictError` if it changed. Stored answers to request keys of
        the actions undone go too, so that a retry acts afresh."""
        with self.engine.begin() as conn:
            moved = conn.execute(update(db.campaign).where(and_(
                db.campaign.c.id == cid, db.campaign.c.seq == expected_seq, db.campaign.c.epoch == expected_epoch
            )).values(seq=keep, epoch=db.campaign.c.epoch + 1))
            if moved.rowcount != 1:
                self._raise_moved(conn, cid)
            if waiting is not None and signature(self._pendings(conn, cid)) != waiting:
                raise ConflictError("a tabletop result came in since the preview: look again before undoing")
            conn.execute(delete(db.event).where(and_(db.event.c.campaign_id == cid, db.event.c.seq > keep)))
            conn.execute(delete(db.request).where(and_(db.request.c.campaign_id == cid,
                                                       db.request.c.seq_after > keep)))  # a retry acts afresh
            pending = db.pending_result.c
            if drop:
                conn.execute(delete(db.pending_result).where(and_(pending.campaign_id == cid,
                                                                  pending.battle.in_(drop))))
            conn.execute(update(db.pending_result).where(pending.campaign_id == cid).values(
                epoch=select(db.campaign.c.epoch).where(db.campaign.c.id == cid).scalar_subquery(),  # the new one
                seq=case((pending.seq > keep, keep), else_=pending.seq)))

    # ----- tabletop results awaiting confirmation, one per battle -------------------------------------------------
    def pendings(self, cid: str) -> dict[int, PendingReport]:
        """Reported results waiting for the other side (or the organiser), by battle number (0: the battle
        being fought now)."""
        with self.engine.connect() as conn:
            return self._pendings(conn, cid)

    @staticmethod
    def _pendings(conn: Connection, cid: str) -> dict[int, PendingReport]:
        rows = conn.execute(select(db.pending_result).where(db.pending_result.c.campaign_id == cid)).mappings().all()
        return {r["battle"]: PendingReport(r["seq"], r["attacker_vp"], r["defender_vp"], r["by_side"], r["token_id"],
                                           r["disputed"], r["asked_at"], r["epoch"]) for r in rows}

    def position(self, cid: str) -> tuple[int, int, str]:
        """The campaign's position as a page following it names it: (seq, epoch, the waiting results' signature),
        over one connection and without the rest of its row (an event stream asks twice a second). Its two reads
        may straddle a change; the next ask reports it, as a page compares with what it shows."""
        if not is_id(cid):
            raise NotFoundError(f"unknown campaign {shown(cid)}")
        with self.engine.connect() as conn:
            row = conn.execute(select(db.campaign.c.seq, db.campaign.c.epoch).where(db.campaign.c.id == cid)).first()
            if row is None:
                raise NotFoundError(f"unknown campaign {shown(cid)}")
            return int(row[0]), int(row[1]), signature(self._pendings(conn, cid))

    def add_pending(self, cid: str, battle: int, report: PendingReport, key: str | None = None,
                    response: dict[str, Any] | None = None) -> None:
        """Record a reported result; `ConflictError` if the battle already has one (of two reports sent at
        once, one is kept), or if an undo came between the report's check and now (`report.epoch`). With a
        request `key`, `response` is what a retry of it is answered."""
        try:
            with self.engine.begin() as conn:
                self._lock(conn, cid)  # an undo deciding which results to keep sees this one, or it waits
                epoch = conn.execute(select(db.campaign.c.epoch).where(db.campaign.c.id == cid)).scalar_one()
                if epoch != report.epoch:
                    raise ConflictError("the organiser undid decisions just now: reload and report again")
                conn.execute(insert(db.pending_result).values(
                    campaign_id=cid, battle=battle, seq=report.seq, attacker_vp=report.attacker_vp,
                    defender_vp=report.defender_vp, by_side=report.by_side, token_id=report.token_id,
                    disputed=report.disputed, asked_at=report.asked_at, epoch=report.epoch))
                if key is not None:
                    conn.execute(insert(db.request).values(campaign_id=cid, token_id=report.token_id, key=key,
                                                           seq_after=report.seq, response_json=json.dumps(response)))
        except IntegrityError as exc:
            self.campaign(cid)
            raise ConflictError(f"a result of {battle_label(battle)} was already reported: the other side confirms "
                                "or disputes it") from exc

    def dispute_pending(self, cid: str, battle: int, only: PendingReport) -> bool:
        """Mark the reported result `only` as disputed; False if it is gone (applied, or replaced, meanwhile)."""
        pending = db.pending_result.c
        with self.engine.begin() as conn:
            done = conn.execute(update(db.pending_result).where(and_(
                pending.campaign_id == cid, pending.battle == battle, pending.seq == only.seq,
                pending.token_id == only.token_id, pending.epoch == only.epoch)).values(disputed=True))
        return done.rowcount == 1

    def clear_pending(self, cid: str, battle: int, only: PendingReport) -> None:
        """Drop the battle's waiting result `only` (one that no longer answers anything), and nothing that
        someone reported in its place meanwhile."""
        pending = db.pending_result.c
        with self.engine.begin() as conn:
            conn.execute(delete(db.pending_result).where(and_(
                pending.campaign_id == cid, pending.battle == battle, pending.seq == only.seq,
                pending.token_id == only.token_id, pending.epoch == only.epoch)))

    # ----- invitation tokens ------------------------------------------------------------------------------
    def issue_token(self, cid: str, role: str, side: str = "", max_live: int | None = None) -> tuple[str, str]:
        """A new invitation: (token id, secret). Only the secret's hash is stored. With `max_live`,
        `ConflictError` if the campaign has that many live links already (counted under its row lock)."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r} (known: {', '.join(ROLES)})")
        self.campaign(cid)
        tid = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            if max_live is not None:
                self._lock(conn, cid)
                live = conn.execute(select(func.count()).select_from(db.token).where(and_(
                    db.token.c.campaign_id == cid, db.token.c.revoked.is_(False)))).scalar_one()
                if live >= max_live:
                    raise ConflictError(f"this campaign has {max_live} live links, the most it may: revoke some "
                                        "first")
            conn.execute(insert(db.token).values(id=tid, campaign_id=cid, role=role, side=side,
                                                 hash=hash_secret(secret), revoked=False))
        return tid, secret

    def grant(self, secret: str) -> Grant:
        """The grant of a live token; `NotFoundError` for an unknown or revoked one."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.token).where(db.token.c.hash == hash_secret(secret))).mappings().first()
        if row is None or row["revoked"]:
            raise NotFoundError("this link is not valid (unknown or revoked)")
        return Grant(row["id"], row["campaign_id"], row["role"], row["side"])

    def revoke(self, cid: str, token_id: str) -> None:
        """Revoke a live link; `NotFoundError` for an unknown or already revoked one, `ConflictError` for the
        campaign's last organiser link. The campaign's row is locked first, so two organisers revoking each
        other's links at once cannot leave the campaign with none."""
        with self.engine.begin() as conn:
            self._lock(conn, cid)
            if not is_id(token_id):
                raise NotFoundError(f"no live link {shown(token_id)} in this campaign")
            row = conn.execute(select(db.token.c.role).where(and_(
                db.token.c.id == token_id, db.token.c.campaign_id == cid, db.token.c.revoked.is_(False)))).first()
            if row is None:
                raise NotFoundError(f"no live link {shown(token_id)} in this campaign")
            if row[0] == "organiser" and conn.execute(select(func.count()).select_from(db.token).where(and_(
                    db.token.c.campaign_id == cid, db.token.c.role == "organiser", db.token.c.revoked.is_(False),
                    db.token.c.id != token_id))).scalar_one() == 0:
                raise ConflictError("this is the campaign's only organiser link: issue another organiser link "
                                    "first, then revoke this one")
            conn.execute(update(db.token).where(db.token.c.id == token_id).values(revoked=True))

    def is_live(self, token_id: str) -> bool:
        """Whether the link `token_id` still works (not revoked)."""
        with self.engine.connect() as conn:
            return conn.execute(select(db.token.c.id).where(and_(
                db.token.c.id == token_id, db.token.c.revoked.is_(False)))).first() is not None

    def tokens(self, cid: str) -> list[Grant]:
        """Every live token of a campaign (without secrets)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.token).where(and_(db.token.c.campaign_id == cid,
                                                            db.token.c.revoked.is_(False)))
                                .order_by(db.token.c.created, db.token.c.id)).mappings().all()
        return [Grant(r["id"], r["campaign_id"], r["role"], r["side"]) for r in rows]
