"""The canonical store: the source of truth, on SQLAlchemy 2 (SQLite or Postgres, same code).

What it guarantees:
- history: a change appends a version row and moves the head; only erasure blanks content;
- optimistic concurrency: a commit names the slot version it resolved against and fails with
  `VersionConflict` if anyone committed to that slot since;
- one transaction per commit: record versions, heads, outbox events, audit events, the cache
  generation bump and the commit's idempotency row land together or not at all;
- idempotent commits: a commit id already applied returns its first result.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from alembic import command
from alembic.config import Config
from pydantic import AwareDatetime, Field
from sqlalchemy import (
    Connection,
    Engine,
    Table,
    Text,
    and_,
    bindparam,
    case,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError, OperationalError

from memory.errors import FencedByDeletion, NotFound, VersionConflict
from memory.models import (
    AuditEvent,
    CandidateOutcome,
    ConversationMessage,
    DeletionReceipt,
    ExtractorInfo,
    MemoryRecord,
    Model,
    Principal,
    PrincipalType,
    ReviewRecord,
    Status,
    content_hash,
    parse_principal_ref,
)
from memory.stores.schema import (
    applied_commits,
    audit_events,
    cache_generations,
    conversation_messages,
    deletion_fences,
    deletion_ledger,
    deletion_probes,
    deletion_receipts,
    key_slots,
    memory_heads,
    memory_lineage,
    memory_outbox,
    memory_versions,
    principals,
    projection_repairs,
    projection_watermarks,
    reviews,
    write_outcomes,
)

MIGRATIONS = Path(__file__).with_name("migrations")

_RECORD_FIELDS = tuple(c.name for c in memory_heads.columns)

# Statements of the hot write path, built once: parameters travel separately, so SQLAlchemy's
# compiled-statement cache is hit instead of rebuilding a statement per value.
_INSERT_VERSION = insert(memory_versions)
_INSERT_HEAD = insert(memory_heads)
_UPDATE_HEAD = update(memory_heads).where(memory_heads.c.memory_id == bindparam("b_memory_id"))
_INSERT_SLOT = insert(key_slots)
_ERASE_MESSAGE = update(conversation_messages).where(
    conversation_messages.c.message_id == bindparam("b_message_id")
)
_ADVANCE_SLOT = update(key_slots).where(
    key_slots.c.namespace == bindparam("b_namespace"),
    key_slots.c.slot == bindparam("b_slot"),
    key_slots.c.version == bindparam("b_expected"),
)
_INSERT_OUTBOX = insert(memory_outbox).returning(memory_outbox.c.seq)
_INSERT_COMMIT = insert(applied_commits)
_BUMP_GENERATION: dict[str, Any] = {}


def slot_for(key: str | None, gist: str | None) -> str:
    """The concurrency slot of a memory: its key, or for a memory without key what it says (its
    gist), so two writers of the same statement race on one slot instead of both adding it."""
    return f"key:{key}" if key is not None else f"gist:{gist}"


class RecordChange(Model):
    """A new version of an existing memory: the full new values of the fields that may change."""

    memory_id: str
    expected_version: int
    status: Status
    valid_to: AwareDatetime | None
    conflict_group: str | None
    change: str


class SlotCheck(Model):
    """A slot the plan was decided against, at the version it had then."""

    slot: str
    expected_version: int


class LineageLink(Model):
    """A derived record (a summary) and one message or memory it was made from."""

    derived_id: str
    derived_version: int
    source_kind: Literal["message", "memory"]
    source_id: str


class WriteOutcome(Model):
    tenant_id: str
    idempotency_key: str
    workflow_id: str
    outcomes: list[CandidateOutcome]


class CommitPlan(Model):
    commit_id: str
    tenant_id: str
    namespace: str
    at: AwareDatetime
    #: Every slot this plan writes to; each must still be at its expected version.
    slots: list[SlotCheck] = Field(default_factory=list)
    workflow_id: str | None = None
    new_records: list[MemoryRecord] = Field(default_factory=list)
    changes: list[RecordChange] = Field(default_factory=list)
    audit: list[AuditEvent] = Field(default_factory=list)
    #: Reviews opened or settled together with these changes (a conflict group and its review
    #: exist together or not at all).
    reviews: list[ReviewRecord] = Field(default_factory=list)
    #: The decision of the write, by idempotency key (absent for reviews and sweeps).
    outcome: WriteOutcome | None = None
    #: What derived records in this plan were made from.
    lineage: list[LineageLink] = Field(default_factory=list)


class CommitResult(Model):
    commit_id: str
    #: (memory_id, version) of every version this commit wrote.
    written: list[tuple[str, int]]
    outbox_seqs: list[int]
    replayed: bool = False
    #: Set by the caller once the projection holds this commit's state.
    projected: bool = False

    @property
    def memory_ids(self) -> list[str]:
        return [m for m, _ in self.written]


class OutboxEvent(Model):
    seq: int
    event_id: str
    memory_id: str
    memory_version: int
    tenant_id: str
    namespace: str
    operation: str
    payload: dict[str, Any]
    created_at: AwareDatetime
    processed_at: AwareDatetime | None


class Watermarks(Model):
    """How far a projection has followed the outbox (event seqs), and the repair marks."""

    projection: str
    last_event_seen: int = 0
    last_event_committed: int = 0
    last_index_updated: int = 0
    repair_seq: int = 0
    repair_written: int = 0
    epoch: str | None = None
    last_repair_at: AwareDatetime | None = None
    last_full_repair_at: AwareDatetime | None = None


class OutboxStatus(Model):
    last_seq: int
    unprocessed: int
    #: The oldest unprocessed event (none: the outbox is drained).
    oldest_unprocessed_seq: int | None
    oldest_unprocessed_at: AwareDatetime | None


@dataclass(frozen=True, slots=True)
class HeadDigest:
    """What a projection row is compared with: the head's version and hash, and whether it
    should be projected at all. A plain dataclass: a full compare builds one per memory."""

    memory_id: str
    tenant_id: str
    namespace: str
    version: int
    content_hash: str
    status: Status
    has_content: bool
    valid_from: datetime | None
    valid_to: datetime | None
    expires_at: datetime | None


class RepairRecord(Model):
    memory_id: str
    namespace: str | None
    reason: str
    result: str


class SlotState(Model):
    version: int
    records: list[MemoryRecord]


class EraseResult(Model):
    memory_ids: list[str]
    versions_erased: int
    messages_erased: int = 0
    namespaces: list[str]
    outbox_seqs: list[int]
    slots: list[tuple[str, str]] = Field(default_factory=list)


class MessageErasure(Model):
    """A message to erase whole (`new_text` None) or to keep with the stating parts cut out."""

    message_id: str
    new_text: str | None = None
    #: The parts removed (the whole text when None): probe material, never stored elsewhere.
    erased_parts: list[str] = Field(default_factory=list)
    #: For a partial erasure: the key whose statements were cut (to redo it after a restore).
    key: str | None = None


class LedgerEntry(Model):
    """What a deletion erased, by id: enough to erase it again in a restored store."""

    deletion_id: str
    tenant_id: str
    scope: dict[str, Any]
    memory_ids: list[str]
    messages: list[tuple[str, str | None]] = Field(default_factory=list)
    fences: list[tuple[str, str]] = Field(default_factory=list)
    committed_at: AwareDatetime


def _upsert(
    conn: Connection,
    table: Table,
    values: dict[str, Any],
    *,
    keys: list[str],
    update: dict[str, Any] | None = None,
) -> None:
    """INSERT ... ON CONFLICT DO UPDATE, on SQLite and Postgres alike."""
    stmt = (sqlite_insert if conn.dialect.name == "sqlite" else pg_insert)(table).values(**values)
    if update is None:
        update = {k: stmt.excluded[k] for k in values if k not in keys}
    conn.execute(stmt.on_conflict_do_update(index_elements=keys, set_=update))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _bounded(commit_id: str) -> str:
    """Commit ids are made of workflow ids and can be long; past 200 characters, a digest."""
    return (
        commit_id
        if len(commit_id) <= 200
        else f"sha256:{hashlib.sha256(commit_id.encode()).hexdigest()}"
    )


def _row_to_message(row: Any) -> ConversationMessage:
    data = dict(row._mapping)
    return ConversationMessage.model_validate(
        {k: v for k, v in data.items() if k in ConversationMessage.model_fields}
    )


def _row_to_record(row: Any) -> MemoryRecord:
    # Rows come from our own writes through validated models, with types restored by the
    # column types: construct without validating again (this is on every read's path).
    data = dict(row._mapping)
    data.pop("change", None)
    data["extractor"] = ExtractorInfo.model_construct(**data["extractor"])
    return MemoryRecord.model_construct(**data)


def _record_values(record: MemoryRecord) -> dict[str, Any]:
    data = record.model_dump(mode="python", exclude={"schema_version"})
    data["extractor"] = record.extractor.model_dump()
    return data


class CanonicalStore:
    """Source of truth. Thread-safe: one engine, a connection per call."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.dialect = url.split(":", 1)[0].split("+", 1)[0]
        if self.dialect == "sqlite":
            path = url.removeprefix("sqlite:///")
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            # Writers take the lock up front (BEGIN IMMEDIATE) so two writers queue on
            # busy_timeout instead of failing a read-then-write upgrade; readers use their
            # own engine with plain deferred transactions and never block each other.
            self.engine = self._sqlite_engine(url, immediate=True)
            self.read_engine = self._sqlite_engine(url, immediate=False)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
            self.read_engine = self.engine
        self._migrated = threading.Event()

    @staticmethod
    def _sqlite_engine(url: str, *, immediate: bool) -> Engine:
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            # Large stores: a bigger page cache and memory-mapped reads keep lookups off syscalls.
            cur.execute("PRAGMA cache_size=-32000")
            cur.execute("PRAGMA mmap_size=268435456")
            # Erased content must not linger in free pages.
            cur.execute("PRAGMA secure_delete=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine

    # ---------------------------------------------------------------------------- lifecycle

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to an Alembic revision, by default the newest (idempotent)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        if revision == "head":
            self._migrated.set()

    def close(self) -> None:
        self.engine.dispose()
        if self.read_engine is not self.engine:
            self.read_engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError as exc:
            raise VersionConflict(f"concurrent write: {exc.orig}") from exc

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.read_engine.connect() as conn:
            yield conn

    # ---------------------------------------------------------------------------- principals

    def put_principal(self, principal: Principal, at: datetime) -> None:
        values = {
            "ref": principal.ref,
            "tenant_id": principal.tenant,
            "type": principal.type,
            "definition": principal.model_dump(mode="json"),
            "updated_at": at,
        }
        with self._write() as conn:
            _upsert(conn, principals, values, keys=["ref"])

    def get_principal(self, ref: str) -> Principal:
        """The registered principal; users need no registration (their id gives their rights)."""
        type_, tenant, id_ = parse_principal_ref(ref)
        with self._read() as conn:
            row = conn.execute(
                select(principals.c.definition).where(principals.c.ref == ref)
            ).first()
        if row is not None:
            return Principal.model_validate(row.definition)
        if type_ == "user":
            return Principal(type="user", tenant=tenant, id=id_)
        raise NotFound(f"unknown principal {ref!r}", field="principal")

    # ---------------------------------------------------------------------------- reads

    def heads(self, memory_ids: Iterable[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        with self._read() as conn:
            rows = conn.execute(select(memory_heads).where(memory_heads.c.memory_id.in_(ids)))
            return {r.memory_id: _row_to_record(r) for r in rows}

    def head(self, memory_id: str) -> MemoryRecord | None:
        return self.heads([memory_id]).get(memory_id)

    def versions(self, memory_id: str) -> list[MemoryRecord]:
        with self._read() as conn:
            rows = conn.execute(
                select(memory_versions)
                .where(memory_versions.c.memory_id == memory_id)
                .order_by(memory_versions.c.version)
            )
            return [_row_to_record(r) for r in rows]

    def unblanked(self, memory_ids: Iterable[str]) -> set[str]:
        """Of these memories, those with a version that still holds content or a value."""
        ids = list(dict.fromkeys(memory_ids))
        found: set[str] = set()
        with self._read() as conn:
            for i in range(0, len(ids), 500):
                rows = conn.execute(
                    select(
                        memory_versions.c.memory_id,
                        memory_versions.c.content,
                        memory_versions.c.structured_value,
                    ).where(memory_versions.c.memory_id.in_(ids[i : i + 500]))
                )
                found.update(r.memory_id for r in rows if r.content or r.structured_value)
        return found

    def as_of(self, memory_ids: Iterable[str], recorded_by: datetime) -> dict[str, MemoryRecord]:
        """Each memory as the system knew it at `recorded_by` (absent if it did not know it yet)."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        latest = (
            select(
                memory_versions.c.memory_id,
                func.max(memory_versions.c.version).label("v"),
            )
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
        with self._read() as conn:
            return {r.memory_id: _row_to_record(r) for r in conn.execute(query)}

    def key_records(
        self, namespaces: Sequence[str], keys: Sequence[str], statuses: Sequence[str]
    ) -> list[MemoryRecord]:
        """Heads for the given keys in the given namespaces, in the given statuses."""
        if not namespaces or not keys:
            return []
        with self._read() as conn:
            rows = conn.execute(
                select(memory_heads)
                .where(memory_heads.c.namespace.in_(list(namespaces)))
                .where(memory_heads.c.key.in_(list(keys)))
                .where(memory_heads.c.status.in_(list(statuses)))
            )
            return [_row_to_record(r) for r in rows]

    def slot_state(self, namespace: str, slot: str) -> SlotState:
        """The slot's version and its memories that are not deleted or invalidated."""
        kind, _, value = slot.partition(":")
        cond = (
            memory_heads.c.key == value
            if kind == "key"
            else and_(memory_heads.c.key.is_(None), memory_heads.c.gist == value)
        )
        with self._read() as conn:
            version = conn.execute(
                select(key_slots.c.version).where(
                    key_slots.c.namespace == namespace, key_slots.c.slot == slot
                )
            ).scalar()
            rows = conn.execute(
                select(memory_heads)
                .where(memory_heads.c.namespace == namespace, cond)
                .where(memory_heads.c.status.in_(("active", "superseded")))
                .order_by(memory_heads.c.valid_from, memory_heads.c.recorded_at)
            )
            return SlotState(version=version or 0, records=[_row_to_record(r) for r in rows])

    def subject_heads(self, tenant_id: str, subject_ref: str) -> list[MemoryRecord]:
        with self._read() as conn:
            rows = conn.execute(
                select(memory_heads).where(
                    memory_heads.c.tenant_id == tenant_id,
                    memory_heads.c.subject_ref == subject_ref,
                )
            )
            return [_row_to_record(r) for r in rows]

    def namespace_heads(self, namespace: str, key: str | None = None) -> list[MemoryRecord]:
        query = select(memory_heads).where(memory_heads.c.namespace == namespace)
        if key is not None:
            query = query.where(memory_heads.c.key == key)
        with self._read() as conn:
            return [_row_to_record(r) for r in conn.execute(query)]

    def generations(self, namespaces: Sequence[str]) -> dict[str, tuple[int, datetime | None]]:
        """Per namespace: its generation and the recorded time of its latest change."""
        with self._read() as conn:
            rows = conn.execute(
                select(cache_generations).where(cache_generations.c.namespace.in_(list(namespaces)))
            )
            found = {r.namespace: (r.generation, r.changed_at) for r in rows}
        return {ns: found.get(ns, (0, None)) for ns in namespaces}

    # ---------------------------------------------------------------------------- commit

    def commit(self, plan: CommitPlan) -> CommitResult:
        """Apply a plan in one transaction, or raise `VersionConflict` and change nothing."""
        return self.commit_many([plan])[0]

    def commit_many(self, plans: Sequence[CommitPlan]) -> list[CommitResult]:
        """Apply several plans in one transaction: all of them, or (VersionConflict) none."""
        try:
            with self._write() as conn:
                return [self._apply_plan(conn, plan) for plan in plans]
        except OperationalError as exc:  # SQLite busy beyond the timeout, PG serialization
            raise VersionConflict(f"store busy: {exc.orig}") from exc

    def _apply_plan(self, conn: Connection, plan: CommitPlan) -> CommitResult:
        prior = conn.execute(
            select(applied_commits.c.result).where(
                applied_commits.c.commit_id == _bounded(plan.commit_id)
            )
        ).scalar()
        if prior is not None:
            return CommitResult.model_validate({**prior, "replayed": True})
        if plan.new_records and plan.slots:
            # A write decided before a deletion of these slots committed is stale: it must not
            # bring back what the deletion erased.
            fenced = conn.execute(
                select(deletion_fences.c.deletion_id).where(
                    deletion_fences.c.namespace == plan.namespace,
                    deletion_fences.c.slot.in_([c.slot for c in plan.slots]),
                    deletion_fences.c.committed_at > plan.at,
                )
            ).first()
            if fenced is not None:
                raise FencedByDeletion(
                    f"deletion {fenced[0]} erased this after the write was decided",
                    field="namespace",
                )
        for check in sorted(plan.slots, key=lambda c: c.slot):
            self._advance_slot(conn, plan.namespace, check.slot, check.expected_version, plan.at)
        written: list[tuple[str, int]] = []
        for change in plan.changes:
            written.append(self._apply_change(conn, change, plan.at))
        for record in plan.new_records:
            values = _record_values(record)
            conn.execute(_INSERT_VERSION, {**values, "change": "created"})
            conn.execute(_INSERT_HEAD, values)
            written.append((record.memory_id, record.version))
        seqs = self._append_outbox(
            conn, plan.commit_id, plan.tenant_id, plan.namespace, written, "upsert", plan.at
        )
        self._append_audit(
            conn, plan.tenant_id, plan.namespace, plan.workflow_id, plan.audit, plan.at
        )
        for review in plan.reviews:
            self._save_review(conn, review)
        if plan.outcome is not None:
            self._save_outcome(conn, plan.outcome, plan.at)
        if plan.lineage:
            conn.execute(
                insert(memory_lineage),
                [
                    {**link.model_dump(), "tenant_id": plan.tenant_id, "created_at": plan.at}
                    for link in plan.lineage
                ],
            )
        if written:
            self._bump_generations(conn, [plan.namespace], plan.at)
        result = CommitResult(commit_id=plan.commit_id, written=written, outbox_seqs=seqs)
        conn.execute(
            _INSERT_COMMIT,
            {
                "commit_id": _bounded(plan.commit_id),
                "result": result.model_dump(mode="json"),
                "committed_at": plan.at,
            },
        )
        return result

    def _save_outcome(self, conn: Connection, outcome: WriteOutcome, at: datetime) -> None:
        # A plain insert: a key decided twice at once fails one of the two (VersionConflict),
        # and the loser finds the winner's outcome when it decides again.
        conn.execute(
            insert(write_outcomes),
            {
                "tenant_id": outcome.tenant_id,
                "idempotency_key": outcome.idempotency_key,
                "workflow_id": outcome.workflow_id,
                "outcomes": [o.model_dump(mode="json") for o in outcome.outcomes],
                "decided_at": at,
            },
        )

    def write_outcome(self, tenant_id: str, idempotency_key: str) -> WriteOutcome | None:
        """The decision already made for this idempotency key, if any."""
        with self._read() as conn:
            row = conn.execute(
                select(write_outcomes).where(
                    write_outcomes.c.tenant_id == tenant_id,
                    write_outcomes.c.idempotency_key == idempotency_key,
                )
            ).first()
        if row is None:
            return None
        return WriteOutcome(
            tenant_id=row.tenant_id,
            idempotency_key=row.idempotency_key,
            workflow_id=row.workflow_id,
            outcomes=[CandidateOutcome.model_validate(o) for o in row.outcomes],
        )

    def _advance_slot(
        self, conn: Connection, namespace: str, slot: str, expected: int, at: datetime
    ) -> None:
        if expected == 0:
            exists = conn.execute(
                select(key_slots.c.version).where(
                    key_slots.c.namespace == namespace, key_slots.c.slot == slot
                )
            ).scalar()
            if exists is not None:
                raise VersionConflict(f"slot {slot} moved to version {exists}")
            conn.execute(
                _INSERT_SLOT, {"namespace": namespace, "slot": slot, "version": 1, "updated_at": at}
            )
            return
        moved = conn.execute(
            _ADVANCE_SLOT,
            {
                "b_namespace": namespace,
                "b_slot": slot,
                "b_expected": expected,
                "version": expected + 1,
                "updated_at": at,
            },
        ).rowcount
        if moved != 1:
            raise VersionConflict(f"slot {slot} is no longer at version {expected}")

    def _apply_change(
        self, conn: Connection, change: RecordChange, at: datetime
    ) -> tuple[str, int]:
        row = conn.execute(
            select(memory_heads).where(memory_heads.c.memory_id == change.memory_id)
        ).first()
        if row is None:
            raise VersionConflict(f"memory {change.memory_id} vanished")
        if row.version != change.expected_version:
            raise VersionConflict(
                f"memory {change.memory_id} is at version {row.version}, "
                f"not {change.expected_version}"
            )
        values = {name: getattr(row, name) for name in _RECORD_FIELDS}
        values.update(
            version=row.version + 1,
            status=change.status,
            valid_to=change.valid_to,
            conflict_group=change.conflict_group,
            recorded_at=at,
        )
        conn.execute(_INSERT_VERSION, {**values, "change": change.change})
        conn.execute(_UPDATE_HEAD, {**values, "b_memory_id": change.memory_id})
        return change.memory_id, row.version + 1

    def _append_outbox(
        self,
        conn: Connection,
        commit_id: str,
        tenant_id: str,
        namespace: str,
        written: Sequence[tuple[str, int]],
        operation: str,
        at: datetime,
    ) -> list[int]:
        seqs = []
        for memory_id, version in written:
            seq = conn.execute(
                _INSERT_OUTBOX,
                {
                    "event_id": f"{_digest(commit_id)}:{memory_id}:{version}",
                    "memory_id": memory_id,
                    "memory_version": version,
                    "tenant_id": tenant_id,
                    "namespace": namespace,
                    "operation": operation,
                    # No content: the outbox must not keep what a deletion erases.
                    "payload": {"memory_id": memory_id, "version": version},
                    "created_at": at,
                },
            ).scalar_one()
            seqs.append(seq)
        return seqs

    def _append_audit(
        self,
        conn: Connection,
        tenant_id: str,
        namespace: str | None,
        workflow_id: str | None,
        events: Sequence[AuditEvent],
        at: datetime,
    ) -> None:
        if not events:
            return
        conn.execute(
            insert(audit_events),
            [
                {
                    "at": at,
                    "tenant_id": tenant_id,
                    "namespace": namespace,
                    "workflow_id": workflow_id,
                    "stage": e.stage,
                    "outcome": e.outcome,
                    "decision": e.decision,
                    "relation": e.relation,
                    "reason_code": e.reason_code,
                    "memory_id": e.memory_id,
                    "memory_version": e.memory_version,
                    "principal": e.principal,
                    "extractor": e.extractor.model_dump() if e.extractor else None,
                    "details": e.details,
                }
                for e in events
            ],
        )

    def bump_generations(self, namespaces: Iterable[str], at: datetime) -> None:
        """Move these namespaces' cache generations (a repair changed what reads can find)."""
        with self._write() as conn:
            self._bump_generations(conn, namespaces, at)

    def _bump_generations(self, conn: Connection, namespaces: Iterable[str], at: datetime) -> None:
        """Every change to a namespace moves its generation (caches key on it) and its
        changed_at (the latest recorded time of a change)."""
        stmt = _BUMP_GENERATION.get(conn.dialect.name)
        if stmt is None:
            table = cache_generations
            ins = (sqlite_insert if conn.dialect.name == "sqlite" else pg_insert)(table)
            stmt = ins.values(
                namespace=bindparam("ns"), generation=1, changed_at=bindparam("at")
            ).on_conflict_do_update(
                index_elements=["namespace"],
                set_={
                    "generation": table.c.generation + 1,
                    "changed_at": func.coalesce(
                        case(
                            (table.c.changed_at > ins.excluded.changed_at, table.c.changed_at),
                            else_=ins.excluded.changed_at,
                        ),
                        ins.excluded.changed_at,
                    ),
                },
            )
            _BUMP_GENERATION[conn.dialect.name] = stmt
        for ns in sorted(set(namespaces)):
            conn.execute(stmt, {"ns": ns, "at": at})

    def record_audit(
        self,
        tenant_id: str,
        namespace: str | None,
        workflow_id: str | None,
        events: Sequence[AuditEvent],
        at: datetime,
        reviews: Sequence[ReviewRecord] = (),
        outcome: WriteOutcome | None = None,
    ) -> None:
        """Audit a decision that changes no memory (with the reviews it opens or closes and the
        write's outcome by idempotency key), in one transaction."""
        with self._write() as conn:
            for review in reviews:
                self._save_review(conn, review)
            if outcome is not None:
                self._save_outcome(conn, outcome, at)
            self._append_audit(conn, tenant_id, namespace, workflow_id, events, at)

    def audit_trail(
        self, *, memory_id: str | None = None, workflow_id: str | None = None
    ) -> list[dict[str, Any]]:
        query = select(audit_events).order_by(audit_events.c.seq)
        conds = []
        if memory_id:
            conds.append(audit_events.c.memory_id == memory_id)
        if workflow_id:
            conds.append(audit_events.c.workflow_id == workflow_id)
        if conds:
            query = query.where(or_(*conds))
        with self._read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # ---------------------------------------------------------------------------- outbox

    def outbox_events(
        self, *, unprocessed_only: bool = True, limit: int = 1000
    ) -> list[OutboxEvent]:
        query = select(memory_outbox).order_by(memory_outbox.c.seq).limit(limit)
        if unprocessed_only:
            query = query.where(memory_outbox.c.processed_at.is_(None))
        with self._read() as conn:
            return [OutboxEvent.model_validate(dict(r._mapping)) for r in conn.execute(query)]

    def outbox_status(self) -> OutboxStatus:
        with self._read() as conn:
            last = conn.execute(
                select(func.coalesce(func.max(memory_outbox.c.seq), 0))
            ).scalar_one()
            pending = memory_outbox.c.processed_at.is_(None)
            count = conn.execute(
                select(func.count()).select_from(memory_outbox).where(pending)
            ).scalar_one()
            oldest = conn.execute(
                select(memory_outbox.c.seq, memory_outbox.c.created_at)
                .where(pending)
                .order_by(memory_outbox.c.seq)
                .limit(1)
            ).first()
        return OutboxStatus(
            last_seq=last,
            unprocessed=count,
            oldest_unprocessed_seq=oldest.seq if oldest else None,
            oldest_unprocessed_at=oldest.created_at if oldest else None,
        )

    def memories_changed_after(self, seq: int, limit: int) -> tuple[list[str], int]:
        """Memories with an outbox event after `seq` (processed or not), up to `limit` events;
        and the last seq read."""
        with self._read() as conn:
            rows = conn.execute(
                select(memory_outbox.c.seq, memory_outbox.c.memory_id)
                .where(memory_outbox.c.seq > seq)
                .order_by(memory_outbox.c.seq)
                .limit(limit)
            ).all()
        if not rows:
            return [], seq
        return list(dict.fromkeys(r.memory_id for r in rows)), rows[-1].seq

    def watermarks(self, projection: str) -> Watermarks:
        with self._read() as conn:
            row = conn.execute(
                select(projection_watermarks).where(
                    projection_watermarks.c.projection == projection
                )
            ).first()
        if row is None:
            return Watermarks(projection=projection)
        values = dict(row._mapping)
        values.pop("updated_at")
        return Watermarks.model_validate(values)

    def save_watermarks(self, marks: Watermarks, at: datetime) -> None:
        with self._write() as conn:
            _upsert(
                conn,
                projection_watermarks,
                {**marks.model_dump(), "updated_at": at},
                keys=["projection"],
            )

    def record_repairs(
        self, repair_id: str, projection: str, repairs: Sequence[RepairRecord], at: datetime
    ) -> None:
        if not repairs:
            return
        with self._write() as conn:
            conn.execute(
                insert(projection_repairs),
                [
                    {"repair_id": repair_id, "projection": projection, "at": at, **r.model_dump()}
                    for r in repairs
                ],
            )

    def repairs(self, repair_id: str | None = None, limit: int = 1000) -> list[dict[str, Any]]:
        query = select(projection_repairs).order_by(projection_repairs.c.id).limit(limit)
        if repair_id is not None:
            query = query.where(projection_repairs.c.repair_id == repair_id)
        with self._read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

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

    def head_digests(self, after: str | None, limit: int) -> list[HeadDigest]:
        """Heads in memory id order after `after`: a full compare pages through these."""
        query = select(*self._DIGEST_COLUMNS).order_by(memory_heads.c.memory_id).limit(limit)
        if after is not None:
            query = query.where(memory_heads.c.memory_id > after)
        with self._read() as conn:
            return [HeadDigest(*r) for r in conn.execute(query)]

    def head_digests_for(self, memory_ids: Iterable[str]) -> dict[str, HeadDigest]:
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, HeadDigest] = {}
        with self._read() as conn:
            for i in range(0, len(ids), 500):
                rows = conn.execute(
                    select(*self._DIGEST_COLUMNS).where(
                        memory_heads.c.memory_id.in_(ids[i : i + 500])
                    )
                )
                out.update((r[0], HeadDigest(*r)) for r in rows)
        return out

    def unprocessed_seqs(self, memory_ids: Iterable[str]) -> list[int]:
        """Unprocessed outbox events of these memories."""
        ids = list(dict.fromkeys(memory_ids))
        out: list[int] = []
        with self._read() as conn:
            for i in range(0, len(ids), 500):
                out += conn.execute(
                    select(memory_outbox.c.seq).where(
                        memory_outbox.c.memory_id.in_(ids[i : i + 500]),
                        memory_outbox.c.processed_at.is_(None),
                    )
                ).scalars()
        return sorted(out)

    def mark_processed(self, seqs: Sequence[int], at: datetime) -> None:
        if not seqs:
            return
        with self._write() as conn:
            conn.execute(
                update(memory_outbox)
                .where(
                    memory_outbox.c.seq.in_(list(seqs)),
                    memory_outbox.c.processed_at.is_(None),
                )
                .values(processed_at=at)
            )

    def bulk_insert(self, records: Sequence[MemoryRecord], at: datetime) -> list[int]:
        """Insert new memories (version 1) with their outbox events, without resolution.

        For loads that were resolved elsewhere or need none (benchmarks, imports of raw
        episodes); every row still gets its outbox event in the same transaction.
        """
        if not records:
            return []
        values = [_record_values(r) for r in records]
        with self._write() as conn:
            conn.execute(insert(memory_versions), [{**v, "change": "created"} for v in values])
            conn.execute(insert(memory_heads), values)
            first = conn.execute(
                select(func.coalesce(func.max(memory_outbox.c.seq), 0))
            ).scalar_one()
            conn.execute(
                insert(memory_outbox),
                [
                    {
                        "event_id": f"bulk:{r.memory_id}:{r.version}",
                        "memory_id": r.memory_id,
                        "memory_version": r.version,
                        "tenant_id": r.tenant_id,
                        "namespace": r.namespace,
                        "operation": "upsert",
                        "payload": {"memory_id": r.memory_id, "version": r.version},
                        "created_at": at,
                    }
                    for r in records
                ],
            )
            seqs = list(
                conn.execute(
                    select(memory_outbox.c.seq)
                    .where(memory_outbox.c.seq > first)
                    .where(memory_outbox.c.event_id.like("bulk:%"))
                ).scalars()
            )
            self._bump_generations(conn, {r.namespace for r in records}, at)
        return seqs

    # ---------------------------------------------------------------------------- erasure

    @staticmethod
    def _move_slots(conn: Connection, slots: Sequence[tuple[str, str]], at: datetime) -> None:
        """Advance each slot's version by one (creating those never written)."""
        by_ns: dict[str, list[str]] = {}
        for namespace, slot in slots:
            by_ns.setdefault(namespace, []).append(slot)
        for namespace, names in by_ns.items():
            for i in range(0, len(names), 500):
                chunk = names[i : i + 500]
                existing = set(
                    conn.execute(
                        select(key_slots.c.slot).where(
                            key_slots.c.namespace == namespace, key_slots.c.slot.in_(chunk)
                        )
                    ).scalars()
                )
                if existing:
                    conn.execute(
                        update(key_slots)
                        .where(key_slots.c.namespace == namespace, key_slots.c.slot.in_(existing))
                        .values(version=key_slots.c.version + 1, updated_at=at)
                    )
                missing = [
                    {"namespace": namespace, "slot": s, "version": 1, "updated_at": at}
                    for s in chunk
                    if s not in existing
                ]
                if missing:
                    conn.execute(_INSERT_SLOT, missing)

    def erase(
        self,
        deletion_id: str,
        memory_ids: Sequence[str],
        at: datetime,
        *,
        messages: Sequence[MessageErasure] = (),
        ledger: LedgerEntry | None = None,
    ) -> EraseResult:
        """Erase in one transaction: tombstone each memory and blank the content of all its
        versions; blank or redact the messages; fence the erased slots against writes decided
        before now; record the deletion in the ledger.

        Ids, versions, times and source refs stay (the audit needs them); content, structured
        value and content hash go. The erased text is first copied to `deletion_probes`, so that
        verification can look for it; `drop_probes` removes it when verification is over.
        Idempotent: erasing what is erased writes nothing.
        """
        erased: list[tuple[str, int]] = []
        namespaces: set[str] = set()
        slots: set[tuple[str, str]] = set()
        versions_erased = 0
        messages_erased = 0
        probes: list[dict[str, Any]] = []
        with self._write() as conn:
            rows = [
                r
                for i in range(0, len(memory_ids), 500)
                for r in conn.execute(
                    select(memory_heads).where(
                        memory_heads.c.memory_id.in_(list(memory_ids[i : i + 500]))
                    )
                )
            ]
            new_versions: list[dict[str, Any]] = []
            for row in rows:
                namespaces.add(row.namespace)
                if row.status == "deleted" and row.content == "":
                    continue
                slots.add((row.namespace, slot_for(row.key, row.gist)))
                probes.append(
                    {
                        "deletion_id": deletion_id,
                        "memory_id": row.memory_id,
                        "namespace": row.namespace,
                        "key": row.key,
                        "content": row.content,
                    }
                )
                values = {name: getattr(row, name) for name in _RECORD_FIELDS}
                values.update(
                    version=row.version + 1,
                    status="deleted",
                    content="",
                    structured_value=None,
                    content_hash="erased",
                    gist=None,
                    conflict_group=None,
                    recorded_at=at,
                )
                new_versions.append(values)
                erased.append((row.memory_id, row.version + 1))
            ids = [m for m, _ in erased]
            for i in range(0, len(ids), 500):
                versions_erased += conn.execute(
                    update(memory_versions)
                    .where(memory_versions.c.memory_id.in_(ids[i : i + 500]))
                    .values(content="", structured_value=None, content_hash="erased", gist=None)
                ).rowcount
            if new_versions:
                conn.execute(
                    _INSERT_VERSION,
                    [{**v, "change": f"erased:{deletion_id}"} for v in new_versions],
                )
                conn.execute(
                    _UPDATE_HEAD, [{**v, "b_memory_id": v["memory_id"]} for v in new_versions]
                )
                versions_erased += len(new_versions)
            by_id = {m.message_id: m for m in messages}
            current_messages = [
                r
                for i in range(0, len(by_id), 500)
                for r in conn.execute(
                    select(conversation_messages).where(
                        conversation_messages.c.message_id.in_(list(by_id)[i : i + 500])
                    )
                )
            ]
            message_updates: list[dict[str, Any]] = []
            for current in sorted(current_messages, key=lambda r: r.message_id):
                m = by_id[current.message_id]
                if current.status == "erased":
                    continue
                text = "" if m.new_text is None else m.new_text
                if text == current.text:
                    continue
                namespaces.add(current.namespace)
                for part in m.erased_parts or [current.text]:
                    probes.append(
                        {
                            "deletion_id": deletion_id,
                            "memory_id": f"{m.message_id}#{messages_erased}",
                            "namespace": current.namespace,
                            "key": None,
                            "content": part,
                        }
                    )
                    messages_erased += 1
                message_updates.append(
                    {
                        "b_message_id": m.message_id,
                        "text": text,
                        "status": "erased" if m.new_text is None else current.status,
                        "content_hash": "erased" if m.new_text is None else content_hash(text),
                    }
                )
            if message_updates:
                conn.execute(_ERASE_MESSAGE, message_updates)
            if probes:
                conn.execute(insert(deletion_probes), probes)
            # In-flight writes decided before this moment may not write these slots again,
            # and plans made against the old slot versions must decide again.
            self._move_slots(conn, sorted(slots), at)
            if slots:
                fences = sqlite_insert if conn.dialect.name == "sqlite" else pg_insert
                conn.execute(
                    fences(deletion_fences).on_conflict_do_nothing(),
                    [
                        {
                            "namespace": namespace,
                            "slot": slot,
                            "deletion_id": deletion_id,
                            "committed_at": at,
                        }
                        for namespace, slot in sorted(slots)
                    ],
                )
            if ledger is not None:
                entry = ledger.model_copy(
                    update={"fences": sorted({*map(tuple, ledger.fences), *slots})}
                )
                _upsert(
                    conn,
                    deletion_ledger,
                    {
                        "deletion_id": deletion_id,
                        "tenant_id": ledger.tenant_id,
                        "entry": entry.model_dump(mode="json"),
                        "committed_at": at,
                    },
                    keys=["deletion_id"],
                )
            namespace_of = {r.memory_id: r.namespace for r in rows}
            seqs: list[int] = []
            for ns in sorted({namespace_of[m] for m, _ in erased}):
                in_ns = [(m, v) for m, v in erased if namespace_of[m] == ns]
                tenant = ns.split("/")[1]
                seqs += self._append_outbox(
                    conn, f"erase:{deletion_id}", tenant, ns, in_ns, "erase", at
                )
            self._bump_generations(conn, namespaces, at)
        return EraseResult(
            memory_ids=[m for m, _ in erased],
            versions_erased=versions_erased,
            messages_erased=messages_erased,
            namespaces=sorted(namespaces),
            outbox_seqs=seqs,
            slots=sorted(slots),
        )

    def expire(self, at: datetime, limit: int) -> EraseResult:
        """Invalidate up to `limit` memories whose retention ended by `at` (a new version each,
        with its outbox event and the generation bump of its namespace)."""
        changed: list[tuple[str, int, str]] = []
        with self._write() as conn:
            rows = conn.execute(
                select(memory_heads)
                .where(memory_heads.c.expires_at <= at)
                .where(memory_heads.c.status.in_(("active", "superseded")))
                .order_by(memory_heads.c.expires_at)
                .limit(limit)
            ).all()
            for row in rows:
                values = {name: getattr(row, name) for name in _RECORD_FIELDS}
                values.update(version=row.version + 1, status="invalidated", recorded_at=at)
                conn.execute(_INSERT_VERSION, {**values, "change": "expired"})
                conn.execute(_UPDATE_HEAD, {**values, "b_memory_id": row.memory_id})
                changed.append((row.memory_id, row.version + 1, row.namespace))
            seqs: list[int] = []
            namespaces = sorted({ns for _, _, ns in changed})
            for ns in namespaces:
                in_ns = [(m, v) for m, v, n in changed if n == ns]
                seqs += self._append_outbox(
                    conn, f"expire:{at.isoformat()}", ns.split("/")[1], ns, in_ns, "expire", at
                )
                self._append_audit(
                    conn,
                    ns.split("/")[1],
                    ns,
                    None,
                    [
                        AuditEvent(
                            stage="expire",
                            outcome="invalidated",
                            decision="invalidate",
                            reason_code="expired",
                            details={"memories": [m for m, _ in in_ns]},
                        )
                    ],
                    at,
                )
            self._bump_generations(conn, namespaces, at)
        return EraseResult(
            memory_ids=[m for m, _, _ in changed],
            versions_erased=0,
            namespaces=namespaces,
            outbox_seqs=seqs,
        )

    def fenced(self, namespace: str, slots: Sequence[str], decided_at: datetime) -> list[str]:
        """Deletions committed after `decided_at` that erased one of these slots."""
        if not slots:
            return []
        with self._read() as conn:
            return list(
                conn.execute(
                    select(deletion_fences.c.deletion_id).where(
                        deletion_fences.c.namespace == namespace,
                        deletion_fences.c.slot.in_(list(slots)),
                        deletion_fences.c.committed_at > decided_at,
                    )
                ).scalars()
            )

    def ledger(self, tenant_id: str | None = None) -> list[LedgerEntry]:
        query = select(deletion_ledger.c.entry).order_by(deletion_ledger.c.committed_at)
        if tenant_id is not None:
            query = query.where(deletion_ledger.c.tenant_id == tenant_id)
        with self._read() as conn:
            return [LedgerEntry.model_validate(e) for e in conn.execute(query).scalars()]

    def probes(self, deletion_id: str) -> list[dict[str, Any]]:
        with self._read() as conn:
            return [
                dict(r._mapping)
                for r in conn.execute(
                    select(deletion_probes).where(deletion_probes.c.deletion_id == deletion_id)
                )
            ]

    def drop_probes(self, deletion_id: str) -> None:
        with self._write() as conn:
            conn.execute(
                delete(deletion_probes).where(deletion_probes.c.deletion_id == deletion_id)
            )

    # ---------------------------------------------------------------------------- lineage

    def derived_from(self, source_kind: str, source_ids: Sequence[str]) -> list[str]:
        """Ids of the derived records made from any of these sources (one step)."""
        if not source_ids:
            return []
        with self._read() as conn:
            rows = conn.execute(
                select(memory_lineage.c.derived_id).where(
                    memory_lineage.c.source_kind == source_kind,
                    memory_lineage.c.source_id.in_(list(source_ids)),
                )
            ).scalars()
            return list(dict.fromkeys(rows))

    def sources_of(self, derived_id: str) -> list[LineageLink]:
        with self._read() as conn:
            rows = conn.execute(
                select(memory_lineage).where(memory_lineage.c.derived_id == derived_id)
            )
            return [
                LineageLink(
                    derived_id=r.derived_id,
                    derived_version=r.derived_version,
                    source_kind=r.source_kind,
                    source_id=r.source_id,
                )
                for r in rows
            ]

    # ---------------------------------------------------------------------------- messages

    def append_message(
        self,
        *,
        message_id: str,
        tenant_id: str,
        namespace: str,
        thread: str | None,
        speaker: str,
        speaker_type: PrincipalType,
        text: str,
        at: datetime,
        workflow_id: str | None = None,
    ) -> ConversationMessage:
        """Append a message at the next position of its conversation; idempotent by id."""
        conversation = thread or namespace
        for _ in range(20):
            try:
                with self._write() as conn:
                    found = conn.execute(
                        select(conversation_messages).where(
                            conversation_messages.c.message_id == message_id
                        )
                    ).first()
                    if found is not None:
                        return _row_to_message(found)
                    position = (
                        conn.execute(
                            select(func.max(conversation_messages.c.position)).where(
                                conversation_messages.c.tenant_id == tenant_id,
                                conversation_messages.c.conversation == conversation,
                            )
                        ).scalar()
                        or 0
                    ) + 1
                    values = {
                        "message_id": message_id,
                        "tenant_id": tenant_id,
                        "namespace": namespace,
                        "thread": thread,
                        "conversation": conversation,
                        "position": position,
                        "speaker": speaker,
                        "speaker_type": speaker_type,
                        "text": text,
                        "at": at,
                        "status": "active",
                        "content_hash": content_hash(text),
                        "workflow_id": workflow_id,
                    }
                    conn.execute(insert(conversation_messages), values)
                    return ConversationMessage.model_validate(
                        {k: v for k, v in values.items() if k in ConversationMessage.model_fields}
                    )
            except VersionConflict:  # another message took the position: take the next one
                continue
        raise VersionConflict(f"could not place a message in conversation {conversation}")

    def import_messages(self, messages: Sequence[ConversationMessage]) -> int:
        """Insert messages at the positions they give; one already there is left alone."""
        if not messages:
            return 0
        rows = [
            {
                **m.model_dump(mode="python"),
                "conversation": m.thread or m.namespace,
                "content_hash": content_hash(m.text),
                "workflow_id": None,
            }
            for m in messages
        ]
        with self._write() as conn:
            present = set(
                conn.execute(
                    select(conversation_messages.c.message_id).where(
                        conversation_messages.c.message_id.in_([r["message_id"] for r in rows])
                    )
                ).scalars()
            )
            new = [r for r in rows if r["message_id"] not in present]
            if new:
                stmt = (sqlite_insert if conn.dialect.name == "sqlite" else pg_insert)(
                    conversation_messages
                ).on_conflict_do_nothing()
                conn.execute(stmt, new)
            return len(new)

    def messages_by_refs(
        self, tenant_id: str, refs: Iterable[str]
    ) -> dict[str, ConversationMessage]:
        """The messages cited as `msg://{thread}/{position}` or `msg://{message id}`."""
        wanted: dict[tuple[str, int], str] = {}
        ids: dict[str, str] = {}
        for ref in refs:
            if not ref.startswith("msg://"):
                continue
            body = ref.removeprefix("msg://")
            thread, _, position = body.rpartition("/")
            if thread and position.isdigit():
                wanted[(thread, int(position))] = ref
            else:
                ids[body] = ref
        found: dict[str, ConversationMessage] = {}
        with self._read() as conn:
            if wanted:
                rows = conn.execute(
                    select(conversation_messages).where(
                        conversation_messages.c.tenant_id == tenant_id,
                        conversation_messages.c.thread.in_({t for t, _ in wanted}),
                    )
                )
                for r in rows:
                    cited = wanted.get((r.thread, r.position))
                    if cited is not None:
                        found[cited] = _row_to_message(r)
            if ids:
                rows = conn.execute(
                    select(conversation_messages).where(
                        conversation_messages.c.tenant_id == tenant_id,
                        conversation_messages.c.message_id.in_(list(ids)),
                    )
                )
                for r in rows:
                    found[ids[r.message_id]] = _row_to_message(r)
        return found

    def namespace_messages(self, namespace: str) -> list[ConversationMessage]:
        with self._read() as conn:
            rows = conn.execute(
                select(conversation_messages)
                .where(conversation_messages.c.namespace == namespace)
                .order_by(conversation_messages.c.conversation, conversation_messages.c.position)
            )
            return [_row_to_message(r) for r in rows]

    def citing(self, tenant_id: str, source_ref: str) -> list[MemoryRecord]:
        """Memories whose sources include `source_ref` (or, for a reference without a version,
        any version of it)."""
        pattern = (
            '%"' + source_ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        )
        with self._read() as conn:
            rows = conn.execute(
                select(memory_heads).where(
                    memory_heads.c.tenant_id == tenant_id,
                    cast(memory_heads.c.source_refs, Text).like(pattern, escape="\\"),
                )
            )
            records = [_row_to_record(r) for r in rows]
        return [
            r
            for r in records
            if any(ref == source_ref or ref.startswith(source_ref + "?") for ref in r.source_refs)
        ]

    def thread_messages(
        self,
        tenant_id: str,
        thread: str,
        *,
        first: int | None = None,
        last: int | None = None,
        include_erased: bool = False,
    ) -> list[ConversationMessage]:
        query = (
            select(conversation_messages)
            .where(
                conversation_messages.c.tenant_id == tenant_id,
                conversation_messages.c.thread == thread,
            )
            .order_by(conversation_messages.c.position)
        )
        if first is not None:
            query = query.where(conversation_messages.c.position >= first)
        if last is not None:
            query = query.where(conversation_messages.c.position <= last)
        if not include_erased:
            query = query.where(conversation_messages.c.status == "active")
        with self._read() as conn:
            return [_row_to_message(r) for r in conn.execute(query)]

    # ---------------------------------------------------------------------------- reviews

    def _save_review(self, conn: Connection, review: ReviewRecord) -> None:
        _upsert(conn, reviews, review.model_dump(mode="python"), keys=["review_id"])

    def save_review(self, review: ReviewRecord) -> None:
        with self._write() as conn:
            self._save_review(conn, review)

    def get_review(self, review_id: str) -> ReviewRecord:
        with self._read() as conn:
            row = conn.execute(select(reviews).where(reviews.c.review_id == review_id)).first()
        if row is None:
            raise NotFound(f"no review {review_id!r}", field="review_id")
        return ReviewRecord.model_validate(dict(row._mapping))

    def find_reviews(
        self,
        tenant_id: str,
        *,
        status: str | None = "open",
        conflict_group: str | None = None,
        write_workflow_id: str | None = None,
    ) -> list[ReviewRecord]:
        query = (
            select(reviews).where(reviews.c.tenant_id == tenant_id).order_by(reviews.c.opened_at)
        )
        if status is not None:
            query = query.where(reviews.c.status == status)
        if conflict_group is not None:
            query = query.where(reviews.c.conflict_group == conflict_group)
        if write_workflow_id is not None:
            query = query.where(reviews.c.write_workflow_id == write_workflow_id)
        with self._read() as conn:
            return [ReviewRecord.model_validate(dict(r._mapping)) for r in conn.execute(query)]

    def principals(self, tenant_id: str) -> list[Principal]:
        """The registered principals of a tenant."""
        with self._read() as conn:
            rows = conn.execute(
                select(principals.c.definition)
                .where(principals.c.tenant_id == tenant_id)
                .order_by(principals.c.ref)
            )
            return [Principal.model_validate(r.definition) for r in rows]

    def reviewers(self, tenant_id: str) -> list[Principal]:
        """Registered principals of a tenant that hold any approve pattern."""
        with self._read() as conn:
            rows = conn.execute(
                select(principals.c.definition).where(principals.c.tenant_id == tenant_id)
            )
            found = [Principal.model_validate(r.definition) for r in rows]
        return [p for p in found if p.approve]

    # ---------------------------------------------------------------------------- receipts

    def save_receipt(
        self, receipt: DeletionReceipt, at: datetime, *, started: dict[str, Any] | None = None
    ) -> None:
        values: dict[str, Any] = {
            "tenant_id": receipt.tenant_id,
            "scope_fingerprint": receipt.scope.fingerprint(),
            "verification_status": receipt.verification_status,
            "requested_at": receipt.requested_at,
            "updated_at": at,
            "receipt": receipt.model_dump(mode="json"),
        }
        if started is not None:
            values["started"] = started
        with self._write() as conn:
            _upsert(
                conn,
                deletion_receipts,
                {"deletion_id": receipt.deletion_id, **values},
                keys=["deletion_id"],
            )

    def deletion_started(self, deletion_id: str) -> dict[str, Any] | None:
        """What a deletion resolved when it started (None: it has not started)."""
        with self._read() as conn:
            value: dict[str, Any] | None = conn.execute(
                select(deletion_receipts.c.started).where(
                    deletion_receipts.c.deletion_id == deletion_id
                )
            ).scalar()
        return value

    def get_receipt(self, deletion_id: str) -> DeletionReceipt:
        with self._read() as conn:
            row = conn.execute(
                select(deletion_receipts.c.receipt).where(
                    deletion_receipts.c.deletion_id == deletion_id
                )
            ).scalar()
        if row is None:
            raise NotFound(f"no deletion receipt {deletion_id!r}", field="deletion_id")
        return DeletionReceipt.model_validate(row)
