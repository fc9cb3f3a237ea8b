"""The settings a production stack sets: the Weaviate projection's, the Postgres pool and
statement timeout (they reach the engine), and migrations on connect (a store not at the
release's schema is refused with a typed error that says what to do)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from governed_memory.memory.errors import SchemaNotMigrated
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.stores.canonical._db import Database, DatabaseOptions, require_schema

PG_URL = "postgresql+psycopg://memory:s3cret@db.invalid:5432/memory"


@pytest.fixture(autouse=True)
def _no_memory_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only what a test sets: no MEMORY_* variable of the machine running the suite."""
    for name in list(os.environ):
        if name.startswith("MEMORY_"):
            monkeypatch.delenv(name)


# ------------------------------------------------------------------------------ projection


def test_the_embedded_projection_is_the_default() -> None:
    settings = Settings()
    assert settings.projection == "embedded"
    assert settings.weaviate_url is None
    assert settings.weaviate_grpc_port == 50051


def test_weaviate_without_its_url_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_PROJECTION", "weaviate")
    monkeypatch.setenv("MEMORY_CODEC_KEYS", "k1:not-shown-in-the-error")
    with pytest.raises(ValidationError) as raised:
        Settings()
    error = raised.value.errors()[0]
    assert error["loc"] == ("weaviate_url",)
    assert "MEMORY_PROJECTION=weaviate needs MEMORY_WEAVIATE_URL" in str(raised.value)
    # The error names the missing setting only: no other setting's value (keys, passwords).
    assert "not-shown-in-the-error" not in str(raised.value)
    with pytest.raises(ValidationError, match="needs MEMORY_WEAVIATE_URL"):
        Settings(projection="weaviate", weaviate_url="")


def test_weaviate_with_its_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_PROJECTION", "weaviate")
    monkeypatch.setenv("MEMORY_WEAVIATE_URL", "http://weaviate:8080")
    monkeypatch.setenv("MEMORY_WEAVIATE_API_KEY", "key-1")
    monkeypatch.setenv("MEMORY_WEAVIATE_GRPC_PORT", "50052")
    settings = Settings()
    assert settings.projection == "weaviate"
    assert settings.weaviate_url == "http://weaviate:8080"
    assert settings.weaviate_api_key is not None
    assert settings.weaviate_api_key.get_secret_value() == "key-1"
    assert "key-1" not in repr(settings)
    assert settings.weaviate_grpc_port == 50052


@pytest.mark.parametrize("port", [0, 65536])
def test_the_grpc_port_is_a_port(port: int) -> None:
    with pytest.raises(ValidationError):
        Settings(weaviate_grpc_port=port)


def test_an_unknown_projection_is_refused() -> None:
    with pytest.raises(ValidationError):
        Settings(projection="elastic")


# ------------------------------------------------------------------------------ pool, timeouts


def test_the_pool_settings_have_their_defaults() -> None:
    options = DatabaseOptions.from_settings(Settings())
    assert options == DatabaseOptions(
        pool_size=5, max_overflow=10, pool_timeout_seconds=30.0, statement_timeout_ms=0
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("db_pool_size", 0),
        ("db_max_overflow", -1),
        ("db_pool_timeout_seconds", 0),
        ("db_statement_timeout_ms", -1),
    ],
)
def test_pool_settings_out_of_range_are_refused(field: str, value: int) -> None:
    with pytest.raises(ValidationError):
        Settings.model_validate({field: value})


def test_pool_options_reach_a_postgres_engine() -> None:
    """Built without connecting: the engine's pool is the one the settings describe."""
    settings = Settings(db_pool_size=3, db_max_overflow=4, db_pool_timeout_seconds=7.5)
    db = Database(PG_URL, DatabaseOptions.from_settings(settings))
    try:
        pool = db.engine.pool
        assert pool.size() == 3  # type: ignore[attr-defined]
        assert pool._max_overflow == 4  # type: ignore[attr-defined]
        assert pool._timeout == 7.5  # type: ignore[attr-defined]
        assert pool._pre_ping
        assert db.read_engine is db.engine
    finally:
        db.close()


