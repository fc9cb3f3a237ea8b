"""Memory records: every version (history) and the head of each memory (what reads re-check)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Text, and_, bindparam, cast, func, insert, or_, select, update
from sqlalchemy import text as sql_text

from governed_memory.memory.errors import RequestMismatch, VersionConflict
from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.models.sync import HeadDigest
from governed_memory.memory.plans import RecordChange, SlotState, slot_for
from governed_memory.memory.stores.canonical._db import (
    RECORD_FIELDS,
    Database,
    Part,
    chunks,
    record_values,
    records_of,
    row_to_record,
)
from governed_memory.memory.stores.schema import key_slots, memory_heads, memory_versions

# Statements of the hot write path, built once: parameters travel separately, so SQLAlchemy's
# compiled-statement cache is hit instead of rebuilding a statement per value.
_INSERT_VERSION = insert(memory_versions)
_INSERT_HEAD = insert(memory_heads)
_UPDATE_HEAD = update(memory_heads).where(memory_heads.c.memory_id == bindparam("b_memory_id"))

#: In the order of HeadDigest's fields.
_DIGEST_COLUMNS = (
    memory_heads.c.memory_id,
    memory_heads.c.tenant_id,
    memory_heads.c.namespace,
    memory_heads.c.version,
    memory_heads.c.content_hash,
    memory_heads.c.status,
    (memory_heads.c.content != "").label("has_content"),
    memory_heads.c.valid_from,
    memory_heads.c.valid_to,
    memory_heads.c.expires_at,
)


#: Built once: recall reads heads on every query, and building the statement each time cost
#: more than running it for a few ids.
_HEADS_BY_ID = select(memory_heads).where(
    memory_heads.c.memory_id.in_(bindparam("ids", expanding=True))
)


#: The version of each head: what a cached head is checked against.
_HEAD_VERSIONS = select(memory_heads.c.memory_id, memory_heads.c.version).where(
    memory_heads.c.memory_id.in_(bindparam("ids", expanding=True))
)


class HeadCache:
    """Heads already decoded, each under its memory's id with its version. A head row changes
    only with its version (every change is a new version: `insert`, `append_versions`), so a
    cached head whose version is the row's is the row: `Records.heads` reads the versions and
    decodes only the rows it does not hold. Decoding (JSON columns, the record) was most of
    reading a head, and recall reads a few dozen per query (hundreds at k = 200). Bounded
    (least recently used goes first); a memory given a new version here is dropped at once, so
    an erased memory's content is not kept past its tombstone in this process, and in another
    process it is never answered again (its version moved) and ages out."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._heads: OrderedDict[str, MemoryRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, memory_id: str, version: int) -> MemoryRecord | None:
        with self._lock:
            head = self._heads.get(memory_id)
            if head is None or head.version != version:
                return None
            self._heads.move_to_end(memory_id)
            return head

    def holding(self, memory_ids: Iterable[str]) -> list[str]:
        """Those of `memory_ids` held at some version."""
        with self._lock:
            return [m for m in memory_ids if m in self._heads]

    def put(self, heads: Iterable[MemoryRecord]) -> None:
        if self.size <= 0:
            return
        with self._lock:
            for head in heads:
                self._heads[head.memory_id] = head
                self._heads.move_to_end(head.memory_id)
            while len(self._heads) > self.size:
                self._heads.popitem(last=False)

    def drop(self, memory_ids: Iterable[str]) -> None:
        with self._lock:
            for memory_id in memory_ids:
                self._heads.pop(memory_id, None)


