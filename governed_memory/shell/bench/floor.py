"""Floor: a workflow that does nothing, with WriteMemory's input and output; and FloorLocal, the
same with one local activity that does nothing (WriteMemory's shape: one local activity).

Only the benchmark registers them (they are no part of the service, so they live here): the
latency of a run with no activity is the floor a write is measured beside, in the same run, on
the same server; the one with an empty local activity says how much of a write's time is the
SDK's round trip to an activity, before the write's own work.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import activity, workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.memory.models import WriteRequest, WriteResult


@workflow.defn(name="Floor")
class Floor:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        return WriteResult(workflow_id=workflow.info().workflow_id, outcomes=[])


@activity.defn(name="FloorNothing")
def nothing(raw: WriteRequest | dict[str, Any]) -> None:
    """A local activity that does nothing with WriteMemory's input."""


@workflow.defn(name="FloorLocal")
class FloorLocal:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        await workflow.execute_local_activity(
            nothing, raw, start_to_close_timeout=timedelta(seconds=10)
        )
        return WriteResult(workflow_id=workflow.info().workflow_id, outcomes=[])
