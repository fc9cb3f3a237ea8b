"""Background ingestion: many writes per WriteBatch run, each with its own decision, audit and
idempotency key."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import cut
from governed_memory.shell.client import MemoryClient
from tests.factories import T0, email, sms


async def test_a_batch_decides_each_write_on_its_own(client: MemoryClient) -> None:
    # Keys unique to this test run: workflow ids derive from them, and the Temporal server is
    # shared by the SQLite and Postgres variants of the test.
    run = uuid.uuid4().hex[:8]
    requests = [
        client.write_request(
            f"user:shop-a/u{i}",
            f"tenant/shop-a/user/u{i}",
            sms(),
            idempotency_key=f"{run}-b-{i}",
            at=T0,
        )
        for i in range(20)
    ]
    # two writes to one key of one user in the same batch, and a secret that must be refused
    requests.append(
        client.write_request(
            "user:shop-a/u0",
            "tenant/shop-a/user/u0",
            email(),
            idempotency_key=f"{run}-b-u0-email",
            at=T0 + timedelta(hours=1),
        )
    )
    requests.append(
        client.write_request(
            "user:shop-a/u1",
            "tenant/shop-a/user/u1",
            text="我的支付密码是 884213",
            idempotency_key=f"{run}-b-secret",
            at=T0,
        )
    )
    result = await client.write_batch(requests)
    by_key = {item.idempotency_key: item.outcomes for item in result.items}
    assert [o.decision for o in by_key[f"{run}-b-0"]] == ["add"]
    assert [(o.decision, o.relation) for o in by_key[f"{run}-b-u0-email"]] == [
        ("update", "SUPERSEDES")
    ]
    assert [(o.decision, o.reason) for o in by_key[f"{run}-b-secret"]] == [("reject", "secret")]
    assert result.counts()["add"] == 20

    canonical = client.stores.canonical
    (current,) = canonical.records.key_records(
        ["tenant/shop-a/user/u0"], ["notification.preference"], ["active"]
    )
    assert current.structured_value == {"channel": "email"}
    assert canonical.outcomes.get("shop-a", "user:shop-a/u7", f"{run}-b-7") is not None
    # keys are the writer's own: the same key is not another principal's outcome
    assert canonical.outcomes.get("shop-a", "user:shop-a/u6", f"{run}-b-7") is None
    assert canonical.audit.trail(workflow_id=result.workflow_id)

    again = await client.write_batch(requests)  # same keys: the same run, the same outcomes
    assert {i.idempotency_key: i.outcomes for i in again.items} == by_key
    single = await client.write(
        "user:shop-a/u3", "tenant/shop-a/user/u3", sms(), idempotency_key=f"{run}-b-3", at=T0
    )
    assert single.outcomes == by_key[f"{run}-b-3"]  # decided once, whichever way it comes
    assert (
        len(
            canonical.records.key_records(
                ["tenant/shop-a/user/u3"], ["notification.preference"], ["active"]
            )
        )
        == 1
    )


async def test_a_batch_is_one_tenant(client: MemoryClient) -> None:
    requests = [
        client.write_request("user:shop-a/1", "tenant/shop-a/user/1", sms()),
        client.write_request("user:shop-b/1", "tenant/shop-b/user/1", sms()),
    ]
    with pytest.raises(InvalidInput):
        await client.start_batch(requests)


#: Temporal warns about a payload above 512 KB and fails one above 2 MB.
PAYLOAD_WARNING = 512 * 1024


async def test_a_500_turn_import_stays_well_under_the_payload_limits(client: MemoryClient) -> None:
    """Every payload of the runs that import 500 turns (input, activity results, workflow result)
    is far below Temporal's warning limit: results carry outcomes, not whole decisions, and
    batches are cut by bytes as well as by count."""
    run = uuid.uuid4().hex[:8]
    turns = [
        f"Turn {i}: the customer said the parcel for order ORD-{run}-{i} should go to locker "
        f"{i % 40} near the north gate, and asked us to call before {8 + i % 10}:00 next time. "
        + "They also described the previous delivery in some detail. "
        * 3
        for i in range(500)
    ]
    requests = [
        client.write_request(
            f"user:shop-a/imp{run}",
            f"tenant/shop-a/user/imp{run}",
            {"kind": "episodic", "content": text},
            idempotency_key=f"{run}-turn-{i}",
            at=T0 + timedelta(minutes=i),
        )
        for i, text in enumerate(turns)
    ]
    batches = cut(requests)
    assert len(batches) > 1  # 500 turns of ~300 bytes are more than one batch by bytes
    largest = 0
    for batch in batches:
        handle = await client.start_batch(batch)
        result = await handle.result()
        assert sum(len(item.outcomes) for item in result.items) == len(batch)
        async for event in handle.fetch_history_events():
            for payloads in _payloads(event):
                largest = max(largest, *(p.ByteSize() for p in payloads))
    assert 0 < largest < PAYLOAD_WARNING / 2, largest


def _payloads(event: Any) -> list[Any]:
    """The payload lists an event carries (workflow input and result, activity results)."""
    found = []
    for attr in (
        "workflow_execution_started_event_attributes",
        "workflow_execution_completed_event_attributes",
        "activity_task_completed_event_attributes",
        "activity_task_scheduled_event_attributes",
        "marker_recorded_event_attributes",
    ):
        if event.HasField(attr):
            attrs = getattr(event, attr)
            for name in ("input", "result"):
                if hasattr(attrs, name) and getattr(attrs, name).payloads:
                    found.append(list(getattr(attrs, name).payloads))
    return found
