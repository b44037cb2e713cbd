"""Alembic environment: migrations run from code (`db.migrate`), against the URL it passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from warroom.server.db import metadata

url = context.config.get_main_option("sqlalchemy.url")
assert url, "db.migrate passes the database URL"
connectable = create_engine(url, hide_parameters=True)  # parameters carry dice keys: never into an error
with connectable.connect() as connection:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
connectable.dispose()
