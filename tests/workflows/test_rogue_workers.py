"""Strangers who run Temporal workers of their own (reaching Temporal, holding the codec key, but
not the service's keys), as a security review attacked the grants:

- a workflow of theirs, named like the service's, on their own queue, asks the service's
  `memory.continuation` (or any other activity) for a grant or an effect: refused, nothing runs;
- a granted input read from a finished run's history, started again (on their own queue with a
  start delay, or on the service's with a cron schedule): the grant admits one run only, and the
  client does not attach to such a run;
- a poller without the key answers a deletion's task with a plaintext receipt: the client does
  not believe it;
- a stream of refused answers cannot keep a review from timing out.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from temporalio import workflow
from temporalio.client import (
    Client,
    WorkflowContinuedAsNewError,
    WorkflowExecutionStatus,
    WorkflowFailureError,
)
from temporalio.common import RawValue
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.exceptions import ApplicationError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from governed_memory.memory.contracts.admission import digest_of
from governed_memory.memory.errors import MemoryServiceError
from governed_memory.memory.models import Candidate, Principal, WriteRequest
from governed_memory.shell.client import MemoryClient
from tests.factories import DRAFTER, NS, T0, USER, email, sms


@workflow.defn(name="WriteMemory")
class NamedLikeTheService:
    """On the stranger's queue: asks the service's continuation activity for a grant."""

    @workflow.run
    async def run(self, arg: dict[str, Any]) -> str:
        info = workflow.info()
        grant: str = await workflow.execute_activity(
            "memory.continuation",
            {
                "operation": info.workflow_type,
                "workflow_id": info.workflow_id,
                "digest": arg["digest"],
            },
            task_queue=arg["service_queue"],
            start_to_close_timeout=timedelta(seconds=30),
        )
        return grant


@workflow.defn(name="Evil")
class Evil:
    """Calls any activity of the service with any input, on the service's queue."""

    @workflow.run
    async def run(self, arg: dict[str, Any]) -> Any:
        return await workflow.execute_activity(
            arg["activity"],
            arg["input"],
            task_queue=arg["service_queue"],
            start_to_close_timeout=timedelta(seconds=30),
        )


@workflow.defn(name="DeleteSubject")
class ForgedDeletion:
    """On the stranger's queue: answers with a receipt of the stranger's making."""

    @workflow.run
    async def run(self, arg: dict[str, Any]) -> Any:
        return FORGED["receipt"]


FORGED: dict[str, Any] = {}


def stranger(temporal: Client, queue: str) -> Worker:
    return Worker(
        temporal,
        task_queue=queue,
        workflows=[NamedLikeTheService, Evil, ForgedDeletion],
        workflow_runner=UnsandboxedWorkflowRunner(),
    )


async def test_a_strangers_workflow_gets_no_grant_and_no_activity(client: MemoryClient) -> None:
    temporal, service_queue = client.temporal, client.settings.task_queue
    queue = f"stranger-{uuid.uuid4().hex[:6]}"
    await client.write(USER, NS, sms(), at=T0)
    receipt = await client.forget(USER, {"namespace": NS}, at=T0 + timedelta(days=1))
    kept = await client.write(
        USER,
        NS,
        {"kind": "episodic", "content": "用户咨询物流", "expires_at": "2027-07-01T00:00:00Z"},
        at=T0 + timedelta(days=2),
    )
    forged = WriteRequest(
        principal=USER,
        namespace=NS,
        idempotency_key="planted",
        candidate=Candidate.model_validate(email()),
    )
    attempts = [
        ("WriteMemory", {"digest": digest_of(forged), "service_queue": service_queue}),
        (
            "Evil",
            {
                "activity": "memory.close_receipt",
                "input": {"deletion_id": receipt.deletion_id, "now": "2100-01-01T00:00:00Z"},
                "service_queue": service_queue,
            },
        ),
        (
            "Evil",
            {
                "activity": "memory.expire_memories",
                "input": {"now": "2100-01-01T00:00:00Z"},
                "service_queue": service_queue,
            },
        ),
    ]
    async with stranger(temporal, queue):
        for workflow_type, arg in attempts:
            with pytest.raises(WorkflowFailureError) as info:
                await asyncio.wait_for(
                    temporal.execute_workflow(
                        workflow_type, arg, id=f"stranger/{uuid.uuid4().hex}", task_queue=queue
                    ),
                    timeout=60,
                )
            cause: BaseException | None = info.value.cause
            while cause is not None and not isinstance(cause, ApplicationError):
                cause = getattr(cause, "cause", None)
            assert isinstance(cause, ApplicationError)
            assert cause.type == "Unauthenticated", cause
    assert client.receipt(receipt.deletion_id, USER).backup_status == "retained"
    head = client.stores.canonical.records.head(kept.outcome.memory_id or "")
    assert head is not None
    assert head.status == "active"


async def _granted_input(client: MemoryClient, workflow_id: str) -> dict[str, Any]:
    """A run's input as its history holds it (the grant included): what a codec key holder reads."""
    handle = client.temporal.get_workflow_handle(workflow_id)
    async for event in handle.fetch_history_events():
        started = event.workflow_execution_started_event_attributes
        break
    (found,) = await client.temporal.data_converter.decode(list(started.input.payloads), [dict])
    assert found.get("grant")
    return dict(found)


