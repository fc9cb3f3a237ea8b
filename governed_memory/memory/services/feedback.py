"""Feedback: recorded behind the same gate as every request, with its effect in the same
transaction (memory/feedback.py says which effect; this says who may, and commits it).

The event, its effect on the memory (a confidence raised, a quarantine and the review it opens),
what it taught recall (a rank weight) and the audit naming the event land together. Feedback
whose effect goes beyond the store (a harmful report's review, a corrected write, a deletion)
is recorded by a RecordFeedback run (`record_run`), which then starts each of them as a child
under an id derived from its own: a run is started once per event, and every effect it starts
survives a crash of the process that asked.
"""

from __future__ import annotations

import hashlib
import uuid

from pydantic import Field

from governed_memory.memory import metrics
from governed_memory.memory.contracts.feedback import RecordInput, RetireInput, RunOutcome
from governed_memory.memory.deletion.runs import CORRECTION, DELETION
from governed_memory.memory.errors import (
    Forbidden,
    InvalidInput,
    NotFound,
    RequestMismatch,
    VersionConflict,
)
from governed_memory.memory.feedback import (
    STARTING,
    Effect,
    FeedbackReceipt,
    FeedbackRecorded,
    FeedbackRequest,
    FeedbackStart,
    MemoryFeedbackEvent,
    allowed_sources,
    check_request,
    correction_key,
    default_event_id,
    effect_of,
)
from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.models import (
    SENSITIVITY_ORDER,
    AuditEvent,
    CandidateOutcome,
    DeletionReceipt,
    DeletionScope,
    MemoryRecord,
    Model,
    ReviewRecord,
    ReviewStart,
    utcnow,
)
from governed_memory.memory.plans import CommitPlan, RecordChange, SlotCheck, slot_for
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services.access import Access, Caller
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.commit import commit_and_project

#: Decisions made and lost to a concurrent change before recording gives up.
ATTEMPTS = 5


class FeedbackOutcome(FeedbackReceipt):
    """A receipt with what its run started: the corrected write's decisions, the deletion's
    receipt."""

    correction: list[CandidateOutcome] = Field(default_factory=list)
    """For `corrected`: what became of the write of the right value (its decisions, as a write
    answers)."""
    deletion: DeletionReceipt | None = None
    """For `deleted`: the deletion's receipt."""


class RunReport(Model):
    """An agent's run, reported: the feedback it gave (used, ignored, harmful) and the memories
    it named that are gone or out of its sight (skipped, by id)."""

    run_id: str
    """The run reported."""
    outcome: RunOutcome | None = None
    """How the run ended, as reported: `success` or `failure`; null when not said."""
    events: list[FeedbackReceipt] = Field(default_factory=list)
    """The feedback recorded, one event per memory named (`used`, `ignored` or `harmful`)."""
    skipped: list[str] = Field(default_factory=list)
    """Memories named that are gone or that the caller may not see (by id): nothing recorded for
    them."""


def correction_workflow_id(feedback_workflow_id: str) -> str:
    """The id of the write a RecordFeedback run starts (keyed, as its parent's)."""
    return feedback_workflow_id + CORRECTION


def deletion_workflow_id(feedback_workflow_id: str) -> str:
    """The id of the deletion a RecordFeedback run starts."""
    return feedback_workflow_id + DELETION


