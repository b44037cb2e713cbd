"""The event store: campaigns, their action logs, idempotent requests and invitation tokens.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("scenario_id", sa.String(100), nullable=False),
        sa.Column("scenario_toml", sa.Text, nullable=True),
        sa.Column("params_json", sa.Text, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "event",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(40), nullable=False),
        sa.Column("chance", sa.Boolean, nullable=False),
        sa.Column("token_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "request",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("seq_after", sa.Integer, nullable=False),
        sa.Column("response_json", sa.Text, nullable=False),
    )
    op.create_table(
        "token",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("revoked", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )


def downgrade() -> None:
    for name in ("token", "request", "event", "campaign"):
        op.drop_table(name)
