"""Tabletop results awaiting confirmation, one per battle: battles are played in parallel, so several
results may wait at once. Waiting results move over as the battle being fought now (battle 0).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "pending_result",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("battle", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("attacker_vp", sa.Integer, nullable=False),
        sa.Column("defender_vp", sa.Integer, nullable=False),
        sa.Column("by_side", sa.String(40), nullable=False),
        sa.Column("token_id", sa.String(32), nullable=False),
        sa.Column("disputed", sa.Boolean, nullable=False),
    )
    op.execute("INSERT INTO pending_result (campaign_id, battle, seq, attacker_vp, defender_vp, by_side, token_id, "
               "disputed) SELECT campaign_id, 0, seq, attacker_vp, defender_vp, by_side, token_id, disputed "
               "FROM pending_report")
    op.drop_table("pending_report")


def downgrade() -> None:
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
    op.execute("INSERT INTO pending_report (campaign_id, seq, attacker_vp, defender_vp, by_side, token_id, disputed) "
               "SELECT campaign_id, seq, attacker_vp, defender_vp, by_side, token_id, disputed FROM pending_result "
               "WHERE battle = 0")
    op.drop_table("pending_result")
