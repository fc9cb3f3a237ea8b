"""Feedback that starts something survives a crash between any two of its steps.

The real worker runs in a process of its own and SIGKILLs itself right after one step's activity
has done its work, before Temporal hears of it (`tests.fault_worker`, `after-activity:`); another
worker then takes the run over. Whatever step it died after, every effect is found applied
once: one event, one quarantine and one running review; one corrected memory and the old one
ended once; one deletion with a passed receipt.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.services.feedback import FeedbackOutcome
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.schema import memory_feedback
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.temporal import feedback_workflow_id
from governed_memory.shell.worker import build_worker
from tests.factories import NS, T0, USER, sms
from tests.faults import WorkerProcess, worker_env

#: (feedback type, the activity after which the worker dies)
STEPS = [
    ("harmful", "memory.record_feedback"),
    ("corrected", "memory.record_feedback"),
    ("corrected", "memory.write"),  # inside the corrected value's write (WriteMemory)
    ("corrected", "memory.retire_corrected"),
    ("deleted", "memory.record_feedback"),
]
CORRECTED = "用户喜欢绿色的礼品袋"


@pytest.fixture
def bare_client(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> MemoryClient:
    """A client with no worker in this process: the workflows run where the test puts them."""
    return MemoryClient(temporal_env.client, settings, stores)


def _events(stores: Stores, memory_id: str, kind: str) -> int:
    with stores.canonical.engine.connect() as conn:
        found = conn.execute(
            select(func.count())
            .select_from(memory_feedback)
            .where(memory_feedback.c.memory_id == memory_id)
            .where(memory_feedback.c.feedback_type == kind)
        ).scalar_one()
    return int(found)


def _audited(stores: Stores, memory_id: str, outcome: str) -> int:
    trail = stores.canonical.audit.trail(memory_id=memory_id)
    return sum(1 for r in trail if r["stage"] == "feedback" and r["outcome"] == outcome)


async def _runs(client: MemoryClient, workflow_id: str) -> list[Any]:
    return [r async for r in client.temporal.list_workflows(f'WorkflowId="{workflow_id}"')]


# On Postgres, the production store (what a crash tests is Temporal's and the commit's own
# idempotency, the same on either store): one database keeps the suite's time.
@pytest.mark.slow  # six worker processes SIGKILLed: CI runs them after the rest (pytest -m slow)
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize(("kind", "step"), STEPS)
async def test_feedback_applies_every_effect_once_across_a_worker_killed_after_a_step(
    bare_client: MemoryClient,
    temporal_env: WorkflowEnvironment,
    settings: Settings,
    tmp_path: Path,
    kind: str,
    step: str,
) -> None:
    client, stores = bare_client, bare_client.stores
    async with build_worker(temporal_env.client, settings, stores):
        written = await client.write(
            USER, NS, sms(key=None, kind="semantic", content="用户喜欢蓝色的包装盒"), at=T0
        )
    memory_id = written.outcome.memory_id
    assert memory_id is not None

    address = temporal_env.client.service_client.config.target_host
    marker = tmp_path / "killed"
    doomed = WorkerProcess(
        worker_env(
            settings, address, FAULT_KILL=f"after-activity:{step}", FAULT_MARKER=str(marker)
        ),
        tmp_path / "worker.log",
    ).start()
    event_id = f"fb-{uuid.uuid4().hex[:16]}"
    asked = asyncio.create_task(
        client.feedback(
            USER,
            memory_id,
            kind,
            correction={"content": CORRECTED} if kind == "corrected" else None,
            event_id=event_id,
        )
    )
    try:
        assert await asyncio.to_thread(doomed.wait_dead, 120) == -9, doomed.tail()
    finally:
        doomed.kill()
    assert marker.exists()
    assert not asked.done()
    # Another worker takes the run over from its last recorded step.
    async with build_worker(temporal_env.client, settings, stores):
        done: FeedbackOutcome = await asyncio.wait_for(asked, 120)
        effect_ref = done.event.effect_ref
        assert done.event.event_id == event_id
        # one run of the feedback, one event (a deletion takes its own event with the memory)
        assert (
            len(await _runs(client, feedback_workflow_id(client.keys, "shop-a", USER, event_id)))
            == 1
        )
        assert _events(stores, memory_id, kind) == (0 if kind == "deleted" else 1)
        head = stores.canonical.records.head(memory_id)
        assert head is not None
        if kind == "harmful":
            assert done.event.effect == "quarantined"
            assert head.status == "quarantined"
            assert _audited(stores, memory_id, "quarantined") == 1
            [review] = [
                r
                for r in stores.canonical.reviews.find(head.tenant_id, status="open")
                if memory_id in r.memory_ids
            ]
            assert review.review_id == effect_ref
            [started] = await _runs(client, review.workflow_id)
            assert started.status is not None
            assert started.status.name == "RUNNING"
        elif kind == "corrected":
            assert effect_ref is not None
            assert effect_ref.endswith("/correction")
            [outcome] = done.correction
            assert (outcome.decision, outcome.relation) == ("add", "NEW")
            assert head.status == "superseded"
            assert _audited(stores, memory_id, "corrected") == 1  # ended once
            assert _audited(stores, memory_id, "correction_started") == 1
            kept = [
                r
                for r in stores.canonical.records.namespace_heads(NS)
                if r.status == "active" and r.content == CORRECTED
            ]
            assert [r.memory_id for r in kept] == [outcome.memory_id]
            assert len(await _runs(client, effect_ref)) == 1
        else:
            assert done.deletion is not None
            assert done.deletion.verification_status == "passed"
            assert head.status == "deleted"
            assert _audited(stores, memory_id, "deletion_started") == 1
            assert effect_ref is not None
            assert len(await _runs(client, effect_ref)) == 1