# The hottest reads of a write, built once with bound parameters: a statement built per call
# costs more than the query it runs.
_KEY_RECORDS = (
    select(memory_heads)
    .where(memory_heads.c.namespace.in_(bindparam("namespaces", expanding=True)))
    .where(memory_heads.c.key.in_(bindparam("keys", expanding=True)))
    .where(memory_heads.c.status.in_(bindparam("statuses", expanding=True)))
)
#: The same for one namespace, key and status (a write's current value, a verdict on one key):
#: plain equalities, which SQLAlchemy runs as compiled, where each expanding IN above is
#: re-rendered per execution (a fifth of a millisecond).
_KEY_RECORDS_ONE = (
    select(memory_heads)
    .where(memory_heads.c.namespace == bindparam("namespace"))
    .where(memory_heads.c.key == bindparam("key"))
    .where(memory_heads.c.status == bindparam("status"))
)
_SLOT_VERSION = select(key_slots.c.version).where(
    key_slots.c.namespace == bindparam("namespace"), key_slots.c.slot == bindparam("slot")
)
_SLOT_HEADS = (
    select(memory_heads)
    .where(memory_heads.c.namespace == bindparam("namespace"))
    # two equalities, not IN: an IN list is expanded at each execution
    .where(or_(memory_heads.c.status == "active", memory_heads.c.status == "superseded"))
    .order_by(memory_heads.c.valid_from, memory_heads.c.recorded_at)
)
#: A (namespace, writer)'s quota, locked for the transaction (Postgres).
_QUOTA_LOCK = sql_text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
#: The same locks for many keys in one statement, taken in the array's order (a function scan
#: of `unnest` yields its rows in order, and nothing sorts them after).
_QUOTA_LOCKS = sql_text(
    "SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))"
    " FROM unnest(CAST(:keys AS text[])) AS k"
)


