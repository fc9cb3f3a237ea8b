"""What sync and repair ask of the embedded projection's rows, by memory id or in order: the
state each row holds, pages in id order or in write order, the rows expired, how many times each
version was written, and which records the rows hold already."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.stores.projection import ProjectedState


def state(
    conn: sqlite3.Connection, memory_ids: Sequence[str], keep_graph: bool
) -> dict[str, ProjectedState]:
    """What the rows of these memories hold (`keep_graph` off: the graph is kept elsewhere,
    never missing here)."""
    ids = list(memory_ids)
    out: dict[str, ProjectedState] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        rows = conn.execute(
            "SELECT p.memory_id, p.version, p.content_hash, p.namespace, g.version"
            " FROM proj_memories p LEFT JOIN graph_done g ON g.rid = p.rid"
            f" WHERE p.memory_id IN ({','.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        out.update(
            {r[0]: ProjectedState(r[1], r[2], r[3], r[4] == r[1] or not keep_graph) for r in rows}
        )
    return out


def rows_in_order(
    conn: sqlite3.Connection, after: str | None, upto: str | None, limit: int, keep_graph: bool
) -> dict[str, ProjectedState]:
    """Rows in memory id order with `after` < id ≤ `upto` (either bound open if None)."""
    where, params = [], []
    if after is not None:
        where.append("memory_id > ?")
        params.append(after)
    if upto is not None:
        where.append("memory_id <= ?")
        params.append(upto)
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    rows = conn.execute(
        "SELECT p.memory_id, p.version, p.content_hash, p.namespace, g.version"
        " FROM proj_memories p LEFT JOIN graph_done g ON g.rid = p.rid"
        f"{clause.replace('memory_id', 'p.memory_id')} ORDER BY p.memory_id LIMIT ?",
        [*params, limit],
    )
    return {r[0]: ProjectedState(r[1], r[2], r[3], r[4] == r[1] or not keep_graph) for r in rows}


def rows_written_after(conn: sqlite3.Connection, written: int, limit: int) -> list[tuple[int, str]]:
    """(write mark, memory id) of rows written (added or overwritten) after mark
    `written`, in write order."""
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT written, memory_id FROM proj_memories WHERE written > ?"
            " ORDER BY written LIMIT ?",
            (written, limit),
        )
    ]


def last_written(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT v FROM proj_meta WHERE k = 'written'").fetchone()
    return int(row[0])


def expired_rows(conn: sqlite3.Connection, at: datetime, limit: int) -> list[str]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT memory_id FROM proj_memories WHERE expires_at <= ? LIMIT ?",
            (at.timestamp(), limit),
        )
    ]


def applies(conn: sqlite3.Connection, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
    """How many times each version of these memories was written to the index."""
    ids = list(memory_ids)
    out: dict[tuple[str, int], int] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        rows = conn.execute(
            "SELECT memory_id, version, applies FROM proj_applied"
            f" WHERE memory_id IN ({','.join('?' * len(chunk))})",
            chunk,
        )
        out.update({(r[0], r[1]): r[2] for r in rows})
    return out


def held(conn: sqlite3.Connection, records: Sequence[MemoryRecord]) -> set[str]:
    """The memories whose row holds this very state (version and content) already."""
    want = {r.memory_id: (r.version, r.content_hash) for r in records}
    ids = list(want)
    held: set[str] = set()
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for memory_id, version, digest in conn.execute(
            "SELECT memory_id, version, content_hash FROM proj_memories"
            f" WHERE memory_id IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            if want[memory_id] == (version, digest):
                held.add(memory_id)
    return held
