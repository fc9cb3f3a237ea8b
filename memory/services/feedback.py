"""Feedback: recorded behind the same gate as every request, with its effect in the same
transaction (memory/feedback.py says which effect; this says who may, and commits it).

The event, its effect on the memory (a confidence raised, a quarantine and the review it opens),
what it taught recall (a rank weight) and the audit naming the event land together. What an
effect starts beyond the store — the review's workflow, the corrected write, the deletion — the
client starts from the receipt (shell/client.py), under ids derived from the event, so asking
again with the same event id starts nothing twice.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Literal

from pydantic import Field

from memory import metrics
from memory.errors import Forbidden, InvalidInput, NotFound, VersionConflict
from memory.feedback import (
    Effect,
    FeedbackRequest,
    MemoryFeedbackEvent,
    allowed_sources,
    check_request,
    default_event_id,
    effect_of,
)
from memory.models import (
    SENSITIVITY_ORDER,
    AuditEvent,
    CandidateOutcome,
    DeletionReceipt,
    MemoryRecord,
    Model,
    ReviewRecord,
    ReviewStart,
    utcnow,
)
from memory.plans import CommitPlan, RecordChange, SlotCheck, slot_for
from memory.services.access import Access, Caller
from memory.settings import Settings
from memory.stores import Stores

#: Decisions made and lost to a concurrent change before recording gives up.
ATTEMPTS = 5
RunOutcome = Literal["success", "failure"]


class FeedbackReceipt(Model):
    """What a piece of feedback did: the event as kept, and what its effect started."""

    event: MemoryFeedbackEvent
    #: The same event id was recorded before: this is that first answer.
    replayed: bool = False
    #: The review a `harmful` report opened (the client starts its workflow).
    review: ReviewStart | None = None
    #: The memory's confidence after a confirmation, its rank weight after a use or ignore.
    confidence: float | None = None
    rank_weight: float | None = None


class FeedbackOutcome(FeedbackReceipt):
    """A receipt with what the client started from it: the corrected write's decisions, the
    deletion's receipt."""

    correction: list[CandidateOutcome] = Field(default_factory=list)
    deletion: DeletionReceipt | None = None


class RunReport(Model):
    """An agent's run, reported: the feedback it gave (used, ignored, harmful) and the memories
    it named that are gone or out of its sight (skipped, by id)."""

    run_id: str
    outcome: RunOutcome | None = None
    events: list[FeedbackReceipt] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)