async def test_a_granted_input_started_again_is_not_attached_to(client: MemoryClient) -> None:
    """Squatting a deletion id with the very input the service granted (read from history),
    on the stranger's queue, held open by a start delay: the user's same request again does
    not attach to it (it is not on the service's queue); the squatter is ended and the
    deletion runs."""
    temporal = client.temporal
    queue = f"stranger-{uuid.uuid4().hex[:6]}"
    await client.write(USER, NS, sms(), at=T0)
    first = await client.forget(USER, {"namespace": NS})
    assert first.workflow_id is not None
    honest = await _granted_input(client, first.workflow_id)
    FORGED["receipt"] = first.model_dump(mode="json")
    async with stranger(temporal, queue):
        await temporal.start_workflow(
            "DeleteSubject",
            honest,
            id=first.workflow_id,
            task_queue=queue,
            start_delay=timedelta(seconds=30),
        )
        await client.write(USER, NS, email())
        again = await asyncio.wait_for(client.forget(USER, {"namespace": NS}), timeout=120)
    assert again.deletion_id != first.deletion_id
    assert again.verification_status == "passed"
    live = [h for h in client.stores.canonical.records.namespace_heads(NS) if h.status == "active"]
    assert live == []


async def test_one_grant_admits_one_run(client: MemoryClient) -> None:
    """The same granted input started again on the service's queue (plain, or with a cron
    schedule that would repeat it): refused, the memory written since stays."""
    temporal = client.temporal
    await client.write(USER, NS, sms(), at=T0)
    first = await client.forget(USER, {"namespace": NS})
    assert first.workflow_id is not None
    honest = await _granted_input(client, first.workflow_id)
    await client.write(USER, NS, email())
    for cron in ("", "@every 2s"):
        handle = await temporal.start_workflow(
            "DeleteSubject",
            honest,
            id=first.workflow_id,
            task_queue=client.settings.task_queue,
            cron_schedule=cron,
        )
        # a cron run that ends is followed by the next (as a continuation): the first is the
        # one to see, and it failed
        with pytest.raises((WorkflowFailureError, WorkflowContinuedAsNewError)):
            await asyncio.wait_for(handle.result(follow_runs=False), timeout=60)
        run = temporal.get_workflow_handle(first.workflow_id, run_id=handle.result_run_id)
        assert (await run.describe()).status == WorkflowExecutionStatus.FAILED
        if cron:
            await handle.terminate()
    live = [h for h in client.stores.canonical.records.namespace_heads(NS) if h.status == "active"]
    assert len(live) == 1


@workflow.defn(dynamic=True)
class Anything:
    @workflow.run
    async def run(self, args: Sequence[RawValue]) -> Any:
        return FORGED["receipt"]


async def test_a_plaintext_answer_from_a_keyless_poller_is_not_believed(
    client: MemoryClient,
) -> None:
    await client.write(USER, NS, sms())
    real = await client.forget(USER, {"namespace": NS, "key": "notification.preference"})
    await client.write(USER, NS, sms(structured_value={"channel": "wechat"}, content="微信通知"))
    FORGED["receipt"] = {**real.model_dump(mode="json"), "deletion_id": "del_forged"}
    config = client.temporal.config()
    config["data_converter"] = pydantic_data_converter  # no codec key
    keyless = Client(**config)
    queue = f"victim-{uuid.uuid4().hex[:6]}"
    victim = MemoryClient(
        client.temporal, client.settings.model_copy(update={"task_queue": queue}), client.stores
    )
    async with Worker(
        keyless, task_queue=queue, workflows=[Anything], workflow_runner=UnsandboxedWorkflowRunner()
    ):
        with pytest.raises(MemoryServiceError):
            await asyncio.wait_for(
                victim.forget(USER, {"namespace": NS, "key": "notification.preference"}),
                timeout=60,
            )
    live = [h for h in client.stores.canonical.records.namespace_heads(NS) if h.status == "active"]
    assert live  # nothing was erased, and the caller was not told otherwise


async def test_refused_answers_cannot_hold_a_review_open(client: MemoryClient) -> None:
    client.stores.policy = client.stores.policy.model_copy(
        update={"review": client.stores.policy.review.model_copy(update={"timeout_hours": 0.001})}
    )  # 3.6 s
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
    client.register_principal(DRAFTER)
    client.register_principal(lead)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    review_id = deferred.outcome.review_id
    assert review_id is not None
    handle = client.temporal.get_workflow_handle(
        client.stores.canonical.reviews.get(review_id).workflow_id
    )
    bogus: dict[str, Any] = {"reviewer": lead.ref, "decision": "reject", "grant": "not-a-grant"}

    async def spam(stop: float) -> None:
        while time.monotonic() < stop:
            try:
                await handle.execute_update("review", bogus)
            except Exception:  # refused, each one
                await asyncio.sleep(0)

    stop = time.monotonic() + 8
    await asyncio.gather(*(spam(stop) for _ in range(4)))
    result = await asyncio.wait_for(handle.result(), timeout=60)
    assert result["status"] == "timed_out"
    assert client.stores.canonical.reviews.get(review_id).status == "timed_out"
    described = await handle.describe()
    assert described.status == WorkflowExecutionStatus.COMPLETED


async def test_only_a_run_admitted_here_skips_the_question_to_the_server(
    temporal_client: Client,
) -> None:
    """The worker asks Temporal who a calling run is, unless its own admission local activity
    admitted that run: a vouched run is the service's; any other run is still described (here:
    a run the server does not know is refused)."""
    from governed_memory.activities.callers import ServiceCallersOnly

    callers = ServiceCallersOnly(temporal_client, "memory-queue", ["WriteBatch"])
    unknown = f"write/x/{uuid.uuid4().hex}"
    assert not await callers.admits(unknown, uuid.uuid4().hex)
    vouched = uuid.uuid4().hex
    callers.vouch(vouched)
    assert await callers.admits(unknown, vouched)
    assert not await callers.admits(unknown, None)