class FeedbackService:
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        access: Access,
        keys: ServiceKeys | None = None,
    ) -> None:
        self.stores = stores
        self.settings = settings
        self.access = access
        self.grants = Grants(
            keys or ServiceKeys.for_settings(settings), start_seconds=settings.grant_start_seconds
        )

    # ------------------------------------------------------------------------ recording

    def record(self, token: str | None, request: FeedbackRequest) -> FeedbackReceipt:
        """Record feedback from the caller `token` proves, and apply its effect (feedback that
        starts something beyond the store runs as a RecordFeedback workflow: `record_run`)."""
        if request.feedback_type in STARTING:
            raise InvalidInput(
                f"`{request.feedback_type}` feedback starts a run (RecordFeedback)",
                field="feedback_type",
            )
        return self._record_as(self.access.caller(token, request.principal), request)

    def record_run(self, inp: RecordInput) -> FeedbackRecorded:
        """A RecordFeedback run's event, recorded with its effect; the grants of what the effect
        starts. The input is checked against the store first: the memory must be one the
        admitted caller may judge, and the write or deletion must be exactly the one this
        event implies (else `RequestMismatch`, and nothing changes)."""
        start, request = inp.start, inp.start.feedback
        if request.principal != inp.principal:
            raise RequestMismatch("the feedback is not the admitted caller's", field="principal")
        caller = self.access.admitted(inp.principal, start.roles)
        namespace = self._target(caller, request)
        write_id = deletion_id = None
        if request.feedback_type == "corrected":
            write_id = correction_workflow_id(inp.workflow_id)
        elif request.feedback_type == "deleted":
            deletion_id = deletion_workflow_id(inp.workflow_id)
        _check_start(start, namespace)
        receipt = self._record_as(
            caller,
            request,
            effect_ref=write_id or deletion_id,
            workflow_id=inp.workflow_id,
            write_given=start.write is not None,
        )
        if receipt.review is not None:
            receipt.review = self._granted_review(receipt.review)
        tenant = receipt.event.tenant_id
        return FeedbackRecorded(
            receipt=receipt,
            write_workflow_id=write_id,
            write_grant=None
            if start.write is None or write_id is None
            else self.grants.issue("WriteMemory", write_id, start.write, caller.ref, tenant),
            deletion_workflow_id=deletion_id,
            deletion_grant=None
            if start.deletion is None or deletion_id is None
            else self.grants.issue(
                "DeleteSubject", deletion_id, start.deletion, caller.ref, tenant
            ),
        )

    def _target(self, caller: Caller, request: FeedbackRequest) -> str:
        """The namespace of the memory a run's feedback is about: the event's, if it was
        recorded already (asked again), else the memory's, if the caller may judge it."""
        if request.event_id is None:
            raise RequestMismatch("a feedback run carries its event id", field="event_id")
        prior = self.stores.canonical.feedback.get(request.event_id)
        if prior is not None:
            if prior.given_by != caller.ref or prior.memory_id != request.memory_id:
                raise RequestMismatch(
                    f"event {request.event_id} is another memory's or principal's",
                    field="event_id",
                )
            return prior.namespace
        return self._memory(caller, request.memory_id).namespace

    def _granted_review(self, start: ReviewStart) -> ReviewStart:
        review = start.review
        grant = self.grants.issue(
            "ReviewMemory", review.workflow_id, start, SYSTEM, review.tenant_id
        )
        return start.model_copy(update={"grant": grant})

    def _record_as(
        self,
        caller: Caller,
        request: FeedbackRequest,
        *,
        effect_ref: str | None = None,
        workflow_id: str | None = None,
        write_given: bool = False,
    ) -> FeedbackReceipt:
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
                return self._record(
                    caller, request, head, event_id, effect_ref, workflow_id, write_given
                )
            except VersionConflict:
                continue
        raise VersionConflict(f"memory {request.memory_id} kept changing; send the feedback again")

    def _record(
        self,
        caller: Caller,
        request: FeedbackRequest,
        head: MemoryRecord,
        event_id: str | None,
        effect_ref: str | None,
        workflow_id: str | None,
        write_given: bool,
    ) -> FeedbackReceipt:
        version = request.memory_version or head.version
        if version > head.version:
            raise InvalidInput(
                f"memory {head.memory_id} has no version {version} (it is at {head.version})",
                field="memory_version",
            )
        source = self._allowed(caller, request, head, write_given=write_given)
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
            workflow_id=workflow_id,
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
        if commit_and_project(self.stores, plan).replayed:  # the same event, at the same moment
            stored = self.stores.canonical.feedback.get(event.event_id)
            if stored is not None:
                return self._replayed(caller, stored)
        metrics.FEEDBACK.labels(event.feedback_type, source, effect.kind).inc()
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

    def retire(self, inp: RetireInput) -> bool:
        """A corrected memory without a key, once its correction is kept (`replaced_by`): it
        ends where the correction begins (a keyed one is ended by the write itself). Only for
        the event's own run, and a memory its write kept; False if there was nothing to end
        (no longer in force, or ended already: asked again, nothing changes)."""
        canonical = self.stores.canonical
        event = canonical.feedback.get(inp.event_id)
        if event is None or event.effect_ref != correction_workflow_id(inp.workflow_id):
            raise RequestMismatch("the correction is not this run's", field="event_id")
        head = canonical.records.head(event.memory_id)
        kept = canonical.records.head(inp.replaced_by)
        if kept is None or (kept.namespace, kept.written_by) != (event.namespace, event.given_by):
            raise RequestMismatch("the memory is not the correction's", field="replaced_by")
        if (
            head is None
            or head.key is not None
            or head.status != "active"
            or inp.replaced_by == head.memory_id
        ):
            return False
        at = utcnow()
        plan = CommitPlan(
            commit_id=f"feedback/{event.event_id}/retire",
            tenant_id=head.tenant_id,
            namespace=head.namespace,
            at=at,
            workflow_id=inp.workflow_id,
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
                    principal=event.given_by,
                    details={"event_id": event.event_id, "replaced_by": inp.replaced_by},
                )
            ],
        )
        return not commit_and_project(self.stores, plan).replayed

    def check(self, token: str | None, request: FeedbackRequest) -> MemoryRecord:
        """Everything `record` refuses, refused before anything starts (a correction's write, a
        deletion); the memory's current version."""
        caller = self.access.caller(token, request.principal)
        head = self._memory(caller, request.memory_id)
        self._allowed(caller, request, head)
        return head

    def _allowed(
        self,
        caller: Caller,
        request: FeedbackRequest,
        head: MemoryRecord,
        *,
        write_given: bool = False,
    ) -> str:
        """The source the feedback is given as, if the caller may give it (else a typed
        refusal)."""
        source = self._source(caller, request, head)
        check_request(request, source, write_given=write_given)
        if request.feedback_type == "deleted" and not caller.principal.can_delete(head.namespace):
            raise Forbidden(
                f"{caller.ref} may not delete in {head.namespace}", field="feedback_type"
            )
        return source

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


def _check_start(start: FeedbackStart, namespace: str) -> None:
    """A feedback run's write or deletion must be the one its event implies: a corrected
    value's write by the same caller, in the memory's namespace, under the event's key; a
    deletion of that memory by the same caller. Anything else is refused."""
    request = start.feedback
    kind = request.feedback_type
    assert request.event_id is not None
    if kind not in STARTING or request.correction is not None:
        raise RequestMismatch(f"`{kind}` feedback does not run this way", field="feedback_type")
    if (start.write is not None) != (kind == "corrected") or (start.deletion is not None) != (
        kind == "deleted"
    ):
        raise RequestMismatch(f"`{kind}` feedback starts no such run", field="feedback_type")
    write, deletion = start.write, start.deletion
    if write is not None and (
        write.principal != request.principal
        or write.namespace != namespace
        or write.idempotency_key != correction_key(request.event_id)
    ):
        raise RequestMismatch("the write is not this correction's", field="write")
    if deletion is not None and (
        deletion.principal != request.principal
        or deletion.tenant != start.tenant
        or deletion.scope != DeletionScope(namespace=namespace, memory_id=request.memory_id)
    ):
        raise RequestMismatch("the deletion is not of this memory", field="deletion")
