"""ReviewMemory: a deferred or conflicting write waits here for a reviewer.

Started by WriteMemory (which returns its decision at once) with the id `review/{tenant}/{review
id}`, from ids (`ReviewStart`): what settling needs (the write, the drafts it waits on) is kept
with the review row in the canonical store, so neither the input nor the `task` query carries
what was said; the plan an answer makes is staged there too and committed by id.

A reviewer answers through the `review` Update; its validator refuses an answer that is
malformed, comes too late, names a memory outside the conflict or comes from someone whose
approve rights (as the client resolved them) do not cover the namespace, and the handler checks
the rights again against the registry before anything changes. Without an answer within the
policy's timeout the review is rejected (`review_timeout`) and audited.
"""

from __future__ import annotations

import contextlib
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.review import ReviewActivities
    from activities.write import WriteActivities
    from memory.models import ReviewDecision, ReviewOutcome, ReviewStart, WriteRequest
    from memory.namespaces import matches_any
    from memory.services.reviews import ReviewPlan, ReviewTask, SettleInput, StageReviewInput
    from memory.write.pipeline import WriteDecision
    from workflows import decide_and_commit, parse_input, run_local, run_task

#: Reviews from this patch on plan and commit as regular activities.
PATCH = "review-plan-and-commit"


@workflow.defn(name="ReviewMemory")
class ReviewMemory:
    @workflow.init
    def __init__(self, raw: ReviewStart | ReviewTask | dict[str, Any]) -> None:
        self._start: ReviewStart | None = None
        #: The whole task, in runs started before reviews started from ids.
        self._recorded: ReviewTask | None = None
        self._outcome: ReviewOutcome | None = None
        self._settling = False
        # Read before any handler runs: an answer sent right after the review opened (in the
        # run's first task) is validated against it. Malformed input fails in `run`.
        with contextlib.suppress(ApplicationError):
            self._read(raw)

    def _read(self, raw: ReviewStart | ReviewTask | dict[str, Any]) -> ReviewStart:
        if isinstance(raw, ReviewTask) or (isinstance(raw, dict) and "request" in raw):
            self._recorded = parse_input(ReviewTask, raw)
            task = self._recorded
            self._start = ReviewStart(
                review=task.review, newcomers=task.newcomers, timeout=task.timeout
            )
        else:
            self._start = parse_input(ReviewStart, raw)
        return self._start

    @workflow.run
    async def run(self, raw: ReviewStart | ReviewTask | dict[str, Any]) -> ReviewOutcome:
        start = self._start or self._read(raw)
        try:
            await workflow.wait_condition(lambda: self._outcome is not None, timeout=start.timeout)
        except TimeoutError:
            if not self._settling:
                self._settling = True
                self._outcome = await self._settle(None)
            else:  # an answer is being applied right now: let it finish
                await workflow.wait_condition(lambda: self._outcome is not None)
        assert self._outcome is not None
        return self._outcome

    @workflow.query(name="task")
    def task(self) -> ReviewStart | None:
        """The review (ids, kind, namespace, sides), never the write it waits on."""
        return self._start

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
        start = self._start
        if start is None:
            raise ValueError("the review is not started yet")
        review = start.review
        if self._settling or self._outcome is not None:
            raise ValueError(f"review {review.review_id} is already settled")
        if not matches_any(decision.approve, review.namespace):
            raise ValueError(f"{decision.reviewer} may not approve in {review.namespace}")
        sides = review.memory_ids
        if review.kind == "conflict" and decision.memory_id not in (None, *sides):
            raise ValueError(f"{decision.memory_id} is not a side of this conflict")
        if review.kind == "conflict" and decision.decision == "approve" and not decision.memory_id:
            raise ValueError("approving a conflict names the side that is right (memory_id)")

    async def _settle(self, decision: ReviewDecision | None) -> ReviewOutcome:
        start = self._start
        assert start is not None
        now = workflow.now()
        task = self._recorded
        if task is not None and not workflow.patched(PATCH):
            outcome: ReviewOutcome = await run_local(
                ReviewActivities.settle_review,
                SettleInput(task=task, decision=decision, now=now),
            )
            return outcome
        review_workflow = start.review.workflow_id

        async def planned(attempt: int) -> Any:
            commit_id = f"{review_workflow}/{workflow.info().run_id}#{attempt}"
            if task is not None:  # recorded before reviews started from ids
                return await run_task(
                    ReviewActivities.plan_review,
                    SettleInput(task=task, decision=decision, now=now, commit_id=commit_id),
                )
            return await run_task(
                ReviewActivities.stage_review,
                StageReviewInput(start=start, decision=decision, now=now, commit_id=commit_id),
            )

        async def committed(plan: Any, _: int) -> None:
            if isinstance(plan, ReviewPlan):
                await run_task(WriteActivities.commit, plan.plan)
            else:
                await run_task(WriteActivities.commit_staged, plan.commit)

        plan, _ = await decide_and_commit(planned, committed)
        return plan.outcome  # type: ignore[no-any-return]


async def open_reviews(starts: list[ReviewStart]) -> None:
    """Start a ReviewMemory child for every review a write opened (its row, with what settling
    needs, is already committed), from ids. The child outlives the write that started it."""
    for start in starts:
        await workflow.start_child_workflow(
            ReviewMemory.run,
            start,
            id=start.review.workflow_id,
            parent_close_policy=ParentClosePolicy.ABANDON,
        )


async def open_reviews_recorded(decision: WriteDecision, request: WriteRequest) -> None:
    """`open_reviews` as runs recorded before reviews started from ids did it: the whole task
    (the write and its drafts) as the child's input."""
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
