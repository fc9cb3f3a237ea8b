"""WriteMemory: [record the message] → decide (extract, normalise, detect, consent, validate
sources, resolve, propose, decide) → commit with outbox → project → open reviews → audit.

The id is `write/{tenant}/{idempotency_key}`, so a repeated submission attaches to the same run.
A lost optimistic-concurrency race decides again against the new state (bounded). The audit of
every stage lands in the commit's own transaction, or, when nothing is committed, in its own
activity. A deferred or conflicting candidate opens a review: a ReviewMemory child workflow that
outlives this one (abandoned parent close policy), so the caller gets its decision at once.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectInput, ProjectionActivities
    from activities.review import ReviewTask
    from activities.write import (
        DecideInput,
        RecordDecisionInput,
        RecordMessageInput,
        WriteActivities,
    )
    from memory.models import ConversationMessage, WriteRequest, WriteResult
    from memory.stores.canonical import CommitResult
    from memory.write.pipeline import WriteDecision
    from workflows import (
        ACTIVITY_FAILURES,
        LOCAL_RETRY,
        LOCAL_TIMEOUT,
        error_type,
        parse_input,
        reraise_typed,
    )
    from workflows.review_memory import ReviewMemory

MAX_DECISIONS = 8


@workflow.defn(name="WriteMemory")
class WriteMemory:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        request = parse_input(WriteRequest, raw)
        workflow_id = workflow.info().workflow_id
        seed = workflow.uuid4().hex
        now = workflow.now()

        message: ConversationMessage | None = None
        if request.utterance is not None:
            message = await self._local(
                WriteActivities.record_message,
                RecordMessageInput(
                    request=request, message_id=f"msg_{seed}", workflow_id=workflow_id, now=now
                ),
            )

        decision: WriteDecision | None = None
        commit: CommitResult | None = None
        for attempt in range(MAX_DECISIONS):
            decision = await self._local(
                WriteActivities.decide_write,
                DecideInput(
                    request=request, workflow_id=workflow_id, seed=seed, now=now, message=message
                ),
            )
            plan = decision.plan(f"{workflow_id}#{attempt}")
            if plan is None:
                await self._local(
                    WriteActivities.record_decision,
                    RecordDecisionInput(
                        tenant_id=decision.tenant_id,
                        namespace=decision.namespace,
                        workflow_id=workflow_id,
                        at=decision.at,
                        events=decision.audit,
                        reviews=[r.review for r in decision.reviews],
                    ),
                )
                break
            try:
                commit = await workflow.execute_local_activity_method(
                    WriteActivities.commit_write,
                    plan,
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
                break
            except ACTIVITY_FAILURES as exc:
                if error_type(exc) != "VersionConflict":
                    raise reraise_typed(exc) from exc
                workflow.logger.info("a slot moved since the decision; deciding again")
        else:
            raise ApplicationError(
                f"the keys kept changing under this write; gave up after {MAX_DECISIONS} decisions",
                type="VersionConflict",
                non_retryable=True,
            )
        assert decision is not None

        if commit is not None and not commit.projected:
            try:
                await self._local(
                    ProjectionActivities.project_memories,
                    ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
                )
            except ApplicationError:
                # The commit stands; its outbox events stay unprocessed and the outbox relay or
                # the repair sweep projects them. Reads re-check canonical meanwhile.
                workflow.logger.warning("projection failed after commit; left to the outbox relay")

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
        return WriteResult(workflow_id=workflow_id, outcomes=decision.outcomes)

    async def _local(self, activity: Any, arg: Any) -> Any:
        """A local activity whose domain errors fail this workflow with the same typed error."""
        try:
            return await workflow.execute_local_activity_method(
                activity, arg, start_to_close_timeout=LOCAL_TIMEOUT, retry_policy=LOCAL_RETRY
            )
        except ACTIVITY_FAILURES as exc:
            raise reraise_typed(exc) from exc
