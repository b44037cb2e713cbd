"""The server's tables (SQLAlchemy Core) and their migrations (Alembic, run from code).

A campaign is its scenario, parameters and dice key plus an append-only log of actions (`event`); everything
else is rebuilt by replaying the log. Schema changes are Alembic revisions in `migrations/versions`.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    func,
    true,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import QueuePool

metadata = MetaData()

campaign = Table(
    "campaign", metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("scenario_id", String(100), nullable=False),
    Column("scenario_toml", Text, nullable=True),  # an uploaded scenario, kept with the campaign
    Column("params_json", Text, nullable=False),
    Column("dice_key", String(64), nullable=False),  # 256 secret bits (hex) behind every roll: never leaves the server
    Column("seq", Integer, nullable=False),  # how many events the log holds
    Column("epoch", Integer, nullable=False, server_default="0"),  # bumped by each undo
    Column("advisor", Boolean, nullable=False, server_default=true()),  # the sides may ask the plan advisor
    Column("forecast", Boolean, nullable=False, server_default=true()),  # the page shows the forecast
    Column("created", DateTime(timezone=True), nullable=False, server_default=func.now()),
)

event = Table(
    "event", metadata,
    Column("campaign_id", String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ... in log order
    Column("action", Text, nullable=False),
    Column("side", String(40), nullable=False),
    Column("turn", Integer, nullable=False),
    Column("phase", String(40), nullable=False),
    Column("chance", Boolean, nullable=False),
    Column("token_id", String(32), nullable=True),  # who asked for it (None: the server's dice)
    Column("created", DateTime(timezone=True), nullable=False, server_default=func.now()),
)

request = Table(
    "request", metadata,
    Column("campaign_id", String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
    Column("token_id", String(32), primary_key=True),  # the link that sent the key: keys never cross links
    Column("key", String(100), primary_key=True),  # the client's idempotency key
    Column("seq_after", Integer, nullable=False),
    Column("response_json", Text, nullable=False),
)

token = Table(
    "token", metadata,
    Column("id", String(32), primary_key=True),
    Column("campaign_id", String(32), ForeignKey("campaign.id", ondelete="CASCADE"), nullable=False),
    Column("role", String(20), nullable=False),  # organiser | general | commander
    Column("side", String(40), nullable=False),  # '' for the organiser
    Column("hash", String(64), nullable=False, unique=True),  # SHA-256 of the secret; the secret is never stored
    Column("revoked", Boolean, nullable=False, default=False),
    Column("created", DateTime(timezone=True), nullable=False, server_default=func.now()),
)

pending_result = Table(
    "pending_result", metadata,
    Column("campaign_id", String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
    Column("battle", Integer, primary_key=True),  # a battle at the table, or 0: the battle being fought now
    Column("seq", Integer, nullable=False),  # the position the result was reported at
    Column("attacker_vp", Integer, nullable=False),
    Column("defender_vp", Integer, nullable=False),
    Column("by_side", String(40), nullable=False),
    Column("token_id", String(32), nullable=False),
    Column("disputed", Boolean, nullable=False),
    Column("asked_at", Integer, nullable=True),  # when its battle went to the table: which battle N it answers
    Column("epoch", Integer, nullable=False, server_default="0"),  # the undo epoch it belongs to
)

MIGRATIONS = Path(__file__).with_name("migrations")


SQLITE_BUSY_SECONDS = 10.0
"""How long an SQLite connection waits for its turn to write before giving up ("database is locked")."""
SQLITE_POOL_SIZE = 20
"""SQLite connections kept open for reuse; more are opened when needed, never waited for."""


def engine_for(url: str) -> Engine:
    """An engine; on SQLite made to behave under concurrent requests like PostgreSQL does.

    On SQLite foreign keys are enforced, the journal is a write-ahead log (readers neither wait for a writer
    nor hold up its commit; writers take turns, each waiting up to `SQLITE_BUSY_SECONDS` for the write lock)
    and no request ever waits for a free connection. A bounded pool would deadlock: a request holding the
    database's one write lock may need a second connection (the event store reads the campaign to tell a
    conflict from an unknown campaign), while the pool's connections are all held by writers waiting for
    that lock.

    Statement parameters are never written into log lines or error messages (`hide_parameters`): they carry
    the dice keys and invitation hashes."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, hide_parameters=True)
    in_memory = parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"
    engine = create_engine(url, hide_parameters=True) if in_memory else \
        create_engine(url, poolclass=QueuePool, pool_size=SQLITE_POOL_SIZE, max_overflow=-1, hide_parameters=True)

    @sa_event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        dbapi_conn.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_SECONDS * 1000)}")
        dbapi_conn.execute("PRAGMA foreign_keys=ON")
        # Kept in the database file once set; an in-memory database answers "memory" and stays as it is.
        dbapi_conn.execute("PRAGMA journal_mode=WAL").fetchall()

    return engine


def migrate(url: str) -> None:
    """Bring the database at `url` to the newest schema (Alembic `upgrade head`)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")
