"""DeleteSubject: resolve and authorize → tombstone and erase → unproject → verify → receipt.

The id is `delete/{tenant}/{scope fingerprint}`: a repeated request for the same scope attaches to
the running deletion. The receipt can be queried (`receipt`) while the workflow runs.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.deletion import (
        DeletionActivities,
        EraseInput,
        StartDeletionInput,
        VerifyInput,
    )
    from activities.projection import ProjectInput, ProjectionActivities
    from memory.models import DeleteRequest, DeletionReceipt
    from workflows import ACTIVITY_FAILURES, LOCAL_RETRY, LOCAL_TIMEOUT, parse_input, reraise_typed

#: A failed verification is followed by a re-projection and another verification, this often.
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
        info = workflow.info()
        try:
            started = await workflow.execute_local_activity_method(
                DeletionActivities.start_deletion,
                StartDeletionInput(
                    request=request,
                    deletion_id="del_" + workflow.uuid4().hex[:24],
                    workflow_id=info.workflow_id,
                    now=workflow.now(),
                ),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
        except ACTIVITY_FAILURES as exc:
            raise reraise_typed(exc) from exc
        receipt = started.receipt
        self._receipt = receipt

        erased = await workflow.execute_local_activity_method(
            DeletionActivities.erase_memories,
            EraseInput(
                deletion_id=receipt.deletion_id, memory_ids=started.memory_ids, at=started.at
            ),
            start_to_close_timeout=LOCAL_TIMEOUT,
            retry_policy=LOCAL_RETRY,
        )
        receipt.canonical_records = len(started.memory_ids)
        receipt.versions_erased = erased.versions_erased
        receipt.cache_namespaces_invalidated = len(erased.namespaces)
        self._receipt = receipt

        for _ in range(MAX_VERIFICATIONS):
            # Remove from every projection by projecting the (tombstoned) canonical state.
            await workflow.execute_local_activity_method(
                ProjectionActivities.project_memories,
                ProjectInput(memory_ids=started.memory_ids, outbox_seqs=erased.outbox_seqs),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
            probes = await workflow.execute_local_activity_method(
                DeletionActivities.verify_deletion,
                VerifyInput(
                    deletion_id=receipt.deletion_id,
                    principal=request.principal,
                    memory_ids=started.memory_ids,
                    at=started.at,
                ),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
            receipt.probes = probes
            if all(p.passed for p in probes):
                receipt.verification_status = "passed"
                break
            workflow.logger.warning("deletion verification failed; re-projecting and retrying")
        else:
            receipt.verification_status = "failed"

        receipt.completed_at = workflow.now()
        self._receipt = receipt
        await workflow.execute_local_activity_method(
            DeletionActivities.save_receipt,
            receipt,
            start_to_close_timeout=LOCAL_TIMEOUT,
            retry_policy=LOCAL_RETRY,
        )
        return receipt
