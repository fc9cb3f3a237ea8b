"""Who a memory may be about: a writer names only subjects it may speak for, through every door
(a single write, a batch), and a subject's deletion erases what its requester may delete and
counts, without naming them, what it could not — on the real worker, Temporal server and stores
(SQLite and Postgres)."""

from __future__ import annotations

import uuid

from shell.client import MemoryClient
from tests.factories import T0

PLANTED = {"kind": "semantic", "content": "456 每天很晚才回家", "subject_ref": "user:456"}


async def test_a_user_cannot_plant_a_memory_about_another_user(client: MemoryClient) -> None:
    run = uuid.uuid4().hex[:8]
    mallory, mallory_ns = f"user:shop-a/m{run}", f"tenant/shop-a/user/m{run}"
    single = await client.write(mallory, mallory_ns, PLANTED, at=T0)
    assert [(o.decision, o.reason) for o in single.outcomes] == [("reject", "subject_not_allowed")]
    batch = await client.write_batch(
        [
            client.write_request(mallory, mallory_ns, PLANTED, idempotency_key=f"{run}-a", at=T0),
            client.write_request(
                mallory,
                mallory_ns,
                {**PLANTED, "subject_ref": "tenant/shop-a/user/456"},
                idempotency_key=f"{run}-b",
                at=T0,
            ),
            client.write_request(
                mallory,
                mallory_ns,
                {"kind": "semantic", "content": "我每天很晚才回家"},
                idempotency_key=f"{run}-c",
                at=T0,
            ),
        ]
    )
    assert [[(o.decision, o.reason) for o in item.outcomes] for item in batch.items] == [
        [("reject", "subject_not_allowed")],
        [("reject", "subject_not_allowed")],
        [("add", None)],
    ]
    assert client.stores.canonical.records.subject_heads("shop-a", "user:456") == []
    trail = client.stores.canonical.audit.trail(workflow_id=single.workflow_id)
    refused = [row for row in trail if row["stage"] == "subject_validation"]
    assert [(r["outcome"], r["details"]) for r in refused] == [
        ("not_allowed", {"subject_kind": "user"})
    ]
