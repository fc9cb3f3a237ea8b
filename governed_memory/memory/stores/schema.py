"""Canonical store tables (SQLAlchemy Core). Alembic migrations create them; nothing else does.

The same definitions serve SQLite (embedded default) and Postgres. Times are stored in UTC: on
SQLite as sortable ISO text, on Postgres as timestamptz; `UTCDateTime` hands back aware datetimes
on both.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Dialect,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB


class UTCDateTime(TypeDecorator[datetime]):
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime reached the store")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        parsed: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
        if parsed.tzinfo is None:
            return parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)


# JSONB on Postgres (indexable, compact), JSON text elsewhere.
Json = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData()


def _record_columns() -> list[Column[Any]]:
    """Columns shared by a memory's versions and its head (the current version)."""
    return [
        Column("tenant_id", String(64), nullable=False),
        Column("namespace", String(256), nullable=False),
        Column("subject_ref", String(256), nullable=False),
        Column("kind", String(16), nullable=False),
        Column("key", String(128)),
        Column("content", Text, nullable=False),
        Column("structured_value", Json),
        Column("source_refs", Json, nullable=False),
        Column("source_type", String(32), nullable=False),
        Column("confidence", Float, nullable=False),
        Column("sensitivity", String(16), nullable=False),
        Column("valid_from", UTCDateTime),
        Column("valid_to", UTCDateTime),
        Column("recorded_at", UTCDateTime, nullable=False),
        Column("expires_at", UTCDateTime),
        Column("consent_ref", String(256)),
        Column("status", String(16), nullable=False),
        Column("content_hash", String(80), nullable=False),
        Column("extractor", Json, nullable=False),
        Column("written_by", String(256), nullable=False),
        Column("conflict_group", String(64)),
        # What the content says (memory.sameness): the slot of a memory without key.
        Column("gist", String(48)),
        # The entities and relations its writer proposed (memory.models.GraphHints).
        Column("graph", Json),
    ]


# Every version of every memory; a change appends a row. Erasure blanks content in place.
memory_versions = Table(
    "memory_versions",
    metadata,
    Column("memory_id", String(64), primary_key=True),
    Column("version", Integer, primary_key=True),
    *_record_columns(),
    Column("change", String(64), nullable=False),
)

# The current version of each memory: what reads re-check against.
memory_heads = Table(
    "memory_heads",
    metadata,
    Column("memory_id", String(64), primary_key=True),
    Column("version", Integer, nullable=False),
    *_record_columns(),
    Index("ix_heads_ns_key", "namespace", "key"),
    Index("ix_heads_ns_hash", "namespace", "content_hash"),
    Index("ix_heads_ns_gist", "namespace", "gist"),
    Index("ix_heads_tenant_subject", "tenant_id", "subject_ref"),
    Index("ix_heads_expires", "expires_at"),
    # What depends on a consent: invalidated when it is revoked.
    Index("ix_heads_consent", "tenant_id", "consent_ref"),
    # An export's pages: a namespace's heads in memory id order, after the last one sent.
    Index("ix_heads_ns_id", "namespace", "memory_id"),
    # A writer's quota: how many active memories it keeps in a namespace (counted per write).
    Index("ix_heads_ns_writer", "namespace", "written_by", "status"),
)

# One row per (namespace, slot): the unit of optimistic concurrency for a key (or, for a memory
# without key, for its gist). Every commit to a slot moves its version by one.
key_slots = Table(
    "key_slots",
    metadata,
    Column("namespace", String(256), primary_key=True),
    Column("slot", String(160), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

# Written in the same transaction as every record change; projections follow it.
memory_outbox = Table(
    "memory_outbox",
    metadata,
    Column(
        "seq",
        BigInteger().with_variant(Integer, "sqlite"),
        primary_key=True,
        autoincrement=True,
    ),
    Column("event_id", String(96), nullable=False, unique=True),
    Column("memory_id", String(64), nullable=False),
    Column("memory_version", Integer, nullable=False),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256), nullable=False),
    Column("operation", String(32), nullable=False),
    Column("payload", Json, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("processed_at", UTCDateTime),
    Index("ix_outbox_unprocessed", "processed_at", "seq"),
    Index("ix_outbox_memory", "memory_id", "processed_at"),
)

audit_events = Table(
    "audit_events",
    metadata,
    Column(
        "seq",
        BigInteger().with_variant(Integer, "sqlite"),
        primary_key=True,
        autoincrement=True,
    ),
    Column("at", UTCDateTime, nullable=False),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256)),
    Column("workflow_id", String(256)),
    Column("stage", String(48), nullable=False),
    Column("outcome", String(48), nullable=False),
    Column("decision", String(16)),
    Column("relation", String(16)),
    Column("reason_code", String(48)),
    Column("memory_id", String(64)),
    Column("memory_version", Integer),
    Column("principal", String(256)),
    Column("extractor", Json),
    Column("details", Json, nullable=False),
    Index("ix_audit_memory", "memory_id"),
    Index("ix_audit_workflow", "workflow_id"),
)

