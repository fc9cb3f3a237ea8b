"""WriteMemory: decide (validate → normalise → resolve against the slot) → commit with outbox →
project → audit.

The id is `write/{tenant}/{idempotency_key}`, so a repeated submission attaches to the same run.
A lost optimistic-concurrency race decides again against the new state (bounded). The audit of a
committed decision is written in the commit's own transaction; a decision that commits nothing is
audited by its own activity.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectInput, ProjectionActivities
    from activities.write import AuditInput, DecideInput, WriteActivities, WriteDecision
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

MAX_DECISIONS = 8


@workflow.defn(name="WriteMemory")
class WriteMemory:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        request = parse_input(WriteRequest, raw)
        workflow_id = workflow.info().workflow_id
        memory_id = "mem_" + workflow.uuid4().hex
        now = workflow.now()

        commit: CommitResult | None = None
        decision: WriteDecision | None = None
        for attempt in range(MAX_DECISIONS):
            try:
                decision = await workflow.execute_local_activity_method(
                    WriteActivities.decide_write,
                    DecideInput(
                        request=request,
                        workflow_id=workflow_id,
                        memory_id=memory_id,
                        commit_id=f"{workflow_id}#{attempt}",
                        now=now,
                    ),
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
            except ACTIVITY_FAILURES as exc:
                raise reraise_typed(exc) from exc
            plan = decision.resolution.plan
            if plan is None:
                await self._audit_without_commit(decision)
                return WriteResult(workflow_id=workflow_id, outcomes=[decision.resolution.outcome])
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
                workflow.logger.info("slot moved since the decision; deciding again")
        if commit is None or decision is None:
            raise ApplicationError(
                f"the key kept changing under this write; gave up after {MAX_DECISIONS} decisions",
                type="VersionConflict",
                non_retryable=True,
            )

        if not commit.projected:
            try:
                await workflow.execute_local_activity_method(
                    ProjectionActivities.project_memories,
                    ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
            except ACTIVITY_FAILURES:
                # The commit stands; its outbox events stay unprocessed and the outbox relay or
                # the repair sweep projects them. Reads re-check canonical meanwhile.
                workflow.logger.warning("projection failed after commit; left to the outbox relay")
        return WriteResult(workflow_id=workflow_id, outcomes=[decision.resolution.outcome])

    async def _audit_without_commit(self, decision: WriteDecision) -> None:
        prepared, outcome = decision.prepared, decision.resolution.outcome
        await workflow.execute_local_activity_method(
            WriteActivities.record_audit,
            AuditInput(
                tenant_id=prepared.record.tenant_id,
                namespace=prepared.record.namespace,
                workflow_id=workflow.info().workflow_id,
                at=prepared.at,
                events=[
                    AuditEvent(
                        stage="policy_decision",
                        outcome=outcome.decision,
                        decision=outcome.decision,
                        relation=outcome.relation,
                        reason_code=outcome.reason,
                        principal=prepared.principal.ref,
                        extractor=prepared.record.extractor,
                        details={"matched": outcome.matched_memory_ids},
                    )
                ],
            ),
            start_to_close_timeout=LOCAL_TIMEOUT,
            retry_policy=LOCAL_RETRY,
        )
