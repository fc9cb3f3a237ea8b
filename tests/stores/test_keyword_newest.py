"""A keyword side whose rarest term is in more rows than it may rank takes the newest rows holding
it that the filters pass: read from the term's doclist and the namespaces' columns, they are the
rows (and the order) that joining every posting to its projection row in SQL gives, whatever the
filters drop and however deep the namespace's rows lie under another namespace's newer ones."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta

import pytest

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.stores.projection.embedded_keyword import (
    _NEWEST_ROWS,
    _newest,
    _quoted,
)
from governed_memory.memory.stores.projection.embedded_sql import _ensure_fts, _filter_sql
from governed_memory.shell.bench.data import load, synthetic_records
from tests.factories import NS, T0, search_filters

OTHER_NS = "tenant/shop-a/user/456"


def _joined(conn: sqlite3.Connection, table: str, term: str, f: SearchFilters) -> list[object]:
    """What the side read before: every posting joined to its row and filtered in SQL."""
    where, params = _filter_sql(f)
    return [
        tuple(r)
        for r in conn.execute(
            f"SELECT p.memory_id, p.version, p.namespace, f.content FROM {table} f"
            f" JOIN proj_memories p ON p.rid = f.rowid WHERE {table} MATCH ? AND {where}"
            " ORDER BY f.rowid DESC LIMIT ?",
            [_quoted(term), *params, _NEWEST_ROWS],
        )
    ]


def _varied(records: list[MemoryRecord], rng: random.Random) -> list[MemoryRecord]:
    """Rows the filters tell apart: kinds, statuses, sensitivities, validity and expiry."""
    out = []
    for r in records:
        out.append(
            r.model_copy(
                update={
                    "tenant_id": "shop-a",
                    "kind": rng.choice(["episodic", "semantic", "profile"]),
                    "status": rng.choice(["active"] * 6 + ["superseded", "invalidated"]),
                    "sensitivity": rng.choice(["internal"] * 4 + ["confidential", "restricted"]),
                    "valid_from": T0 - timedelta(days=1),
                    "valid_to": rng.choice([None] * 5 + [T0 - timedelta(hours=1)]),
                    "expires_at": rng.choice([None] * 5 + [T0]),
                }
            )
        )
    return out


@pytest.fixture
def loaded(stores: Stores) -> tuple[Stores, list[str]]:
    rng = random.Random(3)
    # the user's rows first, then more of another namespace of the tenant: the user's rows
    # holding a term lie under the other namespace's newer ones
    load(stores, _varied(synthetic_records("shop-a", NS, 700, rng), rng))
    load(stores, _varied(synthetic_records("shop-a", OTHER_NS, 1500, rng), rng))
    return stores, ["order", "the", "also", "custom", "订单", "记录", "refund", "nothing-holds"]


@pytest.mark.parametrize(
    "over",
    [
        {},
        {"namespaces": (NS, OTHER_NS)},
        {"namespaces": (OTHER_NS,)},
        {"kinds": ("semantic",), "max_sensitivity": "internal"},
        {"statuses": None, "valid_at": None, "not_expired_at": None},
        {"valid_at": T0 + timedelta(days=400)},
    ],
)
def test_the_newest_rows_holding_a_term_are_those_the_join_gives(
    loaded: tuple[Stores, list[str]], over: dict[str, object]
) -> None:
    stores, terms = loaded
    projection = stores.projection
    assert isinstance(projection, EmbeddedProjection)
    conn = projection._conn()
    f = search_filters(**over)
    places = projection._places(conn, f)
    base = _ensure_fts(conn, "shop-a", projection._fts_known)
    compared = 0
    for table, term in [(base + "_w", t) for t in terms] + [(base, "ord"), (base, "订单")]:
        want = _joined(conn, table, term, f)
        assert _newest(conn, table, term, places, f) == want
        compared += len(want)
    assert compared > _NEWEST_ROWS  # the sides had rows to give, some of them deep
