"""ExpireMemories: invalidate the memories whose retention ended, unproject them and bump the
cache generations of their namespaces. Run by a Schedule (`memctl schedules apply`); large
sweeps continue as new after a number of batches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.deletion import DeletionActivities
    from memory.models import ExpireRequest, ExpireSummary
    from memory.services.deletions import ExpireInput
    from workflows import parse_input, run_moved

BATCHES_PER_RUN = 20
BATCH_TIMEOUT = timedelta(minutes=2)


@workflow.defn(name="ExpireMemories")
class ExpireMemories:
    @workflow.run  # noqa: RET503 (continue_as_new raises: it does not return)
    async def run(self, raw: ExpireRequest | dict[str, Any] | None = None) -> ExpireSummary:
        request = parse_input(ExpireRequest, raw or {})
        now = workflow.now()
        expired = request.expired_so_far
        namespaces: set[str] = set()
        for _ in range(BATCHES_PER_RUN):
            batch = await run_moved(
                DeletionActivities.expire_memories,
                ExpireInput(at=request.at, now=now, limit=request.batch_size),
                patch="expiry-as-activity",
                local_within=BATCH_TIMEOUT,
            )
            expired += len(batch.expired)
            namespaces.update(batch.namespaces)
            if not batch.more:
                return ExpireSummary(expired=expired, namespaces=sorted(namespaces))
        # Keep each run's history short: the rest of the sweep goes on in a new run.
        workflow.continue_as_new(
            ExpireRequest(
                at=request.at or now, batch_size=request.batch_size, expired_so_far=expired
            )
        )
