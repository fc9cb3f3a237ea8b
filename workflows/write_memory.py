"""WriteMemory: decide (keep the message, extract, normalise, detect, check consent and sources,
resolve, propose, decide) → commit with outbox → project → open reviews.

The id is `write/{tenant}/{idempotency_key}`, so a repeated submission attaches to the same run;
an idempotency key already decided elsewhere (in a batch) returns that decision. A lost
optimistic-concurrency race decides again against the new state, after a jittered pause
(bounded). The audit of every
stage lands in the commit's own transaction, together with the reviews the decision opens and the
outcome by idempotency key. A deferred or conflicting candidate waits in a ReviewMemory child
workflow that outlives this one (abandoned parent close policy): the caller gets its decision at
once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectInput, ProjectionActivities
    from activities.write import DecideInput, WriteActivities
    from memory.models import WriteRequest, WriteResult
    from memory.plans import CommitResult
    from workflows import (
        ACTIVITY_FAILURES,
        LOCAL_RETRY,
        LOCAL_TIMEOUT,
        error_type,
        parse_input,
        record_outcome,
        reraise_typed,
        run_local,
    )
    from workflows.review_memory import open_reviews

MAX_DECISIONS = 16
#: Upper bound of the jittered pause before deciding again after a lost race, per attempt.
RACE_BACKOFF_MS = 25


@workflow.defn(name="WriteMemory")
class WriteMemory:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        request = parse_input(WriteRequest, raw)
        workflow_id = workflow.info().workflow_id
        decide = DecideInput(
            request=request, workflow_id=workflow_id, seed=workflow.uuid4().hex, now=workflow.now()
        )
        commit: CommitResult | None = None
        for attempt in range(MAX_DECISIONS):
            decision = await run_local(WriteActivities.decide_write, decide)
            if decision.replayed is not None:
                return WriteResult(workflow_id=decision.workflow_id, outcomes=decision.replayed)
            try:
                commit = await workflow.execute_local_activity_method(
                    WriteActivities.commit_write,
                    decision.plan(f"{workflow_id}/{workflow.info().run_id}#{attempt}"),
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
                break
            except ACTIVITY_FAILURES as exc:
                if error_type(exc) != "VersionConflict":
                    raise reraise_typed(exc) from exc
                workflow.logger.info("a slot moved since the decision; deciding again")
                if workflow.patched("jittered-backoff-after-lost-race"):
                    # Writers that lost together would otherwise collide again together.
                    pause = workflow.random().randint(1, RACE_BACKOFF_MS) * (attempt + 1)
                    await workflow.sleep(timedelta(milliseconds=pause))
        else:
            raise ApplicationError(
                f"the keys kept changing under this write; gave up after {MAX_DECISIONS} decisions",
                type="VersionConflict",
                non_retryable=True,
            )

        if commit is not None and commit.written and not commit.projected:
            try:
                await run_local(
                    ProjectionActivities.project_memories,
                    ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
                )
            except ApplicationError:
                # The commit stands; its outbox events stay unprocessed and the outbox relay or
                # the repair sweep projects them. Reads re-check canonical meanwhile.
                workflow.logger.warning("projection failed after commit; left to the outbox relay")
        await open_reviews(decision, request)
        record_outcome(",".join(sorted({o.decision for o in decision.outcomes})) or "none")
        return WriteResult(workflow_id=workflow_id, outcomes=decision.outcomes)
