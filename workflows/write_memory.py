"""WriteMemory: validate → resolve against the slot → commit with outbox → project → audit.

The id is `write/{tenant}/{idempotency_key}`, so a repeated submission attaches to the same run.
A lost optimistic-concurrency race re-resolves against the new state (bounded).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectInput, ProjectionActivities
    from activities.write import (
        AuditInput,
        PrepareWriteInput,
        ResolveWriteInput,
        WriteActivities,
    )
    from memory.models import AuditEvent, WriteRequest, WriteResult
    from memory.stores.canonical import CommitResult
    from workflows import (
        ACTIVITY_FAILURES,
        LOCAL_RETRY,
        LOCAL_TIMEOUT,
        error_type,
        parse_input,
        reraise_typed,
    )

MAX_RESOLVE_ATTEMPTS = 8


@workflow.defn(name="WriteMemory")
class WriteMemory:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        request = parse_input(WriteRequest, raw)
        info = workflow.info()
        try:
            prepared = await workflow.execute_local_activity_method(
                WriteActivities.prepare_write,
                PrepareWriteInput(
                    request=request,
                    workflow_id=info.workflow_id,
                    memory_id="mem_" + workflow.uuid4().hex,
                    now=workflow.now(),
                ),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
        except ACTIVITY_FAILURES as exc:
            raise reraise_typed(exc) from exc

        commit: CommitResult | None = None
        for attempt in range(MAX_RESOLVE_ATTEMPTS):
            resolution = await workflow.execute_local_activity_method(
                WriteActivities.resolve_write,
                ResolveWriteInput(prepared=prepared, commit_id=f"{info.workflow_id}#{attempt}"),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
            if resolution.plan is None:
                await workflow.execute_local_activity_method(
                    WriteActivities.record_audit,
                    AuditInput(
                        tenant_id=prepared.record.tenant_id,
                        namespace=prepared.record.namespace,
                        workflow_id=info.workflow_id,
                        at=prepared.at,
                        events=[
                            AuditEvent(
                                stage="policy_decision",
                                outcome=resolution.outcome.decision,
                                decision=resolution.outcome.decision,
                                relation=resolution.outcome.relation,
                                reason_code=resolution.outcome.reason,
                                principal=prepared.principal.ref,
                                extractor=prepared.record.extractor,
                                details={"matched": resolution.outcome.matched_memory_ids},
                            )
                        ],
                    ),
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
                return WriteResult(workflow_id=info.workflow_id, outcomes=[resolution.outcome])
            try:
                commit = await workflow.execute_local_activity_method(
                    WriteActivities.commit_write,
                    resolution.plan,
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
                break
            except ACTIVITY_FAILURES as exc:
                if error_type(exc) == "VersionConflict":
                    workflow.logger.info("slot moved during resolution, re-resolving")
                    continue
                raise reraise_typed(exc) from exc
        if commit is None:
            raise ApplicationError(
                "the key kept changing under this write; gave up after "
                f"{MAX_RESOLVE_ATTEMPTS} attempts",
                type="VersionConflict",
                non_retryable=True,
            )

        try:
            await workflow.execute_local_activity_method(
                ProjectionActivities.project_memories,
                ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
                start_to_close_timeout=LOCAL_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
        except ACTIVITY_FAILURES:
            # The commit stands; its outbox events stay unprocessed and the relay or the repair
            # sweep projects them. Reads re-check canonical meanwhile.
            workflow.logger.warning("projection failed after commit; left to the outbox relay")
        return WriteResult(workflow_id=info.workflow_id, outcomes=[resolution.outcome])
