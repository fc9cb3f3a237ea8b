"""The embedded projection's rows of a namespace as columns (the embeddings as one float32
matrix, the fields `SearchFilters` filters on coded as numbers, each row's id and its lengths in
the keyword indexes) for exact cosine, filtering and BM25 with numpy. The projection keeps a
namespace's matrix until the namespace's revision moves."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from governed_memory.memory.models import SENSITIVITY_ORDER
from governed_memory.memory.stores.projection import SearchFilters

_STATUS_CODE = {"active": 0, "superseded": 1, "invalidated": 2, "deleted": 3, "quarantined": 4}
_KIND_CODE = {"episodic": 0, "semantic": 1, "profile": 2, "procedural": 3, "summary": 4}


@dataclass
class _Matrix:
    """The rows of one namespace, column-wise, for vectorised filtering and scoring."""

    rev: int
    ids: list[str] = field(default_factory=list)
    versions: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    vectors: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    kinds: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, np.int8))
    statuses: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, np.int8))
    sensitivity: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, np.int8))
    valid_from: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    valid_to: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    expires_at: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    #: Row of each memory id.
    index: dict[str, int] = field(default_factory=dict)
    #: Each row's `rid` (its rowid in the tenant's keyword indexes) in ascending order, and the
    #: row holding each.
    sorted_rids: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    by_rid: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    #: Each row's length in the word index and in the trigram index (BM25's normalisation).
    words: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    trigrams: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))

    def rows_of(self, rids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The row holding each of `rids` (sorted, unique), or -1 where the namespace has
        none."""
        ordered = self.sorted_rids
        if not len(ordered) or not len(rids):
            return np.full(len(rids), -1, np.int64)
        at = np.minimum(np.searchsorted(ordered, rids), len(ordered) - 1)
        return np.where(ordered[at] == rids, self.by_rid[at], -1)

    def mask(
        self, f: SearchFilters, rows: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.bool_]:
        """Whether each row (each of `rows`, or every row) passes the filters. A keyword side
        asks of its postings' rows only: filtering a whole namespace per side cost more than
        the ranking."""

        def col(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return values if rows is None else values[rows]

        m = col(self.sensitivity) <= SENSITIVITY_ORDER[f.max_sensitivity]
        if f.kinds is not None:
            m &= np.isin(col(self.kinds), [_KIND_CODE[k] for k in f.kinds])
        if f.statuses is not None:
            m &= np.isin(col(self.statuses), [_STATUS_CODE[s] for s in f.statuses])
        if f.valid_at is not None:
            t = f.valid_at.timestamp()
            m &= (col(self.valid_from) <= t) & (t < col(self.valid_to))
        if f.not_expired_at is not None:
            m &= col(self.expires_at) > f.not_expired_at.timestamp()
        return m


def _load_matrix(conn: sqlite3.Connection, namespace: str, rev: int, dim: int) -> _Matrix:
    """The rows of `namespace` as they are at revision `rev`, embeddings of `dim` floats."""
    rows = conn.execute(
        "SELECT memory_id, version, kind, status, sensitivity, valid_from, valid_to,"
        " expires_at, embedding, rid, words, trigrams FROM proj_memories WHERE namespace = ?",
        (namespace,),
    ).fetchall()
    m = _Matrix(rev=rev)
    m.ids = [r[0] for r in rows]
    m.index = {memory_id: i for i, memory_id in enumerate(m.ids)}
    m.versions = np.fromiter((r[1] for r in rows), np.int64, len(rows))
    m.kinds = np.fromiter((_KIND_CODE[r[2]] for r in rows), np.int8, len(rows))
    m.statuses = np.fromiter((_STATUS_CODE[r[3]] for r in rows), np.int8, len(rows))
    m.sensitivity = np.fromiter((SENSITIVITY_ORDER[r[4]] for r in rows), np.int8, len(rows))
    m.valid_from = np.fromiter(
        (-math.inf if r[5] is None else r[5] for r in rows), np.float64, len(rows)
    )
    m.valid_to = np.fromiter(
        (math.inf if r[6] is None else r[6] for r in rows), np.float64, len(rows)
    )
    m.expires_at = np.fromiter(
        (math.inf if r[7] is None else r[7] for r in rows), np.float64, len(rows)
    )
    rids = np.fromiter((r[9] for r in rows), np.int64, len(rows))
    m.by_rid = np.argsort(rids, kind="stable")
    m.sorted_rids = rids[m.by_rid]
    m.words = np.fromiter((r[10] for r in rows), np.float64, len(rows))
    m.trigrams = np.fromiter((r[11] for r in rows), np.float64, len(rows))
    m.vectors = (
        np.frombuffer(b"".join(r[8] for r in rows), dtype=np.float32).reshape(len(rows), dim)
        if rows
        else np.zeros((0, dim), np.float32)
    )
    return m


def _revisions(conn: sqlite3.Connection, f: SearchFilters) -> dict[str, int]:
    """The revision of each of the filters' namespaces that holds rows."""
    rows = conn.execute(
        "SELECT namespace, rev FROM proj_namespaces WHERE tenant_id = ?"
        f" AND namespace IN ({','.join('?' * len(f.namespaces))})",
        (f.tenant_id, *f.namespaces),
    ).fetchall()
    return dict(rows)
