"""Tabletop results awaiting the other side's confirmation (or the organiser's decision).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "pending_report",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("attacker_vp", sa.Integer, nullable=False),
        sa.Column("defender_vp", sa.Integer, nullable=False),
        sa.Column("by_side", sa.String(40), nullable=False),
        sa.Column("token_id", sa.String(32), nullable=False),
        sa.Column("disputed", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pending_report")
