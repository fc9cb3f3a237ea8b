"""DeleteSubject: admit → resolve the scope (a request in words too) and authorize it →
tombstone and erase memories, messages (or the clauses that state the key) and derived
summaries → write the summaries again from what remains → remove from every projection and bump
the cache generations → delete the Temporal runs whose histories carried it → verify that no
read path (Temporal's history included) returns anything (a failed probe triggers a repair and
another verification, bounded) → durable receipt → CloseDeletionReceipt waits for the backup
deadline.

The id is `delete/{tenant}/{keyed hash of the requester and the scope}`: a repeated request
attaches to the running deletion, and nobody without the service's key can compute the id to
squat it. The receipt can be queried (`receipt`) while the workflow runs.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.deletion import DeletionActivities
    from governed_memory.activities.failures import VERIFICATION_FAILED
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.activities.temporal_info import TemporalActivities
    from governed_memory.memory.contracts.deletions import (
        CloseInput,
        EraseInput,
        ReceiptTimer,
        ReceiptTimerInput,
        RepairInput,
        SavedReceipt,
        StartDeletionInput,
        StartedDeletion,
        VerifyInput,
    )
    from governed_memory.memory.contracts.projections import ProjectInput
    from governed_memory.memory.models import (
        CloseReceiptInput,
        DeleteRequest,
        DeletionReceipt,
        ErasedHistories,
        HistoryErasure,
        ProbeResult,
    )
    from governed_memory.memory.plans import EraseResult
    from governed_memory.workflows import admission, admit, parse_input, record_outcome, run_task

#: After a failed verification: repair, verify again, this many times at most.
MAX_VERIFICATIONS = 3


@workflow.defn(name="DeleteSubject")
class DeleteSubject:
    def __init__(self) -> None:
        self._receipt: DeletionReceipt | None = None

    @workflow.query(name="receipt")
    def receipt(self) -> DeletionReceipt | None:
        return self._receipt

    @workflow.run
    async def run(self, raw: DeleteRequest | dict[str, Any]) -> DeletionReceipt:
        request = parse_input(DeleteRequest, raw)
        await admit(request, principals=[request.principal], tenant=request.tenant)
        info = workflow.info()
        started: StartedDeletion = await run_task(
            DeletionActivities.start_deletion,
            StartDeletionInput(
                request=request.model_copy(update={"grant": None}),
                seed=workflow.uuid4().hex,
                workflow_id=info.workflow_id,
                now=workflow.now(),
            ),
        )
        receipt = started.receipt
        receipt.temporal = await run_task(TemporalActivities.namespace_retention, info.namespace)
        kept = receipt.temporal.retention_seconds
        if kept and receipt.backup_retention_deadline is not None:
            # Closed runs keep their (encrypted) payloads for the namespace's retention.
            receipt.backup_retention_deadline = max(
                receipt.backup_retention_deadline,
                receipt.requested_at + timedelta(seconds=kept),
            )
        self._receipt = receipt
        scope = EraseInput(
            deletion_id=receipt.deletion_id, resolved=started.resolved, at=started.at
        )
        carriers: list[str] = await run_task(DeletionActivities.carrying_runs, scope)
        histories = HistoryErasure(namespace=info.namespace, workflow_ids=carriers)
        # Temporal deletes asynchronously: under way while the stores are erased.
        erasing: asyncio.Task[Any] | None = asyncio.create_task(
            run_task(TemporalActivities.erase_histories, histories)
        )
        erased: EraseResult = await run_task(DeletionActivities.erase_scope, scope)
        regenerated: list[str] = await run_task(DeletionActivities.regenerate_summaries, scope)
        receipt.canonical_records = len(started.resolved.memory_ids)
        receipt.versions_erased = erased.versions_erased
        receipt.messages_erased = erased.messages_erased
        receipt.derived_records_invalidated = len(started.resolved.summaries)
        receipt.summaries_regenerated = len(regenerated)
        receipt.cache_namespaces_invalidated = len(erased.namespaces)
        self._receipt = receipt

        # Remove from every projection by projecting the (tombstoned) canonical state.
        await run_task(
            ProjectionActivities.project_memories,
            ProjectInput(
                memory_ids=[*started.resolved.all_memory_ids, *regenerated],
                outbox_seqs=erased.outbox_seqs,
            ),
        )
        for attempt in range(MAX_VERIFICATIONS):
            probes = await run_task(
                DeletionActivities.verify_deletion,
                VerifyInput(
                    deletion_id=receipt.deletion_id,
                    principal=request.principal,
                    resolved=started.resolved,
                    generations=started.generations,
                    at=started.at,
                ),
            )
            # Closed runs that carried the content go from Temporal's history too (the first
            # time, under way since the start; again after a failed probe).
            gone: ErasedHistories = await (
                erasing or run_task(TemporalActivities.erase_histories, histories)
            )
            erasing = None
            receipt.temporal_runs_deleted += gone.runs_deleted
            probed: ProbeResult = await run_task(TemporalActivities.probe_histories, histories)
            probes = [*probes, probed]
            receipt.probes = probes
            if all(p.passed for p in probes):
                receipt.verification_status = "passed"
                break
            failed = [p.probe for p in probes if not p.passed]
            workflow.logger.warning("deletion verification failed (%s); repairing", failed)
            if attempt + 1 < MAX_VERIFICATIONS:
                await run_task(
                    DeletionActivities.repair_deletion,
                    RepairInput(
                        deletion_id=receipt.deletion_id,
                        resolved=started.resolved,
                        regenerated=regenerated,
                        at=started.at,
                    ),
                )
        else:
            receipt.verification_status = "failed"  # never "passed" with a failed probe
        if receipt.verification_status == "passed" and started.resolved.empty:
            receipt.verification_status = "nothing_matched"  # nothing was there to erase

        receipt.completed_at = workflow.now()
        receipt.elapsed_seconds = (workflow.now() - workflow.info().start_time).total_seconds()
        self._receipt = receipt
        saved: SavedReceipt = await run_task(DeletionActivities.save_receipt, receipt)
        if saved.closer is not None and saved.closer_id is not None:
            # The backup deadline is a durable timer of its own workflow, so that a new request
            # for the same scope later starts a new deletion instead of attaching to this one.
            await workflow.start_child_workflow(
                CloseDeletionReceipt.run,
                saved.closer,
                id=saved.closer_id,
                parent_close_policy=ParentClosePolicy.ABANDON,
            )
        record_outcome(receipt.verification_status)
        if receipt.verification_status == "failed":
            # A deletion that could not be verified is a failed run in the UI and to every
            # client, not a green one; the receipt (ids and counts only) travels with it.
            probes_failed = ", ".join(p.probe for p in receipt.probes if not p.passed)
            raise ApplicationError(
                f"deletion {receipt.deletion_id} failed verification ({probes_failed})",
                receipt.model_dump(mode="json"),
                type=VERIFICATION_FAILED,
                non_retryable=True,
            )
        return receipt


@workflow.defn(name="CloseDeletionReceipt")
class CloseDeletionReceipt:
    """Waits (a durable timer) until the backup retention deadline of a deletion, then closes
    its receipt: from then on no backup holds the erased data either. It runs only as the child
    its deletion started, with the grant that deletion's receipt gave it, and takes the deadline
    from the stored receipt, never from its input."""

    def __init__(self) -> None:
        self._timer: ReceiptTimer | None = None

    @workflow.query(name="deadline")
    def deadline(self) -> ReceiptTimer | None:
        return self._timer

    @workflow.run
    async def run(self, raw: CloseReceiptInput | dict[str, Any]) -> DeletionReceipt:
        task = parse_input(CloseReceiptInput, raw)
        info = workflow.info()
        self._timer = await run_task(
            DeletionActivities.receipt_timer,
            ReceiptTimerInput(
                admission=admission(task),
                deletion_id=task.deletion_id,
                parent_workflow_id=info.parent.workflow_id if info.parent else None,
                now=workflow.now(),
            ),
        )
        if self._timer.wait > timedelta(0):
            await workflow.sleep(self._timer.wait)
        closed: DeletionReceipt = await run_task(
            DeletionActivities.close_receipt,
            CloseInput(deletion_id=task.deletion_id, now=workflow.now()),
        )
        return closed
