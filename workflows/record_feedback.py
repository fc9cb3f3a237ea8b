"""RecordFeedback: admit → record the event with its effect (one transaction: the event, a
quarantine and the review it opens, the audit) → start what the effect starts, each as a child
under an id derived from this run's own: the harmful report's ReviewMemory (it outlives this
run), the corrected value's WriteMemory (as the caller, through the whole write pipeline; a
memory without a key then ends where the correction begins), the DeleteSubject of a `deleted`
memory.

The id is `feedback/{tenant}/{keyed hash of the caller and the event id}`: the same event again
attaches to this run, and nobody without the service's key computes it. A worker that dies
between any two steps leaves the run to another, which goes on from the last step recorded:
every effect is applied once (the record is keyed by its event id, the write by its
idempotency key, the retirement by its commit id).

Feedback whose effect is one transaction (used, ignored, confirmed) does not run here: the
door records it (memory.services.feedback).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError, ChildWorkflowError

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.failures import VERIFICATION_FAILED
    from governed_memory.activities.feedback import FeedbackActivities
    from governed_memory.memory.contracts.feedback import RecordInput, RetireInput
    from governed_memory.memory.feedback import FeedbackRecorded, FeedbackResult, FeedbackStart
    from governed_memory.memory.models import DeletionReceipt, WriteResult
    from governed_memory.workflows import admit, parse_input, record_outcome, run_local
    from governed_memory.workflows.delete_subject import DeleteSubject
    from governed_memory.workflows.review_memory import open_reviews
    from governed_memory.workflows.write_memory import WriteMemory


@workflow.defn(name="RecordFeedback")
class RecordFeedback:
    @workflow.run
    async def run(self, raw: FeedbackStart | dict[str, Any]) -> FeedbackResult:
        start = parse_input(FeedbackStart, raw)
        admitted = await admit(start, principals=start.principals, tenant=start.tenant)
        this = workflow.info().workflow_id
        recorded: FeedbackRecorded = await run_local(
            FeedbackActivities.record_feedback,
            RecordInput(
                start=start.model_copy(update={"grant": None}),
                workflow_id=this,
                principal=admitted.principal,
            ),
        )
        receipt = recorded.receipt
        result = FeedbackResult(receipt=receipt)
        if receipt.review is not None:
            await open_reviews([receipt.review])
        if start.write is not None and recorded.write_workflow_id and recorded.write_grant:
            written = await workflow.execute_child_workflow(
                WriteMemory.run,
                start.write.model_copy(update={"grant": recorded.write_grant}),
                id=recorded.write_workflow_id,
            )
            result.correction = WriteResult.model_validate(written).outcomes
            kept = [
                o.memory_id
                for o in result.correction
                if o.memory_id
                and o.decision in ("add", "no_op")
                and o.relation in ("NEW", "DUPLICATE")
            ]
            if kept:  # a memory without key: the write added beside it
                await run_local(
                    FeedbackActivities.retire_corrected,
                    RetireInput(
                        event_id=receipt.event.event_id, workflow_id=this, replaced_by=kept[0]
                    ),
                )
        if start.deletion is not None and recorded.deletion_workflow_id and recorded.deletion_grant:
            result.deletion_workflow_id = recorded.deletion_workflow_id
            result.deletion = await _deleted(
                start.deletion.model_copy(update={"grant": recorded.deletion_grant}),
                recorded.deletion_workflow_id,
            )
        record_outcome(receipt.event.effect)
        return result


async def _deleted(request: Any, workflow_id: str) -> DeletionReceipt:
    """The deletion's receipt, passed or failed (a failed verification fails its run with the
    receipt as the failure's details)."""
    try:
        done = await workflow.execute_child_workflow(DeleteSubject.run, request, id=workflow_id)
    except ChildWorkflowError as exc:
        cause = exc.cause
        if not isinstance(cause, ApplicationError) or cause.type != VERIFICATION_FAILED:
            raise
        return DeletionReceipt.model_validate(cause.details[0])
    return DeletionReceipt.model_validate(done)
