"""The server's database under concurrent requests: SQLite's settings, its one write lock, and a busy
database answered with 503 rather than 500 (found by bench/server_load.py)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc
from sqlalchemy import update

from warroom.core.log import LogEntry
from warroom.server import db
from warroom.server.app import create_app
from warroom.server.db import SQLITE_BUSY_SECONDS, engine_for, migrate
from warroom.server.store import ConflictError, EventStore


@pytest.fixture()
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'warroom.db'}"
    migrate(url)
    return url


def test_sqlite_connections_use_a_write_ahead_log_and_wait_for_the_write_lock(sqlite_url: str) -> None:
    with engine_for(sqlite_url).connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == int(SQLITE_BUSY_SECONDS * 1000)
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_writers_waiting_for_the_sqlite_write_lock_do_not_starve_its_holder(sqlite_url: str) -> None:
    """Writers queued for the write lock each hold a connection; the holder of the lock may need one more
    (a conflicting append reads the campaign). With a bounded pool that was a deadlock, broken only by
    "database is locked" errors or the pool's timeout."""
    store = EventStore(engine_for(sqlite_url))
    cid = store.create_campaign("t", "caen", {})
    outcomes: list[str] = []

    def late_writer() -> None:  # it looked at position 0, which the lock's holder is about to change
        try:
            store.append(cid, 0, [LogEntry("pass", "allies", 1, "planning")], None)
            outcomes.append("applied")
        except ConflictError:
            outcomes.append("conflict")
        except Exception as exc:
            outcomes.append(type(exc).__name__)

    writers = [threading.Thread(target=late_writer) for _ in range(30)]  # more than a default pool (5 + 10)
    start = time.perf_counter()
    with store.engine.begin() as conn:
        conn.execute(update(db.campaign).where(db.campaign.c.id == cid).values(seq=1))  # takes the write lock
        for w in writers:
            w.start()
        time.sleep(0.3)  # the writers are waiting for the lock now, each with a connection
        assert store.campaign(cid).seq == 0  # a second connection for the holder, at once
        assert time.perf_counter() - start < 2
    for w in writers:
        w.join(timeout=4 * SQLITE_BUSY_SECONDS)
    assert outcomes == ["conflict"] * len(writers)
    assert time.perf_counter() - start < SQLITE_BUSY_SECONDS


def test_a_busy_database_is_a_503_and_a_broken_one_a_500(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(sqlite_url)
    c = TestClient(app, raise_server_exceptions=False)
    body = c.post("/api/campaigns", json={"scenario": "caen", "mode": "gw"}).json()
    path = f"/api/campaigns/{body['id']}/view"
    auth = {"Authorization": f"Bearer {body['links'][0]['secret']}"}
    store = app.state.campaigns.store

    def locked(_cid: str) -> None:
        raise sa_exc.OperationalError("UPDATE campaign", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(store, "campaign", locked)
    r = c.get(path, headers=auth)
    assert r.status_code == 503 and r.headers["Retry-After"] == "1" and "busy" in r.json()["detail"]

    def no_connection(_cid: str) -> None:
        raise sa_exc.TimeoutError("QueuePool limit reached")

    monkeypatch.setattr(store, "campaign", no_connection)
    assert c.get(path, headers=auth).status_code == 503

    def broken(_cid: str) -> None:
        raise sa_exc.OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: campaign"))

    monkeypatch.setattr(store, "campaign", broken)
    assert c.get(path, headers=auth).status_code == 500
