"""WriteBatch: many writes of one tenant in one run, for background ingestion.

Admitted by one grant for the whole batch (every writer it names must be the grant's). Each write
keeps its own decision, audit and idempotency key (a key already decided, alone or in another
batch, returns its stored outcome); the batch shares transactions and the projection step, so
throughput is not bound by one workflow per write. The batch is one heartbeating activity; a write
in it that lost a race to another writer is decided again here, as WriteMemory decides. The id is
`batch/{tenant}/{keyed digest of the writers and keys}`: a repeated submission attaches to the
same run.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.contracts.writes import BatchInput, DecideInput
    from governed_memory.memory.models import MAX_BATCH, BatchItem, BatchRequest, BatchResult
    from governed_memory.workflows import admit, parse_input, run_task
    from governed_memory.workflows.review_memory import open_reviews
    from governed_memory.workflows.write_memory import decide_and_commit_write


@workflow.defn(name="WriteBatch")
class WriteBatch:
    @workflow.run
    async def run(self, raw: BatchRequest | dict[str, Any]) -> BatchResult:
        batch = parse_input(BatchRequest, raw)
        await admit(
            batch,
            principals=sorted({r.principal for r in batch.requests}),
            tenant=batch.tenant,
        )
        workflow_id = workflow.info().workflow_id
        seed = workflow.uuid4().hex
        now = workflow.now()
        requests = [r.model_copy(update={"grant": None}) for r in batch.requests[:MAX_BATCH]]
        result: BatchResult = await run_task(
            WriteActivities.write_batch,
            BatchInput(requests=requests, workflow_id=workflow_id, seed=seed, now=now),
        )
        for i in result.lost:
            decision = await decide_and_commit_write(
                DecideInput(
                    request=requests[i], workflow_id=workflow_id, seed=seed, now=now, index=i
                )
            )
            result.items[i] = BatchItem(
                idempotency_key=requests[i].idempotency_key, outcomes=decision.outcomes
            )
            if decision.reviews:
                result.starts[i] = decision.reviews
        for _, starts in sorted(result.starts.items()):
            await open_reviews(starts)
        result.lost = []
        result.starts = {}
        return result
