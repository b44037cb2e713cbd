"""Where the server keeps its data: `WARROOM_DATA_DIR` and `WARROOM_DATABASE_URL` override the defaults."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The data directory: `WARROOM_DATA_DIR`, else the user's data directory (XDG), created if missing."""
    explicit = os.environ.get("WARROOM_DATA_DIR")
    if explicit:
        path = Path(explicit)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "warroom"
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    """`WARROOM_DATABASE_URL` (e.g. PostgreSQL), else an SQLite file in the data directory."""
    return os.environ.get("WARROOM_DATABASE_URL") or f"sqlite:///{data_dir() / 'warroom.db'}"


CREATE_LIMIT = "20/minute;200/day"
"""Default rate limit on creating and importing campaigns, per client address (`limits` notation)."""
ACT_LIMIT = "300/minute"
"""Default rate limit on actions, results, undo and links, per invitation link: five a second, far above what
a person clicks, far below what floods a database."""
CAMPAIGN_LIMIT = "1200/minute"
"""Default rate limit on the same, per campaign, whatever the links: links cannot be multiplied to act faster."""
