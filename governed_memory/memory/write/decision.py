"""What the write pipeline decides (`memory.write.pipeline.decide`): per candidate its outcome,
proposal, changes, review and audit (`CandidateDecision`), and for the whole write the plan to
commit and the reviews to open (`WriteDecision`); and the reads of the stores it decides with
(`StateView`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from pydantic import Field

from governed_memory.memory.consents import Consent
from governed_memory.memory.feedback import MemoryFeedbackEvent, emitted
from governed_memory.memory.models import (
    AuditEvent,
    CandidateOutcome,
    ConversationMessage,
    MemoryMutationProposal,
    MemoryRecord,
    Model,
    ReviewRecord,
    ReviewStart,
    WriteRequest,
    parse_principal_ref,
)
from governed_memory.memory.plans import (
    CommitPlan,
    RecordChange,
    SlotCheck,
    SlotState,
    WriteOutcome,
)
from governed_memory.memory.write.resolution import Neighbour


class StateView(Protocol):
    """What the pipeline may read."""

    def slot(self, namespace: str, slot: str) -> SlotState: ...

    def similar(self, namespace: str, kind: str, content: str) -> list[Neighbour]:
        """Active memories without key, of the kind, in the namespace, close to `content` (the
        proposals a memory without key is compared with), with their similarity."""
        ...

    def current_value(self, namespace: str, key: str, at: datetime) -> dict[str, Any] | None: ...

    def attested(self, tenant_id: str, refs: Sequence[str]) -> set[str]:
        """Of these references, those a tool of the tenant has attested."""
        ...

    def consent(self, consent_id: str) -> Consent | None:
        """The consent recorded under this id (revoked or not), if any."""
        ...


class PendingWrite(Model):
    """A draft waiting for a reviewer (deferred), with what it needs to be decided again."""

    record: MemoryRecord
    negated: bool = False
    partial: bool = False


class ReviewRequest(Model):
    review: ReviewRecord
    pending: list[PendingWrite] = Field(default_factory=list)


class ReviewWork(Model):
    """What settling a review needs: the write that opened it and the drafts it waits on.
    Content: kept with the review row (`reviews.task`), never in workflow history."""

    request: WriteRequest
    pending: list[PendingWrite] = Field(default_factory=list)


class CandidateDecision(Model):
    outcome: CandidateOutcome
    proposal: MemoryMutationProposal | None = None
    slot: SlotCheck | None = None
    new_records: list[MemoryRecord] = Field(default_factory=list)
    changes: list[RecordChange] = Field(default_factory=list)
    review: ReviewRequest | None = None
    audit: list[AuditEvent] = Field(default_factory=list)

    @property
    def commits(self) -> bool:
        return bool(self.new_records or self.changes)


class WriteDecision(Model):
    workflow_id: str
    tenant_id: str
    namespace: str
    principal: str
    at: datetime
    idempotency_key: str
    message: ConversationMessage | None = None
    candidates: list[CandidateDecision] = Field(default_factory=list)
    #: How long the reviews this decision opens wait for an answer (policy).
    review_timeout: timedelta
    #: The outcome stored for this idempotency key by an earlier run: nothing to do again.
    replayed: list[CandidateOutcome] | None = None
    #: The policy's `[quotas] memories_per_namespace` (0: none), held again at commit.
    quota: int = 0

    @property
    def outcomes(self) -> list[CandidateOutcome]:
        if self.replayed is not None:
            return self.replayed
        return [c.outcome for c in self.candidates]

    @property
    def reviews(self) -> list[ReviewRequest]:
        return [c.review for c in self.candidates if c.review is not None]

    @property
    def audit(self) -> list[AuditEvent]:
        return [e for c in self.candidates for e in c.audit]

    @property
    def commits(self) -> bool:
        return any(c.commits for c in self.candidates)

    def record(self) -> WriteOutcome:
        return WriteOutcome(
            tenant_id=self.tenant_id,
            idempotency_key=self.idempotency_key,
            workflow_id=self.workflow_id,
            outcomes=self.outcomes,
            principal=self.principal,
        )

    def review_starts(self) -> list[ReviewStart]:
        """What each review this decision opens starts from (ids only)."""
        return [
            ReviewStart(
                review=c.review.review,
                newcomers=[r.memory_id for r in c.new_records],
                timeout=self.review_timeout,
            )
            for c in self.candidates
            if c.review is not None
        ]

    def plan(self, commit_id: str, request: WriteRequest | None = None) -> CommitPlan:
        """One transaction for the whole decision: every candidate that commits (with its slot),
        the audit of every candidate, every review it opens (with what settling it needs, given
        the `request`), and the outcome by idempotency key. A decision that changes no memory
        still records its audit, reviews and outcome."""
        committing = [c for c in self.candidates if c.commits]
        slots: dict[str, SlotCheck] = {}
        for c in committing:
            if c.slot is not None:
                slots.setdefault(c.slot.slot, c.slot)
        return CommitPlan(
            commit_id=commit_id,
            tenant_id=self.tenant_id,
            namespace=self.namespace,
            at=self.at,
            slots=list(slots.values()),
            workflow_id=self.workflow_id,
            new_records=[r for c in committing for r in c.new_records],
            changes=[ch for c in committing for ch in c.changes],
            audit=self.audit,
            reviews=[r.review for r in self.reviews],
            outcome=self.record(),
            review_tasks={}
            if request is None
            else {
                r.review.review_id: ReviewWork(request=request, pending=r.pending).model_dump(
                    mode="json"
                )
                for r in self.reviews
            },
            feedback=self._corrections(commit_id, committing),
            quota=self.quota,
        )

    def _corrections(
        self, commit_id: str, committing: list[CandidateDecision]
    ) -> list[MemoryFeedbackEvent]:
        """A user replacing or withdrawing what was kept about them is feedback too: the
        version it ends was `corrected` by the user (memory/feedback.py)."""
        kind, tenant, user = parse_principal_ref(self.principal)
        if kind != "user" or self.namespace != f"tenant/{tenant}/user/{user}":
            return []  # the user's own word about themselves, in their own namespace
        return [
            emitted(
                commit_id=commit_id,
                memory_id=ch.memory_id,
                version=ch.expected_version,
                feedback_type="corrected",
                source="user",
                given_by=self.principal,
                tenant_id=self.tenant_id,
                namespace=self.namespace,
                at=self.at,
                run_id=self.workflow_id,
            )
            for c in committing
            for ch in c.changes
            if ch.change.startswith(("superseded_by:", "withdrawn_by:"))
        ]
