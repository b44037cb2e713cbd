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


FIELDS = "seq, attacker_vp, defender_vp, by_side, token_id, disputed"


def create(name: str, per_battle: bool) -> None:
    """The waiting-results table: one row per campaign (0003) or per campaign and battle (0004)."""
    op.create_table(
        name,
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        *([sa.Column("battle", sa.Integer, primary_key=True)] if per_battle else []),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("attacker_vp", sa.Integer, nullable=False),
        sa.Column("defender_vp", sa.Integer, nullable=False),
        sa.Column("by_side", sa.String(40), nullable=False),
        sa.Column("token_id", sa.String(32), nullable=False),
        sa.Column("disputed", sa.Boolean, nullable=False),
    )


def upgrade() -> None:
    create("pending_result", per_battle=True)
    op.execute(f"INSERT INTO pending_result (campaign_id, battle, {FIELDS}) "
               f"SELECT campaign_id, 0, {FIELDS} FROM pending_report")
    op.drop_table("pending_report")


def downgrade() -> None:
    create("pending_report", per_battle=False)
    op.execute(f"INSERT INTO pending_report (campaign_id, {FIELDS}) "
               f"SELECT campaign_id, {FIELDS} FROM pending_result WHERE battle = 0")
    op.drop_table("pending_result")
