"""The server tests run on SQLite and, when `WARROOM_TEST_DATABASE_URL` names a PostgreSQL server (make test
starts one with scripts/test-postgres.sh), again on PostgreSQL, each test in a database of its own."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'warroom.db'}"
        return
    admin_url = os.environ.get("WARROOM_TEST_DATABASE_URL")
    if not admin_url:
        pytest.skip("no PostgreSQL server: set WARROOM_TEST_DATABASE_URL (make test starts one where it can)")
    name = f"warroom_test_{secrets.token_hex(6)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()
