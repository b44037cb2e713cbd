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
