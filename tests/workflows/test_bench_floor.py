"""The write benchmark's floor (a workflow that does nothing, beside which WriteMemory is
measured) runs on a real worker: its module sits in the bench package, whose imports a
workflow sandbox must take from the process (it refused them once, and `memctl bench write`
failed before measuring anything)."""

from __future__ import annotations

import uuid

from temporalio.testing import WorkflowEnvironment

from governed_memory.shell.bench.floor import Floor, FloorLocal
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


async def test_the_floor_with_one_empty_local_activity_runs_it(
    temporal_env: WorkflowEnvironment,
) -> None:
    """The floor a write's local activity is measured beside: its activity really runs."""
    from temporalio.api.enums.v1 import EventType

    client = temporal_env.client
    request = {"principal": USER, "namespace": NS, "candidate": sms(), "idempotency_key": "k"}
    async with floor_worker(client, Floor, FloorLocal):
        handle = await client.start_workflow(
            FloorLocal.run, request, id=f"floor-local-{uuid.uuid4().hex}", task_queue="bench-floor"
        )
        assert (await handle.result()).outcomes == []
    markers = [
        e
        async for e in handle.fetch_history_events()
        if e.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
    ]
    assert len(markers) == 1  # the local activity's


async def test_the_background_bench_counts_what_its_own_worker_process_stored() -> None:
    """`memctl bench background` runs the worker as deployed, in a process of its own (then in
    two): every write the bench submits is committed there and found stored, each with its own
    text."""
    from governed_memory.shell.bench.writes import bench_background

    report = await bench_background(writes=30, batch_size=10, in_flight=2)
    batch = report["write_batch"]
    assert batch["worker"] == "own process"
    assert (batch["writes"], batch["committed"], batch["stored_and_active"]) == (30, 30, 30)
    single = report["one_workflow_per_write"]
    assert single["committed"] == single["writes"] == 100
    # two worker processes on one task queue: each batch committed once, by one of them
    two = report["write_batch, 2 worker processes"]
    assert (two["writes"], two["committed"], two["stored_and_active"]) == (30, 30, 30)
    assert two["batches_in_flight"] == 4
    # and again on CPython's default garbage collector, the baseline of the settled one
    default = report["write_batch, CPython's default gc"]
    assert (default["writes"], default["committed"], default["stored_and_active"]) == (30, 30, 30)
