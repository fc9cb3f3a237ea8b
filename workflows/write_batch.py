"""WriteBatch: many writes in one run, for background ingestion.

Each write keeps its own decision, audit and idempotency key (a key already decided, alone or in
another batch, returns its stored outcome); the batch shares transactions and the projection
step, so throughput is not bound by one workflow per write. The id is
`batch/{tenant}/{digest of the keys}`: a repeated submission attaches to the same run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.write import BatchInput, WriteActivities
    from memory.write.batch import MAX_BATCH, BatchRequest, BatchResult
    from workflows import ACTIVITY_FAILURES, LOCAL_RETRY, parse_input, reraise_typed
    from workflows.review_memory import open_reviews

BATCH_TIMEOUT = timedelta(minutes=5)


@workflow.defn(name="WriteBatch")
class WriteBatch:
    @workflow.run
    async def run(self, raw: BatchRequest | dict[str, Any]) -> BatchResult:
        batch = parse_input(BatchRequest, raw)
        workflow_id = workflow.info().workflow_id
        try:
            result: BatchResult = await workflow.execute_local_activity_method(
                WriteActivities.write_batch,
                BatchInput(
                    requests=batch.requests[:MAX_BATCH],
                    workflow_id=workflow_id,
                    seed=workflow.uuid4().hex,
                    now=workflow.now(),
                ),
                start_to_close_timeout=BATCH_TIMEOUT,
                retry_policy=LOCAL_RETRY,
            )
        except ACTIVITY_FAILURES as exc:
            raise reraise_typed(exc) from exc
        by_key = {r.idempotency_key: r for r in batch.requests}
        for item in result.items:
            if item.decision is not None:
                await open_reviews(item.decision, by_key[item.idempotency_key])
            item.decision = None  # the caller needs the outcomes, not the whole decision
        return result
