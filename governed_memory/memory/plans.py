"""What the canonical store is asked to change, in the domain's words.

Every change to the truth is a `CommitPlan` (new records, new versions of existing ones, the audit,
reviews, the write's outcome and lineage, decided against slot versions) or an erasure (memories
tombstoned, messages blanked or redacted, a ledger entry). The write pipeline, reviews, summaries
and deletion produce these; the store applies them in one transaction each. Nothing here knows
SQL.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, Field

from governed_memory.memory.feedback import MemoryFeedbackEvent, Signals
from governed_memory.memory.models import (
    AuditEvent,
    CandidateOutcome,
    MemoryRecord,
    Model,
    ReviewRecord,
    Status,
)


def slot_for(key: str | None, gist: str | None) -> str:
    """The concurrency slot of a memory: its key, or for a memory without key what it says (its
    gist), so two writers of the same statement race on one slot instead of both adding it."""
    return f"key:{key}" if key is not None else f"gist:{gist}"


class SlotState(Model):
    """A slot's version and its memories that are not deleted or invalidated, as read."""

    version: int
    records: list[MemoryRecord]


class RecordChange(Model):
    """A new version of an existing memory: the full new values of the fields that may change."""

    memory_id: str
    expected_version: int
    status: Status
    valid_to: AwareDatetime | None
    conflict_group: str | None
    change: str
    #: A new confidence (a confirmation); None keeps it.
    confidence: float | None = Field(default=None, ge=0, le=1)


class SlotCheck(Model):
    """A slot the plan was decided against, at the version it had then."""

    slot: str
    expected_version: int


class LineageLink(Model):
    """A derived record (a summary, or a promoted copy) and one message or memory it was made
    from."""

    derived_id: str
    derived_version: int
    source_kind: Literal["message", "memory"]
    source_id: str


class WriteOutcome(Model):
    """The decision of a write, kept by idempotency key: a key decided once is never decided
    again."""

    tenant_id: str
    idempotency_key: str
    workflow_id: str
    outcomes: list[CandidateOutcome]
    #: Who wrote: keys are the writer's own (the same key from another principal is another
    #: write).
    principal: str = ""


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
    #: Memories (of any namespace) this plan copies, by id, with the version it read: each
    #: must still be active at that version when it commits (else `VersionConflict`, and the
    #: plan is made again): a copy never outlives a deletion of what it copies.
    derived_from: dict[str, int] = Field(default_factory=dict)
    #: What settling each opened review needs (by review id), kept with the review row.
    review_tasks: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: Feedback recorded with these changes (the feedback that caused them, or that they are).
    feedback: list[MemoryFeedbackEvent] = Field(default_factory=list)
    #: What feedback taught recall, by memory id (a rank weight, an ignored streak), and what
    #: they were when it was decided (they must still be).
    signals: dict[str, Signals] = Field(default_factory=dict)
    signals_before: dict[str, Signals] = Field(default_factory=dict)
    #: The active memories a writer of `new_records` may keep in the namespace (0: no quota):
    #: held in the commit's transaction, so concurrent writes cannot overshoot what the door
    #: counted (a write's plan carries it; reviews and sweeps do not).
    quota: int = 0

    def reranks(self) -> bool:
        """Whether the plan changes a memory's rank weight (what a cached recall ranked by)."""
        return any(
            new.rank_weight != self.signals_before.get(m, Signals()).rank_weight
            for m, new in self.signals.items()
        )


class PendingScope(Model):
    """What an erasure takes from what is not committed yet (staged plans, review tasks): in
    these namespaces, everything (`whole`) or what mentions an erased memory or one of `keys`."""

    tenant_id: str
    namespaces: list[str]
    keys: list[str] = Field(default_factory=list)
    whole: bool = False


class CommitRef(Model):
    """A plan staged in the canonical store, by id: what a workflow carries from its decide
    activity to its commit activity instead of the plan itself."""

    commit_id: str
    digest: str
    #: The memories it writes (ids only), for the projection step after the commit.
    memory_ids: list[str] = Field(default_factory=list)


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


class MessageErasure(Model):
    """A message to erase whole (`new_text` None) or to keep with the stating parts cut out."""

    message_id: str
    new_text: str | None = None
    #: The parts removed (the whole text when None): probe material, never stored elsewhere.
    erased_parts: list[str] = Field(default_factory=list)
    #: For a partial erasure: the key whose statements were cut (to redo it after a restore).
    key: str | None = None


class ErasureLedgerEntry(Model):
    """What a deletion erased, by id: enough to erase it again in a restored store."""

    deletion_id: str
    tenant_id: str
    scope: dict[str, Any]
    memory_ids: list[str]
    messages: list[tuple[str, str | None]] = Field(default_factory=list)
    fences: list[tuple[str, str]] = Field(default_factory=list)
    committed_at: AwareDatetime
    #: The subject's consents it deleted (what depended on them was invalidated).
    consents: list[str] = Field(default_factory=list)


class EraseResult(Model):
    """What an erasure (or an expiry) changed: the memories, how many versions and messages it
    blanked, the namespaces touched and their outbox events."""

    memory_ids: list[str]
    versions_erased: int
    messages_erased: int = 0
    namespaces: list[str]
    outbox_seqs: list[int]
    slots: list[tuple[str, str]] = Field(default_factory=list)
    #: Memories outside the scope invalidated because a consent they depended on was deleted,
    #: and their outbox events (projected by whoever erased, apart from the scope's).
    invalidated: list[str] = Field(default_factory=list)
    invalidated_seqs: list[int] = Field(default_factory=list)
