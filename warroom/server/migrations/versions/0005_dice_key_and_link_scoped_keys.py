"""Dice nobody can predict, and request keys scoped to the link that sent them (issue 11).

A campaign's 31-bit `seed` gives way to `dice_key`: 256 random bits from `secrets`, the key of the HMAC
that every roll and every move of the server's bot is derived from. Existing campaigns get a fresh key:
their past rolls are all in their logs, so nothing already played changes.

The idempotency table gains the token that sent each key, in its primary key, so two links can never see
each other's stored responses. Its old rows are dropped: they only matter for a retry sent seconds after the
first try, and they could not be attributed to a link.

A waiting tabletop result gains the position its battle went to the table at (`asked_at`: battle numbers
restart every turn, so the number alone does not say which battle it answers) and the undo epoch it belongs
to. Results waiting at the upgrade keep the older rule (any battle of that number at the table since before
the report) and the campaign's current epoch.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def request_table(scoped: bool) -> None:
    op.create_table(
        "request",
        sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True),
        *([sa.Column("token_id", sa.String(32), primary_key=True)] if scoped else []),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("seq_after", sa.Integer, nullable=False),
        sa.Column("response_json", sa.Text, nullable=False),
    )


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("dice_key", sa.String(64), nullable=True))
    conn = op.get_bind()
    for (cid,) in conn.execute(sa.text("SELECT id FROM campaign")).all():
        conn.execute(sa.text("UPDATE campaign SET dice_key = :key WHERE id = :id"),
                     {"key": secrets.token_hex(32), "id": cid})
    with op.batch_alter_table("campaign") as batch:
        batch.alter_column("dice_key", existing_type=sa.String(64), nullable=False)
        batch.drop_column("seed")
    op.drop_table("request")
    request_table(scoped=True)
    with op.batch_alter_table("pending_result") as batch:
        batch.add_column(sa.Column("asked_at", sa.Integer, nullable=True))
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE pending_result SET epoch = (SELECT epoch FROM campaign WHERE campaign.id = "
               "pending_result.campaign_id)")


def downgrade() -> None:
    with op.batch_alter_table("pending_result") as batch:
        batch.drop_column("epoch")
        batch.drop_column("asked_at")
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("seed", sa.Integer, nullable=False, server_default="0"))
    conn = op.get_bind()
    for (cid,) in conn.execute(sa.text("SELECT id FROM campaign")).all():
        conn.execute(sa.text("UPDATE campaign SET seed = :seed WHERE id = :id"),
                     {"seed": secrets.randbelow(2**31), "id": cid})
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("dice_key")
    op.drop_table("request")
    request_table(scoped=False)
