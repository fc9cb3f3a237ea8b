"""The embedded projection's SQLite file: its tables (`_SCHEMA`, and the graph's from
`memory.stores.graph`), made or made anew when the schema, the embedder or the extractor
changed; each tenant's two FTS5 keyword tables; the bookkeeping a write keeps beside a row (the
tenant's totals, the namespace's revision, the keyword indexes due a merge); and the filters of
`SearchFilters` as SQL over `proj_memories`."""

from __future__ import annotations

import hashlib
import sqlite3
import uuid

from governed_memory.memory.graph import EXTRACTOR_VERSION
from governed_memory.memory.models import SENSITIVITY_ORDER
from governed_memory.memory.stores import graph
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.terms import WORD_TOKENIZER

SCHEMA_VERSION = "4"
#: The graph's: another extractor or another shape of its tables, and it is derived again.
_GRAPH_VERSION = f"{EXTRACTOR_VERSION}.{graph.SCHEMA_VERSION}"


_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS proj_memories (
        rid INTEGER PRIMARY KEY,
        memory_id TEXT NOT NULL UNIQUE,
        version INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT,
        status TEXT NOT NULL,
        sensitivity TEXT NOT NULL,
        valid_from REAL,
        valid_to REAL,
        expires_at REAL,
        recorded_at REAL NOT NULL,
        content TEXT NOT NULL,
        embedding BLOB NOT NULL,
        -- when the row was last written (a counter kept in proj_meta): an incremental repair
        -- compares the rows written since the last one, new or overwritten alike
        written INTEGER NOT NULL,
        -- the row's length in each keyword index (word terms, trigrams), for BM25
        words INTEGER NOT NULL,
        trigrams INTEGER NOT NULL,
        -- where the memory was said (`memory.models.place_of`): recall lends a memory part of
        -- its conversational neighbours' relevance
        thread TEXT,
        position INTEGER
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS ix_proj_place ON proj_memories(namespace, thread, position)
    WHERE thread IS NOT NULL
    """,
    """
    CREATE INDEX IF NOT EXISTS ix_proj_written ON proj_memories(written)
    """,
    """
    CREATE INDEX IF NOT EXISTS ix_proj_ns ON proj_memories(namespace)
    """,
    """
    CREATE INDEX IF NOT EXISTS ix_proj_tenant ON proj_memories(tenant_id)
    """,
    """
    CREATE INDEX IF NOT EXISTS ix_proj_expires ON proj_memories(expires_at)
    """,
    # How many times each version was written to the index: the relay and repair skip what is
    # already there, so every count stays 1 (the fault tests check it).
    """
    CREATE TABLE IF NOT EXISTS proj_applied (
        memory_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        applies INTEGER NOT NULL,
        PRIMARY KEY (memory_id, version)
    )
    """,
    # The canonical version at which a memory left the index: an older version is never
    # written back (a relay that read it before a deletion committed).
    """
    CREATE TABLE IF NOT EXISTS proj_removed (
        memory_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS proj_namespaces (
        namespace TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        rev INTEGER NOT NULL
    )
    """,
    # Each tenant's keyword indexes in total: rows (BM25's N) and lengths (its average).
    """
    CREATE TABLE IF NOT EXISTS proj_tenants (
        tenant_id TEXT PRIMARY KEY,
        rows INTEGER NOT NULL,
        words INTEGER NOT NULL,
        trigrams INTEGER NOT NULL
    )
    """,
)


def _init_schema(conn: sqlite3.Connection, embedder_name: str) -> str:
    """Create what is missing; drop everything when the file was made for another schema or
    embedder, and the graph when by another extractor (repair rebuilds them from canonical).
    The file's epoch."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS proj_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        meta = dict(conn.execute("SELECT k, v FROM proj_meta").fetchall())
        if meta and (meta.get("schema") != SCHEMA_VERSION or meta.get("embedder") != embedder_name):
            # A read model of another shape: drop it, repair rebuilds it from canonical.
            _drop_all(conn)
            conn.execute("DELETE FROM proj_meta")
        if meta and meta.get("graph") != _GRAPH_VERSION:
            # Another extractor's graph (of another shape, perhaps): dropped, and a new
            # epoch makes the next repair compare every row, finding each graph missing
            # and deriving it again.
            graph.drop(conn)
            conn.execute("DELETE FROM proj_meta WHERE k = 'epoch'")
        for statement in (*_SCHEMA, *graph.SCHEMA):
            conn.execute(statement)
        conn.execute(
            "INSERT OR REPLACE INTO proj_meta VALUES ('schema', ?), ('embedder', ?)",
            (SCHEMA_VERSION, embedder_name),
        )
        conn.execute("INSERT OR REPLACE INTO proj_meta VALUES ('graph', ?)", (_GRAPH_VERSION,))
        conn.execute("INSERT OR IGNORE INTO proj_meta VALUES ('epoch', ?)", (uuid.uuid4().hex,))
        conn.execute("INSERT OR IGNORE INTO proj_meta VALUES ('written', '0')")
        epoch: str = conn.execute("SELECT v FROM proj_meta WHERE k = 'epoch'").fetchone()[0]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return epoch


def _drop_all(conn: sqlite3.Connection) -> None:
    # Virtual tables first: dropping one drops its shadow tables.
    for (table,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"
    ).fetchall():
        conn.execute(f'DROP TABLE IF EXISTS "{table}"')
    for (table,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        " AND name != 'proj_meta'"
    ).fetchall():
        conn.execute(f'DROP TABLE IF EXISTS "{table}"')


#: proj_meta keys naming the keyword indexes whose segments still hold a deleted row's terms.
_DELETED_TERMS = "fts_deleted_terms:"


def _mark_deleted_terms(conn: sqlite3.Connection, table: str) -> None:
    conn.execute(
        "INSERT INTO proj_meta (k, v) VALUES (?, '1') ON CONFLICT(k) DO NOTHING",
        (_DELETED_TERMS + table,),
    )


def _fts_table(tenant_id: str) -> str:
    """The tenant's trigram index; its word index is the same name + `_w`."""
    return "fts_" + hashlib.sha1(tenant_id.encode()).hexdigest()[:16]


def _fts_tables(tenant_id: str) -> tuple[str, str]:
    table = _fts_table(tenant_id)
    return table, table + "_w"


def _ensure_fts(conn: sqlite3.Connection, tenant_id: str, known: set[str]) -> str:
    """The tenant's keyword indexes exist (the trigram index's name is returned)."""
    table, words = _fts_tables(tenant_id)
    if table not in known:
        conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING fts5(content, tokenize='trigram')"
        )
        conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {words}"
            f" USING fts5(content, tokenize='{WORD_TOKENIZER}')"
        )
        # Document frequency per term: queries keep to their selective terms, and each
        # side's scores are calibrated by the query's IDF mass.
        for t in (table, words):
            conn.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {t}_vocab USING fts5vocab({t}, 'row')"
            )
        known.add(table)
    return table