class FeedbackService:
    def __init__(self, stores: Stores, settings: Settings, access: Access) -> None:
        self.stores = stores
        self.settings = settings
        self.access = access

    # ------------------------------------------------------------------------ recording

    def record(
        self, token: str | None, request: FeedbackRequest, *, effect_ref: str | None = None
    ) -> FeedbackReceipt:
        """Record feedback from the caller `token` proves, and apply its effect."""
        caller = self.access.caller(token, request.principal)
        feedback = self.stores.canonical.feedback
        if request.event_id is not None:
            prior = feedback.get(request.event_id)
            if prior is not None:
                return self._replayed(caller, prior)
        for _ in range(ATTEMPTS):
            head = self._memory(caller, request.memory_id)
            version = request.memory_version or head.version
            event_id = request.event_id or default_event_id(caller.ref, request, version)
            if request.event_id is None and event_id is not None:
                prior = feedback.get(event_id)
                if prior is not None:
                    return self._replayed(caller, prior)
            try:
                return self._record(caller, request, head, effect_ref, event_id)
            except VersionConflict:
                continue
        raise VersionConflict(f"memory {request.memory_id} kept changing; send the feedback again")

    def _record(
        self,
        caller: Caller,
        request: FeedbackRequest,
        head: MemoryRecord,
        effect_ref: str | None,
        event_id: str | None,
    ) -> FeedbackReceipt:
        version = request.memory_version or head.version
        if version > head.version:
            raise InvalidInput(
                f"memory {head.memory_id} has no version {version} (it is at {head.version})",
                field="memory_version",
            )
        source = self._allowed(caller, request, head)
        now = utcnow()
        at = request.occurred_at if self.settings.allow_clock_override else None
        recorded_at = at or now
        canonical = self.stores.canonical
        before = canonical.feedback.signals(head.memory_id)
        effect = effect_of(
            request.feedback_type,
            source,
            version,
            head,
            before,
            self.stores.policy.feedback,
            limited=caller.principal.candidate_only,
        )
        event = MemoryFeedbackEvent(
            event_id=event_id or f"fb_{uuid.uuid4().hex}",
            memory_id=head.memory_id,
            memory_version=version,
            run_id=request.run_id,
            feedback_type=request.feedback_type,
            source=source,
            evidence_refs=request.evidence_refs,
            occurred_at=request.occurred_at or now,
            tenant_id=head.tenant_id,
            namespace=head.namespace,
            given_by=caller.ref,
            recorded_at=recorded_at,
            effect=effect.kind,
            effect_ref=effect_ref,
        )
        plan = CommitPlan(
            commit_id=f"feedback/{event.event_id}",
            tenant_id=head.tenant_id,
            namespace=head.namespace,
            at=recorded_at,
            feedback=[event],
        )
        if effect.signals != before:
            plan.signals = {head.memory_id: effect.signals}
            plan.signals_before = {head.memory_id: before}
        start = self._apply_effect(plan, event, effect, head)
        plan.audit = [
            AuditEvent(
                stage="feedback",
                outcome=effect.kind,
                decision=event.feedback_type,
                memory_id=head.memory_id,
                memory_version=version,
                principal=caller.ref,
                details={
                    "event_id": event.event_id,
                    "source": source,
                    **({"run_id": event.run_id} if event.run_id else {}),
                    **({"effect_ref": event.effect_ref} if event.effect_ref else {}),
                },
            )
        ]
        if self.stores.commit_and_project(plan).replayed:  # the same event, at the same moment
            stored = self.stores.canonical.feedback.get(event.event_id)
            if stored is not None:
                return self._replayed(caller, stored)
        metrics.FEEDBACK.labels(event.feedback_type, source, effect.kind).inc()
        if effect.kind == "already_quarantined":
            # Its review's workflow is started by whoever reported first, after the commit; had
            # that one died in between, any later report starts it (the same id: started once).
            start = self._open_review_of(head)
        return FeedbackReceipt(
            event=event,
            review=start,
            confidence=effect.confidence,
            rank_weight=effect.signals.rank_weight,
        )

    def _apply_effect(
        self, plan: CommitPlan, event: MemoryFeedbackEvent, effect: Effect, head: MemoryRecord
    ) -> ReviewStart | None:
        """The effect's changes to the memory, in the plan; the review it opens, if any."""
        same = {
            "memory_id": head.memory_id,
            "expected_version": head.version,
            "valid_to": head.valid_to,
            "conflict_group": head.conflict_group,
        }
        if effect.kind == "confidence_raised":
            plan.changes = [
                RecordChange(
                    **same,
                    status=head.status,
                    change=f"feedback:{event.event_id}:confirmed",
                    confidence=effect.confidence,
                )
            ]
            return None
        if effect.kind != "quarantined":
            return None
        review_id = "rev_" + hashlib.sha256(event.event_id.encode()).hexdigest()[:32]
        review = ReviewRecord(
            review_id=review_id,
            tenant_id=head.tenant_id,
            namespace=head.namespace,
            kind="harmful",
            reason_code="harmful_feedback",
            workflow_id=f"review/{head.tenant_id}/{review_id}",
            write_workflow_id=f"feedback/{event.event_id}",
            memory_ids=[head.memory_id],
            opened_at=plan.at,
        )
        event.effect_ref = review_id
        slot = slot_for(head.key, head.gist)
        state = self.stores.canonical.records.slot_state(head.namespace, slot)
        plan.slots = [SlotCheck(slot=slot, expected_version=state.version)]
        plan.changes = [
            RecordChange(**same, status="quarantined", change=f"feedback:{event.event_id}:harmful")
        ]
        plan.reviews = [review]
        plan.review_tasks = {review_id: {"restore": head.status, "event_id": event.event_id}}
        return ReviewStart(review=review, newcomers=[], timeout=self.stores.policy.review.timeout)

    def retire(self, token: str | None, event: MemoryFeedbackEvent, replaced_by: str) -> bool:
        """A corrected memory without a key, once its correction is kept (`replaced_by`): it
        ends where the correction begins (a keyed one is ended by the write itself). False if
        it was no longer in force."""
        caller = self.access.caller(token, event.given_by)
        head = self._memory(caller, event.memory_id)
        if head.key is not None or head.status != "active" or replaced_by == head.memory_id:
            return False
        at = utcnow()
        plan = CommitPlan(
            commit_id=f"feedback/{event.event_id}/retire",
            tenant_id=head.tenant_id,
            namespace=head.namespace,
            at=at,
            changes=[
                RecordChange(
                    memory_id=head.memory_id,
                    expected_version=head.version,
                    status="superseded",
                    valid_to=max(at, head.valid_from or at),
                    conflict_group=head.conflict_group,
                    change=f"feedback:{event.event_id}:corrected",
                )
            ],
            audit=[
                AuditEvent(
                    stage="feedback",
                    outcome="corrected",
                    decision="corrected",
                    memory_id=head.memory_id,
                    memory_version=head.version,
                    principal=caller.ref,
                    details={"event_id": event.event_id, "replaced_by": replaced_by},
                )
            ],
        )
        self.stores.commit_and_project(plan)
        return True

    def check(self, token: str | None, request: FeedbackRequest) -> MemoryRecord:
        """Everything `record` refuses, refused before anything starts (a correction's write, a
        deletion); the memory's current version."""
        caller = self.access.caller(token, request.principal)
        head = self._memory(caller, request.memory_id)
        self._allowed(caller, request, head)
        return head

    def _allowed(self, caller: Caller, request: FeedbackRequest, head: MemoryRecord) -> str:
        """The source the feedback is given as, if the caller may give it (else a typed
        refusal)."""
        source = self._source(caller, request, head)
        check_request(request, source)
        if request.feedback_type == "deleted" and not caller.principal.can_delete(head.namespace):
            raise Forbidden(
                f"{caller.ref} may not delete in {head.namespace}", field="feedback_type"
            )
        return source

    def _open_review_of(self, head: MemoryRecord) -> ReviewStart | None:
        """The open review of a quarantined memory, to start (again) if its workflow was lost."""
        for review in self.stores.canonical.reviews.find(head.tenant_id, status="open"):
            if review.kind == "harmful" and head.memory_id in review.memory_ids:
                return ReviewStart(
                    review=review, newcomers=[], timeout=self.stores.policy.review.timeout
                )
        return None

    def _memory(self, caller: Caller, memory_id: str) -> MemoryRecord:
        """The memory's current version, if the caller may see it (else not found, the same
        answer as for a memory that does not exist: feedback tells nobody what exists)."""
        head = self.stores.canonical.records.head(memory_id)
        if head is None or head.status == "deleted" or not _may_judge(caller, head):
            raise NotFound(f"no memory {memory_id!r} that {caller.ref} may see", field="memory_id")
        return head

    @staticmethod
    def _source(caller: Caller, request: FeedbackRequest, head: MemoryRecord) -> str:
        allowed = allowed_sources(caller.principal, caller.roles, head.namespace)
        source = request.source or (allowed[0] if allowed else None)
        if source is None or source not in allowed:
            raise Forbidden(
                f"{caller.ref} may not give feedback as {source or 'any source'} on a memory in "
                f"{head.namespace} (it may as: {', '.join(allowed) or 'nothing'})",
                field="source",
            )
        return source

    def _replayed(self, caller: Caller, prior: MemoryFeedbackEvent) -> FeedbackReceipt:
        if prior.given_by != caller.ref:
            raise InvalidInput(
                f"event id {prior.event_id} is another principal's", field="event_id"
            )
        start = None
        if prior.effect == "quarantined" and prior.effect_ref:
            review = self.stores.canonical.reviews.get(prior.effect_ref)
            if review.status == "open":
                start = ReviewStart(
                    review=review, newcomers=[], timeout=self.stores.policy.review.timeout
                )
        return FeedbackReceipt(event=prior, replayed=True, review=start)

    # ------------------------------------------------------------------------ reading

    def of_memory(self, token: str | None, memory_id: str) -> list[MemoryFeedbackEvent]:
        """The feedback on a memory, for whoever may see the memory."""
        caller = self.access.caller(token)
        head = self.stores.canonical.records.head(memory_id)
        if head is None or not (
            _may_judge(caller, head) or caller.may_see(head.tenant_id, head.namespace)
        ):
            raise NotFound(f"no memory {memory_id!r} that {caller.ref} may see", field="memory_id")
        return self.stores.canonical.feedback.of_memory(memory_id)

    def of_run(self, token: str | None, run_id: str) -> list[MemoryFeedbackEvent]:
        """The feedback of a run, as far as the caller may see each memory's namespace."""
        caller = self.access.caller(token)
        found = self.stores.canonical.feedback.of_run(caller.tenant, run_id)
        return [
            e
            for e in found
            if caller.may_see(e.tenant_id, e.namespace) or caller.principal.can_approve(e.namespace)
        ]


def _may_judge(caller: Caller, head: MemoryRecord) -> bool:
    """Who may give or read feedback on a memory: the user it is about; who may read it by a
    grant, within their sensitivity ceiling; the reviewers of its namespace; its tenant's
    operators and admins. (An auditor reads what was; it does not judge.)"""
    p = caller.principal
    if caller.tenant != head.tenant_id:
        return False
    if p.own_namespace == head.namespace or p.can_approve(head.namespace):
        return True
    if caller.roles & {"operator", "admin"}:
        return True
    return p.can_read(head.namespace) and (
        SENSITIVITY_ORDER[head.sensitivity] <= SENSITIVITY_ORDER[p.sensitivity_ceiling]
    )
