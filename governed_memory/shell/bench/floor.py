"""Floor: a workflow that does nothing, with WriteMemory's input and output.

Only the benchmark registers it (it is no part of the service, so it lives here): the latency
of a run with no activity is the floor a write is measured beside, in the same run, on the same
server.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.memory.models import WriteRequest, WriteResult


@workflow.defn(name="Floor")
class Floor:
    @workflow.run
    async def run(self, raw: WriteRequest | dict[str, Any]) -> WriteResult:
        return WriteResult(workflow_id=workflow.info().workflow_id, outcomes=[])
