"""Fixtures of the deployment tests: empty canonical databases (no schema at all), on SQLite and on
the real Postgres the rest of the suite uses (skipped when unreachable, failing under CI=true)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import IN_CI, _pg_admin_url, _pg_reachable, temporary_database


@pytest.fixture(scope="session")
def pg_admin() -> str | None:
    """The admin URL of the test Postgres, or None when it is unreachable (outside CI)."""
    admin = _pg_admin_url()
    problem = _pg_reachable(admin)
    if problem is None:
        return admin
    if IN_CI:
        pytest.fail(f"CI=true and Postgres is unreachable at {admin}: {problem}")
    return None


@pytest.fixture
def empty_postgres_url(pg_admin: str | None) -> Iterator[str]:
    """A new, empty Postgres database, dropped afterwards."""
    if pg_admin is None:
        pytest.skip("Postgres unreachable (set MEMORY_TEST_DATABASE_URL); fails under CI=true")
    with temporary_database(pg_admin) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty canonical database (no schema), on SQLite and on Postgres."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    url: str = request.getfixturevalue("empty_postgres_url")
    return url
