"""Activities of the ReviewMemory workflow: settle a review (approve, reject, or time out)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from pydantic import Field
from temporalio import activity

from activities import typed_errors
from memory.errors import UnauthorizedNamespace, VersionConflict
from memory.models import (
    AuditEvent,
    Model,
    ReviewDecision,
    ReviewOutcome,
    ReviewRecord,
    WriteRequest,
)
from memory.plans import CommitPlan, SlotCheck, slot_for
from memory.settings import Settings
from memory.stores import Stores
from memory.write.extraction import RuleExtractor
from memory.write.pipeline import PendingWrite, decide
from memory.write.review import closed, review_status, settle_conflict
from memory.write.stages import IdSource, effective_time
from memory.write.state import StoreView

MAX_ATTEMPTS = 8


class ReviewTask(Model):
    """Input of ReviewMemory: the review, and what settling it needs."""

    review: ReviewRecord
    #: The write that opened it (for a deferred write: decided again on approval).
    request: WriteRequest
    pending: list[PendingWrite] = Field(default_factory=list)
    #: Memories the opening write added (a timed-out conflict loses these sides).
    newcomers: list[str] = Field(default_factory=list)
    timeout: timedelta


class SettleInput(Model):
    task: ReviewTask
    #: None when the review timed out.
    decision: ReviewDecision | None
    now: datetime


class ReviewActivities:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def activities(self) -> list[Callable[..., Any]]:
        return [self.settle_review]

    @activity.defn(name="memory.settle_review")
    @typed_errors
    def settle_review(self, inp: SettleInput) -> ReviewOutcome:
        task, decision = inp.task, inp.decision
        review = task.review
        canonical = self.stores.canonical
        at = effective_time(
            decision.at if decision else None, inp.now, self.settings.allow_clock_override
        )
        if decision is not None:
            reviewer = canonical.principals.get(decision.reviewer)
            if reviewer.tenant != review.tenant_id or not reviewer.can_approve(review.namespace):
                canonical.commits.record_audit(
                    review.tenant_id,
                    review.namespace,
                    review.workflow_id,
                    [
                        AuditEvent(
                            stage="review",
                            outcome="refused",
                            reason_code="unauthorized_namespace",
                            principal=reviewer.ref,
                            details={"review_id": review.review_id},
                        )
                    ],
                    at,
                )
                raise UnauthorizedNamespace(
                    f"{reviewer.ref} may not approve in {review.namespace}", field="reviewer"
                )
        for attempt in range(MAX_ATTEMPTS):
            try:
                return self._settle(task, decision, at, f"{review.workflow_id}#{attempt}")
            except VersionConflict:
                continue
        raise VersionConflict(f"review {review.review_id}: the memories kept changing")

    def _settle(
        self, task: ReviewTask, decision: ReviewDecision | None, at: datetime, commit_id: str
    ) -> ReviewOutcome:
        review = task.review
        canonical = self.stores.canonical
        status = review_status(decision)
        done = closed(review, decision, at)
        audit = AuditEvent(
            stage="review",
            outcome=status,
            decision=decision.decision if decision else "reject",
            reason_code=None if decision else "review_timeout",
            principal=decision.reviewer if decision else None,
            memory_id=decision.memory_id if decision else None,
            details={"review_id": review.review_id, "kind": review.kind},
        )
        if review.kind == "deferred":
            if decision is None or decision.decision == "reject":
                canonical.commits.record_audit(
                    review.tenant_id, review.namespace, review.workflow_id, [audit], at, [done]
                )
                return ReviewOutcome(review_id=review.review_id, status=status)
            writer = canonical.principals.get(task.request.principal)
            decided = decide(
                task.request,
                writer,
                self.stores.policy,
                StoreView(self.stores),
                RuleExtractor(),
                workflow_id=review.workflow_id,
                at=at,
                ids=IdSource(seed=review.review_id),
                approved_by=decision.reviewer,
                pending=task.pending,
            )
            plan = decided.plan(commit_id)
            # The write's own outcome (defer) stays as it was; this review's result is the
            # review row and the audit.
            plan.outcome = None
            plan.audit.append(audit)
            plan.reviews = [done]
            result = self.stores.commit_and_project(plan)
            return ReviewOutcome(
                review_id=review.review_id,
                status=status,
                committed=[
                    m for m in result.memory_ids if m in {p.record.memory_id for p in task.pending}
                ],
            )

        heads = canonical.records.heads(review.memory_ids)
        changes, losers = settle_conflict(review, decision, heads, task.newcomers)
        any_side = next(iter(heads.values()), None)
        slots = []
        if any_side is not None:
            slot = slot_for(any_side.key, any_side.gist)
            slots.append(
                SlotCheck(
                    slot=slot,
                    expected_version=canonical.records.slot_state(review.namespace, slot).version,
                )
            )
        plan = CommitPlan(
            commit_id=commit_id,
            tenant_id=review.tenant_id,
            namespace=review.namespace,
            at=at,
            slots=slots if changes else [],
            workflow_id=review.workflow_id,
            changes=changes,
            audit=[audit],
            reviews=[done],
        )
        self.stores.commit_and_project(plan)
        return ReviewOutcome(review_id=review.review_id, status=status, invalidated=losers)
