"""DeleteSubject's input and output: a scope, probes and the durable receipt."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Literal

from pydantic import (
    AwareDatetime,
    Field,
    field_validator,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import Model, Stored, check_key
from governed_memory.memory.namespaces import check_tenant, parse_namespace


class DeletionScope(Model):
    """What to forget, one of: a subject (`subject_ref`, optionally within a `namespace`); a
    whole `namespace`; a `key` in a namespace; everything derived from a `source_ref` (a message
    `msg://thread/position` or a tool reference); one memory (`memory_id`, in its `namespace`);
    or a request in words (`text`, with the `namespace` it is about), resolved by the service to
    one of these."""

    subject_ref: str | None = None
    namespace: str | None = None
    key: str | None = None
    source_ref: str | None = None
    text: str | None = None
    memory_id: str | None = None

    @property
    def whole_namespace(self) -> bool:
        """The scope is a namespace with nothing narrowing it: everything in it goes."""
        return self.namespace is not None and not (
            self.key or self.subject_ref or self.source_ref or self.text or self.memory_id
        )

    @model_validator(mode="after")
    def _shape(self) -> DeletionScope:
        if self.namespace is not None:
            parse_namespace(self.namespace)
        check_key(self.key)
        if self.subject_ref is None and self.namespace is None and self.source_ref is None:
            raise InvalidInput(
                "a deletion scope needs subject_ref, namespace or source_ref", field="scope"
            )
        if (
            self.key is not None or self.text is not None or self.memory_id is not None
        ) and self.namespace is None:
            raise InvalidInput(
                "a key, a memory or a request in words needs its namespace", field="scope"
            )
        if self.memory_id is not None and (self.key or self.subject_ref or self.source_ref):
            raise InvalidInput("a memory is a scope of its own", field="scope")
        if self.text is not None and (self.key or self.subject_ref or self.source_ref):
            raise InvalidInput(
                "a request in words stands alone (with its namespace)", field="scope"
            )
        if self.text is not None and not self.text.strip():
            raise InvalidInput("the request is empty", field="scope.text")
        return self

    def describe(self) -> str:
        if self.source_ref is not None:
            return f"derived from {self.source_ref}"
        if self.subject_ref is not None:
            return self.subject_ref + (f" in {self.namespace}" if self.namespace else "")
        assert self.namespace is not None
        return self.namespace + (f"#{self.key}" if self.key else "")

    def fingerprint(self) -> str:
        fields = self.model_dump()
        if fields["memory_id"] is None:  # fingerprints of the scopes before it stay as they were
            del fields["memory_id"]
        raw = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(raw.encode()).hexdigest()[:20]


class DeleteRequest(Stored):
    principal: str
    tenant: str
    scope: DeletionScope
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, v: str) -> str:
        return check_tenant(v)


#: `nothing_matched`: the scope covered nothing, so nothing was erased (neither passed nor failed).
VerificationStatus = Literal["pending", "passed", "failed", "refused", "nothing_matched"]


class ProbeResult(Model):
    """One read path asked for the erased data after deletion."""

    probe: str
    passed: bool
    returned: int = 0
    detail: str = ""


class TemporalRetention(Model):
    """How long Temporal keeps a closed run (its encrypted payloads) and whether it archives
    them, as the namespace was found when the deletion ran."""

    namespace: str
    retention_seconds: int | None = None
    history_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"
    visibility_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"


class HistoryErasure(Model):
    """The closed Temporal runs whose histories carried a deletion's scope, to delete (input)."""

    namespace: str
    workflow_ids: list[str] = Field(default_factory=list)
    #: How long to wait for runs still open (a write in flight) to close, and for the server
    #: to carry out the deletions (it does so asynchronously).
    within: timedelta = timedelta(minutes=2)


class ErasedHistories(Model):
    """What deleting the runs did: how many runs were deleted, which are still there."""

    runs_deleted: int = 0
    #: Workflow ids with a run still readable (open past the wait, or not yet dropped).
    remaining: list[str] = Field(default_factory=list)


class DeletionReceipt(Model):
    deletion_id: str
    tenant_id: str
    subject_ref: str
    scope: DeletionScope
    requested_by: str
    requested_at: datetime
    completed_at: datetime | None = None
    canonical_records: int = 0
    versions_erased: int = 0
    indexes_removed: list[str] = Field(default_factory=list)
    derived_records_invalidated: int = 0
    cache_namespaces_invalidated: int = 0
    verification_status: VerificationStatus = "pending"
    probes: list[ProbeResult] = Field(default_factory=list)
    refused_reason: str | None = None
    backup_retention_deadline: datetime | None = None
    #: "retained" until the backup retention deadline passes, then "expired" (receipt closed).
    backup_status: Literal["retained", "expired"] = "retained"
    closed_at: datetime | None = None
    #: The scope as resolved (a request in words becomes a key, a namespace, ...).
    resolved_scope: DeletionScope | None = None
    messages_erased: int = 0
    summaries_regenerated: int = 0
    workflow_id: str | None = None
    #: Wall-clock seconds from the deletion's start to its receipt.
    elapsed_seconds: float | None = None
    #: Temporal's retention and archival, as found; the backup deadline covers the retention.
    temporal: TemporalRetention | None = None
    #: Closed Temporal runs that carried the erased content, deleted from the server's history.
    temporal_runs_deleted: int = 0
    #: What this deletion cannot guarantee, by the stores it ran on (backups, Postgres WAL).
    storage_limits: list[str] = Field(default_factory=list)
    #: What the scope covers that the requester may not delete (memories, summaries and
    #: messages in other principals' namespaces), left alone: how many, and in how many
    #: namespaces. Counts only: never which namespaces, never what they hold.
    withheld: int = 0
    withheld_namespaces: int = 0


class CloseReceiptInput(Model):
    """Input of CloseDeletionReceipt: which receipt, by id. Its deadline is the stored one."""

    deletion_id: str
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class MessageTarget(Model):
    message_id: str
    namespace: str
    #: Erase only the clauses stating these keys; empty: the whole message.
    keys: list[str] = Field(default_factory=list)


class SummaryTarget(Model):
    memory_id: str
    namespace: str
    thread: str
    first: int
    last: int
    writer: str


class ResolvedScope(Model):
    """What a scope covers, by id (no content: this travels through workflow history)."""

    scope: DeletionScope
    memory_ids: list[str] = Field(default_factory=list)
    messages: list[MessageTarget] = Field(default_factory=list)
    summaries: list[SummaryTarget] = Field(default_factory=list)
    namespaces: list[str] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)
    #: What the scope covers in namespaces its requester may not delete, left alone: memories,
    #: summaries and messages, and in how many namespaces (counts only).
    withheld: int = 0
    withheld_namespaces: int = 0
    #: The subject's consents (a subject's deletion, or its whole namespace's), by id.
    consents: list[str] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        """The scope matched nothing: no memory, message, summary or consent."""
        return not (self.memory_ids or self.messages or self.summaries or self.consents)

    @property
    def all_memory_ids(self) -> list[str]:
        return list(dict.fromkeys([*self.memory_ids, *(s.memory_id for s in self.summaries)]))
