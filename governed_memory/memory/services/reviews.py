"""Reviews: a review run's admission against the stored review, and what a reviewer's answer (or
the timeout) changes, planned as one commit and staged: a deferred write, a conflict, a memory
reported harmful, a promotion into a shared namespace.

Nothing here takes a review's word from a workflow input: `open` reads the review by id and
refuses a start that differs from it, `stage` reads it again, checks the answer's grant (signed by
the door that proved the reviewer) and the reviewer's rights against the stored review and the
registry, and plans from what the review row keeps.
"""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.contracts.admission import AdmitInput, digest_of
from governed_memory.memory.contracts.reviews import (
    OpenReviewInput,
    ReviewOpened,
    ReviewStaged,
    StageReviewInput,
)
from governed_memory.memory.errors import (
    Forbidden,
    NotFound,
    PolicyRefusal,
    RequestMismatch,
    UnauthorizedNamespace,
)
from governed_memory.memory.feedback import IN_FORCE, FeedbackType, MemoryFeedbackEvent, emitted
from governed_memory.memory.models import (
    AuditEvent,
    Model,
    ReviewDecision,
    ReviewOutcome,
    ReviewRecord,
)
from governed_memory.memory.plans import CommitPlan, RecordChange, SlotCheck, slot_for
from governed_memory.memory.promotion import approved_promotion, check_promotion_reviewer
from governed_memory.memory.services.admission import Admission
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.decision import ReviewWork
from governed_memory.memory.write.extraction import Extractor, RuleExtractor
from governed_memory.memory.write.pipeline import decide
from governed_memory.memory.write.review import closed, conflict_changes, review_status
from governed_memory.memory.write.stages import IdSource, effective_time
from governed_memory.memory.write.state import StoreView

#: The fields of a review a start must state as the store holds them.
_STATED = ("tenant_id", "namespace", "kind", "memory_ids", "conflict_group", "workflow_id")
#: The operation an answer's grant is for.
ANSWER = "ReviewMemory.review"


class _Planned(Model):
    plan: CommitPlan
    outcome: ReviewOutcome


