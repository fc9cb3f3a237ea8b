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
    """Whom or what to forget: `user:456`, `user:shop-a/456` or `tenant/shop-a/user/456` for a
    person (or a team, project, agent, thread or tenant), or an entity such as `order:A-7781`. Every
    memory about it goes, within `namespace` when one is given, else in every namespace the
    requester may delete."""
    namespace: str | None = None
    """The namespace the scope is in. Alone, it is the scope: everything in it goes (memories,
    messages, summaries, consents)."""
    key: str | None = None
    """A key of `namespace` (`notification.preference`): every memory of that key goes, and the
    clauses of messages that state it."""
    source_ref: str | None = None
    """A source: everything derived from it goes. A message `msg://{thread}/{position}` (of
    `namespace`, by default the requester's own) or a tool reference (`order://ORD-1`)."""
    text: str | None = None
    """A request in words ("Please forget how I like to be notified"), with the `namespace` it is
    about: resolved against the keys the namespace holds. A request naming several topics, or one
    that could mean two held keys, is refused."""
    memory_id: str | None = None
    """One memory, by id, with its `namespace`; a scope of its own (no key, subject or source with
    it)."""

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
    """The read path asked: `canonical_by_id`, `canonical_by_key`, `keyword_search`,
    `vector_search`, `projection_rows`, `graph`, `recall_as_owner`, `recall_as_agent`,
    `context_as_owner`, `context_as_agent`, `summaries`, `conversation_history`, `feedback`,
    `consents`, `cache`, `storage_files` or `temporal_history`."""
    passed: bool
    """Whether it returned nothing of what was erased."""
    returned: int = 0
    """How many erased items (ids, texts, rows, runs) it still returned."""
    detail: str = ""
    """What was asked and found, in words (ids and counts only)."""


class TemporalRetention(Model):
    """How long Temporal keeps a closed run (its encrypted payloads) and whether it archives
    them, as the namespace was found when the deletion ran."""

    namespace: str
    """The Temporal namespace the service runs in."""
    retention_seconds: int | None = None
    """How long Temporal keeps a closed run's history, in seconds; null when unknown."""
    history_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"
    """Whether Temporal archives histories (`ARCHIVAL_STATE_ENABLED`, `ARCHIVAL_STATE_DISABLED` or
    `ARCHIVAL_STATE_UNSPECIFIED`)."""
    visibility_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"
    """Whether Temporal archives visibility records (`ARCHIVAL_STATE_ENABLED`,
    `ARCHIVAL_STATE_DISABLED` or `ARCHIVAL_STATE_UNSPECIFIED`)."""


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
    """The deletion's id (`del_…`): `GET /v1/receipts/{deletion_id}` reads the receipt again."""
    tenant_id: str
    """The tenant it ran in."""
    subject_ref: str
    """What was deleted, in words: the subject (with its namespace), the namespace (`#key` appended
    for a key) or `derived from <source>`."""
    scope: DeletionScope
    """The scope as asked."""
    requested_by: str
    """The principal that asked for it."""
    requested_at: datetime
    """When it was asked for."""
    completed_at: datetime | None = None
    """When it ended (verified, or failed); null while it runs."""
    canonical_records: int = 0
    """How many memories were erased: tombstoned, every version blanked."""
    versions_erased: int = 0
    """How many memory versions were blanked, the tombstones included."""
    indexes_removed: list[str] = Field(default_factory=list)
    """The search indexes the erased memories were removed from (`vector`, `search`, `graph`)."""
    derived_records_invalidated: int = 0
    """How many thread summaries built on what was erased were erased with it."""
    copies_erased: int = 0
    """How many of the erased memories were copies promoted from the others into shared
    namespaces (counted in `canonical_records` too): a copy goes with what it copies."""
    cache_namespaces_invalidated: int = 0
    """How many namespaces' cached reads were invalidated."""
    verification_status: VerificationStatus = "pending"
    """`pending` while it runs; `passed` (no read path returns anything erased), `failed` (a read
    path still did after repairs), `nothing_matched` (the scope covered nothing, so nothing was
    erased) or `refused`."""
    probes: list[ProbeResult] = Field(default_factory=list)
    """Each read path asked for the erased data after the deletion, with what it found."""
    refused_reason: str | None = None
    """Why the deletion was refused, when `verification_status` is `refused`; null otherwise."""
    backup_retention_deadline: datetime | None = None
    """Until when copies taken before the deletion (backups, Temporal's closed runs) may still hold
    the erased data: the policy's backup retention (30 days by default) after the request, never
    before Temporal's own retention ends."""
    backup_status: Literal["retained", "expired"] = "retained"
    """`retained` until the backup retention deadline passes, then `expired` (the receipt is
    closed)."""
    closed_at: datetime | None = None
    """When the receipt was closed (the backup deadline passed); null until then."""
    resolved_scope: DeletionScope | None = None
    """The scope as resolved (a request in words becomes a key, a namespace, …)."""
    messages_erased: int = 0
    """How many conversation messages were erased, or had the clauses stating an erased key cut
    out."""
    summaries_regenerated: int = 0
    """How many thread summaries were written again from what remains."""
    workflow_id: str | None = None
    """The id of the deletion's workflow run."""
    elapsed_seconds: float | None = None
    """Wall-clock seconds from the deletion's start to its receipt."""
    temporal: TemporalRetention | None = None
    """Temporal's retention and archival, as found when the deletion ran; the backup deadline covers
    the retention."""
    temporal_runs_deleted: int = 0
    """How many closed Temporal runs that carried the erased content were deleted from the server's
    history."""
    storage_limits: list[str] = Field(default_factory=list)
    """What this deletion cannot guarantee, by the stores it ran on (backups, Postgres WAL), in
    words."""
    withheld: int = 0
    """How much the scope covers that the requester may not delete (memories, summaries and messages
    in other principals' namespaces), left alone. A count only: never which namespaces, never what
    they hold."""
    withheld_namespaces: int = 0
    """In how many namespaces the withheld items are (a count only)."""


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
    #: Copies promoted from what the scope erases (among `memory_ids`: they go with it), and
    #: the namespaces only they bring in: there, nothing else is erased, and no right to
    #: delete is needed.
    copies: list[str] = Field(default_factory=list)
    copy_namespaces: list[str] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        """The scope matched nothing: no memory, message, summary or consent."""
        return not (self.memory_ids or self.messages or self.summaries or self.consents)

    @property
    def all_memory_ids(self) -> list[str]:
        return list(dict.fromkeys([*self.memory_ids, *(s.memory_id for s in self.summaries)]))