def _counts(conn: Connection, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """How many active memories each (namespace, writer) keeps, in grouped queries."""
    counts = dict.fromkeys(wanted, 0)
    namespaces = sorted({ns for ns, _ in wanted})
    writers = sorted({w for _, w in wanted})
    for ns_chunk in chunks(namespaces):
        for w_chunk in chunks(writers):
            rows = conn.execute(_ACTIVE_COUNTS, {"namespaces": ns_chunk, "writers": w_chunk})
            for namespace, writer, n in rows:
                if (namespace, writer) in wanted:
                    counts[(namespace, writer)] = int(n)
    return counts


_KEPT = (
    select(func.count())
    .select_from(memory_heads)
    .where(
        memory_heads.c.namespace == bindparam("namespace"),
        memory_heads.c.written_by == bindparam("writer"),
        memory_heads.c.status == "active",
    )
)
_ACTIVE_COUNTS = (
    select(memory_heads.c.namespace, memory_heads.c.written_by, func.count())
    .where(
        memory_heads.c.namespace.in_(bindparam("namespaces", expanding=True)),
        memory_heads.c.written_by.in_(bindparam("writers", expanding=True)),
        memory_heads.c.status == "active",
    )
    .group_by(memory_heads.c.namespace, memory_heads.c.written_by)
)
_SLOT_BY_KEY = _SLOT_HEADS.where(memory_heads.c.key == bindparam("value"))
_SLOT_BY_GIST = _SLOT_HEADS.where(
    memory_heads.c.key.is_(None), memory_heads.c.gist == bindparam("value")
)


class Records(Part):
    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.cache = HeadCache()

    # ------------------------------------------------------------------------------ reads

    def heads(
        self, memory_ids: Iterable[str], conn: Connection | None = None
    ) -> dict[str, MemoryRecord]:
        """The current head of each memory that has one, as the store holds it now (in the
        caller's transaction, when it passes one): the versions are read, and only the rows
        `cache` does not hold at those versions are read whole. Only what was read outside a
        caller's transaction is kept: a version a transaction wrote may yet roll back, and its
        number be taken by another write."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        out: dict[str, MemoryRecord] = {}
        cache = self.cache
        with self.db.read(conn) as c:
            for chunk in chunks(ids):
                # Only the versions of heads held are read (none for a memory just written:
                # its new version dropped it).
                held = cache.holding(chunk)
                known = set(held)
                missing = [m for m in chunk if m not in known]
                if held:
                    for memory_id, version in c.execute(_HEAD_VERSIONS, {"ids": held}):
                        head = cache.get(memory_id, version)
                        if head is None:
                            missing.append(memory_id)
                        else:
                            out[memory_id] = head
                if missing:
                    read = list(records_of(c.execute(_HEADS_BY_ID, {"ids": missing})))
                    if conn is None:
                        cache.put(read)
                    out.update((r.memory_id, r) for r in read)
        return out

    def head(self, memory_id: str) -> MemoryRecord | None:
        return self.heads([memory_id]).get(memory_id)

    def versions(self, memory_id: str) -> list[MemoryRecord]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(memory_versions)
                .where(memory_versions.c.memory_id == memory_id)
                .order_by(memory_versions.c.version)
            )
            return [row_to_record(r) for r in rows]

    def unblanked(self, memory_ids: Iterable[str]) -> set[str]:
        """Of these memories, those with a version that still holds content, a value or the
        writer's graph hints."""
        found: set[str] = set()
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(memory_ids))):
                rows = conn.execute(
                    select(
                        memory_versions.c.memory_id,
                        memory_versions.c.content,
                        memory_versions.c.structured_value,
                        memory_versions.c.graph,
                    ).where(memory_versions.c.memory_id.in_(chunk))
                )
                found.update(
                    r.memory_id for r in rows if r.content or r.structured_value or r.graph
                )
        return found

    def as_of(self, memory_ids: Iterable[str], recorded_by: datetime) -> dict[str, MemoryRecord]:
        """Each memory as the system knew it at `recorded_by` (absent if it did not know it yet)."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        latest = (
            select(memory_versions.c.memory_id, func.max(memory_versions.c.version).label("v"))
            .where(memory_versions.c.memory_id.in_(ids))
            .where(memory_versions.c.recorded_at <= recorded_by)
            .group_by(memory_versions.c.memory_id)
            .subquery()
        )
        query = select(memory_versions).join(
            latest,
            and_(
                memory_versions.c.memory_id == latest.c.memory_id,
                memory_versions.c.version == latest.c.v,
            ),
        )
        with self.db.read() as conn:
            return {r.memory_id: row_to_record(r) for r in conn.execute(query)}

    def key_records(
        self, namespaces: Sequence[str], keys: Sequence[str], statuses: Sequence[str]
    ) -> list[MemoryRecord]:
        """Heads for the given keys in the given namespaces, in the given statuses."""
        if not namespaces or not keys:
            return []
        if len(namespaces) == len(keys) == len(statuses) == 1:
            query = _KEY_RECORDS_ONE
            params: dict[str, Any] = {
                "namespace": namespaces[0],
                "key": keys[0],
                "status": statuses[0],
            }
        else:
            query = _KEY_RECORDS
            params = {
                "namespaces": list(namespaces),
                "keys": list(keys),
                "statuses": list(statuses),
            }
        with self.db.read() as conn:
            return [row_to_record(r) for r in conn.execute(query, params)]

    def slot_state(self, namespace: str, slot: str) -> SlotState:
        """The slot's version and its memories that are not deleted or invalidated."""
        kind, _, value = slot.partition(":")
        query = _SLOT_BY_KEY if kind == "key" else _SLOT_BY_GIST
        with self.db.read() as conn:
            version = conn.execute(_SLOT_VERSION, {"namespace": namespace, "slot": slot}).scalar()
            rows = conn.execute(query, {"namespace": namespace, "value": value})
            return SlotState(version=version or 0, records=[row_to_record(r) for r in rows])

    def key_slot_states(
        self, namespaces: Sequence[str], keys: Sequence[str]
    ) -> dict[tuple[str, str], SlotState]:
        """`slot_state` of each `key:` slot of these namespaces and keys (each pair, present or
        not), by (namespace, slot): a batch reads the slots its writes name at once."""
        slots = [slot_for(k, None) for k in keys]
        out = {(ns, slot): SlotState(version=0, records=[]) for ns in namespaces for slot in slots}
        if not out:
            return out
        with self.db.read() as conn:
            for part in chunks(list(namespaces)):
                versions = conn.execute(
                    select(key_slots.c.namespace, key_slots.c.slot, key_slots.c.version).where(
                        key_slots.c.namespace.in_(part), key_slots.c.slot.in_(slots)
                    )
                )
                for namespace, slot, version in versions:
                    out[(namespace, slot)].version = version
                rows = conn.execute(
                    select(memory_heads)
                    .where(memory_heads.c.namespace.in_(part), memory_heads.c.key.in_(keys))
                    .where(
                        or_(
                            memory_heads.c.status == "active", memory_heads.c.status == "superseded"
                        )
                    )
                    .order_by(memory_heads.c.valid_from, memory_heads.c.recorded_at)
                )
                for row in rows:
                    record = row_to_record(row)
                    out[(record.namespace, slot_for(record.key, None))].records.append(record)
        return out

    def subject_heads(self, tenant_id: str, subject_ref: str) -> list[MemoryRecord]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(memory_heads).where(
                    memory_heads.c.tenant_id == tenant_id,
                    memory_heads.c.subject_ref == subject_ref,
                )
            )
            return [row_to_record(r) for r in rows]

    def namespace_heads(self, namespace: str, key: str | None = None) -> list[MemoryRecord]:
        query = select(memory_heads).where(memory_heads.c.namespace == namespace)
        if key is not None:
            query = query.where(memory_heads.c.key == key)
        with self.db.read() as conn:
            return [row_to_record(r) for r in conn.execute(query)]

    def namespace_page(self, namespace: str, after: str | None, limit: int) -> list[MemoryRecord]:
        """At most `limit` heads of a namespace in memory id order, after `after` (a keyset
        page: `ix_heads_ns_id`; an export reads a namespace this way, page by page)."""
        query = (
            select(memory_heads)
            .where(memory_heads.c.namespace == namespace)
            .order_by(memory_heads.c.memory_id)
            .limit(limit)
        )
        if after is not None:
            query = query.where(memory_heads.c.memory_id > after)
        with self.db.read() as conn:
            return [row_to_record(r) for r in conn.execute(query)]

    def versions_of(self, memory_ids: Iterable[str]) -> dict[str, list[MemoryRecord]]:
        """Every version of each of these memories, in version order (`versions` for many)."""
        out: dict[str, list[MemoryRecord]] = {}
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(memory_ids))):
                rows = conn.execute(
                    select(memory_versions)
                    .where(memory_versions.c.memory_id.in_(chunk))
                    .order_by(memory_versions.c.memory_id, memory_versions.c.version)
                )
                for r in rows:
                    out.setdefault(r.memory_id, []).append(row_to_record(r))
        return out

    def active_count(self, namespace: str, written_by: str) -> int:
        """How many active memories `written_by` keeps in `namespace` (a quota's count: an
        index-only count on `ix_heads_ns_writer`)."""
        with self.db.read() as conn:
            count = conn.execute(
                select(func.count())
                .select_from(memory_heads)
                .where(
                    memory_heads.c.namespace == namespace,
                    memory_heads.c.written_by == written_by,
                    memory_heads.c.status == "active",
                )
            ).scalar_one()
        return int(count)

    def active_counts(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """`active_count` of each (namespace, writer) pair, in one grouped query per chunk of
        namespaces (a batch's door counts a hundred writers at once)."""
        with self.db.read() as conn:
            return _counts(conn, set(pairs))

    def kept_by_all(
        self, conn: Connection, pairs: Iterable[tuple[str, str]]
    ) -> dict[tuple[str, str], int]:
        """`kept_by` for many (namespace, writer) pairs at once: each locked first on Postgres
        (in one order, whatever the plans' order), then counted in grouped queries."""
        wanted = set(pairs)
        if self.db.dialect != "sqlite" and wanted:
            keys = [f"quota\x1f{namespace}\x1f{writer}" for namespace, writer in sorted(wanted)]
            conn.execute(_QUOTA_LOCKS, {"keys": keys})
        return _counts(conn, wanted)

    def kept_by(self, conn: Connection, namespace: str, writers: Sequence[str]) -> dict[str, int]:
        """Inside a write transaction: how many active memories each writer keeps in
        `namespace`, each (namespace, writer) locked first on Postgres (a transaction-scoped
        advisory lock; SQLite's writers queue already), so two commits for one writer count
        one after the other."""
        counts: dict[str, int] = {}
        for writer in sorted(writers):
            if self.db.dialect != "sqlite":
                conn.execute(_QUOTA_LOCK, {"key": f"quota\x1f{namespace}\x1f{writer}"})
            params = {"namespace": namespace, "writer": writer}
            counts[writer] = int(conn.execute(_KEPT, params).scalar_one())
        return counts

    def citing(self, tenant_id: str, source_ref: str) -> list[MemoryRecord]:
        """Memories whose sources include `source_ref` (or, for a reference without a version,
        any version of it)."""
        pattern = (
            '%"' + source_ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        )
        with self.db.read() as conn:
            rows = conn.execute(
                select(memory_heads).where(
                    memory_heads.c.tenant_id == tenant_id,
                    cast(memory_heads.c.source_refs, Text).like(pattern, escape="\\"),
                )
            )
            records = [row_to_record(r) for r in rows]
        return [
            r
            for r in records
            if any(ref == source_ref or ref.startswith(source_ref + "?") for ref in r.source_refs)
        ]

    def digests(self, after: str | None, limit: int) -> list[HeadDigest]:
        """Heads in memory id order after `after`: a full compare pages through these."""
        query = select(*_DIGEST_COLUMNS).order_by(memory_heads.c.memory_id).limit(limit)
        if after is not None:
            query = query.where(memory_heads.c.memory_id > after)
        with self.db.read() as conn:
            return [HeadDigest(*r) for r in conn.execute(query)]

    def digests_for(self, memory_ids: Iterable[str]) -> dict[str, HeadDigest]:
        out: dict[str, HeadDigest] = {}
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(memory_ids))):
                rows = conn.execute(
                    select(*_DIGEST_COLUMNS).where(memory_heads.c.memory_id.in_(chunk))
                )
                out.update((r[0], HeadDigest(*r)) for r in rows)
        return out

    # ------------------------------------------------------------------------------ writes

    def insert(self, conn: Connection, records: Sequence[MemoryRecord], change: str) -> None:
        """New memories: their first version and their head."""
        if not records:
            return
        values = [record_values(r) for r in records]
        self.cache.drop(r.memory_id for r in records)
        conn.execute(_INSERT_VERSION, [{**v, "change": change} for v in values])
        conn.execute(_INSERT_HEAD, values)

    def append_versions(self, conn: Connection, versions: Sequence[dict[str, Any]]) -> None:
        """New versions of existing memories (full field values, `change` included), each
        becoming its memory's head."""
        if not versions:
            return
        self.cache.drop(row["memory_id"] for row in versions)
        conn.execute(_INSERT_VERSION, list(versions))
        conn.execute(
            _UPDATE_HEAD,
            [
                {**{k: v for k, v in row.items() if k != "change"}, "b_memory_id": row["memory_id"]}
                for row in versions
            ],
        )

    def apply_change(
        self,
        conn: Connection,
        change: RecordChange,
        at: datetime,
        *,
        tenant_id: str,
        namespace: str,
    ) -> tuple[str, int]:
        """A new version of a memory at the version the change was decided against. The memory
        must be of the plan's tenant and namespace, whoever made the plan."""
        row = conn.execute(
            select(memory_heads).where(memory_heads.c.memory_id == change.memory_id)
        ).first()
        if row is None:
            raise VersionConflict(f"memory {change.memory_id} vanished")
        if (row.tenant_id, row.namespace) != (tenant_id, namespace):
            raise RequestMismatch(
                f"memory {change.memory_id} is not of the namespace this commit is for",
                field="memory_id",
            )
        if row.version != change.expected_version:
            raise VersionConflict(
                f"memory {change.memory_id} is at version {row.version}, "
                f"not {change.expected_version}"
            )
        values = next_version(
            row,
            at,
            change.change,
            status=change.status,
            valid_to=change.valid_to,
            conflict_group=change.conflict_group,
            **({} if change.confidence is None else {"confidence": change.confidence}),
        )
        self.append_versions(conn, [values])
        return change.memory_id, row.version + 1

    def blank_history(self, conn: Connection, memory_ids: Sequence[str]) -> int:
        """Blank content, value, graph hints and hashes in every version of these memories
        (erasure)."""
        blanked = 0
        for chunk in chunks(list(memory_ids)):
            blanked += conn.execute(
                update(memory_versions)
                .where(memory_versions.c.memory_id.in_(chunk))
                .values(
                    content="", structured_value=None, content_hash="erased", gist=None, graph=None
                )
            ).rowcount
        return blanked

    def locked_heads(
        self, conn: Connection, memory_ids: Sequence[str], *, for_update: bool = False
    ) -> list[Any]:
        """Head rows read inside a write transaction (to derive their next versions); with
        `for_update`, locked until it ends (Postgres; SQLite's writers take turns anyway)."""
        query = select(memory_heads)
        if for_update:
            query = query.with_for_update()
        return [
            r
            for chunk in chunks(list(memory_ids))
            for r in conn.execute(query.where(memory_heads.c.memory_id.in_(chunk)))
        ]


def next_version(row: Any, at: datetime, change: str, **fields: Any) -> dict[str, Any]:
    """The values of a head row's next version with `fields` changed."""
    values = {name: getattr(row, name) for name in RECORD_FIELDS}
    values.update(version=row.version + 1, recorded_at=at, **fields)
    values["change"] = change
    return values
