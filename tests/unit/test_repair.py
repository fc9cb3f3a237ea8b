"""Why an index row differs from its canonical head: every case of `classify`."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from governed_memory.memory.contracts.projections import Reason
from governed_memory.memory.models.sync import HeadDigest
from governed_memory.memory.stores.projection import ProjectedState
from governed_memory.memory.sync.repair import classify

NOW = datetime(2026, 7, 2, tzinfo=UTC)
HEAD = HeadDigest(
    memory_id="mem_1",
    tenant_id="shop-a",
    namespace="tenant/shop-a/user/1",
    version=3,
    content_hash="h3",
    status="active",
    has_content=True,
    valid_from=NOW - timedelta(days=1),
    valid_to=None,
    expires_at=None,
)
ROW = ProjectedState(version=3, content_hash="h3", namespace="tenant/shop-a/user/1")
ERASED = replace(HEAD, status="deleted", has_content=False)
EXPIRED = replace(HEAD, expires_at=NOW - timedelta(seconds=1))


@pytest.mark.parametrize(
    ("head", "row", "reason"),
    [
        (HEAD, ROW, None),
        (HEAD, None, "missing"),
        (HEAD, ProjectedState(2, "h2", ROW.namespace), "stale"),
        (HEAD, ProjectedState(3, "other", ROW.namespace), "stale"),
        (HEAD, ProjectedState(4, "h4", ROW.namespace), "rolled_back"),
        (None, ROW, "orphan"),
        (None, None, None),
        (ERASED, ROW, "tombstoned"),
        (ERASED, None, None),
        (replace(HEAD, status="invalidated"), ROW, "tombstoned"),
        # superseded values stay indexed: "as recorded at T" questions read them
        (replace(HEAD, status="superseded"), ROW, None),
        (EXPIRED, ROW, "expired"),
        (EXPIRED, None, None),
        (replace(HEAD, expires_at=NOW + timedelta(days=1)), ROW, None),
    ],
)
def test_classify(
    head: HeadDigest | None, row: ProjectedState | None, reason: Reason | None
) -> None:
    assert classify(head, row, NOW) == reason
