"""RelayOutbox: admit → apply every unprocessed outbox event to the projection, then update the
watermarks. Run by a Schedule every minute (`memctl schedules apply`) and by `memctl relay`; the
write and deletion workflows project their own commits, so the relay only finds what a failure
left behind."""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.memory.models import RelayRequest, RelayResult
    from governed_memory.workflows import admit, parse_input, run_task


@workflow.defn(name="RelayOutbox")
class RelayOutbox:
    @workflow.run
    async def run(self, raw: RelayRequest | dict[str, Any] | None = None) -> RelayResult:
        request = parse_input(RelayRequest, raw or {})
        await admit(request)
        result: RelayResult = await run_task(
            ProjectionActivities.relay_outbox, request.model_copy(update={"grant": None})
        )
        return result
