"""RelayOutbox: apply every unprocessed outbox event to the projection, then update the
watermarks. Run by a Schedule every minute (`memctl schedules apply`) and by `memctl relay`; the
write and deletion workflows project their own commits, so the relay only finds what a failure
left behind."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.projection import ProjectionActivities
    from memory.relay import RelayRequest, RelayResult
    from workflows import ACTIVITY_FAILURES, parse_input, reraise_typed

#: A sweep retries with backoff for as long as its execution allows (a projection that is down
#: comes back); it heartbeats after each batch.
SWEEP_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
)
SWEEP_TIMEOUT = timedelta(minutes=10)
SWEEP_HEARTBEAT = timedelta(seconds=30)


@workflow.defn(name="RelayOutbox")
class RelayOutbox:
    @workflow.run
    async def run(self, raw: RelayRequest | dict[str, Any] | None = None) -> RelayResult:
        request = parse_input(RelayRequest, raw or {})
        try:
            result: RelayResult = await workflow.execute_activity_method(
                ProjectionActivities.relay_outbox,
                request,
                start_to_close_timeout=SWEEP_TIMEOUT,
                heartbeat_timeout=SWEEP_HEARTBEAT,
                retry_policy=SWEEP_RETRY,
            )
        except ACTIVITY_FAILURES as exc:
            raise reraise_typed(exc) from exc
        return result
