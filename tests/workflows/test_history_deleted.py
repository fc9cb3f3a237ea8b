"""A passed deletion leaves nothing readable in Temporal either: the closed runs whose histories
carried the erased content (a write, an observed message with a password, a batch import, a
review waiting on a deferred write) are deleted through DeleteWorkflowExecution, and the
`temporal_history` probe asks the server for each of them. Read as an operator would: through
Temporal's own API (describe, history, visibility), not through the service."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from temporalio.service import RPCError, RPCStatusCode

from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER, sms

LATER = T0 + timedelta(days=5)
OTHER_NS = "tenant/shop-a/user/456"


async def _readable(client: MemoryClient, workflow_id: str) -> bool:
    """Whether Temporal still serves any run of this id: describe, or list it."""
    try:
        await client.temporal.get_workflow_handle(workflow_id).describe()
        return True
    except RPCError as exc:
        if exc.status != RPCStatusCode.NOT_FOUND:
            raise
    listed = [w async for w in client.temporal.list_workflows(f'WorkflowId = "{workflow_id}"')]
    return bool(listed)


async def test_a_deletion_deletes_the_runs_that_carried_it(client: MemoryClient) -> None:
    client.register_principal(BOT)
    client.register_principal(DRAFTER)
    marker = f"Zqrun{uuid.uuid4().hex[:8]}"
    kept = await client.write(
        USER,
        NS,
        {"kind": "episodic", "content": f"Asked for gift wrapping {marker}"},
        at=T0,
    )
    refused = await client.observe(USER, NS, f"my password is {marker}Pw9!", at=T0)
    assert refused.outcome.decision == "reject"
    batch = await client.write_batch(
        [
            client.write_request(USER, NS, text=f"I moved to Lyon last spring {marker}", at=T0),
            client.write_request(USER, NS, text="Please call me after 6pm", at=T0),
        ]
    )
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    assert deferred.outcome.review_id is not None
    review_run = client.stores.canonical.reviews.get(deferred.outcome.review_id).workflow_id
    # Another user's write stays: it carried nothing of this scope.
    other = await client.write(
        "user:shop-a/456", OTHER_NS, {"kind": "episodic", "content": "Likes jazz"}, at=T0
    )
    carriers = [
        kept.workflow_id,
        refused.workflow_id,
        batch.workflow_id,
        deferred.workflow_id,
        review_run,
    ]
    assert all([await _readable(client, w) for w in carriers])

    receipt = await client.forget(USER, {"namespace": NS}, at=LATER)

    assert receipt.verification_status == "passed", receipt.probes
    (probe,) = [p for p in receipt.probes if p.probe == "temporal_history"]
    assert probe.passed
    assert receipt.temporal_runs_deleted >= len(carriers)
    for workflow_id in carriers:
        assert not await _readable(client, workflow_id), workflow_id
    assert await _readable(client, other.workflow_id)
    # The deletion's own run stays, to show its receipt (it holds ids and the scope only).
    assert receipt.workflow_id is not None
    assert await _readable(client, receipt.workflow_id)


async def test_a_key_deletion_keeps_the_runs_of_other_keys(client: MemoryClient) -> None:
    client.register_principal(BOT)
    gone = await client.write(USER, NS, sms(), at=T0)
    stays = await client.write(
        USER,
        NS,
        {
            "kind": "profile",
            "key": "reply.language",
            "structured_value": {"language": "fr"},
            "content": "Replies in French",
        },
        at=T0,
    )
    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
    )
    assert receipt.verification_status == "passed", receipt.probes
    assert not await _readable(client, gone.workflow_id)
    assert await _readable(client, stays.workflow_id)


async def test_the_probe_fails_while_a_carrying_run_is_readable(client: MemoryClient) -> None:
    """The probe asks the server, not the service's own records: a run it did not delete is
    found."""
    from governed_memory.activities.temporal_info import TemporalActivities
    from governed_memory.memory.models import HistoryErasure

    client.register_principal(BOT)
    kept = await client.write(USER, NS, sms(), at=T0)
    probe = await TemporalActivities(client.temporal).probe_histories(
        HistoryErasure(namespace="default", workflow_ids=[kept.workflow_id])
    )
    assert not probe.passed
    assert probe.returned == 1


@pytest.mark.parametrize("settle", [0.0])
async def test_erasing_histories_waits_for_the_server(client: MemoryClient, settle: float) -> None:
    """Asked before the server acknowledged the close, the deletion is retried by the server;
    the activity waits until the run is gone instead of reporting it deleted at once."""
    from governed_memory.activities.temporal_info import TemporalActivities
    from governed_memory.memory.models import HistoryErasure

    client.register_principal(BOT)
    kept = await client.write(USER, NS, sms(), at=T0)
    temporal = TemporalActivities(client.temporal, settle=settle)
    erasure = HistoryErasure(namespace="default", workflow_ids=[kept.workflow_id])
    erased = await temporal.erase_histories(erasure)
    assert erased.runs_deleted == 1
    assert erased.remaining == []
    assert (await temporal.probe_histories(erasure)).passed
