"""WriteBatch: many writes in one run, for background ingestion.

Each write keeps its own decision, audit and idempotency key (a key already decided, alone or in
another batch, returns its stored outcome); the batch shares transactions and the projection
step, so throughput is not bound by one workflow per write. The batch is one heartbeating
activity; a write in it that lost a race to another writer is decided again here, as WriteMemory
decides. The id is `batch/{tenant}/{digest of the keys}`: a repeated submission attaches to the
same run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.write import WriteActivities
    from memory.services.writes import BatchInput, DecideInput, StagedWrite
    from memory.write.batch import (
        MAX_BATCH,
        BatchItem,
        BatchRequest,
        BatchResult,
        batch_message_id,
        batch_seed,
        opens_review,
    )
    from workflows import parse_input, run_moved
    from workflows.review_memory import open_reviews, open_reviews_recorded
    from workflows.write_memory import decide_and_commit_write

BATCH_TIMEOUT = timedelta(minutes=5)


@workflow.defn(name="WriteBatch")
class WriteBatch:
    @workflow.run
    async def run(self, raw: BatchRequest | dict[str, Any]) -> BatchResult:
        batch = parse_input(BatchRequest, raw)
        workflow_id = workflow.info().workflow_id
        seed = workflow.uuid4().hex
        now = workflow.now()
        requests = batch.requests[:MAX_BATCH]
        result: BatchResult = await run_moved(
            WriteActivities.write_batch,
            BatchInput(requests=requests, workflow_id=workflow_id, seed=seed, now=now),
            patch="batch-as-activity",
            local_within=BATCH_TIMEOUT,
        )
        for i in result.lost:
            decision = await decide_and_commit_write(
                DecideInput(
                    request=requests[i],
                    workflow_id=workflow_id,
                    seed=batch_seed(seed, i),
                    now=now,
                    message_id=batch_message_id(seed, i),
                )
            )
            result.items[i] = BatchItem(
                idempotency_key=requests[i].idempotency_key, outcomes=decision.outcomes
            )
            if isinstance(decision, StagedWrite):
                if decision.reviews and not decision.replayed:
                    result.starts[i] = decision.reviews
            elif opens_review(decision):
                result.reviews[i] = decision
        for _, starts in sorted(result.starts.items()):
            await open_reviews(starts)
        # Results recorded before `starts` carried whole decisions (in `reviews`, and before
        # that in every item).
        recorded = {i: item.decision for i, item in enumerate(result.items) if item.decision}
        for i, whole in sorted({**recorded, **result.reviews}.items()):
            await open_reviews_recorded(whole, requests[i])
        for item in result.items:
            item.decision = None  # the caller needs the outcomes, not the whole decision
        result.lost = []
        result.reviews = {}
        result.starts = {}
        return result
