"""The embedded projection (the default): one SQLite file beside the canonical store.

- `proj_memories`: the projected fields of each memory (its current canonical state), the
  embedding as float32 bytes, and a per-namespace revision;
- two FTS5 keyword indexes per tenant (tenants never share one), each ranked by BM25: one over
  word terms (stemmed English, jieba-segmented Chinese; `memory.terms`) and one with the trigram
  tokenizer, the fallback for identifiers, misspellings and Chinese cut differently;
- exact cosine with numpy over the filtered rows of the asked namespaces, from an in-process
  matrix per namespace that reloads when the namespace's revision moves;
- the graph's tables (`memory.stores.graph`), derived from each row's text.

`search` fuses the sides into one calibrated relevance in [0, 1] (see `Hit.relevance`).
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memory.embedding import Embedder
from memory.graph import EXTRACTOR_VERSION
from memory.models import (
    SENSITIVITY_ORDER,
    MemoryRecord,
    Place,
    place_of,
)
from memory.stores import graph
from memory.stores.files import checkpoint, private_database, wal_size
from memory.stores.projection import Hit, ProjectedState, SearchFilters, record_facts
from memory.terms import WORD_TOKENIZER, index_words, name_terms, query_trigrams, query_words

SCHEMA_VERSION = "4"
#: The graph's: another extractor or another shape of its tables, and it is derived again.
_GRAPH_VERSION = f"{EXTRACTOR_VERSION}.{graph.SCHEMA_VERSION}"
#: How many postings one keyword side may rank per query, and how many of the newest rows
#: holding a term it takes when even the rarest term is over that (see `_side`).
_KEYWORD_POSTINGS_BUDGET = 2_000
_NEWEST_ROWS = 200
#: How long, and for how many terms, document frequencies are kept per index.
_DF_SECONDS = 300.0
_DF_TERMS = 200_000


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


def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


#: BM25's term-frequency saturation and length normalisation: Anserini's defaults for short
#: passages (k1 0.9, b 0.4), which memories are. Beside FTS5's and Lucene's 1.2 / 0.75 they
#: lifted LoCoMo R@10 0.633 → 0.640 and the Chinese set's 0.609 → 0.630 (the search alone).
_K1, _B = 0.9, 0.4


def _idf(rows: int, df: int) -> float:
    """BM25's inverse document frequency as Lucene has it: positive however small the index
    (FTS5's own is floored to nothing for a term in half the rows, which in a tenant of a few
    memories is every term)."""
    return math.log(1.0 + (rows - df + 0.5) / (df + 0.5))


def _trigram_length(content: str) -> int:
    return max(len(content) - 2, 0)


def _word_length(content: str) -> int:
    return len(content.split())


def _bm25(
    tf: Sequence[int], idf: Sequence[float], length: int, average: float, mass: float
) -> float:
    """A row's BM25 as a share of the query's IDF mass, at most 1: a row of average length
    holding every term once scores the mass itself."""
    norm = _K1 * (1.0 - _B + _B * length / average) if average > 0 else _K1
    score = sum(i * f * (_K1 + 1.0) / (f + norm) for f, i in zip(tf, idf, strict=True) if f)
    return min(score / mass, 1.0) if mass > 0 else 0.0


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


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass
class _Frequencies:
    """Document frequencies of one keyword index, as counted at `rows` rows."""

    rows: int
    filled: float
    counts: dict[str, int] = field(default_factory=dict)


def _word_tf(content: str, terms: Sequence[str]) -> list[int]:
    """How often each term occurs in a row of the word index (its terms, space-separated)."""
    counts: dict[str, int] = {}
    for term in content.split():
        counts[term] = counts.get(term, 0) + 1
    return [counts.get(t, 0) for t in terms]


def _trigram_tf(content: str, terms: Sequence[str]) -> list[int]:
    """How often each trigram occurs in a row of the trigram index (its text; the tokenizer
    folds case)."""
    folded = content.casefold()
    return [folded.count(t) for t in terms]


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

    def mask(self, f: SearchFilters) -> npt.NDArray[np.bool_]:
        m = self.sensitivity <= SENSITIVITY_ORDER[f.max_sensitivity]
        if f.kinds is not None:
            m &= np.isin(self.kinds, [_KIND_CODE[k] for k in f.kinds])
        if f.statuses is not None:
            m &= np.isin(self.statuses, [_STATUS_CODE[s] for s in f.statuses])
        if f.valid_at is not None:
            t = f.valid_at.timestamp()
            m &= (self.valid_from <= t) & (t < self.valid_to)
        if f.not_expired_at is not None:
            m &= self.expires_at > f.not_expired_at.timestamp()
        return m


class EmbeddedProjection:
    name: str = "embedded"
    indexes: tuple[str, ...] = ("vector", "search", "graph")

    def __init__(self, path: Path, embedder: Embedder, *, keep_graph: bool = True) -> None:
        """`keep_graph=False`: the graph is kept elsewhere (`projection.shared_graph`), and this
        file holds the vector and search indexes only."""
        self.path = path
        self.embedder = embedder
        self.keep_graph = keep_graph
        if not keep_graph:
            self.indexes = ("vector", "search")
        private_database(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._matrices: dict[str, _Matrix] = {}
        self._fts_known: set[str] = set()
        self._df: dict[str, _Frequencies] = {}
        self._epoch = ""
        self._init_schema()

    # ------------------------------------------------------------------------ connections

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            # Large stores: a bigger page cache and memory-mapped reads keep lookups off syscalls.
            conn.execute("PRAGMA cache_size=-32000")
            conn.execute("PRAGMA mmap_size=268435456")
            conn.execute("PRAGMA secure_delete=ON")
            self._local.conn = conn
        return conn

    def compact(self) -> tuple[bool, str]:
        """After a removal: removed rows live nowhere in the files. A deleted row leaves its
        terms in the FTS5 index's segments until they are merged, so every keyword index is
        merged (`optimize`); then the WAL is checkpointed and truncated (freed pages are zeroed
        by `secure_delete`)."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Only the indexes a row left since the last compaction (marked in the same
            # transaction as the delete): a deletion merges its tenant's index, not everyone's.
            tables = [
                str(k).removeprefix(_DELETED_TERMS)
                for (k,) in conn.execute(
                    "SELECT k FROM proj_meta WHERE k LIKE ?", (_DELETED_TERMS + "%",)
                )
            ]
            for table in tables:
                conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
            conn.execute("DELETE FROM proj_meta WHERE k LIKE ?", (_DELETED_TERMS + "%",))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        done, _ = checkpoint(conn)
        size = wal_size(self.path)
        return (
            done and size == 0,
            f"{len(tables)} keyword indexes merged; WAL checkpointed and truncated "
            f"({size} bytes left)",
        )

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _init_schema(self) -> None:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS proj_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)"
            )
            meta = dict(conn.execute("SELECT k, v FROM proj_meta").fetchall())
            if meta and (
                meta.get("schema") != SCHEMA_VERSION or meta.get("embedder") != self.embedder.name
            ):
                # A read model of another shape: drop it, repair rebuilds it from canonical.
                self._drop_all(conn)
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
                (SCHEMA_VERSION, self.embedder.name),
            )
            conn.execute("INSERT OR REPLACE INTO proj_meta VALUES ('graph', ?)", (_GRAPH_VERSION,))
            conn.execute("INSERT OR IGNORE INTO proj_meta VALUES ('epoch', ?)", (uuid.uuid4().hex,))
            conn.execute("INSERT OR IGNORE INTO proj_meta VALUES ('written', '0')")
            self._epoch = conn.execute("SELECT v FROM proj_meta WHERE k = 'epoch'").fetchone()[0]
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
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

    def _ensure_fts(self, conn: sqlite3.Connection, tenant_id: str) -> str:
        """The tenant's keyword indexes exist (the trigram index's name is returned)."""
        table, words = _fts_tables(tenant_id)
        if table not in self._fts_known:
            conn.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {table}"
                " USING fts5(content, tokenize='trigram')"
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
            self._fts_known.add(table)
        return table

    def _unindex(self, conn: sqlite3.Connection, tenant_id: str, rid: int) -> None:
        """A row out of both keyword indexes, its terms marked for merging out of the segments."""
        self._ensure_fts(conn, tenant_id)
        for t in _fts_tables(tenant_id):
            conn.execute(f"DELETE FROM {t} WHERE rowid = ?", (rid,))
            _mark_deleted_terms(conn, t)

    @staticmethod
    def _count(conn: sqlite3.Connection, tenant_id: str, sign: int, words: int, grams: int) -> None:
        """A row in (+1) or out (-1) of the tenant's totals."""
        conn.execute(
            "INSERT INTO proj_tenants VALUES (?, ?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET"
            " rows = rows + excluded.rows, words = words + excluded.words,"
            " trigrams = trigrams + excluded.trigrams",
            (tenant_id, sign, sign * words, sign * grams),
        )

    # ------------------------------------------------------------------------ writes

    def upsert(
        self,
        records: Sequence[MemoryRecord],
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None:
        """Project these canonical states (embedding them unless `vectors` are given; a state
        the index holds already is not embedded again: a repair that finds only graphs missing
        derives the graphs and nothing else)."""
        if not records:
            return
        if vectors is not None:
            vector_of = dict(enumerate(vectors))
        else:
            held = self._held(records)
            due = [i for i, r in enumerate(records) if r.memory_id not in held]
            vector_of = {}
            if due:
                embedded = self.embedder.embed([records[i].content for i in due])
                vector_of = dict(zip(due, embedded, strict=True))
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            touched: dict[str, str] = {}
            written = int(conn.execute("SELECT v FROM proj_meta WHERE k = 'written'").fetchone()[0])
            for i, record in enumerate(records):
                fts = self._ensure_fts(conn, record.tenant_id)
                old = conn.execute(
                    "SELECT rid, namespace, tenant_id, version, words, trigrams, content_hash"
                    " FROM proj_memories WHERE memory_id = ?",
                    (record.memory_id,),
                ).fetchone()
                gone = conn.execute(
                    "SELECT version FROM proj_removed WHERE memory_id = ?", (record.memory_id,)
                ).fetchone()
                if (old is not None and old[3] > record.version) or (
                    gone is not None and gone[0] >= record.version
                ):
                    continue  # older than what the index has held or removed
                if old is not None and (old[3], old[6]) == (record.version, record.content_hash):
                    # Held as it is: another writer (the relay, another worker's projection of
                    # the same memory) wrote it after our caller looked. Checked here, inside the
                    # write lock, so that a version is written once whoever races. Only its
                    # graph may be missing (dropped, or derived by another extractor).
                    derived = graph.done(conn, [old[0]]).get(old[0]) if self.keep_graph else None
                    if self.keep_graph and derived != record.version:
                        graph.index(
                            conn, old[0], record.namespace, record.version, record_facts(record)
                        )
                    continue
                vector = vector_of.get(i)
                if vector is None:  # written anew since we looked: embedded under the lock
                    vector = self.embedder.embed([record.content])[0]
                words = index_words(record.content)
                place = place_of(record.namespace, record.source_refs)
                n_words, n_grams = _word_length(words), _trigram_length(record.content)
                values = (
                    record.version,
                    record.content_hash,
                    record.tenant_id,
                    record.namespace,
                    record.kind,
                    record.key,
                    record.status,
                    record.sensitivity,
                    _ts(record.valid_from),
                    _ts(record.valid_to),
                    _ts(record.expires_at),
                    record.recorded_at.timestamp(),
                    record.content,
                    vector.astype(np.float32).tobytes(),
                    written + 1,
                    n_words,
                    n_grams,
                    *(place[1:] if place is not None else (None, None)),
                )
                written += 1
                if old is None:
                    rid = conn.execute(
                        "INSERT INTO proj_memories (version, content_hash, tenant_id, namespace,"
                        " kind, key, status, sensitivity, valid_from, valid_to, expires_at,"
                        " recorded_at, content, embedding, written, words, trigrams, thread,"
                        " position, memory_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (*values, record.memory_id),
                    ).lastrowid
                else:
                    rid = old[0]
                    touched[old[1]] = old[2]
                    conn.execute(
                        "UPDATE proj_memories SET version=?, content_hash=?, tenant_id=?,"
                        " namespace=?, kind=?, key=?, status=?, sensitivity=?, valid_from=?,"
                        " valid_to=?, expires_at=?, recorded_at=?, content=?, embedding=?,"
                        " written=?, words=?, trigrams=?, thread=?, position=? WHERE rid=?",
                        (*values, rid),
                    )
                    self._unindex(conn, old[2], rid)
                    self._count(conn, old[2], -1, old[4], old[5])
                conn.execute(
                    f"INSERT INTO {fts}(rowid, content) VALUES (?, ?)",
                    (rid, record.content),
                )
                conn.execute(f"INSERT INTO {fts}_w(rowid, content) VALUES (?, ?)", (rid, words))
                if self.keep_graph:
                    graph.index(
                        conn, int(rid or 0), record.namespace, record.version, record_facts(record)
                    )
                self._count(conn, record.tenant_id, 1, n_words, n_grams)
                conn.execute(
                    "INSERT INTO proj_applied VALUES (?, ?, 1) ON CONFLICT(memory_id, version)"
                    " DO UPDATE SET applies = applies + 1",
                    (record.memory_id, record.version),
                )
                touched[record.namespace] = record.tenant_id
            conn.execute("UPDATE proj_meta SET v = ? WHERE k = 'written'", (str(written),))
            self._bump(conn, touched)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _held(self, records: Sequence[MemoryRecord]) -> set[str]:
        """The memories whose row holds this very state (version and content) already."""
        want = {r.memory_id: (r.version, r.content_hash) for r in records}
        ids = list(want)
        held: set[str] = set()
        conn = self._conn()
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

    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        """Remove these rows; with `versions` (the canonical versions that are not to be
        held), remember them so that no older version is written back."""
        if not memory_ids:
            return
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            touched: dict[str, str] = {}
            if versions is not None:
                conn.executemany(
                    "INSERT INTO proj_removed VALUES (?, ?) ON CONFLICT(memory_id)"
                    " DO UPDATE SET version = max(version, excluded.version)",
                    [(m, v) for m, v in zip(memory_ids, versions, strict=True) if v > 0],
                )
            for memory_id in memory_ids:
                row = conn.execute(
                    "SELECT rid, namespace, tenant_id, words, trigrams FROM proj_memories"
                    " WHERE memory_id = ?",
                    (memory_id,),
                ).fetchone()
                if row is None:
                    continue
                rid, namespace, tenant_id, n_words, n_grams = row
                self._unindex(conn, tenant_id, rid)
                self._count(conn, tenant_id, -1, n_words, n_grams)
                graph.unindex(conn, rid)
                conn.execute("DELETE FROM proj_memories WHERE rid = ?", (rid,))
                touched[namespace] = tenant_id
            self._bump(conn, touched)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        with self._lock:
            self._df.clear()  # counts of terms asked for, some perhaps of what left the index

    @staticmethod
    def _bump(conn: sqlite3.Connection, touched: dict[str, str]) -> None:
        for namespace, tenant_id in touched.items():
            conn.execute(
                "INSERT INTO proj_namespaces (namespace, tenant_id, rev) VALUES (?, ?, 1)"
                " ON CONFLICT(namespace) DO UPDATE SET rev = rev + 1",
                (namespace, tenant_id),
            )

    # ------------------------------------------------------------------------ reads

    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]:
        ids = list(memory_ids)
        out: dict[str, ProjectedState] = {}
        conn = self._conn()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = conn.execute(
                "SELECT p.memory_id, p.version, p.content_hash, p.namespace, g.version"
                " FROM proj_memories p LEFT JOIN graph_done g ON g.rid = p.rid"
                f" WHERE p.memory_id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            out.update(
                {
                    r[0]: ProjectedState(r[1], r[2], r[3], r[4] == r[1] or not self.keep_graph)
                    for r in rows
                }
            )
        return out

    @property
    def epoch(self) -> str:
        return self._epoch

    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
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
        rows = self._conn().execute(
            "SELECT p.memory_id, p.version, p.content_hash, p.namespace, g.version"
            " FROM proj_memories p LEFT JOIN graph_done g ON g.rid = p.rid"
            f"{clause.replace('memory_id', 'p.memory_id')} ORDER BY p.memory_id LIMIT ?",
            [*params, limit],
        )
        return {
            r[0]: ProjectedState(r[1], r[2], r[3], r[4] == r[1] or not self.keep_graph)
            for r in rows
        }

    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]:
        """(write mark, memory id) of rows written (added or overwritten) after mark
        `written`, in write order."""
        return [
            (r[0], r[1])
            for r in self._conn().execute(
                "SELECT written, memory_id FROM proj_memories WHERE written > ?"
                " ORDER BY written LIMIT ?",
                (written, limit),
            )
        ]

    def last_written(self) -> int:
        row = self._conn().execute("SELECT v FROM proj_meta WHERE k = 'written'").fetchone()
        return int(row[0])

    def expired_rows(self, at: datetime, limit: int) -> list[str]:
        return [
            r[0]
            for r in self._conn().execute(
                "SELECT memory_id FROM proj_memories WHERE expires_at <= ? LIMIT ?",
                (at.timestamp(), limit),
            )
        ]

    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
        ids = list(memory_ids)
        out: dict[tuple[str, int], int] = {}
        conn = self._conn()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = conn.execute(
                "SELECT memory_id, version, applies FROM proj_applied"
                f" WHERE memory_id IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            out.update({(r[0], r[1]): r[2] for r in rows})
        return out

    # ------------------------------------------------------------------------ the graph

    def _graph_filters(self, filters: SearchFilters) -> graph.Scope:
        where, params = _filter_sql(filters, driving=False)
        return graph.Scope(
            filters.namespaces, f"{where} AND +p.tenant_id = ?", [*params, filters.tenant_id]
        )

    def entities_of(
        self, memory_ids: Sequence[str], filters: SearchFilters
    ) -> dict[str, list[graph.Named]]:
        return graph.entities_of(self._conn(), memory_ids, self._graph_filters(filters))

    def naming(
        self,
        names: Sequence[tuple[str, str]],
        filters: SearchFilters,
        *,
        max_degree: int,
        limit: int,
    ) -> list[graph.Reached]:
        """The rows that hold each (key, name)'s name as written (found through the word index,
        then checked by containment): an entity one memory names is reached in a memory that
        says the name without the extractor taking it for one ("奶茶今年做了绝育"). A name more
        than `max_degree` such rows hold reaches nothing."""
        conn = self._conn()
        _, words = _fts_tables(filters.tenant_id)
        scope = self._graph_filters(filters)
        said = {key: name for key, name in names if name_terms(name)}

        def rows_of(key: str) -> list[tuple[str, int, str]]:
            name = said[key]
            return conn.execute(
                f"SELECT p.memory_id, p.version, p.namespace FROM {words} f"
                " JOIN proj_memories p ON p.rid = f.rowid"
                f" WHERE {words} MATCH ? AND {scope.where}"
                " AND (instr(p.content, ?) > 0 OR instr(lower(p.content), ?) > 0)"
                " LIMIT ?",
                [
                    " ".join(_quoted(t) for t in name_terms(name)),
                    *scope.params,
                    name,
                    name.lower(),
                    max_degree + 1,
                ],
            ).fetchall()

        try:
            return graph.reached_through(said, rows_of, max_degree=max_degree, limit=limit)
        except sqlite3.OperationalError:
            return []  # the tenant has no keyword index yet: nothing projected

    def aliases(self, keys: Sequence[str], filters: SearchFilters) -> dict[str, set[str]]:
        return graph.aliases(self._conn(), keys, self._graph_filters(filters))

    def known_entities(self, keys: Sequence[str], filters: SearchFilters) -> set[str]:
        return graph.known(self._conn(), keys, self._graph_filters(filters))

    def mentioning(
        self, keys: Sequence[str], filters: SearchFilters, *, max_degree: int, limit: int
    ) -> list[graph.Reached]:
        return graph.mentioning(
            self._conn(), keys, self._graph_filters(filters), max_degree=max_degree, limit=limit
        )

    def entity(self, key: str, filters: SearchFilters, limit: int) -> graph.EntityRows:
        return graph.entity(self._conn(), key, self._graph_filters(filters), limit)

    def top_entities(self, filters: SearchFilters, limit: int) -> list[str]:
        return graph.top(self._conn(), self._graph_filters(filters), limit)

    def graph_leftovers(self) -> int:
        """Graph rows of memory rows that are gone (a deletion's `graph` probe: 0)."""
        return graph.orphans(self._conn())

    def graph_counts(self) -> dict[str, int]:
        return graph.counts(self._conn())

    def drop_graph(self) -> None:
        """Drop the graph (every mention, alias and relation) and start a new epoch: the next
        repair compares every row, finds each graph missing and derives it from canonical."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            graph.clear(conn)
            conn.execute("UPDATE proj_meta SET v = ? WHERE k = 'epoch'", (uuid.uuid4().hex,))
            self._epoch = conn.execute("SELECT v FROM proj_meta WHERE k = 'epoch'").fetchone()[0]
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _matrix(self, conn: sqlite3.Connection, namespace: str, rev: int) -> _Matrix:
        with self._lock:
            cached = self._matrices.get(namespace)
            if cached is not None and cached.rev == rev:
                return cached
        rows = conn.execute(
            "SELECT memory_id, version, kind, status, sensitivity, valid_from, valid_to,"
            " expires_at, embedding FROM proj_memories WHERE namespace = ?",
            (namespace,),
        ).fetchall()
        dim = self.embedder.dim
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
        m.vectors = (
            np.frombuffer(b"".join(r[8] for r in rows), dtype=np.float32).reshape(len(rows), dim)
            if rows
            else np.zeros((0, dim), np.float32)
        )
        with self._lock:
            self._matrices[namespace] = m
        return m

    def _revisions(self, conn: sqlite3.Connection, f: SearchFilters) -> dict[str, int]:
        rows = conn.execute(
            "SELECT namespace, rev FROM proj_namespaces WHERE tenant_id = ?"
            f" AND namespace IN ({','.join('?' * len(f.namespaces))})",
            (f.tenant_id, *f.namespaces),
        ).fetchall()
        return dict(rows)

    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        conn = self._conn()
        hits: list[Hit] = []
        for namespace, rev in self._revisions(conn, filters).items():
            m = self._matrix(conn, namespace, rev)
            if not m.ids:
                continue
            # One matrix-vector product over the namespace, then the filter: cheaper than
            # gathering the admissible rows into a copy first.
            scores = m.vectors @ vector
            scores[~m.mask(filters)] = -np.inf
            n = min(limit, len(m.ids))
            top = np.argpartition(-scores, n - 1)[:n] if n < len(m.ids) else np.arange(n)
            hits.extend(
                Hit(
                    m.ids[i],
                    int(m.versions[i]),
                    namespace,
                    vector_score=float(scores[i]),
                    vector=m.vectors[i],
                )
                for i in top
                if scores[i] > -np.inf
            )
        hits.sort(key=lambda h: -(h.vector_score or 0.0))
        hits = hits[:limit]
        for rank, hit in enumerate(hits, 1):
            hit.vector_rank = rank
        return hits

    def _document_frequencies(
        self, conn: sqlite3.Connection, table: str, terms: list[str], rows: int
    ) -> dict[str, int]:
        """How many rows hold each term (absent: none). fts5vocab counts a term's rows by
        reading its whole doclist, a millisecond for a common term at 100k rows, so counts are
        kept a while: until the tenant's row count has moved by 1 % (at least 50 rows) or for
        `_DF_SECONDS`. BM25's statistics need no more (scores, never filters, use them)."""
        now = time.monotonic()
        with self._lock:
            cache = self._df.get(table)
            if (
                cache is None
                or abs(rows - cache.rows) > max(50, rows // 100)
                or now - cache.filled > _DF_SECONDS
                or len(cache.counts) > _DF_TERMS
            ):
                cache = self._df[table] = _Frequencies(rows, now)
            missing = [t for t in terms if t not in cache.counts]
        if missing:
            marks = ",".join("?" * len(missing))
            found = dict.fromkeys(missing, 0)
            for term, df in conn.execute(
                f"SELECT term, doc FROM {table}_vocab WHERE term IN ({marks})", missing
            ):
                found[str(term)] = int(df)
            with self._lock:
                cache.counts.update(found)
        return {t: cache.counts.get(t, 0) for t in terms}

    def _side(
        self,
        conn: sqlite3.Connection,
        table: str,
        terms: list[str],
        filters: SearchFilters,
        limit: int,
        rows: int,
        average: float,
        frequencies: Callable[[str, Sequence[str]], list[int]],
    ) -> list[tuple[str, int, str, float]]:
        """One keyword index's best rows for `terms`: (memory id, version, namespace, score),
        the score being the row's BM25 as a share of the query's IDF mass (`_bm25`), with an
        IDF that stays positive in a small tenant.

        What FTS5 scores is bounded, whatever the size of the tenant. Terms go from rare to
        common while the sum of their document frequencies stays within a budget, and FTS5
        ranks the rows holding them: a common term ("的记录", a speaker's name) would cost
        milliseconds to score and, its IDF being low, change little. When even the rarest term
        is over the budget, the newest rows holding it are taken, and ranked here by every
        term of the query. The mass counts every term, so a score stays a share of the query."""
        if not terms:
            return []
        df = self._document_frequencies(conn, table, terms, rows)
        idf = [_idf(rows, df[t]) for t in terms]
        mass = sum(idf)
        present = sorted((t for t in terms if df[t] > 0), key=lambda t: (df[t], t))
        if not present:
            return []
        chosen: list[str] = []
        postings = 0
        for term in present:
            if postings + df[term] > _KEYWORD_POSTINGS_BUDGET:
                break
            chosen.append(term)
            postings += df[term]
        where, params = _filter_sql(filters)
        select = (
            f"SELECT p.memory_id, p.version, p.namespace, f.content FROM {table} f"
            f" JOIN proj_memories p ON p.rid = f.rowid WHERE {table} MATCH ? AND {where}"
        )
        if chosen:
            match = " OR ".join(_quoted(t) for t in chosen)
            found = conn.execute(
                f"{select} ORDER BY bm25({table}) LIMIT ?", [match, *params, limit]
            ).fetchall()
        else:
            found = conn.execute(
                f"{select} ORDER BY f.rowid DESC LIMIT ?",
                [_quoted(present[0]), *params, _NEWEST_ROWS],
            ).fetchall()
        length = _word_length if table.endswith("_w") else _trigram_length
        scored = [
            (m, v, ns, _bm25(frequencies(content, terms), idf, length(content), average, mass))
            for m, v, ns, content in found
        ]
        if not chosen:
            scored.sort(key=lambda s: -s[3])
        return scored[:limit]

    def _keyword_hits(
        self, conn: sqlite3.Connection, text: str, filters: SearchFilters, limit: int
    ) -> dict[str, Hit]:
        """Both keyword sides for `text`, each hit carrying the score of each side it is on."""
        table = self._ensure_fts(conn, filters.tenant_id)
        hits: dict[str, Hit] = {}
        totals = conn.execute(
            "SELECT rows, words, trigrams FROM proj_tenants WHERE tenant_id = ?",
            (filters.tenant_id,),
        ).fetchone()
        if totals is None or totals[0] <= 0:
            return hits
        rows, words, grams = totals
        found = self._side(
            conn, table + "_w", query_words(text), filters, limit, rows, words / rows, _word_tf
        )
        for m, version, namespace, score in found:
            hits[m] = Hit(m, version, namespace, word_score=score)
        for m, version, namespace, score in self._side(
            conn, table, query_trigrams(text), filters, limit, rows, grams / rows, _trigram_tf
        ):
            hit = hits.get(m)
            if hit is None:
                hit = hits[m] = Hit(m, version, namespace)
            hit.trigram_score = score
        return hits

    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Word and trigram BM25, fused: the rows the words or the trigrams of `text` find."""
        hits = list(self._keyword_hits(self._conn(), text, filters, limit).values())
        hits.sort(key=lambda h: (-(h.word_score + h.trigram_score), h.memory_id))
        for rank, hit in enumerate(hits[:limit], 1):
            hit.keyword_rank = rank
            hit.score = hit.relevance(self.embedder)
        return hits[:limit]

    def scan(self, filters: SearchFilters) -> Iterator[tuple[str, str]]:
        """Every row of the filters' namespaces as (memory id, indexed text): deletion
        verification looks for the erased texts in all of it (a trigram phrase query per text
        costs more than reading the rows once)."""
        if not filters.namespaces:
            return
        conn = self._conn()
        table = self._ensure_fts(conn, filters.tenant_id)
        marks = ",".join("?" * len(filters.namespaces))
        yield from conn.execute(
            f"SELECT p.memory_id, f.content FROM proj_memories p JOIN {table} f ON f.rowid = p.rid"
            f" WHERE p.namespace IN ({marks})",
            list(filters.namespaces),
        )

    def at_places(self, places: Sequence[Place], filters: SearchFilters) -> list[Hit]:
        """The rows said at these places (namespace, thread, position) that the filters pass,
        with their projected embeddings (recall's diversity compares them)."""
        if not places or not filters.namespaces:
            return []
        where, params = _filter_sql(filters)
        by_thread: dict[tuple[str, str], list[int]] = {}
        for namespace, thread, position in places:
            by_thread.setdefault((namespace, thread), []).append(position)
        hits: list[Hit] = []
        conn = self._conn()
        # One equality lookup per thread on the place index (a row-value IN scans the table).
        for (namespace, thread), positions in by_thread.items():
            for part in range(0, len(positions), 500):
                chunk = positions[part : part + 500]
                hits.extend(
                    Hit(m, version, ns)
                    for m, version, ns in conn.execute(
                        "SELECT p.memory_id, p.version, p.namespace FROM proj_memories p"
                        " WHERE p.thread IS NOT NULL AND p.namespace = ? AND p.thread = ?"
                        f" AND p.position IN ({','.join('?' * len(chunk))}) AND {where}"
                        " AND p.tenant_id = ?",
                        [namespace, thread, *chunk, *params, filters.tenant_id],
                    )
                )
        self._attach_vectors(conn, filters, hits)
        return hits

    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Hybrid: the keyword sides and (when the embedder's similarity counts in ranking) the
        vector side, each proposing `limit` rows, fused by `Hit.relevance`."""
        conn = self._conn()
        fused = self._keyword_hits(conn, text, filters, limit)
        ranked = sorted(fused.values(), key=lambda h: -(h.word_score + h.trigram_score))
        for rank, hit in enumerate(ranked, 1):
            hit.keyword_rank = rank
        if self.embedder.ranking_weight > 0:
            vector = self.embedder.embed([text])[0]
            for hit in self.vector_search(vector, filters, limit):
                seen = fused.get(hit.memory_id)
                if seen is None:
                    fused[hit.memory_id] = hit
                else:
                    seen.vector_score, seen.vector_rank = hit.vector_score, hit.vector_rank
                    seen.vector = hit.vector
            # A keyword hit beyond the vector side's top rows is still scored by its cosine:
            # without it, its relevance would be its keyword sides alone, undiluted by a low
            # similarity, and it would outrank hits both sides found.
            unscored = [h for h in fused.values() if h.vector_score is None]
            self._attach_vectors(conn, filters, unscored)
            for hit in unscored:
                if hit.vector is not None:
                    hit.vector_score = float(hit.vector @ vector)
        for hit in fused.values():
            hit.score = hit.relevance(self.embedder)
        found = sorted(fused.values(), key=lambda h: (-h.score, h.memory_id))[:limit]
        self._attach_vectors(conn, filters, [h for h in found if h.vector is None])
        return found

    def _attach_vectors(self, conn: sqlite3.Connection, f: SearchFilters, hits: list[Hit]) -> None:
        """The projected embeddings of keyword hits (recall's diversity compares them), from
        the namespaces' matrices rather than embedded again."""
        if not hits:
            return
        for namespace, rev in self._revisions(conn, f).items():
            m = self._matrix(conn, namespace, rev)
            for hit in hits:
                row = m.index.get(hit.memory_id) if hit.namespace == namespace else None
                if row is not None:
                    hit.vector = m.vectors[row]

    def count(self, tenant_id: str | None = None) -> int:
        conn = self._conn()
        if tenant_id is None:
            return int(conn.execute("SELECT count(*) FROM proj_memories").fetchone()[0])
        return int(
            conn.execute(
                "SELECT count(*) FROM proj_memories WHERE tenant_id = ?", (tenant_id,)
            ).fetchone()[0]
        )