class ReviewService:
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        admission: Admission,
        extractor: Extractor | None = None,
    ):
        self.stores = stores
        self.settings = settings
        self.admission = admission
        self.extractor = extractor or RuleExtractor()

    def open(self, inp: OpenReviewInput) -> ReviewOpened:
        """Admit a review run: its grant, then the review it states against the stored one (by
        id). A start whose review differs, is not this run's, or is settled is refused."""
        self.admission.verify(inp.admission)
        stated = inp.start.review
        stored = self.stores.canonical.reviews.get(stated.review_id)
        differ = [f for f in _STATED if getattr(stated, f) != getattr(stored, f)]
        if stored.workflow_id != inp.admission.workflow_id:
            differ.append("run")
        if differ:
            raise RequestMismatch(
                f"the review this run states differs from the stored one ({', '.join(differ)})",
                field="review",
            )
        if stored.status != "open":
            raise PolicyRefusal(f"review {stored.review_id} is already {stored.status}")
        strangers = [m for m in inp.start.newcomers if m not in stored.memory_ids]
        if strangers:
            raise RequestMismatch(
                "a timeout may invalidate only sides the stored review names", field="newcomers"
            )
        return ReviewOpened(
            review=stored,
            newcomers=inp.start.newcomers,
            timeout=self.stores.policy.review.timeout,
        )

    def stage(self, inp: StageReviewInput) -> ReviewStaged:
        """Plan from the stored review and what its row keeps, and stage the plan: the workflow
        gets its id."""
        review = self.stores.canonical.reviews.get(inp.review_id)
        if review.workflow_id != inp.workflow_id:
            raise RequestMismatch("the review is not this run's", field="review")
        if review.status != "open":
            raise PolicyRefusal(f"review {review.review_id} is already {review.status}")
        kept = self.stores.canonical.reviews.task(review.review_id)
        work = (
            ReviewWork.model_validate(kept)
            if kept is not None and review.kind in ("deferred", "conflict")
            else None
        )
        newcomers = [m for m in inp.newcomers if m in review.memory_ids]
        planned = self._plan(
            review, work, newcomers, inp.decision, inp.now, inp.commit_id, inp.run_id
        )
        ref = self.stores.canonical.staged.put(planned.plan, planned.plan.at)
        return ReviewStaged(commit=ref, outcome=planned.outcome)

    def _plan(
        self,
        review: ReviewRecord,
        work: ReviewWork | None,
        newcomers: list[str],
        decision: ReviewDecision | None,
        now: datetime,
        commit_id: str,
        run_id: str,
    ) -> _Planned:
        """Check the answer's grant and the reviewer against the stored review and the registry
        (a refusal changes nothing; a reviewer without the right is audited), then plan: a
        deferred write decided again with the reviewer's approval, or the changes that settle a
        conflict group — with the audit and the closed review row. A deferred write whose drafts
        a deletion erased meanwhile can only be rejected (`erased`)."""
        at = effective_time(
            decision.at if decision else None, now, self.settings.allow_clock_override
        )
        if decision is not None:
            self.admission.verify(
                AdmitInput(
                    operation=ANSWER,
                    workflow_id=review.workflow_id,
                    run_id=run_id,
                    started_at=now,
                    digest=digest_of(decision),
                    grant=decision.grant,
                    principals=[decision.reviewer],
                    tenant=review.tenant_id,
                )
            )
            self._check_reviewer(review, decision.reviewer, review.workflow_id, at)
        if review.kind == "promotion":
            return self._promotion(review, decision, at, commit_id)
        erased = review.kind == "deferred" and work is None
        if erased and decision is not None and decision.decision == "approve":
            decision = decision.model_copy(update={"decision": "reject"})
        status = review_status(decision)
        done = closed(review, decision, at)
        audit = AuditEvent(
            stage="review",
            outcome=status,
            decision=decision.decision if decision else "reject",
            reason_code="erased" if erased else None if decision else "review_timeout",
            principal=decision.reviewer if decision else None,
            memory_id=decision.memory_id if decision else None,
            details={"review_id": review.review_id, "kind": review.kind},
        )
        bare = CommitPlan(
            commit_id=commit_id,
            tenant_id=review.tenant_id,
            namespace=review.namespace,
            at=at,
            workflow_id=review.workflow_id,
            audit=[audit],
            reviews=[done],
        )
        outcome = ReviewOutcome(review_id=review.review_id, status=status)
        if review.kind == "harmful":
            return self._harmful(review, decision, bare, outcome)
        if review.kind == "deferred":
            if decision is None or decision.decision == "reject" or work is None:
                return _Planned(plan=bare, outcome=outcome)
            plan = self._approved_write(review, work, decision.reviewer, at, commit_id)
            plan.audit.append(audit)
            plan.reviews = [done]
            pending = {p.record.memory_id for p in work.pending}
            outcome.committed = [r.memory_id for r in plan.new_records if r.memory_id in pending]
            return _Planned(plan=plan, outcome=outcome)
        canonical = self.stores.canonical
        heads = canonical.records.heads(review.memory_ids)
        changes, losers = conflict_changes(review, decision, heads, newcomers)
        any_side = next(iter(heads.values()), None)
        if changes and any_side is not None:
            slot = slot_for(any_side.key, any_side.gist)
            version = canonical.records.slot_state(review.namespace, slot).version
            bare.slots = [SlotCheck(slot=slot, expected_version=version)]
        bare.changes = changes
        outcome.invalidated = losers
        if decision is not None:
            bare.feedback = [
                self._said(bare, review, decision, c.memory_id, c.expected_version, "corrected")
                for c in changes
                if c.memory_id in losers
            ] + [
                self._said(bare, review, decision, c.memory_id, c.expected_version, "confirmed")
                for c in changes
                if c.memory_id not in losers
            ]
        return _Planned(plan=bare, outcome=outcome)

    def _promotion(
        self, review: ReviewRecord, decision: ReviewDecision | None, at: datetime, commit_id: str
    ) -> _Planned:
        """A promotion waiting for a reviewer: approved, the copy is planned from the memory as
        the store holds it now (`memory.promotion`); a memory no longer the requester's to
        promote (deleted, changed, refused by the policy as it is) makes the approval a
        rejection, with the reason. Rejected or timed out, nothing is copied."""
        plan: CommitPlan | None = None
        copy_id: str | None = None
        reason = None if decision is not None else "review_timeout"
        if decision is not None and decision.decision == "approve":
            kept = self.stores.canonical.reviews.task(review.review_id)
            try:
                plan, copy_id = approved_promotion(
                    self.stores,
                    review,
                    kept,
                    reviewer=decision.reviewer,
                    at=at,
                    commit_id=commit_id,
                )
            except (PolicyRefusal, NotFound) as refusal:
                reason = "erased" if kept is None else refusal.code
                decision = decision.model_copy(update={"decision": "reject"})
        status = review_status(decision)
        outcome = ReviewOutcome(
            review_id=review.review_id,
            status=status,
            committed=[copy_id] if plan and copy_id else [],
        )
        plan = plan or CommitPlan(
            commit_id=commit_id,
            tenant_id=review.tenant_id,
            namespace=review.namespace,
            at=at,
            workflow_id=review.workflow_id,
        )
        plan.audit.append(
            AuditEvent(
                stage="review",
                outcome=status,
                decision=decision.decision if decision else "reject",
                reason_code=reason,
                principal=decision.reviewer if decision else None,
                memory_id=copy_id,
                details={"review_id": review.review_id, "kind": review.kind},
            )
        )
        plan.reviews = [closed(review, decision, at)]
        return _Planned(plan=plan, outcome=outcome)

    def _harmful(
        self,
        review: ReviewRecord,
        decision: ReviewDecision | None,
        bare: CommitPlan,
        outcome: ReviewOutcome,
    ) -> _Planned:
        """A memory reported harmful: upholding the report keeps it quarantined for good (out of
        every read path, questions about the past included); rejecting it restores what it was
        before the quarantine (history, if another value was written meanwhile); unanswered, it
        stays quarantined for the user or an operator to correct or delete. A memory erased
        meanwhile is left alone."""
        canonical = self.stores.canonical
        head = canonical.records.heads(review.memory_ids).get(review.memory_ids[0])
        if decision is None or head is None or head.status != "quarantined":
            return _Planned(plan=bare, outcome=outcome)
        upheld = decision.decision == "approve"
        kept = canonical.reviews.task(review.review_id) or {}
        restore = kept.get("restore")
        if not upheld and restore not in IN_FORCE:
            return _Planned(plan=bare, outcome=outcome)  # nothing known to restore it to
        slot = slot_for(head.key, head.gist)
        state = canonical.records.slot_state(head.namespace, slot)
        bare.slots = [SlotCheck(slot=slot, expected_version=state.version)]
        # Upheld, it stays quarantined for good: out of every read path, questions about the
        # past included (an invalidated memory still answers those).
        status = "quarantined" if upheld else str(restore)
        valid_to, group = head.valid_to, head.conflict_group
        others = [
            r for r in state.records if r.status == "active" and r.memory_id != head.memory_id
        ]
        if not upheld and status == "active" and others:
            # Written meanwhile (the quarantined value was out of the way): the other value
            # stays current, and the released one is history up to where that one begins.
            since = head.valid_from or head.recorded_at
            status = "superseded"
            valid_to = max(since, min(r.valid_from or r.recorded_at for r in others))
        if group is not None and not any(r.conflict_group == group for r in others):
            group = None  # its conflict was settled while it was out
        bare.changes = [
            RecordChange(
                memory_id=head.memory_id,
                expected_version=head.version,
                status=status,
                valid_to=valid_to,
                conflict_group=group,
                change=f"review:{review.review_id}:{'harmful' if upheld else 'released'}",
            )
        ]
        bare.feedback = [
            self._said(
                bare,
                review,
                decision,
                head.memory_id,
                head.version,
                "harmful" if upheld else "confirmed",
            )
        ]
        if upheld:
            outcome.invalidated = [head.memory_id]
        else:
            outcome.committed = [head.memory_id]
        return _Planned(plan=bare, outcome=outcome)

    @staticmethod
    def _said(
        plan: CommitPlan,
        review: ReviewRecord,
        decision: ReviewDecision,
        memory_id: str,
        version: int,
        kind: FeedbackType,
    ) -> MemoryFeedbackEvent:
        """A reviewer's answer as feedback on a memory it settled (memory/feedback.py)."""
        return emitted(
            commit_id=plan.commit_id,
            memory_id=memory_id,
            version=version,
            feedback_type=kind,
            source="human_reviewer",
            given_by=decision.reviewer,
            tenant_id=review.tenant_id,
            namespace=review.namespace,
            at=plan.at,
            run_id=review.workflow_id,
        )

    def _check_reviewer(
        self, review: ReviewRecord, reviewer_ref: str, workflow_id: str, at: datetime
    ) -> None:
        """Who answers may approve in the review's namespace (and, for a promotion, is not its
        requester nor a candidate-only principal); a refusal is audited, then raised."""
        canonical = self.stores.canonical
        reviewer = canonical.principals.get(reviewer_ref)
        try:
            if reviewer.tenant != review.tenant_id or not reviewer.can_approve(review.namespace):
                raise UnauthorizedNamespace(
                    f"{reviewer.ref} may not approve in {review.namespace}", field="reviewer"
                )
            if review.kind == "promotion":
                check_promotion_reviewer(reviewer, canonical.reviews.task(review.review_id))
        except (UnauthorizedNamespace, Forbidden) as refused:
            canonical.commits.record_audit(
                review.tenant_id,
                review.namespace,
                workflow_id,
                [
                    AuditEvent(
                        stage="review",
                        outcome="refused",
                        reason_code=refused.code,
                        principal=reviewer.ref,
                        details={"review_id": review.review_id},
                    )
                ],
                at,
            )
            raise

    def _approved_write(
        self, review: ReviewRecord, work: ReviewWork, reviewer: str, at: datetime, commit_id: str
    ) -> CommitPlan:
        """The deferred write decided again, approved; its own outcome (defer) stays as it was."""
        writer = self.stores.canonical.principals.get(work.request.principal)
        decided = decide(
            work.request,
            writer,
            self.stores.policy,
            StoreView(self.stores),
            self.extractor,
            workflow_id=review.workflow_id,
            at=at,
            ids=IdSource(seed=review.review_id),
            approved_by=reviewer,
            pending=work.pending,
        )
        plan = decided.plan(commit_id)
        plan.outcome = None
        return plan