def test_without_options_the_process_settings_shape_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`CanonicalStore(url)` passes no options: MEMORY_DB_* of the process apply."""
    monkeypatch.setenv("MEMORY_DB_POOL_SIZE", "7")
    monkeypatch.setenv("MEMORY_DB_MAX_OVERFLOW", "2")
    monkeypatch.setenv("MEMORY_DB_POOL_TIMEOUT_SECONDS", "4")
    store = CanonicalStore(PG_URL)
    try:
        pool = store.engine.pool
        assert pool.size() == 7  # type: ignore[attr-defined]
        assert pool._max_overflow == 2  # type: ignore[attr-defined]
        assert pool._timeout == 4.0  # type: ignore[attr-defined]
    finally:
        store.close()


def test_sqlite_keeps_its_own_engines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMORY_DB_POOL_SIZE", "1")
    monkeypatch.setenv("MEMORY_DB_STATEMENT_TIMEOUT_MS", "1")
    db = Database(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        assert db.read_engine is not db.engine
        assert db.engine.pool.size() != 1  # type: ignore[attr-defined]
        with db.read() as conn:
            assert conn.execute(text("select 1")).scalar() == 1
    finally:
        db.close()


def _show_timeout(db: Database) -> str:
    with db.read() as conn:
        return str(conn.execute(text("SHOW statement_timeout")).scalar())


@pytest.mark.postgres
def test_the_statement_timeout_reaches_postgres(empty_postgres_url: str) -> None:
    options = DatabaseOptions(
        pool_size=2, max_overflow=0, pool_timeout_seconds=5, statement_timeout_ms=300
    )
    db = Database(empty_postgres_url, options)
    try:
        assert _show_timeout(db) == "300ms"
        with pytest.raises(OperationalError, match="statement timeout"), db.read() as conn:
            conn.execute(text("SELECT pg_sleep(2)"))
        # Every connection of the pool has it, not only the first.
        with db.read() as first, db.read() as second:
            for conn in (first, second):
                assert conn.execute(text("SHOW statement_timeout")).scalar() == "300ms"
    finally:
        db.close()


@pytest.mark.postgres
def test_no_statement_timeout_by_default(empty_postgres_url: str) -> None:
    db = Database(empty_postgres_url)
    try:
        assert _show_timeout(db) == "0"
    finally:
        db.close()


@pytest.mark.postgres
def test_the_statement_timeout_keeps_the_urls_own_options(empty_postgres_url: str) -> None:
    url = f"{empty_postgres_url}?options=-c%20lock_timeout%3D1234"
    options = DatabaseOptions(
        pool_size=1, max_overflow=0, pool_timeout_seconds=5, statement_timeout_ms=4321
    )
    db = Database(url, options)
    try:
        with db.read() as conn:
            assert conn.execute(text("SHOW lock_timeout")).scalar() == "1234ms"
            assert conn.execute(text("SHOW statement_timeout")).scalar() == "4321ms"
    finally:
        db.close()


@pytest.mark.postgres
def test_compaction_is_not_cut_short_by_the_statement_timeout(empty_postgres_url: str) -> None:
    upgrade = CanonicalStore(empty_postgres_url)
    upgrade.migrate()
    upgrade.close()
    options = DatabaseOptions(
        pool_size=1, max_overflow=0, pool_timeout_seconds=5, statement_timeout_ms=5000
    )
    db = Database(empty_postgres_url, options)
    try:
        assert db.compact(["memory_versions", "memory_heads"]).done
        # The connection goes back to the pool with the timeout it came with.
        assert _show_timeout(db) == "5s"
    finally:
        db.close()


# ------------------------------------------------------------------------------ migrate on connect


def test_migrate_on_connect_defaults_to_sqlite_only(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).migrates_on_connect
    assert not Settings(database_url=PG_URL).migrates_on_connect
    assert Settings(database_url=PG_URL, db_migrate_on_connect=True).migrates_on_connect
    assert not Settings(data_dir=tmp_path, db_migrate_on_connect=False).migrates_on_connect


def test_migrate_on_connect_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DATABASE_URL", PG_URL)
    assert Settings().db_migrate_on_connect is None
    assert not Settings().migrates_on_connect
    monkeypatch.setenv("MEMORY_DB_MIGRATE_ON_CONNECT", "true")
    assert Settings().migrates_on_connect


def test_an_empty_store_is_refused_with_what_to_do(empty_database_url: str) -> None:
    db = Database(empty_database_url)
    try:
        with pytest.raises(SchemaNotMigrated) as raised:
            require_schema(db)
    finally:
        db.close()
    error = raised.value
    assert error.code == "schema_not_migrated"
    assert not error.retryable
    assert "has no schema" in str(error)
    assert "memctl db upgrade" in str(error)
    assert "MEMORY_DB_MIGRATE_ON_CONNECT" in str(error)


def test_a_store_at_head_is_accepted(empty_database_url: str) -> None:
    store = CanonicalStore(empty_database_url)
    try:
        store.migrate()
        require_schema(store.db)
    finally:
        store.close()


def test_a_store_behind_the_release_is_refused(empty_database_url: str) -> None:
    store = CanonicalStore(empty_database_url)
    try:
        store.migrate("0012")
        with pytest.raises(SchemaNotMigrated, match=r"is at revision 0012, .* needs revision"):
            require_schema(store.db)
        store.migrate()
        require_schema(store.db)
    finally:
        store.close()


def test_a_store_migrated_by_a_newer_release_is_refused(empty_database_url: str) -> None:
    store = CanonicalStore(empty_database_url)
    try:
        store.migrate()
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        with pytest.raises(SchemaNotMigrated, match="9999, which this release does not know"):
            require_schema(store.db)
    finally:
        store.close()


@pytest.mark.postgres
def test_the_refusal_never_shows_the_password(empty_postgres_url: str) -> None:
    # The test server trusts local connections: any password connects.
    url = empty_postgres_url.replace("postgres@", "postgres:s3cret@", 1)
    assert "s3cret" in url
    db = Database(url)
    try:
        with pytest.raises(SchemaNotMigrated) as raised:
            require_schema(db)
    finally:
        db.close()
    assert "s3cret" not in str(raised.value)
    assert "***" in str(raised.value)


@pytest.mark.postgres
def test_an_empty_postgres_store_is_refused_and_the_upgrade_cures_it(
    empty_postgres_url: str,
) -> None:
    """The Postgres default end to end: no migration on connect, the typed error, then what the
    error says to do (the migration job's `CanonicalStore.migrate`)."""
    settings = Settings(database_url=empty_postgres_url)
    assert not settings.migrates_on_connect
    db = Database(settings.canonical_url, DatabaseOptions.from_settings(settings))
    try:
        with pytest.raises(SchemaNotMigrated, match="memctl db upgrade"):
            require_schema(db)
        upgrade = CanonicalStore(settings.canonical_url)
        upgrade.migrate()
        upgrade.close()
        require_schema(db)
    finally:
        db.close()
    engine = create_engine(empty_postgres_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM memory_heads")).scalar() == 0
    engine.dispose()


def test_opening_the_stores_follows_migrate_on_connect(
    empty_postgres_url: str, tmp_path: Path
) -> None:
    """`open_stores` on Postgres: refused until the migration job ran (the default), migrated
    when the setting asks; on SQLite the embedded default migrates with no step."""
    from governed_memory.memory.stores import open_stores

    refused = Settings(data_dir=tmp_path / "pg", database_url=empty_postgres_url)
    with pytest.raises(SchemaNotMigrated, match="memctl db upgrade"):
        open_stores(refused)
    migrating = refused.model_copy(update={"db_migrate_on_connect": True})
    open_stores(migrating).close()
    open_stores(refused).close()  # at head now: accepted without migrating
    open_stores(Settings(data_dir=tmp_path / "lite")).close()


def test_the_release_knows_its_schema_head_without_alembic() -> None:
    """SCHEMA_HEAD (a store at it opens with one query, no Alembic import) is Alembic's head:
    a new migration must move it."""
    from alembic.script import ScriptDirectory

    from governed_memory.memory.stores.canonical import MIGRATIONS
    from governed_memory.memory.stores.canonical._db import SCHEMA_HEAD

    assert ScriptDirectory(str(MIGRATIONS)).get_current_head() == SCHEMA_HEAD


def test_opening_a_store_at_head_loads_no_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/c.db"
    CanonicalStore(url).migrate()  # here: the migration needs Alembic
    code = (
        "import sys; from governed_memory.memory.stores.canonical import CanonicalStore;"
        "from governed_memory.memory.stores.canonical._db import require_schema;"
        f"s = CanonicalStore({url!r}); s.migrate(); require_schema(s.db);"
        "print('alembic' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
