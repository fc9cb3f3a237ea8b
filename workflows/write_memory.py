"""WriteMemory: decide (keep the message, extract, normalise, detect, check consent and sources,
resolve, propose, decide) → commit with outbox → project → open reviews.

The id is `write/{tenant}/{idempotency_key}`, so a repeated submission attaches to the same run;
an idempotency key already decided elsewhere (in a batch) returns that decision. A lost
optimistic-concurrency race decides again against the new state (`decide_and_commit`). The audit
of every stage lands in the commit's own transaction, together with the reviews the decision
opens and the outcome by idempotency key. A deferred or conflicting candidate waits in a
ReviewMemory child workflow that outlives this one: the caller gets its decision at once.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectionActivities
    from activities.write import WriteActivities
    from memory.models import WriteRequest, WriteResult
    from memory.services.projections import ProjectInput
    from memory.services.writes import DecideInput
    from workflows import decide_and_commit, parse_input, record_outcome, run_local
    from workflows.review_memory import open_reviews


async def decide_and_commit_write(decide: DecideInput) -> Any:
    """A write's hot path: decide and commit (deciding again after a lost race), then project
    what it committed. Returns the final decision."""
    run = workflow.info()

    async def decided(_: int) -> Any:
        return await run_local(WriteActivities.decide_write, decide)

    async def committed(decision: Any, attempt: int) -> Any:
        if decision.replayed is not None:
            return None  # decided before: nothing to commit
        plan = decision.plan(f"{run.workflow_id}/{run.run_id}#{attempt}")
        return await run_local(WriteActivities.commit_write, plan)

    decision, commit = await decide_and_commit(decided, committed)
    if commit is not None and commit.written and not commit.projected:
        try:
            await run_local(
                ProjectionActivities.project_memories,
                ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
            )
        except ApplicationError:
            # The commit stands; its outbox events stay unprocessed and the outbox relay or the
            # repair sweep projects them. Reads re-check canonical meanwhile.
            workflow.logger.warning("projection failed after commit; left to the outbox relay")
    return decision


@workflow.defn(name="WriteMemory")
class WriteMemory:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        request = parse_input(WriteRequest, raw)
        decision = await decide_and_commit_write(
            DecideInput(
                request=request,
                workflow_id=workflow.info().workflow_id,
                seed=workflow.uuid4().hex,
                now=workflow.now(),
            )
        )
        if decision.replayed is not None:
            return WriteResult(workflow_id=decision.workflow_id, outcomes=decision.replayed)
        await open_reviews(decision, request)
        record_outcome(",".join(sorted({o.decision for o in decision.outcomes})) or "none")
        return WriteResult(workflow_id=workflow.info().workflow_id, outcomes=decision.outcomes)
