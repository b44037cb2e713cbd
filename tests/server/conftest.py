"""The server tests run on SQLite and, when `WARROOM_TEST_DATABASE_URL` names a PostgreSQL server (make test
starts one with scripts/test-postgres.sh), again on PostgreSQL, each test in a database of its own."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ProgrammingError


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
        drop(admin, name)


def drop(admin: Engine, name: str, tries: int = 40) -> None:
    """Drop a test database. FORCE ends the test's own connections; a backend of another role (an autovacuum
    worker) cannot be ended by the test role, so wait for it to finish and try again."""
    for attempt in range(tries):
        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except ProgrammingError as exc:
            if "InsufficientPrivilege" not in type(exc.orig).__name__ or attempt == tries - 1:
                raise
            time.sleep(0.25)
        admin.dispose()
