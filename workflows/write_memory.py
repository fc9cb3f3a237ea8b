"""WriteMemory: one local activity admits (the grant the door signed for this run), decides
(keep the message, extract, normalise, detect, check consent and sources, resolve, propose,
decide) and commits with outbox, then projects → open reviews. Between steps the history
carries ids, decisions and reason codes, never what was said: the plan never leaves the
activity, the reviews start from ids.

The id is `write/{tenant}/{keyed hash of the writer and the idempotency key}` (the client's,
`shell.temporal.write_workflow_id`), so a repeated submission attaches to the same run; an
idempotency key already decided elsewhere (in a batch) returns that decision. A lost
optimistic-concurrency race decides again against the new state (`decide_and_commit`), under a
new commit id. The audit of every stage lands in the commit's own transaction, together with
the reviews the decision opens and the outcome by idempotency key. A deferred or conflicting
candidate waits in a ReviewMemory child workflow that outlives this one: the caller gets its
decision at once.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.contracts.admission import AdmitInput
    from governed_memory.memory.contracts.projections import ProjectInput
    from governed_memory.memory.contracts.writes import CommittedWrite, DecideInput, WriteInput
    from governed_memory.memory.models import WriteRequest, WriteResult
    from governed_memory.memory.plans import CommitResult
    from governed_memory.workflows import (
        admission,
        decide_and_commit,
        parse_input,
        record_outcome,
        run_local,
    )
    from governed_memory.workflows.review_memory import open_reviews


async def decide_and_commit_write(
    decide: DecideInput, admit: AdmitInput | None = None
) -> CommittedWrite:
    """A write's hot path: decide and commit in one local activity (admitting the run first,
    when `admit` is given), deciding again after a lost race; then, only if the activity's own
    projection failed, project what it committed. Returns the decision (ids only)."""
    run = workflow.info()

    async def written(attempt: int) -> CommittedWrite:
        step = WriteInput(
            decide=decide,
            commit_id=f"{run.workflow_id}/{run.run_id}#{attempt}",
            admit=admit if attempt == 0 else None,
        )
        done: CommittedWrite = await run_local(WriteActivities.write, step)
        return done

    async def committed(decision: CommittedWrite, _: int) -> CommitResult | None:
        return decision.commit

    decision, commit = await decide_and_commit(written, committed)
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
                request=request.model_copy(update={"grant": None}),
                workflow_id=workflow.info().workflow_id,
                seed=workflow.uuid4().hex,
                now=workflow.now(),
            ),
            admit=admission(request, principals=[request.principal], tenant=request.tenant),
        )
        # Decided before (a retry after the commit, or the key decided by another run), the
        # reviews it opened that are open still start again, or go on where they run.
        await open_reviews(decision.reviews)
        if not decision.replayed:
            record_outcome(",".join(sorted({o.decision for o in decision.outcomes})) or "none")
        return WriteResult(workflow_id=decision.workflow_id, outcomes=decision.outcomes)
