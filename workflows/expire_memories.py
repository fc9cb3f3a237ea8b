"""ExpireMemories: admit → invalidate the memories whose retention ended, unproject them and bump
the cache generations of their namespaces. Run by a Schedule (`memctl schedules apply`, whose
grant admits the runs it starts); large sweeps continue as new after a number of batches, each
continuation with a grant of its own."""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.deletion import DeletionActivities
    from governed_memory.memory.contracts.deletions import ExpireInput
    from governed_memory.memory.models import ExpireRequest, ExpireSummary
    from governed_memory.workflows import admit, continued, parse_input, run_task

BATCHES_PER_RUN = 20


@workflow.defn(name="ExpireMemories")
class ExpireMemories:
    @workflow.run  # noqa: RET503 (continue_as_new raises: it does not return)
    async def run(self, raw: ExpireRequest | dict[str, Any] | None = None) -> ExpireSummary:
        request = parse_input(ExpireRequest, raw or {})
        await admit(request)
        now = workflow.now()
        expired = request.expired_so_far
        namespaces: set[str] = set()
        for _ in range(BATCHES_PER_RUN):
            batch = await run_task(
                DeletionActivities.expire_memories,
                ExpireInput(at=request.at, now=now, limit=request.batch_size),
            )
            expired += len(batch.expired)
            namespaces.update(batch.namespaces)
            if not batch.more:
                return ExpireSummary(expired=expired, namespaces=sorted(namespaces))
        # Keep each run's history short: the rest of the sweep goes on in a new run.
        workflow.continue_as_new(
            await continued(
                # the same evaluation clock, if any (with none, each run sweeps at its now)
                ExpireRequest(at=request.at, batch_size=request.batch_size, expired_so_far=expired)
            )
        )
