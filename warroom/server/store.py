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

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from warroom.core.log import LogEntry
from warroom.server import db

ROLES = ("organiser", "general", "commander")


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
    seed: int
    seq: int
    epoch: int = 0


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

    seq: int
    attacker_vp: int
    defender_vp: int
    by_side: str
    token_id: str
    disputed: bool = False


def signature(pendings: dict[int, PendingReport]) -> str:
    """A short text that changes whenever a result is reported, disputed, applied or dropped: pages that
    follow the campaign reload on it as on a new position (a report appends nothing to the log)."""
    return ";".join(f"{no}:{p.seq}:{p.by_side}:{int(p.disputed)}" for no, p in sorted(pendings.items()))


def battle_label(battle: int) -> str:
    """'battle 2' for a battle at the table; 'this battle' for the one being fought now (0)."""
    return f"battle {battle}" if battle else "this battle"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class EventStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ----- campaigns -------------------------------------------------------------------------------------
    def create_campaign(self, title: str, scenario_id: str, params: dict[str, Any], seed: int,
                        scenario_toml: str | None = None) -> str:
        cid = secrets.token_hex(8)
        with self.engine.begin() as conn:
            conn.execute(insert(db.campaign).values(
                id=cid, title=title, scenario_id=scenario_id, scenario_toml=scenario_toml,
                params_json=json.dumps(params, sort_keys=True), seed=seed, seq=0))
        return cid

    def campaign(self, cid: str) -> CampaignRow:
        with self.engine.connect() as conn:
            row = conn.execute(select(db.campaign).where(db.campaign.c.id == cid)).mappings().first()
        if row is None:
            raise NotFoundError(f"unknown campaign {cid!r}")
        return CampaignRow(row["id"], row["title"], row["scenario_id"], row["scenario_toml"],
                           json.loads(row["params_json"]), row["seed"], row["seq"], row["epoch"])

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
    def remembered(self, cid: str, key: str) -> dict[str, Any] | None:
        """The stored response of a request key already applied, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.request.c.response_json).where(
                and_(db.request.c.campaign_id == cid, db.request.c.key == key))).first()
        return json.loads(row[0]) if row is not None else None

    def append(self, cid: str, expected_seq: int, entries: Sequence[LogEntry], token_id: str | None,
               key: str | None = None, response: dict[str, Any] | None = None) -> int:
        """Append `entries` after position `expected_seq` in one transaction; returns the new sequence number.

        Raises `ConflictError` if the log has moved on since `expected_seq`, or if `key` was used already
        (the caller checks `remembered` first; this closes the race)."""
        new_seq = expected_seq + len(entries)
        with self.engine.begin() as conn:
            moved = conn.execute(update(db.campaign).where(
                and_(db.campaign.c.id == cid, db.campaign.c.seq == expected_seq)).values(seq=new_seq))
            if moved.rowcount != 1:
                self._raise_moved(conn, cid)
            if entries:
                conn.execute(insert(db.event), [
                    {"campaign_id": cid, "seq": expected_seq + i + 1, "action": e.action, "side": e.side,
                     "turn": e.turn, "phase": e.phase, "chance": e.automatic, "token_id": token_id}
                    for i, e in enumerate(entries)])
            if key is not None:
                if conn.execute(select(db.request.c.key).where(
                        and_(db.request.c.campaign_id == cid, db.request.c.key == key))).first() is not None:
                    raise ConflictError(f"request {key!r} was already applied")
                conn.execute(insert(db.request).values(campaign_id=cid, key=key, seq_after=new_seq,
                                                       response_json=json.dumps(response or {})))
        return new_seq

    @staticmethod
    def _raise_moved(conn: Connection, cid: str) -> NoReturn:
        """The guarded update found no row: an unknown campaign, or one that moved on. Asked on the
        transaction's own connection (a second one could wait for the write lock this one holds)."""
        if conn.execute(select(db.campaign.c.id).where(db.campaign.c.id == cid)).first() is None:
            raise NotFoundError(f"unknown campaign {cid!r}")
        raise ConflictError("the campaign changed since you looked: reload and try again")

    def truncate(self, cid: str, expected_seq: int, keep: int) -> None:
        """Drop every event after `keep` (undo), guarded like `append`."""
        with self.engine.begin() as conn:
            moved = conn.execute(update(db.campaign).where(
                and_(db.campaign.c.id == cid, db.campaign.c.seq == expected_seq)).values(
                    seq=keep, epoch=db.campaign.c.epoch + 1))
            if moved.rowcount != 1:
                self._raise_moved(conn, cid)
            conn.execute(delete(db.event).where(and_(db.event.c.campaign_id == cid, db.event.c.seq > keep)))
            conn.execute(delete(db.pending_result).where(db.pending_result.c.campaign_id == cid))

    # ----- tabletop results awaiting confirmation, one per battle -------------------------------------------------
    def pendings(self, cid: str) -> dict[int, PendingReport]:
        """Reported results waiting for the other side (or the organiser), by battle number (0: the battle
        being fought now)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.pending_result).where(db.pending_result.c.campaign_id == cid)
                                ).mappings().all()
        return {r["battle"]: PendingReport(r["seq"], r["attacker_vp"], r["defender_vp"], r["by_side"], r["token_id"],
                                           r["disputed"]) for r in rows}

    def pending_signature(self, cid: str) -> str:
        return signature(self.pendings(cid))

    def add_pending(self, cid: str, battle: int, report: PendingReport) -> None:
        """Record a reported result; `ConflictError` if the battle already has one (of two reports sent at
        once, one is kept)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.pending_result).values(
                    campaign_id=cid, battle=battle, seq=report.seq, attacker_vp=report.attacker_vp,
                    defender_vp=report.defender_vp, by_side=report.by_side, token_id=report.token_id,
                    disputed=report.disputed))
        except IntegrityError as exc:
            self.campaign(cid)
            raise ConflictError(f"a result of {battle_label(battle)} was already reported: the other side confirms "
                                "or disputes it") from exc

    def dispute_pending(self, cid: str, battle: int) -> bool:
        """Mark a reported result as disputed; False if it is gone (applied or withdrawn meanwhile)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(db.pending_result).where(and_(
                db.pending_result.c.campaign_id == cid, db.pending_result.c.battle == battle)).values(disputed=True))
        return done.rowcount == 1

    def clear_pending(self, cid: str, battle: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(db.pending_result).where(and_(db.pending_result.c.campaign_id == cid,
                                                              db.pending_result.c.battle == battle)))

    # ----- invitation tokens ------------------------------------------------------------------------------
    def issue_token(self, cid: str, role: str, side: str = "") -> tuple[str, str]:
        """A new invitation: (token id, secret). Only the secret's hash is stored."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r} (known: {', '.join(ROLES)})")
        self.campaign(cid)
        tid = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
            done = conn.execute(update(db.token).where(
                and_(db.token.c.id == token_id, db.token.c.campaign_id == cid)).values(revoked=True))
        if done.rowcount != 1:
            raise NotFoundError(f"unknown token {token_id!r} in campaign {cid!r}")

    def tokens(self, cid: str) -> list[Grant]:
        """Every live token of a campaign (without secrets)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.token).where(and_(db.token.c.campaign_id == cid,
                                                            db.token.c.revoked.is_(False)))).mappings().all()
        return [Grant(r["id"], r["campaign_id"], r["role"], r["side"]) for r in rows]