# Commits already applied, so a retried commit activity returns the first result instead of
# writing twice.
applied_commits = Table(
    "applied_commits",
    metadata,
    Column("commit_id", String(256), primary_key=True),
    Column("result", Json, nullable=False),
    Column("committed_at", UTCDateTime, nullable=False),
)

deletion_receipts = Table(
    "deletion_receipts",
    metadata,
    Column("deletion_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("scope_fingerprint", String(32), nullable=False),
    Column("verification_status", String(16), nullable=False),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("receipt", Json, nullable=False),
    # What the deletion resolved when it started, so that a retried start (a worker killed
    # after the erase) goes on with the same scope instead of resolving what is left.
    Column("started", Json),
    Index("ix_receipts_scope", "tenant_id", "scope_fingerprint"),
)

# Probe material of a deletion in progress: salted hashes of the erased text's windows
# (memory.deletion.fingerprints), never the text, dropped once verification is over.
deletion_probes = Table(
    "deletion_probes",
    metadata,
    Column("deletion_id", String(64), primary_key=True),
    Column("memory_id", String(64), primary_key=True),
    Column("namespace", String(256), nullable=False),
    Column("key", String(128)),
    Column("salt", String(32), nullable=False),
    Column("fingerprint", Text, nullable=False),
)

principals = Table(
    "principals",
    metadata,
    Column("ref", String(256), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("type", String(16), nullable=False),
    Column("definition", Json, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

# References a tool (a service principal with `tools`) vouches for: an agent relaying a tool's
# fact as `verified_tool_fact` must cite one of these.
tool_attestations = Table(
    "tool_attestations",
    metadata,
    Column("tenant_id", String(64), primary_key=True),
    Column("ref", String(512), primary_key=True),
    Column("scheme", String(32), nullable=False),
    Column("attested_by", String(256), nullable=False),
    Column("attested_at", UTCDateTime, nullable=False),
)

# Per-namespace generation: every write, deletion and expiry bumps it; caches key on it.
cache_generations = Table(
    "cache_generations",
    metadata,
    Column("namespace", String(256), primary_key=True),
    Column("generation", BigInteger().with_variant(Integer, "sqlite"), nullable=False),
    # Latest recorded time of a change in the namespace: a read "as recorded by" a later time
    # sees the current state and can use the projection's filters.
    Column("changed_at", UTCDateTime),
)

# Raw utterances per conversation (a thread, or the namespace when no thread is given), in order.
conversation_messages = Table(
    "conversation_messages",
    metadata,
    Column("message_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256), nullable=False),
    Column("thread", String(128)),
    Column("conversation", String(256), nullable=False),
    Column("position", Integer, nullable=False),
    Column("speaker", String(256), nullable=False),
    Column("speaker_type", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("status", String(16), nullable=False),
    Column("content_hash", String(80), nullable=False),
    Column("workflow_id", String(256)),
    # The highest level of what the message says (sensitive categories make it restricted):
    # the conversation slice shows it only to principals whose ceiling reaches it.
    Column("sensitivity", String(16), nullable=False, server_default="internal"),
    # A conversation (a thread, or the namespace's messages off-thread) is a namespace's: thread
    # `t` of two namespaces is two conversations.
    UniqueConstraint(
        "tenant_id", "namespace", "conversation", "position", name="uq_message_position"
    ),
    Index("ix_messages_thread", "tenant_id", "namespace", "thread", "position"),
)

# Open and settled reviews: a deferred write waiting for approval, or a conflict group.
reviews = Table(
    "reviews",
    metadata,
    Column("review_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("reason_code", String(48), nullable=False),
    Column("workflow_id", String(256), nullable=False),
    Column("write_workflow_id", String(256), nullable=False),
    Column("conflict_group", String(64)),
    Column("memory_ids", Json, nullable=False),
    Column("opened_at", UTCDateTime, nullable=False),
    Column("closed_at", UTCDateTime),
    Column("decided_by", String(256)),
    Column("decision", Json),
    # What settling needs (the write that opened it, the drafts it waits on): content, so it is
    # kept here, erased with what it is about, and never carried through workflow history.
    Column("task", Json),
    Index("ix_reviews_open", "tenant_id", "status"),
    Index("ix_reviews_group", "conflict_group"),
    Index("ix_reviews_write", "write_workflow_id"),
)

# Plans decided and not yet committed, by commit id: a workflow carries the id between its
# decide and commit activities, not the plan (content). The commit deletes the row in its own
# transaction; an erasure deletes those of its scope; the expiry sweep those left behind.
staged_plans = Table(
    "staged_plans",
    metadata,
    Column("commit_id", String(256), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("plan", Json, nullable=False),
    Column("staged_at", UTCDateTime, nullable=False),
    Index("ix_staged_namespace", "namespace"),
    Index("ix_staged_at", "staged_at"),
)

# The run each grant admitted (memory.grants): a grant admits one run. Hashes and ids only.
admitted_grants = Table(
    "admitted_grants",
    metadata,
    Column("grant_hash", String(80), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("workflow_id", String(256), nullable=False),
    Column("admitted_at", UTCDateTime, nullable=False),
    Index("ix_admitted_grants_at", "admitted_at"),
)

# The decision of every write by idempotency key: a key decided once is never decided again,
# whether it came alone (WriteMemory) or in a batch (WriteBatch). Keys are the writer's own: the
# same key from another principal is another write.
write_outcomes = Table(
    "write_outcomes",
    metadata,
    Column("tenant_id", String(64), primary_key=True),
    Column("principal", String(256), primary_key=True),
    Column("idempotency_key", String(200), primary_key=True),
    Column("workflow_id", String(256), nullable=False),
    Column("outcomes", Json, nullable=False),
    Column("decided_at", UTCDateTime, nullable=False),
)

# What a derived record (a summary) was made from: each message and memory it used, so that a
# deletion finds every record derived from what it erases.
memory_lineage = Table(
    "memory_lineage",
    metadata,
    Column("derived_id", String(64), primary_key=True),
    Column("source_kind", String(16), primary_key=True),
    Column("source_id", String(128), primary_key=True),
    Column("derived_version", Integer, nullable=False),
    Column("tenant_id", String(64), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_lineage_source", "source_kind", "source_id"),
)

# Every committed deletion: what it erased (ids only) and when. Kept so that a store restored
# from an older backup can have the deletions applied again (`memctl deletions reapply`); the
# same entries are appended to a journal file outside the database.
deletion_ledger = Table(
    "deletion_ledger",
    metadata,
    Column("deletion_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("entry", Json, nullable=False),
    Column("committed_at", UTCDateTime, nullable=False),
)

# A write decided before a deletion committed may not write what the deletion erased: its commit
# checks these fences (namespace and slot) against its decision time.
deletion_fences = Table(
    "deletion_fences",
    metadata,
    Column("namespace", String(256), primary_key=True),
    Column("slot", String(160), primary_key=True),
    Column("deletion_id", String(64), primary_key=True),
    Column("committed_at", UTCDateTime, nullable=False),
)

# How far each projection has followed the outbox: the highest event seq the relay read, the
# highest committed, and the highest below which every event is applied; and the repair marks.
projection_watermarks = Table(
    "projection_watermarks",
    metadata,
    Column("projection", String(64), primary_key=True),
    Column("last_event_seen", BigInteger, nullable=False),
    Column("last_event_committed", BigInteger, nullable=False),
    Column("last_index_updated", BigInteger, nullable=False),
    #: The outbox seq and projection row id the last repair compared up to (incremental runs
    #: start there).
    Column("repair_seq", BigInteger, nullable=False),
    Column("repair_written", BigInteger, nullable=False),
    #: The projection's epoch when the repair marks were set: a new (empty) index resets them.
    Column("epoch", String(64)),
    Column("last_repair_at", UTCDateTime),
    Column("last_full_repair_at", UTCDateTime),
    Column("updated_at", UTCDateTime, nullable=False),
)

# Every repair of a projection row: what was wrong (missing, stale, tombstoned, expired,
# orphan), what was done, by which repair run. Ids only.
projection_repairs = Table(
    "projection_repairs",
    metadata,
    Column(
        "id",
        BigInteger().with_variant(Integer, "sqlite"),
        primary_key=True,
        autoincrement=True,
    ),
    Column("repair_id", String(128), nullable=False),
    Column("projection", String(64), nullable=False),
    Column("memory_id", String(64), nullable=False),
    Column("namespace", String(256)),
    Column("reason", String(32), nullable=False),
    Column("result", String(32), nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Index("ix_repairs_run", "repair_id"),
    Index("ix_repairs_memory", "memory_id"),
)

# Which host serves the embedded projection of this canonical store: the embedded projection is
# a file on one host, and the outbox's processed flags are global, so a second host with a file
# of its own would fall behind for good. The first host to open it claims it; another is refused.
projection_hosts = Table(
    "projection_hosts",
    metadata,
    Column("projection", String(64), primary_key=True),
    Column("host", String(256), nullable=False),
    Column("epoch", String(64), nullable=False),
    Column("claimed_at", UTCDateTime, nullable=False),
)

# Feedback on memories (memory/feedback.py): ids, types, sources and times, never words. Erased
# with the memory it points to.
memory_feedback = Table(
    "memory_feedback",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("namespace", String(256), nullable=False),
    Column("memory_id", String(64), nullable=False),
    Column("memory_version", Integer, nullable=False),
    Column("run_id", String(200)),
    Column("feedback_type", String(16), nullable=False),
    Column("source", String(16), nullable=False),
    Column("given_by", String(256), nullable=False),
    Column("evidence_refs", Json, nullable=False),
    Column("occurred_at", UTCDateTime, nullable=False),
    Column("recorded_at", UTCDateTime, nullable=False),
    Column("effect", String(32), nullable=False),
    Column("effect_ref", String(256)),
    Index("ix_feedback_memory", "memory_id"),
    Index("ix_feedback_run", "tenant_id", "run_id"),
)

# What feedback taught recall about a memory: its ignored streak and rank weight (1: untouched).
memory_signals = Table(
    "memory_signals",
    metadata,
    Column("memory_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("ignored_streak", Integer, nullable=False),
    Column("rank_weight", Float, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Index("ix_signals_lowered", "tenant_id", "rank_weight"),
)

# Consents a subject gave (memory/consents.py): a memory's `consent_ref` names one. Revoking it
# invalidates what depends on it; a deletion of its subject deletes the row (the purpose is the
# subject's own words).
consents = Table(
    "consents",
    metadata,
    Column("consent_id", String(64), primary_key=True),
    Column("tenant_id", String(64), nullable=False),
    Column("subject_ref", String(256), nullable=False),
    Column("purpose", Text, nullable=False),
    Column("given_by", String(256), nullable=False),
    Column("given_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Column("revoked_by", String(256)),
    Index("ix_consents_subject", "tenant_id", "subject_ref"),
)

# The graph projection, for a deployment whose projection keeps none (Weaviate): derived from
# the heads by the one sync path (memory.stores.projection.shared_graph), read joined to the
# heads. Rows hold names a memory says, and its namespace (a read never walks other
# namespaces' mentions); a removal deletes them, an erase vacuums them.
graph_mentions = Table(
    "graph_mentions",
    metadata,
    Column("entity", String(256), primary_key=True),
    Column("namespace", String(256), primary_key=True),
    Column("memory_id", String(64), primary_key=True),
    Column("name", String(256), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("weak", Integer, nullable=False),
    Index("ix_graph_mentions_memory", "memory_id"),
    Index("ix_graph_mentions_ns", "namespace"),
)
graph_aliases = Table(
    "graph_aliases",
    metadata,
    Column("alias", String(256), primary_key=True),
    Column("namespace", String(256), primary_key=True),
    Column("entity", String(256), primary_key=True),
    Column("memory_id", String(64), primary_key=True),
    Index("ix_graph_aliases_entity", "entity", "namespace"),
    Index("ix_graph_aliases_memory", "memory_id"),
)
graph_relations = Table(
    "graph_relations",
    metadata,
    Column("subject", String(256), primary_key=True),
    Column("namespace", String(256), primary_key=True),
    Column("predicate", String(32), primary_key=True),
    Column("object", String(256), primary_key=True),
    Column("memory_id", String(64), primary_key=True),
    Index("ix_graph_relations_object", "object", "namespace"),
    Index("ix_graph_relations_memory", "memory_id"),
)
# The version (and extractor) each memory's graph was derived at, and the highest version
# removed (no older one is derived again); `graph_epoch` changes when the graph is dropped.
graph_done = Table(
    "graph_done",
    metadata,
    Column("memory_id", String(64), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("extractor", String(16), nullable=False),
    Column("removed", Integer, nullable=False),
)
graph_epoch = Table(
    "graph_epoch",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("epoch", String(64), nullable=False),
)

__all__ = [
    "applied_commits",
    "audit_events",
    "cache_generations",
    "consents",
    "conversation_messages",
    "deletion_fences",
    "deletion_ledger",
    "deletion_probes",
    "deletion_receipts",
    "graph_aliases",
    "graph_done",
    "graph_epoch",
    "graph_mentions",
    "graph_relations",
    "key_slots",
    "memory_feedback",
    "memory_heads",
    "memory_lineage",
    "memory_outbox",
    "memory_signals",
    "memory_versions",
    "metadata",
    "principals",
    "projection_hosts",
    "projection_repairs",
    "projection_watermarks",
    "reviews",
    "tool_attestations",
    "write_outcomes",
]
