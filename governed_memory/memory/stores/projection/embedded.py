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

The class holds the connections, the caches and the writes; beside it, `embedded_sql` (the
file's tables and bookkeeping), `embedded_keyword` (the keyword sides), `embedded_vectors` (the
namespace matrices), `embedded_rows` (sync's and repair's reads) and `embedded_graph` (the graph
reads that need the file's own tables).
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from governed_memory.memory.embedding import Embedder
from governed_memory.memory.models import MemoryRecord, Place, place_of
from governed_memory.memory.stores import graph
from governed_memory.memory.stores.files import checkpoint, private_database, wal_size
from governed_memory.memory.stores.projection import (
    Hit,
    ProjectedState,
    SearchFilters,
    embedded_graph,
    embedded_rows,
    record_facts,
)
from governed_memory.memory.stores.projection.embedded_graph import _graph_filters
from governed_memory.memory.stores.projection.embedded_keyword import (
    _Frequencies,
    _keyword_hits,
    _trigram_length,
    _word_length,
)
from governed_memory.memory.stores.projection.embedded_sql import (
    _DELETED_TERMS,
    SCHEMA_VERSION,
    _bump,
    _count,
    _ensure_fts,
    _filter_sql,
    _init_schema,
    _unindex,
)
from governed_memory.memory.stores.projection.embedded_vectors import (
    _load_matrix,
    _Matrix,
    _revisions,
)
from governed_memory.memory.terms import index_words

__all__ = ["SCHEMA_VERSION", "EmbeddedProjection"]


def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


@contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """The reads inside see one state of the file (a read transaction), unless the
    connection is already in one."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _attach_vectors(places: Sequence[tuple[str, _Matrix]], hits: list[Hit]) -> None:
    """The projected embeddings of keyword hits (recall's diversity compares them), from
    the namespaces' matrices rather than embedded again."""
    for namespace, m in places:
        for hit in hits:
            row = m.index.get(hit.memory_id) if hit.namespace == namespace else None
            if row is not None:
                hit.vector = m.vectors[row]


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
        self._epoch = _init_schema(self._conn(), self.embedder.name)

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
        done, _ = checkpoint(conn)  # done: reset, whatever was written since (files.checkpoint)
        size = wal_size(self.path)
        return (
            done,
            f"{len(tables)} keyword indexes merged; WAL checkpointed and truncated "
            f"({size} bytes written since)",
        )

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

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
            held = embedded_rows.held(self._conn(), records)
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
                fts = _ensure_fts(conn, record.tenant_id, self._fts_known)
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
                    _unindex(conn, old[2], rid, self._fts_known)
                    _count(conn, old[2], -1, old[4], old[5])
                conn.execute(
                    f"INSERT INTO {fts}(rowid, content) VALUES (?, ?)",
                    (rid, record.content),
                )
                conn.execute(f"INSERT INTO {fts}_w(rowid, content) VALUES (?, ?)", (rid, words))
                if self.keep_graph:
                    graph.index(
                        conn, int(rid or 0), record.namespace, record.version, record_facts(record)
                    )
                _count(conn, record.tenant_id, 1, n_words, n_grams)
                conn.execute(
                    "INSERT INTO proj_applied VALUES (?, ?, 1) ON CONFLICT(memory_id, version)"
                    " DO UPDATE SET applies = applies + 1",
                    (record.memory_id, record.version),
                )
                touched[record.namespace] = record.tenant_id
            conn.execute("UPDATE proj_meta SET v = ? WHERE k = 'written'", (str(written),))
            _bump(conn, touched)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

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
                _unindex(conn, tenant_id, rid, self._fts_known)
                _count(conn, tenant_id, -1, n_words, n_grams)
                graph.unindex(conn, rid)
                conn.execute("DELETE FROM proj_memories WHERE rid = ?", (rid,))
                touched[namespace] = tenant_id
            _bump(conn, touched)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        with self._lock:
            self._df.clear()  # counts of terms asked for, some perhaps of what left the index

    # ------------------------------------------------------------------------ reads

    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]:
        return embedded_rows.state(self._conn(), memory_ids, self.keep_graph)

    @property
    def epoch(self) -> str:
        return self._epoch

    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
    ) -> dict[str, ProjectedState]:
        return embedded_rows.rows_in_order(self._conn(), after, upto, limit, self.keep_graph)

    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]:
        """(write mark, memory id) of rows written (added or overwritten) after mark
        `written`, in write order."""
        return embedded_rows.rows_written_after(self._conn(), written, limit)

    def last_written(self) -> int:
        return embedded_rows.last_written(self._conn())

    def expired_rows(self, at: datetime, limit: int) -> list[str]:
        return embedded_rows.expired_rows(self._conn(), at, limit)

    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
        return embedded_rows.applies(self._conn(), memory_ids)

    # ------------------------------------------------------------------------ the graph

    def entities_of(
        self, memory_ids: Sequence[str], filters: SearchFilters
    ) -> dict[str, list[graph.Named]]:
        return graph.entities_of(self._conn(), memory_ids, _graph_filters(filters))

    def naming(
        self,
        names: Sequence[tuple[str, str]],
        filters: SearchFilters,
        *,
        max_degree: int,
        limit: int,
    ) -> list[graph.Reached]:
        """The rows that say each (key, name)'s name as written (`embedded_graph.naming`)."""
        return embedded_graph.naming(
            self._conn(), names, filters, max_degree=max_degree, limit=limit
        )

    def aliases(self, keys: Sequence[str], filters: SearchFilters) -> dict[str, set[str]]:
        return graph.aliases(self._conn(), keys, _graph_filters(filters))

    def known_entities(self, keys: Sequence[str], filters: SearchFilters) -> set[str]:
        return graph.known(self._conn(), keys, _graph_filters(filters))

    def mentioning(
        self, keys: Sequence[str], filters: SearchFilters, *, max_degree: int, limit: int
    ) -> list[graph.Reached]:
        return graph.mentioning(
            self._conn(), keys, _graph_filters(filters), max_degree=max_degree, limit=limit
        )

    def entity(self, key: str, filters: SearchFilters, limit: int) -> graph.EntityRows:
        return graph.entity(self._conn(), key, _graph_filters(filters), limit)

    def top_entities(self, filters: SearchFilters, limit: int) -> list[str]:
        return graph.top(self._conn(), _graph_filters(filters), limit)

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
        m = _load_matrix(conn, namespace, rev, self.embedder.dim)
        with self._lock:
            self._matrices[namespace] = m
        return m

    def _places(
        self, conn: sqlite3.Connection, filters: SearchFilters
    ) -> list[tuple[str, _Matrix]]:
        """The filters' namespaces that hold rows, each with its columns at its revision."""
        return [
            (namespace, self._matrix(conn, namespace, rev))
            for namespace, rev in _revisions(conn, filters).items()
        ]

    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        return self._vector_hits(self._places(self._conn(), filters), vector, filters, limit)

    def _vector_hits(
        self,
        places: Sequence[tuple[str, _Matrix]],
        vector: npt.NDArray[np.float32],
        filters: SearchFilters,
        limit: int,
    ) -> list[Hit]:
        hits: list[Hit] = []
        for namespace, m in places:
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

    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Word and trigram BM25, fused: the rows the words or the trigrams of `text` find."""
        conn = self._conn()
        table = _ensure_fts(conn, filters.tenant_id, self._fts_known)
        with _snapshot(conn):
            places = self._places(conn, filters)
            found = _keyword_hits(conn, table, text, filters, limit, self._df, self._lock, places)
        hits = list(found.values())
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
        table = _ensure_fts(conn, filters.tenant_id, self._fts_known)
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
        _attach_vectors(self._places(conn, filters), hits)
        return hits

    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Hybrid: the keyword sides and (when the embedder's similarity counts in ranking) the
        vector side, each proposing `limit` rows, fused by `Hit.relevance`. Every read is of
        one snapshot of the file: the namespaces' columns are those of the rows the keyword
        indexes hold."""
        conn = self._conn()
        table = _ensure_fts(conn, filters.tenant_id, self._fts_known)
        with _snapshot(conn):
            places = self._places(conn, filters)
            fused = _keyword_hits(conn, table, text, filters, limit, self._df, self._lock, places)
        ranked = sorted(fused.values(), key=lambda h: -(h.word_score + h.trigram_score))
        for rank, hit in enumerate(ranked, 1):
            hit.keyword_rank = rank
        if self.embedder.ranking_weight > 0:
            vector = self.embedder.embed([text])[0]
            for hit in self._vector_hits(places, vector, filters, limit):
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
            _attach_vectors(places, unscored)
            for hit in unscored:
                if hit.vector is not None:
                    hit.vector_score = float(hit.vector @ vector)
        for hit in fused.values():
            hit.score = hit.relevance(self.embedder)
        found = sorted(fused.values(), key=lambda h: (-h.score, h.memory_id))[:limit]
        _attach_vectors(places, [h for h in found if h.vector is None])
        return found

    def count(self, tenant_id: str | None = None) -> int:
        conn = self._conn()
        if tenant_id is None:
            return int(conn.execute("SELECT count(*) FROM proj_memories").fetchone()[0])
        return int(
            conn.execute(
                "SELECT count(*) FROM proj_memories WHERE tenant_id = ?", (tenant_id,)
            ).fetchone()[0]
        )
