"""Alembic environment: runs on the connection the store hands over (see canonical.migrate)."""

from __future__ import annotations

from alembic import context

from governed_memory.memory.stores.schema import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the store runs migrations
    raise RuntimeError("run migrations through `memctl db upgrade` or CanonicalStore.migrate()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