def _unindex(conn: sqlite3.Connection, tenant_id: str, rid: int, known: set[str]) -> None:
    """A row out of both keyword indexes, its terms marked for merging out of the segments."""
    _ensure_fts(conn, tenant_id, known)
    for t in _fts_tables(tenant_id):
        conn.execute(f"DELETE FROM {t} WHERE rowid = ?", (rid,))
        _mark_deleted_terms(conn, t)


def _count(conn: sqlite3.Connection, tenant_id: str, sign: int, words: int, grams: int) -> None:
    """A row in (+1) or out (-1) of the tenant's totals."""
    conn.execute(
        "INSERT INTO proj_tenants VALUES (?, ?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET"
        " rows = rows + excluded.rows, words = words + excluded.words,"
        " trigrams = trigrams + excluded.trigrams",
        (tenant_id, sign, sign * words, sign * grams),
    )


def _bump(conn: sqlite3.Connection, touched: dict[str, str]) -> None:
    for namespace, tenant_id in touched.items():
        conn.execute(
            "INSERT INTO proj_namespaces (namespace, tenant_id, rev) VALUES (?, ?, 1)"
            " ON CONFLICT(namespace) DO UPDATE SET rev = rev + 1",
            (namespace, tenant_id),
        )


def _filter_sql(f: SearchFilters, *, driving: bool = True) -> tuple[str, list[object]]:
    """The filters as SQL over `proj_memories p`; `driving=False` keeps SQLite from walking
    the rows by namespace (or expiry) when another table leads (a graph read reaches rows by
    their ids: the namespace's rows are never the way in)."""
    off = "" if driving else "+"
    where = [f"{off}p.namespace IN ({','.join('?' * len(f.namespaces))})"]
    params: list[object] = [*f.namespaces]
    if f.kinds is not None:
        where.append(f"p.kind IN ({','.join('?' * len(f.kinds))})")
        params.extend(f.kinds)
    if f.statuses is not None:
        where.append(f"p.status IN ({','.join('?' * len(f.statuses))})")
        params.extend(f.statuses)
    if f.valid_at is not None:
        t = f.valid_at.timestamp()
        where.append(
            "(p.valid_from IS NULL OR p.valid_from <= ?) AND (p.valid_to IS NULL OR ? < p.valid_to)"
        )
        params.extend((t, t))
    if f.not_expired_at is not None:
        where.append(f"(p.expires_at IS NULL OR {off}p.expires_at > ?)")
        params.append(f.not_expired_at.timestamp())
    ceiling = SENSITIVITY_ORDER[f.max_sensitivity]
    allowed = [s for s, o in SENSITIVITY_ORDER.items() if o <= ceiling]
    where.append(f"p.sensitivity IN ({','.join('?' * len(allowed))})")
    params.extend(allowed)
    return " AND ".join(where), params
