"""WriteMemory: decide (keep the message, extract, normalise, detect, check consent and sources,
resolve, propose, decide) and stage the plan → commit it by id with outbox → project → open
reviews. Between activities the history carries ids, decisions and reason codes, never what was
said: the staged plan waits in the canonical store, the reviews start from ids.

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
    from memory.services.writes import DecideInput, StagedWrite, StageInput
    from memory.write.pipeline import WriteDecision
    from workflows import decide_and_commit, parse_input, record_outcome, run_local
    from workflows.review_memory import open_reviews, open_reviews_recorded


#: Runs from this patch on carry ids between deciding and committing: the plan is staged in the
#: canonical store (`memory.stage_write`), the commit takes its id (`memory.commit_staged`).
BY_REFERENCE = "decisions-by-reference"


async def decide_and_commit_write(decide: DecideInput) -> StagedWrite | WriteDecision:
    """A write's hot path: decide and commit (deciding again after a lost race), then project
    what it committed. Returns the final decision: staged (ids only) in runs from
    `BY_REFERENCE` on, whole in runs recorded before."""
    run = workflow.info()
    by_reference = workflow.patched(BY_REFERENCE)

    async def decided(attempt: int) -> Any:
        if by_reference:
            commit_id = f"{run.workflow_id}/{run.run_id}#{attempt}"
            return await run_local(
                WriteActivities.stage_write, StageInput(decide=decide, commit_id=commit_id)
            )
        return await run_local(WriteActivities.decide_write, decide)

    async def committed(decision: Any, attempt: int) -> Any:
        if by_reference:
            if decision.commit is None:
                return None  # decided before: nothing to commit
            return await run_local(WriteActivities.commit_staged, decision.commit)
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
    return decision  # type: ignore[no-any-return]


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
        if isinstance(decision, StagedWrite):
            if not decision.replayed:
                await open_reviews(decision.reviews)
                record_outcome(",".join(sorted({o.decision for o in decision.outcomes})) or "none")
            return WriteResult(workflow_id=decision.workflow_id, outcomes=decision.outcomes)
        if decision.replayed is not None:
            return WriteResult(workflow_id=decision.workflow_id, outcomes=decision.replayed)
        await open_reviews_recorded(decision, request)
        record_outcome(",".join(sorted({o.decision for o in decision.outcomes})) or "none")
        return WriteResult(workflow_id=workflow.info().workflow_id, outcomes=decision.outcomes)
