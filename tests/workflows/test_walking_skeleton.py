"""Write → recall → supersede → forget through the real worker, Temporal server and stores."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import select
from temporalio.client import Client, WorkflowFailureError
from temporalio.exceptions import ApplicationError

from governed_memory.memory.errors import (
    ClockOverrideRefused,
    ContentTooLarge,
    InvalidInput,
    InvalidNamespace,
    NotFound,
    UnauthorizedNamespace,
)
from governed_memory.memory.models import Candidate, WriteRequest
from governed_memory.memory.stores.schema import audit_events
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, NS, T0, USER, email, sms


async def test_the_seed_story(client: MemoryClient) -> None:
    client.register_principal(BOT)
    first = await client.write(USER, NS, email(), at=T0)
    assert (first.outcome.relation, first.outcome.decision) == ("NEW", "add")

    later = T0 + timedelta(days=9)
    second = await client.write(USER, NS, sms(), at=later)
    assert (second.outcome.relation, second.outcome.decision) == ("SUPERSEDES", "update")
    assert second.outcome.matched_memory_ids == [first.outcome.memory_id]

    dup = await client.write(USER, NS, sms(content="短信通知我"), at=later + timedelta(hours=1))
    assert (dup.outcome.relation, dup.outcome.decision, dup.outcome.reason) == (
        "DUPLICATE",
        "no_op",
        "duplicate",
    )

    found = await client.recall(BOT.ref, [NS], task="通知物流异常", at=later + timedelta(days=1))
    assert [m.structured_value for m in found.memories] == [{"channel": "sms"}]
    assert found.memories[0].retrieval_reasons[-1] == "canonical_checked"
    # the email value is history: returned for a question about before the change
    before = await client.recall(
        BOT.ref,
        [NS],
        task="通知",
        keys=["notification.preference"],
        at=later + timedelta(days=1),
        valid_at=T0 + timedelta(days=1),
    )
    assert [m.structured_value for m in before.memories] == [{"channel": "email"}]

    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=later + timedelta(days=2)
    )
    assert receipt.verification_status == "passed"
    assert receipt.canonical_records == 2
    assert {p.probe for p in receipt.probes} >= {
        "canonical_by_id",
        "canonical_by_key",
        "keyword_search",
        "vector_search",
        "recall_as_owner",
        "recall_as_agent",
    }
    assert client.receipt(receipt.deletion_id, receipt.requested_by) == receipt
    assert receipt.backup_retention_deadline == receipt.requested_at + timedelta(days=30)

    after = await client.recall(
        BOT.ref,
        [NS],
        task="通知物流异常",
        query="短信 通知 偏好",
        keys=["notification.preference"],
        at=later + timedelta(days=3),
    )
    assert after.memories == []
    history = await client.recall(
        BOT.ref,
        [NS],
        task="通知",
        keys=["notification.preference"],
        at=later + timedelta(days=3),
        valid_at=T0 + timedelta(days=1),
    )
    assert history.memories == []


async def test_a_repeated_request_attaches_to_the_same_run(client: MemoryClient) -> None:
    key = f"same-key-{uuid.uuid4().hex}"  # unique per run: the Temporal server is shared
    a = await client.write(USER, NS, sms(), idempotency_key=key, at=T0)
    b = await client.write(USER, NS, sms(), idempotency_key=key, at=T0)
    assert a == b
    assert a.outcome.decision == "add"


async def test_concurrent_writes_to_one_key_lose_nothing(client: MemoryClient) -> None:
    """Ten writers race on one key: the history is linear and one value is current."""
    values = ["sms", "email", "phone", "wechat", "app_push"] * 2
    results = await asyncio.gather(
        *(
            client.write(
                USER,
                NS,
                {
                    "kind": "profile",
                    "key": "notification.preference",
                    "structured_value": {"channel": v},
                    "content": f"prefers {v} #{i}",
                },
                at=T0 + timedelta(minutes=i),
            )
            for i, v in enumerate(values)
        )
    )
    assert all(r.outcome.decision in ("add", "update", "no_op") for r in results)
    heads = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert len(heads) == 1
    slot = client.stores.canonical.records.slot_state(NS, "key:notification.preference")
    committed = [r for r in results if r.outcome.decision != "no_op"]
    assert slot.version == len(committed)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda c: c.write(USER, "tenant/shop-a/usr/123", sms()), InvalidNamespace),
        (lambda c: c.write(USER, NS, {**sms(), "kind": "feeling"}), InvalidInput),
        (lambda c: c.write(USER, NS, {**sms(), "confidence": 2}), InvalidInput),
        (lambda c: c.write(USER, NS, {**sms(), "content": "x" * 20000}), ContentTooLarge),
        (lambda c: c.write(USER, "tenant/shop-a/user/999", sms()), UnauthorizedNamespace),
        (lambda c: c.write(USER, "tenant/other/user/123", sms()), UnauthorizedNamespace),
        (lambda c: c.write("agent:shop-a/ghost", NS, sms()), NotFound),
        (lambda c: c.write("nobody", NS, sms()), InvalidInput),
        (lambda c: c.forget("user:shop-a/999", {"namespace": NS}), UnauthorizedNamespace),
    ],
)
async def test_bad_input_is_refused_before_any_workflow(client: MemoryClient, call, error) -> None:
    with pytest.raises(error):
        await call(client)
    assert (
        client.stores.canonical.records.key_records([NS], ["notification.preference"], ["active"])
        == []
    )


async def test_clock_override_is_refused_unless_enabled(client: MemoryClient) -> None:
    client.settings = client.settings.model_copy(update={"allow_clock_override": False})
    with pytest.raises(ClockOverrideRefused):
        await client.write(USER, NS, sms(), at=T0)


async def test_bad_input_reaching_a_workflow_fails_it_without_retrying(
    client: MemoryClient, temporal_client: Client
) -> None:
    """A request from another SDK that skips the client's checks still gets a typed failure."""
    raw = {
        "principal": USER,
        "namespace": NS,
        "idempotency_key": "raw-1",
        "candidate": {"kind": "profile", "content": "x", "confidence": 7},
    }
    with pytest.raises(WorkflowFailureError) as info:
        await asyncio.wait_for(
            temporal_client.execute_workflow(
                "WriteMemory", raw, id="raw-1", task_queue=client.settings.task_queue
            ),
            timeout=20,
        )
    assert isinstance(info.value.cause, ApplicationError)
    assert info.value.cause.type == "InvalidInput"

    # Granted (as if the door had let it through), proven, but not allowed there: the
    # pipeline's own check against the registry refuses it.
    foreign = WriteRequest(
        principal=USER,
        namespace="tenant/shop-a/user/999",
        idempotency_key="raw-2",
        candidate=Candidate.model_validate(sms()),
    )
    foreign.grant = client.runs.grant("WriteMemory", "raw-2", foreign, USER, "shop-a")
    with pytest.raises(WorkflowFailureError) as info:
        await temporal_client.execute_workflow(
            "WriteMemory", foreign, id="raw-2", task_queue=client.settings.task_queue
        )
    assert isinstance(info.value.cause, ApplicationError)
    assert info.value.cause.type == "UnauthorizedNamespace"
    with client.stores.canonical.engine.connect() as conn:
        refusals = (
            conn.execute(
                select(audit_events.c.reason_code).where(audit_events.c.outcome == "refused")
            )
            .scalars()
            .all()
        )
    assert refusals == ["unauthorized_namespace"]
    assert (
        client.stores.canonical.records.key_records(
            ["tenant/shop-a/user/999"], ["notification.preference"], ["active"]
        )
        == []
    )
