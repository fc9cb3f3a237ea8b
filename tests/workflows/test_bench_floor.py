"""The write benchmark's floor (a workflow that does nothing, beside which WriteMemory is
measured) runs on a real worker: its module sits in the bench package, whose imports a
workflow sandbox must take from the process (it refused them once, and `memctl bench write`
failed before measuring anything)."""

from __future__ import annotations

import uuid

from temporalio.testing import WorkflowEnvironment

from governed_memory.shell.bench.floor import Floor
from governed_memory.shell.bench.writes import floor_worker
from tests.factories import NS, USER, sms


async def test_the_floor_runs_on_its_worker(temporal_env: WorkflowEnvironment) -> None:
    client = temporal_env.client
    request = {"principal": USER, "namespace": NS, "candidate": sms(), "idempotency_key": "k"}
    async with floor_worker(client, Floor):
        result = await client.execute_workflow(
            Floor.run, request, id=f"floor-{uuid.uuid4().hex}", task_queue="bench-floor"
        )
    assert result.outcomes == []
