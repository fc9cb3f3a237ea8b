"""The Weaviate projection: the same `Projection` as the embedded one, on a Weaviate cluster that
every worker and API replica shares (weaviate-client v4, Weaviate ≥ 1.26).

Four collections, named from one prefix (default `GovernedMemory`):

- `GovernedMemory`: one object per projected memory (its current canonical state), with native
  multi-tenancy: each memory tenant is a Weaviate tenant (`tenant_name`), so one tenant's rows
  are never searched with another's. The vector is the service's own `Embedder`'s (no vectorizer
  module; cosine). Keyword search runs BM25 over two derived properties, the embedded
  projection's two keyword sides: `words` (the word terms of `memory.terms`: stemmed English,
  jieba-cut Chinese, whitespace-tokenized) and `grams` (the text's character trigrams,
  whitespace-tokenized), so Chinese is searched as the embedded projection searches it. Times
  are numbers (seconds since the epoch), an open end stored as ±1e15 (`NO_START`, `NO_END`), so
  every filter of `SearchFilters` is a plain comparison and needs no null index.
- `GovernedMemoryLedger` (not multi-tenant): one object per memory ever projected — its
  Weaviate tenant, the version and content hash last written, its write mark, its expiry,
  whether a row may be held, and how many times each version was written (`applies`). The
  `Projection` interface asks by memory id alone (state, remove, applies, repair's pages in id or
  write order, expired rows), across tenants: the ledger routes an id to its tenant and answers
  the ordered questions. It is written *before* a row (and marked not held only *after* a row is
  deleted), so every row has an entry; `state` reads the rows themselves, so a crash between the
  two writes leaves at worst an entry without its row, which the relay or repair then rewrites.
- `GovernedMemoryRemoved` (not multi-tenant): the canonical version at which a memory left the
  index — written only by `remove`, before the rows are deleted — so that no older version is
  ever written back (the embedded `proj_removed`). `upsert` checks it before writing and again
  after: a removal that raced the write deletes the row again.
- `GovernedMemoryMeta`: the schema version, the embedder's name and the epoch. Another schema or
  embedder drops all four and starts empty with a new epoch (as the embedded file does); a lost
  collection gives a new epoch too, so the next repair compares in full.

Write marks (`rows_written_after`) are microseconds since the epoch, taken when a row is written,
not a counter: Weaviate has no atomic increment or conditional write, so a counter shared by
several processes would repeat or skip. A mark is only read once it is `settle_seconds` old
(`last_written` is now minus that), so a write still in flight — or a host whose clock runs
behind by less than that — is compared by the next repair rather than skipped.

Search fuses the sides itself (`Hit.relevance`, as the embedded projection does): each keyword
side's BM25 as a share of its best hit's, and the cosine of our own vectors. Weaviate's relative
score fusion was not used: it maps the weakest hit of each side to 0, which recall's
`min_relevance` would then always drop, and it hides each side's rank. A keyword share is thus
relative to the query's best hit, where the embedded projection's is a share of the query's IDF
mass (Weaviate does not expose document frequencies).

Weaviate has no transactions: a write and a removal of the same memory racing each other can
leave the ledger's "held" hint wrong (never the rows: `state` reads them). The relay, repair and
recall's canonical re-check decide on what is actually indexed. A version entered in the ledger
whose row write then failed is counted once when written again (`applies` stays 1). Repair's
pages in id order rely on memory ids being lowercase ASCII (the service's are): Weaviate sorts
text without regard to case but compares it byte-wise in range filters.

The class holds the connection, the tenants' activation, the writes and the repair pages; beside
it, `weaviate_rows` (a memory as a row), `weaviate_queries` (filters, hits and the searches),
`weaviate_ledger` (the ledger's entries and removal marks), `weaviate_schema` (the collections)
and `weaviate_client` (connecting, and batch failures raised).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import structlog
import weaviate
from weaviate.classes.config import ConsistencyLevel
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, FilterReturn
from weaviate.classes.tenants import Tenant, TenantActivityStatus
from weaviate.exceptions import WeaviateBaseError

from governed_memory.memory.embedding import Embedder
from governed_memory.memory.errors import ProjectionUnavailable, ProjectionWriteFailed
from governed_memory.memory.models import MemoryRecord, Place
from governed_memory.memory.stores.projection import Hit, ProjectedState, SearchFilters
from governed_memory.memory.stores.projection.weaviate_client import (
    batch_failures,
    client_params,
    connect_client,
    raise_on_failures,
)
from governed_memory.memory.stores.projection.weaviate_ledger import (
    IndexLedgerEntry,
    entry_written,
    read_entries,
    read_page,
    read_removed,
    write_entries,
    written_after,
)
from governed_memory.memory.stores.projection.weaviate_queries import (
    _PAGE,
    _at_places,
    _hybrid,
    _keyword,
    _states_in,
    _vector,
    admits_nothing,
    build_filters,
    fuse_keyword,
    hits_from,
    ids_filter,
    place_filter,
)
from governed_memory.memory.stores.projection.weaviate_rows import (
    NO_END,
    NO_START,
    VECTOR,
    content_grams,
    object_id,
    properties_of,
    tenant_name,
)
from governed_memory.memory.stores.projection.weaviate_schema import (
    LEDGER_PROPERTIES,
    _init_schema,
    _meta,
    plain_config,
    rows_config,
)

#: What other modules import from here (the helpers live beside it).
__all__ = [
    "LEDGER_PROPERTIES",
    "NO_END",
    "NO_START",
    "IndexLedgerEntry",
    "WeaviateProjection",
    "admits_nothing",
    "batch_failures",
    "build_filters",
    "client_params",
    "connect_client",
    "content_grams",
    "fuse_keyword",
    "hits_from",
    "object_id",
    "place_filter",
    "plain_config",
    "properties_of",
    "raise_on_failures",
    "rows_config",
    "tenant_name",
]

log = structlog.get_logger("governed_memory.memory.stores.projection.weaviate")
T = TypeVar("T")

_PREFIX = re.compile(r"[A-Z][A-Za-z0-9]{0,40}")


# ---------------------------------------------------------------------------- the projection


class WeaviateProjection:
    name: str = "weaviate"
    indexes: tuple[str, ...] = ("vector", "search")

    def __init__(
        self,
        connect: Callable[[], weaviate.WeaviateClient],
        embedder: Embedder,
        *,
        prefix: str = "GovernedMemory",
        settle_seconds: float = 60.0,
    ) -> None:
        """`connect` opens the client, on first use (a cluster down when the process starts
        fails the calls that need it, not the process). `prefix` names the collections."""
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"collection prefix {prefix!r}: a capital, then letters or digits")
        self.embedder = embedder
        self.prefix = prefix
        self.rows_name = prefix
        self.ledger_name = f"{prefix}Ledger"
        self.removed_name = f"{prefix}Removed"
        self.meta_name = f"{prefix}Meta"
        self._connect = connect
        self._settle_us = int(settle_seconds * 1_000_000)
        self._lock = threading.RLock()
        self._client: weaviate.WeaviateClient | None = None
        self._active: set[str] = set()
        self._last_mark = 0

    # ------------------------------------------------------------------------ connection, schema

    def _db(self) -> weaviate.WeaviateClient:
        with self._lock:
            if self._client is None:
                try:
                    client = self._connect()
                except WeaviateBaseError as exc:
                    raise ProjectionUnavailable(f"Weaviate unreachable: {exc}") from exc
                try:
                    self._init_schema(client)
                except BaseException:
                    client.close()
                    raise
                self._client = client
            return self._client

    @property
    def _names(self) -> tuple[str, str, str, str]:
        return self.rows_name, self.ledger_name, self.removed_name, self.meta_name

    def _init_schema(self, client: weaviate.WeaviateClient) -> None:
        """Create what is missing; drop everything when it was made for another schema or
        embedder (repair rebuilds it from canonical); an epoch for a new index."""
        _init_schema(client, self._names, self.embedder.name, self.prefix)
        self._active.clear()

    def _plain(self, name: str) -> Any:
        """A bookkeeping collection, read and written at quorum (read-after-write across
        replicas: the ordering of ledger, removal marks and rows relies on it)."""
        return self._db().collections.get(name).with_consistency_level(ConsistencyLevel.QUORUM)

    def _open(self, tenant: str, *, create: bool) -> Any:
        """The rows collection in a Weaviate tenant, made active when it was found inactive or
        offloaded (None: it does not exist and `create` is off). Tenants found active are
        remembered; `_in` looks again when a call in one fails."""
        rows = self._db().collections.get(self.rows_name)
        if tenant not in self._active:
            found = rows.tenants.get_by_name(tenant)
            if found is None:
                if not create:
                    return None
                try:
                    rows.tenants.create(Tenant(name=tenant))
                except WeaviateBaseError:
                    if not rows.tenants.exists(tenant):  # not another process's creation
                        raise
            elif found.activity_status != TenantActivityStatus.ACTIVE:
                rows.tenants.update(
                    Tenant(name=tenant, activity_status=TenantActivityStatus.ACTIVE)
                )
            with self._lock:
                self._active.add(tenant)
        return rows.with_tenant(tenant)

    def _in(self, tenant: str, action: Callable[[Any], T], *, create: bool = False) -> T | None:
        """`action` on the rows of a Weaviate tenant (None: the tenant does not exist). A
        tenant remembered as active may have been deactivated or offloaded since: on a failure
        it is looked up (and activated) again, and the action tried once more."""
        known = tenant in self._active
        rows = self._open(tenant, create=create)
        if rows is None:
            return None
        try:
            return action(rows)
        except WeaviateBaseError:
            if not known:
                raise
            with self._lock:
                self._active.discard(tenant)
            rows = self._open(tenant, create=create)
            return None if rows is None else action(rows)

    def drop(self) -> None:
        """Delete the four collections (tests, and an operator discarding the index)."""
        client = self._db()
        client.collections.delete([n for n in self._names if client.collections.exists(n)])
        with self._lock:
            self._active.clear()

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # ------------------------------------------------------------------------ bookkeeping

    def _marks(self, n: int) -> list[int]:
        """`n` write marks: microseconds since the epoch, increasing within this process."""
        with self._lock:
            base = max(time.time_ns() // 1_000, self._last_mark + 1)
            self._last_mark = base + n - 1
        return list(range(base, base + n))

    def _entries(self, memory_ids: Sequence[str]) -> dict[str, IndexLedgerEntry]:
        return read_entries(self._plain(self.ledger_name), memory_ids)

    def _write_entries(self, entries: Iterable[IndexLedgerEntry]) -> None:
        write_entries(self._plain(self.ledger_name), entries)

    def _removed(self, memory_ids: Sequence[str]) -> dict[str, int]:
        return read_removed(self._plain(self.removed_name), memory_ids)

    def _rows_of(self, entries: Iterable[IndexLedgerEntry]) -> dict[str, ProjectedState]:
        """What the rows themselves hold for these memories (by the tenants the ledger names)."""
        by_tenant: dict[str, list[str]] = {}
        for e in entries:
            if e.tenant:
                by_tenant.setdefault(e.tenant, []).append(e.memory_id)
        out: dict[str, ProjectedState] = {}
        for tenant, ids in by_tenant.items():
            self._in(tenant, _states_in(ids, out))
        return out

    def _delete_rows(self, tenant: str, memory_ids: Sequence[str]) -> None:
        def run(rows: Any) -> None:
            for i in range(0, len(memory_ids), _PAGE):
                done = rows.data.delete_many(where=ids_filter(memory_ids[i : i + _PAGE]))
                if done.failed:
                    raise ProjectionWriteFailed(
                        f"Weaviate failed to delete {done.failed} of {done.matches} rows"
                    )

        self._in(tenant, run)

    # ------------------------------------------------------------------------ writes

    def upsert(
        self,
        records: Sequence[MemoryRecord],
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None:
        """Project these canonical states (embedding them unless `vectors` are given): the
        ledger first, then the rows, then the removal marks again (a removal that raced this
        write deletes what it wrote)."""
        if not records:
            return
        if vectors is None:
            vectors = self.embedder.embed([r.content for r in records])
        ids = [r.memory_id for r in records]
        entries = self._entries(ids)
        removed = self._removed(ids)
        chosen: dict[str, tuple[MemoryRecord, npt.NDArray[np.float32]]] = {}
        for record, vector in zip(records, vectors, strict=True):
            entry = entries.get(record.memory_id)
            if (entry is not None and entry.held and entry.version > record.version) or (
                removed.get(record.memory_id, 0) >= record.version
            ):
                continue  # older than what the index has held or removed
            chosen[record.memory_id] = (record, vector)
        if not chosen:
            return
        marks = dict(zip(chosen, self._marks(len(chosen)), strict=True))
        written: list[IndexLedgerEntry] = []
        for memory_id, (record, _) in chosen.items():
            old = entries.get(memory_id)
            written.append(entry_written(record, old, marks[memory_id]))
            if old is not None and old.tenant and old.tenant != tenant_name(record.tenant_id):
                self._delete_rows(old.tenant, [memory_id])  # moved to another tenant
        self._write_entries(written)
        by_tenant: dict[str, list[DataObject[dict[str, Any], None]]] = {}
        for memory_id, (record, vector) in chosen.items():
            by_tenant.setdefault(record.tenant_id, []).append(
                DataObject(
                    properties=properties_of(record, marks[memory_id]),
                    uuid=object_id(memory_id),
                    vector={VECTOR: vector.astype(np.float32).tolist()},
                )
            )
        for tenant_id, objects in by_tenant.items():

            def write(rows: Any, objects: list[DataObject[dict[str, Any], None]] = objects) -> None:
                for i in range(0, len(objects), _PAGE):
                    raise_on_failures(rows.data.insert_many(objects[i : i + _PAGE]), "rows")

            self._in(tenant_name(tenant_id), write, create=True)
        late = self._removed(list(chosen))
        undo = [m for m, (r, _) in chosen.items() if late.get(m, 0) >= r.version]
        if undo:
            log.info("a removal raced a projection: its rows removed again", rows=len(undo))
            self.remove(undo)

    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        """Remove these rows; with `versions` (the canonical versions that are not to be
        held), remember them first so that no older version is written back."""
        if not memory_ids:
            return
        ids = list(dict.fromkeys(memory_ids))
        if versions is not None:
            asked: dict[str, int] = {}
            for m, v in zip(memory_ids, versions, strict=True):
                if v > 0:
                    asked[m] = max(asked.get(m, 0), v)
            known = self._removed(list(asked))
            marks = [
                DataObject(
                    properties={"memory_id": m, "version": max(v, known.get(m, 0))},
                    uuid=object_id(m),
                )
                for m, v in asked.items()
            ]
            removed = self._plain(self.removed_name)
            for i in range(0, len(marks), _PAGE):
                raise_on_failures(removed.data.insert_many(marks[i : i + _PAGE]), "removal marks")
        entries = self._entries(ids)
        by_tenant: dict[str, list[str]] = {}
        for e in entries.values():
            if e.tenant:
                by_tenant.setdefault(e.tenant, []).append(e.memory_id)
        for tenant, tenant_ids in by_tenant.items():
            self._delete_rows(tenant, tenant_ids)
        # Only then the ledger: no row held. What it said of the content (its namespace, hash and
        # expiry) is not kept.
        self._write_entries(
            IndexLedgerEntry(
                memory_id=e.memory_id,
                tenant=e.tenant,
                tenant_id=e.tenant_id,
                version=e.version,
                written=e.written,
                applied=e.applied,
            )
            for e in entries.values()
        )

    # ------------------------------------------------------------------------ reads by id

    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]:
        return self._rows_of(self._entries(memory_ids).values())

    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
        return {
            (m, v): n for m, e in self._entries(memory_ids).items() for v, n in e.applied.items()
        }

    @property
    def epoch(self) -> str:
        """The index's epoch, read from Weaviate: collections lost underneath (or made anew by
        another process) give a new one."""
        client = self._db()
        with self._lock:
            present = all(client.collections.exists(n) for n in self._names)
            value = _meta(client, self.meta_name).get("epoch") if present else None
            if value is None:
                self._init_schema(client)
                value = _meta(client, self.meta_name)["epoch"]
        return value

    # ------------------------------------------------------------------------ repair's pages

    def _ledger_page(
        self, filters: FilterReturn, limit: int, *, sort: str | None = None
    ) -> list[IndexLedgerEntry]:
        return read_page(self._plain(self.ledger_name), filters, limit, sort=sort)

    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
    ) -> dict[str, ProjectedState]:
        """Rows in memory id order with `after` < id ≤ `upto` (either bound open if None): the
        ledger's held entries in that order, each checked against its row."""
        out: dict[str, ProjectedState] = {}
        cursor = after
        while len(out) < limit:
            parts = [Filter.by_property("held").equal(True)]
            if cursor is not None:
                parts.append(Filter.by_property("memory_id").greater_than(cursor))
            if upto is not None:
                parts.append(Filter.by_property("memory_id").less_or_equal(upto))
            size = min(_PAGE, limit - len(out))
            page = self._ledger_page(Filter.all_of(parts), size, sort="memory_id")
            rows = self._rows_of(page)
            out.update((e.memory_id, rows[e.memory_id]) for e in page if e.memory_id in rows)
            if len(page) < size:
                break
            cursor = page[-1].memory_id
        return out

    def _horizon(self) -> int:
        return time.time_ns() // 1_000 - self._settle_us

    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]:
        """(write mark, memory id) of rows written (added or overwritten) after mark
        `written`, in write order, up to `last_written()`: younger marks wait for the next
        call. Marks tying at a page's end are all taken or all left (a cursor on the last mark
        returned skips none), so a page may hold more than `limit` when many tie."""
        return written_after(self._ledger_page, written, limit, self._horizon())

    def last_written(self) -> int:
        """The newest mark a repair may take as compared: now, less the settle time."""
        return self._horizon()

    def expired_rows(self, at: datetime, limit: int) -> list[str]:
        page = self._ledger_page(
            Filter.all_of(
                [
                    Filter.by_property("held").equal(True),
                    Filter.by_property("expires_at").less_or_equal(at.timestamp()),
                ]
            ),
            min(limit, 10_000),
        )
        return [e.memory_id for e in page]

    # ------------------------------------------------------------------------ search

    def _read(self, filters: SearchFilters, action: Callable[[Any], list[Hit]]) -> list[Hit]:
        """`action` on the rows of the filters' tenant (nothing when no row can pass, or the
        tenant has none)."""
        if admits_nothing(filters):
            return []
        return self._in(tenant_name(filters.tenant_id), action) or []

    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Word and trigram BM25, fused: the rows the words or the trigrams of `text` find."""
        hits = self._read(filters, lambda rows: _keyword(rows, text, filters, limit)[:limit])
        for hit in hits:
            hit.score = hit.relevance(self.embedder)
        return hits

    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        return self._read(filters, lambda rows: _vector(rows, vector, filters, limit))

    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        """Hybrid: the keyword sides and (when the embedder's similarity counts in ranking) the
        vector side, each proposing `limit` rows, fused by `Hit.relevance`."""

        return self._read(filters, lambda rows: _hybrid(rows, text, filters, limit, self.embedder))

    def scan(self, filters: SearchFilters) -> Iterator[tuple[str, str]]:
        """Every row of the filters' namespaces as (memory id, indexed text), read with the
        tenant's cursor: deletion verification looks for the erased texts in all of it."""
        if not filters.namespaces:
            return
        rows = self._open(tenant_name(filters.tenant_id), create=False)
        if rows is None:
            return
        wanted = set(filters.namespaces)
        for obj in rows.iterator(return_properties=["memory_id", "namespace", "content"]):
            props = obj.properties
            if props.get("namespace") in wanted:
                yield str(props["memory_id"]), str(props.get("content") or "")

    def at_places(self, places: Sequence[Place], filters: SearchFilters) -> list[Hit]:
        """The rows said at these places (namespace, thread, position) that the filters pass,
        with their projected embeddings (recall's diversity compares them)."""
        if not places:
            return []
        by_thread: dict[tuple[str, str], list[int]] = {}
        for namespace, thread, position in places:
            by_thread.setdefault((namespace, thread), []).append(position)
        return self._read(filters, lambda rows: _at_places(rows, by_thread, filters))

    def compact(self) -> tuple[bool, str]:
        """What a removal can reach in Weaviate is done when `remove` returns: the objects are
        deleted (tombstoned in the tenant's LSM segments, never returned again), and Weaviate
        drops their bytes when it compacts those segments in the background; no API forces it."""
        return (
            True,
            "objects deleted from Weaviate (tombstoned; segment files are compacted by Weaviate "
            "in the background, no API forces it; the cluster's own backups keep them until they "
            "expire)",
        )
