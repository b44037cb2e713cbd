"""The server tests' databases: each test gets one of its own.

Which engines. Every test that takes `database_url` runs on SQLite. Tests marked `every_database` run again on
PostgreSQL when `WARROOM_TEST_DATABASE_URL` names a server (make test starts one with scripts/test-postgres.sh):
those whose outcome can depend on the engine. That is the event store and the SQL it sends (appends guarded by
the sequence number, request keys, the undo's rewrite of waiting results), the migrations, transactions and row
locks under concurrent writers, what PostgreSQL refuses and SQLite takes (a NUL, a text longer than its column)
and the dice key's storage and SQL logging. The other tests reach the database only through those same store
calls, from HTTP, pages and rules, where the engine changes nothing (docs/server-plan.md 7).

How. A migrated database is copied from a template that each test process migrates once (a file copy on
SQLite, `CREATE DATABASE ... TEMPLATE` on PostgreSQL): the copy is the very schema `migrate` makes, so the app's
own `migrate` on it finds nothing to do. `blank_database_url` is an empty database, for the migration tests.
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import support
from anyio.from_thread import start_blocking_portal
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ProgrammingError

from warroom.server.db import migrate

EVERY_DATABASE = "every_database"
ADMIN_URL = os.environ.get("WARROOM_TEST_DATABASE_URL")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{EVERY_DATABASE}: run on PostgreSQL too, not only SQLite (the test's "
                                       "outcome can depend on the database engine: tests/server/conftest.py)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """SQLite for every test; SQLite and PostgreSQL for a test marked `every_database`."""
    engines = ["sqlite", "postgresql"] if metafunc.definition.get_closest_marker(EVERY_DATABASE) else ["sqlite"]
    for name in ("database_url", "blank_database_url"):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, engines, indirect=True)


def postgresql_admin() -> Engine:
    if not ADMIN_URL:
        pytest.skip("no PostgreSQL server: set WARROOM_TEST_DATABASE_URL (make test starts one where it can)")
    return create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")


def url_of(name: str) -> str:
    assert ADMIN_URL
    return make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session", autouse=True)
def server_event_loop() -> Iterator[None]:
    """One event loop for the in-process clients of every server test (tests/server/support.py, PORTAL)."""
    with start_blocking_portal() as portal:
        support.PORTAL.append(portal)
        try:
            yield
        finally:
            support.PORTAL.remove(portal)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated to the newest schema, once per test process."""
    path = tmp_path_factory.mktemp("template") / "warroom.db"
    migrate(f"sqlite:///{path}")  # Alembic's own engine, disposed when done: the file is whole on disk
    return path


@pytest.fixture(scope="session")
def postgresql_template() -> Iterator[str]:
    """A PostgreSQL database migrated to the newest schema, once per test process; its name."""
    admin = postgresql_admin()
    name = f"warroom_template_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        migrate(url_of(name))  # disconnects when done: a template must have no connection while it is copied
        yield name
    finally:
        drop(admin, name)


@pytest.fixture()
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database at the newest schema, with nothing in it."""
    if request.param == "sqlite":
        path = tmp_path / "warroom.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
    else:
        yield from new_postgresql_database(request.getfixturevalue("postgresql_template"))


@pytest.fixture()
def blank_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database without any table: for the tests of the migrations themselves."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'warroom.db'}"
    else:
        yield from new_postgresql_database(None)


def new_postgresql_database(template: str | None) -> Iterator[str]:
    admin = postgresql_admin()
    name = f"warroom_test_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    try:
        yield url_of(name)
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
