"""ReviewMemory: a deferred, conflicting or harmful-reported memory waits here for a reviewer.

Started by WriteMemory (which returns its decision at once), or by a harmful report, under the id
`review/{tenant}/{review id}`, from ids (`ReviewStart`). The run believes none of its input: its
first step admits it (the grant the service signed for it) and reads the review by id, refusing a
start whose tenant, namespace, kind, memory ids, conflict group or workflow id differ from the
stored review, or whose review is settled. What settling needs (the write, the drafts it waits
on) is kept with the review row; the plan an answer makes is staged there too and committed by id.

A reviewer answers through the `review` Update, with a grant the door signed for that answer: its
validator refuses an answer that is malformed, carries no grant or comes too late, and the
handler's activity checks the grant and the reviewer's rights against the stored review and the
registry before anything changes. Answers and the timeout take turns: a refused answer changes
nothing, and answers sent to hold the review open cannot keep the timeout from settling it.
Without an answer within the policy's timeout the review is rejected (`review_timeout`) and
audited; a timed-out conflict loses only the sides the stored review names among those the
opening write added.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError, WorkflowAlreadyStartedError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.review import ReviewActivities
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.contracts.reviews import (
        OpenReviewInput,
        ReviewOpened,
        StageReviewInput,
    )
    from governed_memory.memory.models import ReviewDecision, ReviewOutcome, ReviewStart
    from governed_memory.workflows import (
        admission,
        decide_and_commit,
        parse_input,
        run_local,
        run_task,
    )


@workflow.defn(name="ReviewMemory")
class ReviewMemory:
    @workflow.init
    def __init__(self, raw: ReviewStart | dict[str, Any]) -> None:
        self._start: ReviewStart | None = None
        #: The review as stored, once the run is admitted.
        self._opened: ReviewOpened | None = None
        self._outcome: ReviewOutcome | None = None
        #: Answers, and the timeout, settle one at a time (a refused answer changes nothing and
        #: lets the next one, or the timeout, have its turn).
        self._turn = asyncio.Lock()
        self._timed_out = False
        # Malformed input fails in `run`.
        with contextlib.suppress(ApplicationError):
            self._start = parse_input(ReviewStart, raw)

    @workflow.run
    async def run(self, raw: ReviewStart | dict[str, Any]) -> ReviewOutcome:
        start = self._start or parse_input(ReviewStart, raw)
        self._opened = await run_local(
            ReviewActivities.open_review,
            OpenReviewInput(
                admission=admission(start, tenant=start.review.tenant_id),
                start=start.model_copy(update={"grant": None}),
            ),
        )
        try:
            await workflow.wait_condition(
                lambda: self._outcome is not None, timeout=self._opened.timeout
            )
        except TimeoutError:
            # From now on an answer is too late; one being applied right now finishes first.
            self._timed_out = True
            async with self._turn:
                if self._outcome is None:
                    self._outcome = await self._settle(None)
        assert self._outcome is not None
        return self._outcome

    @workflow.query(name="task")
    def task(self) -> ReviewStart | None:
        """The review as stored (ids, kind, namespace, sides), never the write it waits on."""
        opened = self._opened
        if opened is None:
            return None
        return ReviewStart(review=opened.review, newcomers=opened.newcomers, timeout=opened.timeout)

    @workflow.update(name="review")
    async def review(self, decision: ReviewDecision) -> ReviewOutcome:
        # An answer sent right after the review opened waits for the run's admission.
        await workflow.wait_condition(lambda: self._opened is not None)
        async with self._turn:
            if self._outcome is not None or self._timed_out:
                raise ApplicationError(
                    "the review is already settled"
                    if self._outcome is not None
                    else "the review timed out",
                    {"code": "policy_refusal", "field": "review"},
                    type="PolicyRefusal",
                    non_retryable=True,
                )
            self._check(decision)
            # a refused answer raises here and changes nothing: the review stays open
            self._outcome = await self._settle(decision)
        return self._outcome

    @review.validator
    def _validate(self, decision: ReviewDecision) -> None:
        if self._outcome is not None or self._timed_out:
            raise ValueError("the review is already settled")
        if not decision.grant:
            raise ValueError("an answer carries the grant the service signed for it")
        if self._opened is not None:
            self._check(decision)

    def _check(self, decision: ReviewDecision) -> None:
        """The answer's shape against the stored review (who may give it is the activity's to
        check, against the registry)."""
        assert self._opened is not None
        review = self._opened.review
        problem = None
        if review.kind == "conflict" and decision.memory_id not in (None, *review.memory_ids):
            problem = f"{decision.memory_id} is not a side of this conflict"
        if review.kind == "conflict" and decision.decision == "approve" and not decision.memory_id:
            problem = "approving a conflict names the side that is right (memory_id)"
        if problem is not None:
            raise ApplicationError(
                problem,
                {"code": "invalid_input", "field": "memory_id"},
                type="InvalidInput",
                non_retryable=True,
            )

    async def _settle(self, decision: ReviewDecision | None) -> ReviewOutcome:
        opened = self._opened
        assert opened is not None
        now = workflow.now()
        run_id = workflow.info().run_id

        async def planned(attempt: int) -> Any:
            return await run_task(
                ReviewActivities.stage_review,
                StageReviewInput(
                    review_id=opened.review.review_id,
                    workflow_id=opened.review.workflow_id,
                    run_id=run_id,
                    newcomers=opened.newcomers,
                    decision=decision,
                    now=now,
                    commit_id=f"{opened.review.workflow_id}/{run_id}#{attempt}",
                ),
            )

        async def committed(plan: Any, _: int) -> None:
            await run_task(WriteActivities.commit_staged, plan.commit)

        plan, _ = await decide_and_commit(planned, committed)
        return plan.outcome  # type: ignore[no-any-return]


async def open_reviews(starts: list[ReviewStart]) -> None:
    """Start a ReviewMemory child for every review a write opened (its row, with what settling
    needs, is already committed; each start carries the grant the service signed for it). The
    child outlives the run that started it. A review whose run is under way already (feedback
    asked again) is left to it."""
    for start in starts:
        try:
            await workflow.start_child_workflow(
                ReviewMemory.run,
                start,
                id=start.review.workflow_id,
                parent_close_policy=ParentClosePolicy.ABANDON,
            )
        except WorkflowAlreadyStartedError:
            workflow.logger.info("the review runs already")
