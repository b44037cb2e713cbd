"""The server's tables (SQLAlchemy Core) and their migrations (Alembic, run from code).

A campaign is its scenario, parameters and seed plus an append-only log of actions (`event`); everything
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
)
from sqlalchemy.engine import Engine

metadata = MetaData()

campaign = Table(
    "campaign", metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("scenario_id", String(100), nullable=False),
    Column("scenario_toml", Text, nullable=True),  # an uploaded scenario, kept with the campaign
    Column("params_json", Text, nullable=False),
    Column("seed", Integer, nullable=False),  # never leaves the server
    Column("seq", Integer, nullable=False),  # how many events the log holds
    Column("epoch", Integer, nullable=False, server_default="0"),  # bumped by each undo
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
)

MIGRATIONS = Path(__file__).with_name("migrations")


def engine_for(url: str) -> Engine:
    """An engine; SQLite enforces foreign keys like PostgreSQL does."""
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":
        from sqlalchemy import event as sa_event

        @sa_event.listens_for(engine, "connect")
        def _fk_on(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            dbapi_conn.execute("PRAGMA foreign_keys=ON")

    return engine


def migrate(url: str) -> None:
    """Bring the database at `url` to the newest schema (Alembic `upgrade head`)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")
