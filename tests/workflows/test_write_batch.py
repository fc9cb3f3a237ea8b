"""Background ingestion: many writes per WriteBatch run, each with its own decision, audit and
idempotency key."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from memory.errors import InvalidInput
from shell.client import MemoryClient
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
    assert canonical.outcomes.get("shop-a", f"{run}-b-7") is not None
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
