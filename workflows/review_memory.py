"""ReviewMemory: a deferred or conflicting write waits here for a reviewer.

Started by WriteMemory (which returns its decision at once) with the id `review/{tenant}/{review
id}`. A reviewer answers through the `review` Update; its validator refuses an answer that is
malformed, comes too late, names a memory outside the conflict or comes from someone whose
approve rights (as the client resolved them) do not cover the namespace, and the handler checks
the rights again against the registry before anything changes. Without an answer within the
policy's timeout the review is rejected (`review_timeout`) and audited.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.review import ReviewActivities
    from activities.write import WriteActivities
    from memory.models import ReviewDecision, ReviewOutcome, WriteRequest
    from memory.namespaces import matches_any
    from memory.services.reviews import ReviewPlan, ReviewTask, SettleInput
    from memory.write.pipeline import WriteDecision
    from workflows import decide_and_commit, parse_input, run_local, run_task

#: Reviews from this patch on plan and commit as regular activities.
PATCH = "review-plan-and-commit"


@workflow.defn(name="ReviewMemory")
class ReviewMemory:
    def __init__(self) -> None:
        self._task: ReviewTask | None = None
        self._outcome: ReviewOutcome | None = None
        self._settling = False

    @workflow.run
    async def run(self, raw: ReviewTask | dict[str, Any]) -> ReviewOutcome:
        task = parse_input(ReviewTask, raw)
        self._task = task
        try:
            await workflow.wait_condition(lambda: self._outcome is not None, timeout=task.timeout)
        except TimeoutError:
            if not self._settling:
                self._settling = True
                self._outcome = await self._settle(None)
            else:  # an answer is being applied right now: let it finish
                await workflow.wait_condition(lambda: self._outcome is not None)
        assert self._outcome is not None
        return self._outcome

    @workflow.query(name="task")
    def task(self) -> ReviewTask | None:
        return self._task

    @workflow.update(name="review")
    async def review(self, decision: ReviewDecision) -> ReviewOutcome:
        self._settling = True
        try:
            self._outcome = await self._settle(decision)
        except BaseException:
            self._settling = False  # a refused answer changes nothing; the review stays open
            raise
        return self._outcome

    @review.validator
    def _validate(self, decision: ReviewDecision) -> None:
        task = self._task
        if task is None:
            raise ValueError("the review is not started yet")
        if self._settling or self._outcome is not None:
            raise ValueError(f"review {task.review.review_id} is already settled")
        if not matches_any(decision.approve, task.review.namespace):
            raise ValueError(f"{decision.reviewer} may not approve in {task.review.namespace}")
        sides = task.review.memory_ids
        if task.review.kind == "conflict" and decision.memory_id not in (None, *sides):
            raise ValueError(f"{decision.memory_id} is not a side of this conflict")
        if (
            task.review.kind == "conflict"
            and decision.decision == "approve"
            and not decision.memory_id
        ):
            raise ValueError("approving a conflict names the side that is right (memory_id)")

    async def _settle(self, decision: ReviewDecision | None) -> ReviewOutcome:
        task = self._task
        assert task is not None
        now = workflow.now()
        if not workflow.patched(PATCH):
            outcome: ReviewOutcome = await run_local(
                ReviewActivities.settle_review,
                SettleInput(task=task, decision=decision, now=now),
            )
            return outcome

        async def planned(attempt: int) -> ReviewPlan:
            commit_id = f"{task.review.workflow_id}/{workflow.info().run_id}#{attempt}"
            plan: ReviewPlan = await run_task(
                ReviewActivities.plan_review,
                SettleInput(task=task, decision=decision, now=now, commit_id=commit_id),
            )
            return plan

        async def committed(plan: ReviewPlan, _: int) -> None:
            await run_task(WriteActivities.commit, plan.plan)

        plan, _ = await decide_and_commit(planned, committed)
        return plan.outcome


async def open_reviews(decision: WriteDecision, request: WriteRequest) -> None:
    """Start a ReviewMemory child for every review a write decision opened (its row is already
    committed). The child outlives the write that started it."""
    for candidate in decision.candidates:
        if candidate.review is None:
            continue
        review = candidate.review.review
        await workflow.start_child_workflow(
            ReviewMemory.run,
            ReviewTask(
                review=review,
                request=request,
                pending=candidate.review.pending,
                newcomers=[r.memory_id for r in candidate.new_records],
                timeout=decision.review_timeout,
            ),
            id=review.workflow_id,
            parent_close_policy=ParentClosePolicy.ABANDON,
        )
