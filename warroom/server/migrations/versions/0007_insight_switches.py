"""The organiser's switches for the plan advisor and the forecast (issue 15).

A competitive campaign may switch the advisor off (no side may ask it) and hide the forecast (the chances of each
outcome, and "what result do we need?"). Both are on for every campaign, old and new, until the organiser says
otherwise.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("advisor", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("forecast", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("forecast")
        batch.drop_column("advisor")
