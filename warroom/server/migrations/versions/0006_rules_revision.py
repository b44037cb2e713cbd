"""Every campaign keeps the revision of the rules it began under (issue 13).

Two Firestorm rule fixes change which decisions a game asks for (Caen 4.1: strategic moves may pass through a
full area; Norway 6.8: ships meeting submarines and surface ships aim each counter at one or the other), so a log
played before them no longer replays under the new rules. New games record `revision` in their parameters; this
migration gives every campaign already stored the revision its log was played under, 1, so that it replays
exactly and goes on as it began. Downgrading removes the mark of revision 1 again (the older release plays
revision 1 only); a campaign begun under revision 2 keeps its mark.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def _rewrite(change: str) -> None:
    conn = op.get_bind()
    for cid, raw in conn.execute(sa.text("SELECT id, params_json FROM campaign")).all():
        params = json.loads(raw)
        if change == "mark" and "revision" not in params:
            params["revision"] = 1
        elif change == "unmark" and params.get("revision") == 1:
            del params["revision"]  # a campaign begun under revision 2 keeps its mark (the older release cannot
            # replay it anyway, and a later upgrade must not take it for an old one)
        else:
            continue
        conn.execute(sa.text("UPDATE campaign SET params_json = :p WHERE id = :id"),
                     {"p": json.dumps(params), "id": cid})


def upgrade() -> None:
    _rewrite("mark")


def downgrade() -> None:
    _rewrite("unmark")
