"""DeleteSubject: resolve the scope (a request in words too) and authorize it → tombstone and
erase memories, messages (or the clauses that state the key) and derived summaries → write the
summaries again from what remains → remove from every projection and bump the cache generations
→ delete the Temporal runs whose histories carried it → verify that no read path (Temporal's
history included) returns anything (a failed probe triggers a repair and another
verification, bounded) → durable receipt → CloseDeletionReceipt waits for the backup deadline.

The id is `delete/{tenant}/{scope fingerprint}`: a repeated request for the same scope attaches
to the running deletion. The receipt can be queried (`receipt`) while the workflow runs.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.deletion import DeletionActivities
    from activities.failures import VERIFICATION_FAILED
    from activities.projection import ProjectionActivities
    from activities.temporal_info import TemporalActivities
    from memory.models import (
        DeleteRequest,
        DeletionReceipt,
        ErasedHistories,
        HistoryErasure,
        ProbeResult,
    )
    from memory.plans import EraseResult
    from memory.services.deletions import (
        CloseReceiptInput,
        EraseInput,
        RepairInput,
        StartDeletionInput,
        StartedDeletion,
        VerifyInput,
    )
    from memory.services.projections import ProjectInput
    from workflows import parse_input, record_outcome, run_moved, run_task

FAILED_RUN_PATCH = "failed-verification-fails-run"
RETENTION_PATCH = "state-temporal-retention"
HISTORY_PATCH = "erase-temporal-histories"
#: After a failed verification: repair, verify again, this many times at most.
MAX_VERIFICATIONS = 3
DELETION_TIMEOUT = timedelta(minutes=5)


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
        info = workflow.info()
        started: StartedDeletion = await self._step(
            DeletionActivities.start_deletion,
            StartDeletionInput(
                request=request,
                deletion_id="del_" + workflow.uuid4().hex[:24],
                workflow_id=info.workflow_id,
                now=workflow.now(),
            ),
        )
        receipt = started.receipt
        if workflow.patched(RETENTION_PATCH):
            receipt.temporal = await run_task(
                TemporalActivities.namespace_retention, workflow.info().namespace
            )
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
        histories: HistoryErasure | None = None
        erasing: asyncio.Task[Any] | None = None
        if workflow.patched(HISTORY_PATCH):
            carriers: list[str] = await run_task(DeletionActivities.carrying_runs, scope)
            histories = HistoryErasure(namespace=info.namespace, workflow_ids=carriers)
            # Temporal deletes asynchronously: under way while the stores are erased.
            erasing = asyncio.create_task(run_task(TemporalActivities.erase_histories, histories))
        erased: EraseResult = await self._step(DeletionActivities.erase_scope, scope)
        regenerated: list[str] = await self._step(DeletionActivities.regenerate_summaries, scope)
        receipt.canonical_records = len(started.resolved.memory_ids)
        receipt.versions_erased = erased.versions_erased
        receipt.messages_erased = erased.messages_erased
        receipt.derived_records_invalidated = len(started.resolved.summaries)
        receipt.summaries_regenerated = len(regenerated)
        receipt.cache_namespaces_invalidated = len(erased.namespaces)
        self._receipt = receipt

        # Remove from every projection by projecting the (tombstoned) canonical state.
        await self._step(
            ProjectionActivities.project_memories,
            ProjectInput(
                memory_ids=[*started.resolved.all_memory_ids, *regenerated],
                outbox_seqs=erased.outbox_seqs,
            ),
        )
        for attempt in range(MAX_VERIFICATIONS):
            probes = await self._step(
                DeletionActivities.verify_deletion,
                VerifyInput(
                    deletion_id=receipt.deletion_id,
                    principal=request.principal,
                    resolved=started.resolved,
                    generations=started.generations,
                    at=started.at,
                ),
            )
            if histories is not None:
                # Closed runs that carried the content go from Temporal's history too (the
                # first time, under way since the start; again after a failed probe).
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
                await self._step(
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
        await self._step(DeletionActivities.save_receipt, receipt)
        if receipt.verification_status == "passed" and receipt.backup_retention_deadline:
            # The backup deadline is a durable timer of its own workflow, so that a new request
            # for the same scope later starts a new deletion instead of attaching to this one.
            await workflow.start_child_workflow(
                CloseDeletionReceipt.run,
                CloseReceiptInput(
                    deletion_id=receipt.deletion_id,
                    at=receipt.backup_retention_deadline,
                    wait=receipt.backup_retention_deadline - receipt.requested_at,
                ),
                id=f"backup-expiry/{receipt.tenant_id}/{receipt.deletion_id}",
                parent_close_policy=ParentClosePolicy.ABANDON,
            )
        record_outcome(receipt.verification_status)
        if receipt.verification_status == "failed" and workflow.patched(FAILED_RUN_PATCH):
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

    async def _step(self, activity: Any, arg: Any) -> Any:
        """Each step: a regular, heartbeating activity (a local one in runs recorded before)."""
        return await run_moved(
            activity, arg, patch="deletion-as-activities", local_within=DELETION_TIMEOUT
        )


@workflow.defn(name="CloseDeletionReceipt")
class CloseDeletionReceipt:
    """Waits (a durable timer) until the backup retention deadline of a deletion, then closes
    its receipt: from then on no backup holds the erased data either."""

    def __init__(self) -> None:
        self._deadline: CloseReceiptInput | None = None

    @workflow.query(name="deadline")
    def deadline(self) -> CloseReceiptInput | None:
        return self._deadline

    @workflow.run
    async def run(self, raw: CloseReceiptInput | dict[str, Any]) -> DeletionReceipt:
        task = parse_input(CloseReceiptInput, raw)
        self._deadline = task
        if task.wait > timedelta(0):
            await workflow.sleep(task.wait)
        closed: DeletionReceipt = await run_task(DeletionActivities.close_receipt, task)
        return closed
