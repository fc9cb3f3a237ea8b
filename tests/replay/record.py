"""Record workflow histories for the replay tests.

    uv run python -m tests.replay.record [SCENARIO ...]

Run it when a workflow changes on purpose (there is no deployment yet: the histories are recorded
afresh; after the first release, a change is versioned with `workflow.patched`, then
`deprecate_patch`, then deleted, and the histories of each step are kept); the replay test then
proves the current code replays every recorded history, so an accidental non-deterministic change
fails CI. Histories are recorded in plaintext (the replayer reads them without the codec key) and
hold no secret: every run is started as the service starts it, with its grant.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from temporalio.client import Client, WorkflowFailureError
from temporalio.contrib.pydantic import pydantic_data_converter

from governed_memory.memory.errors import PolicyRefusal
from governed_memory.memory.models import (
    CloseReceiptInput,
    ExpireRequest,
    ExpireSummary,
    RelayRequest,
    RepairReport,
    RepairRequest,
)
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.devserver import start_local
from governed_memory.shell.temporal import feedback_workflow_id, route
from governed_memory.shell.worker import build_worker
from tests.factories import BOT, NS, T0, USER, email, sms

HISTORIES = Path(__file__).with_name("histories")

Scenario = Callable[[MemoryClient, Client], Awaitable[list[str]]]


async def _ids(*runs: Awaitable[Any]) -> list[str]:
    out = []
    for run in runs:
        result = await run
        out.append(result.workflow_id)
    return out


async def writes(client: MemoryClient, temporal: Client) -> list[str]:
    ids = await _ids(
        client.write(USER, NS, email(), idempotency_key="rec-new", at=T0),
        client.write(USER, NS, sms(), idempotency_key="rec-supersede", at=T0 + timedelta(days=9)),
        client.write(
            USER,
            NS,
            sms(content="短信通知我"),
            idempotency_key="rec-dup",
            at=T0 + timedelta(days=10),
        ),
    )
    # started raw without a grant: refused at admission
    raw = {
        "principal": USER,
        "namespace": "tenant/shop-a/user/999",
        "idempotency_key": "rec-refused",
        "candidate": sms(),
    }
    try:
        await temporal.execute_workflow(
            "WriteMemory", raw, id="write/shop-a/rec-refused", task_queue=client.settings.task_queue
        )
    except WorkflowFailureError:
        ids.append("write/shop-a/rec-refused")
    bad = {
        "principal": USER,
        "namespace": NS,
        "idempotency_key": "rec-invalid",
        "candidate": {"kind": "profile", "content": "x", "confidence": 3},
    }
    try:
        await temporal.execute_workflow(
            "WriteMemory", bad, id="write/shop-a/rec-invalid", task_queue=client.settings.task_queue
        )
    except WorkflowFailureError:
        ids.append("write/shop-a/rec-invalid")
    # concurrent writers on one key: some runs re-resolve after a lost race
    results = await asyncio.gather(
        *(
            client.write(
                USER,
                NS,
                {**sms(), "structured_value": {"channel": c}, "content": f"c {c}"},
                idempotency_key=f"rec-race-{c}",
                at=T0 + timedelta(days=20, minutes=i),
            )
            for i, c in enumerate(["phone", "wechat", "app_push", "email"])
        )
    )
    ids += [r.workflow_id for r in results]
    batch = await client.write_batch(
        [
            client.write_request(
                f"user:shop-a/b{i}",
                f"tenant/shop-a/user/b{i}",
                sms(),
                idempotency_key=f"rec-batch-{i}",
                at=T0,
            )
            for i in range(5)
        ]
    )
    ids.append(batch.workflow_id)
    return ids


async def deletions(client: MemoryClient, temporal: Client) -> list[str]:
    client.register_principal(BOT)
    await client.write(USER, NS, sms(), at=T0)
    await client.write(USER, NS, {"kind": "episodic", "content": "用户咨询退款进度"}, at=T0)
    by_key = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=T0 + timedelta(days=1)
    )
    by_subject = await client.forget(USER, {"subject_ref": "user:123"}, at=T0 + timedelta(days=2))
    await client.write(USER, NS, email(), at=T0 + timedelta(days=3))
    by_words = await client.forget(
        USER, {"namespace": NS, "text": "忘掉我的通知偏好"}, at=T0 + timedelta(days=4)
    )
    # the backup timer of a deletion (still waiting), and one started from outside: refused
    waiting = f"backup-expiry/shop-a/{by_key.deletion_id}"
    with contextlib.suppress(WorkflowFailureError):
        await temporal.execute_workflow(
            "CloseDeletionReceipt",
            CloseReceiptInput(deletion_id=by_subject.deletion_id),
            id="backup-expiry/shop-a/rec-refused",
            task_queue=client.settings.task_queue,
        )
    return [
        str(by_key.workflow_id),
        str(by_subject.workflow_id),
        str(by_words.workflow_id),
        waiting,
        "backup-expiry/shop-a/rec-refused",
    ]


async def expiry(client: MemoryClient, temporal: Client) -> list[str]:
    for i in range(3):
        await client.write(
            USER,
            NS,
            {
                "kind": "episodic",
                "content": f"用户咨询订单 ORD-{i} 的物流",
                "expires_at": (T0 + timedelta(days=1 + i)).isoformat(),
            },
            at=T0,
        )
    # a batch of one: the sweep continues as new after each batch (each run with its grant)
    start = client.start_for(ExpireRequest(at=T0 + timedelta(days=10), batch_size=1))
    await temporal.execute_workflow(
        start.workflow,
        start.input,
        id=start.workflow_id,
        task_queue=start.task_queue,
        result_type=ExpireSummary,
    )
    return [start.workflow_id]


async def reviews(client: MemoryClient, temporal: Client) -> list[str]:
    from governed_memory.memory.models import Principal

    reviewer = Principal(type="reviewer", tenant="shop-a", id="ops-7", approve=["tenant/shop-a/**"])
    drafter = Principal(
        type="agent",
        tenant="shop-a",
        id="drafter",
        candidate_only=True,
        write=["tenant/shop-a/user/*"],
    )
    crm = Principal(type="service", tenant="shop-a", id="crm", write=["tenant/shop-a/user/*"])
    for p in (reviewer, drafter, crm):
        client.register_principal(p)
    ids = []
    deferred = await client.write(drafter.ref, NS, sms(), idempotency_key="rec-deferred", at=T0)
    assert deferred.outcome.review_id is not None
    await client.review(reviewer.ref, deferred.outcome.review_id, "approve")
    ids.append(client.stores.canonical.reviews.get(deferred.outcome.review_id).workflow_id)
    mine = await client.observe(
        USER,
        NS,
        "以后有通知请发我邮箱。",
        idempotency_key="rec-observe",
        thread="t1",
        at=T0 + timedelta(days=1),
    )
    theirs = await client.write(
        crm.ref,
        NS,
        email(content="CRM 记录用户偏好邮件", structured_value={"channel": "phone"}),
        idempotency_key="rec-conflict",
        at=T0 + timedelta(days=1),
    )
    assert theirs.outcome.review_id is not None
    await client.review(
        reviewer.ref, theirs.outcome.review_id, "approve", memory_id=mine.outcomes[0].memory_id
    )
    ids += [
        mine.workflow_id,
        theirs.workflow_id,
        client.stores.canonical.reviews.get(theirs.outcome.review_id).workflow_id,
    ]
    # a harmful report's RecordFeedback run opens a review (its child), answered
    reported = await client.feedback(USER, mine.outcomes[0].memory_id or "", "harmful")
    assert reported.review is not None
    await client.review(reviewer.ref, reported.review.review.review_id, "reject")
    ids.append(reported.review.review.workflow_id)
    ids.append(feedback_workflow_id(client.keys, "shop-a", USER, reported.event.event_id))
    # an unanswered review times out (policy timeout shortened for the recording)
    client.stores.policy = client.stores.policy.model_copy(
        update={"review": client.stores.policy.review.model_copy(update={"timeout_hours": 0.0003})}
    )
    late = await client.write(
        drafter.ref,
        NS,
        sms(structured_value={"channel": "wechat"}, content="微信联系"),
        idempotency_key="rec-timeout",
        at=T0 + timedelta(days=2),
    )
    assert late.outcome.review_id is not None
    review_wf = client.stores.canonical.reviews.get(late.outcome.review_id).workflow_id
    await temporal.get_workflow_handle(review_wf).result()
    ids.append(review_wf)
    return ids


async def feedback(client: MemoryClient, temporal: Client) -> list[str]:
    """A correction (its write, then the end of the memory without a key it corrects) and a
    deletion, each started by a RecordFeedback run."""
    ids = []
    loose = await client.write(
        USER, NS, sms(key=None, kind="semantic", content="用户喜欢蓝色的包装盒"), at=T0
    )
    corrected = await client.feedback(
        USER,
        loose.outcome.memory_id or "",
        "corrected",
        correction={"content": "用户喜欢绿色的礼品袋"},
        event_id="rec-corrected",
    )
    assert corrected.event.effect_ref is not None
    ids += [corrected.event.effect_ref, corrected.event.effect_ref.rsplit("/", 1)[0]]
    doomed = await client.write(USER, NS, sms(), at=T0)
    deleted = await client.feedback(
        USER, doomed.outcome.memory_id or "", "deleted", event_id="rec-deleted"
    )
    assert deleted.deletion is not None
    assert deleted.event.effect_ref is not None
    ids.append(deleted.event.effect_ref.rsplit("/", 1)[0])
    return ids


async def summaries(client: MemoryClient, temporal: Client) -> list[str]:
    client.register_principal(BOT)
    for i, (who, text) in enumerate(
        [
            (USER, "我买的耳机左边没声音。"),
            (BOT.ref, "抱歉！可以为您退款或者换新，您选哪个？"),
            (USER, "不用退款，给我换个新的吧，最好这周五前送到。"),
        ]
    ):
        await client.observe(who, NS, text, thread="rec-t2", at=T0 + timedelta(minutes=i))
    first = await client.summarize(BOT.ref, "rec-t2", namespace=NS, at=T0 + timedelta(minutes=10))
    return [first.workflow_id]


async def projections(client: MemoryClient, temporal: Client) -> list[str]:
    """A write and a deletion (outcome search attribute), the relay with events left behind, and
    a full repair paged one row at a time so that it continues as new."""
    written = await client.write(USER, NS, sms(), idempotency_key="rec-proj", at=T0)
    gone = await client.forget(USER, {"subject_ref": "user:123"}, at=T0 + timedelta(days=1))
    await client.write_batch(
        [
            client.write_request(
                USER, NS, {"kind": "episodic", "content": f"用户咨询订单 ORD-{i} 的退款"}, at=T0
            )
            for i in range(24)
        ]
    )
    # events a lost projection left behind: the index forgets two rows, the outbox is unprocessed
    stores = client.stores
    ids = [e.memory_id for e in stores.canonical.outbox.events(unprocessed_only=False, limit=100)][
        -2:
    ]
    stores.projection.remove(ids)
    relay = client.start_for(RelayRequest())
    await temporal.execute_workflow(
        relay.workflow, relay.input, id=relay.workflow_id, task_queue=relay.task_queue
    )
    stores.projection.remove(ids)
    repair = client.start_for(
        RepairRequest(full=True, at=T0 + timedelta(days=2), page_size=1, budget_pages=1)
    )
    await temporal.execute_workflow(
        repair.workflow,
        repair.input,
        id=repair.workflow_id,
        task_queue=repair.task_queue,
        result_type=RepairReport,
    )
    return [written.workflow_id, str(gone.workflow_id), relay.workflow_id, repair.workflow_id]


async def promotions(client: MemoryClient, temporal: Client) -> list[str]:
    """A promotion that waits for a reviewer (its review run, approved), one the requester
    approves itself, one refused by the run (the memory deleted after the door let it through),
    and one started raw without a grant: refused at admission."""
    from governed_memory.memory.models import Principal

    team = "tenant/shop-a/team/ops"
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=[team])
    curator = Principal(
        type="agent", tenant="shop-a", id="curator", read=["tenant/shop-a/user/*"], write=[team]
    )
    steward = curator.model_copy(update={"type": "reviewer", "id": "steward", "approve": [team]})
    for p in (lead, curator, steward):
        client.register_principal(p)
    ids = []
    shared = await client.write(USER, NS, sms(), idempotency_key="rec-promote-1", at=T0)
    waiting = await client.promote(
        curator.ref, shared.outcome.memory_id or "", team, at=T0 + timedelta(minutes=1)
    )
    assert waiting.review_id is not None
    await client.review(lead.ref, waiting.review_id, "approve", at=T0 + timedelta(minutes=2))
    ids += [waiting.workflow_id, client.stores.canonical.reviews.get(waiting.review_id).workflow_id]
    noted = await client.write(
        USER,
        NS,
        {"kind": "semantic", "content": "用户喜欢蓝色的包装盒"},
        idempotency_key="rec-promote-2",
        at=T0,
    )
    direct = await client.promote(
        steward.ref, noted.outcome.memory_id or "", team, at=T0 + timedelta(minutes=3)
    )
    assert direct.status == "promoted"
    ids.append(direct.workflow_id)
    later = await client.write(
        USER,
        NS,
        {"kind": "episodic", "content": "用户咨询退款进度"},
        idempotency_key="rec-promote-3",
        at=T0,
    )
    gone = later.outcome.memory_id or ""
    request = client.promote_request(steward.ref, gone, team, at=T0 + timedelta(minutes=4))
    await client.forget(USER, {"namespace": NS, "memory_id": gone}, at=T0 + timedelta(minutes=4))
    with contextlib.suppress(PolicyRefusal):
        await client.run_promotion(request)
    ids.append(route(client.keys, request).workflow_id)
    raw = {
        "principal": USER,
        "tenant": "shop-a",
        "memory_id": shared.outcome.memory_id,
        "target_namespace": team,
    }
    with contextlib.suppress(WorkflowFailureError):
        await temporal.execute_workflow(
            "PromoteMemory",
            raw,
            id="promote/shop-a/rec-refused",
            task_queue=client.settings.task_queue,
        )
    ids.append("promote/shop-a/rec-refused")
    return ids


SCENARIOS: dict[str, Scenario] = {
    "writes": writes,
    "deletions": deletions,
    "reviews": reviews,
    "summaries": summaries,
    "expiry": expiry,
    "projections": projections,
    "feedback": feedback,
    "promotions": promotions,
}


async def main() -> None:
    HISTORIES.mkdir(exist_ok=True)
    env = await start_local(pydantic_data_converter)
    try:
        chosen = sys.argv[1:] or list(SCENARIOS)
        for name in chosen:
            scenario = SCENARIOS[name]
            data = Path(tempfile.mkdtemp())
            settings = Settings(data_dir=data, allow_clock_override=True, task_queue=f"rec-{name}")
            stores = open_stores(settings)
            async with build_worker(env.client, settings, stores):
                client = MemoryClient(env.client, settings, stores)
                ids = await scenario(client, env.client)
            stores.close()
            for workflow_id in ids:
                # every run of the id: a workflow that continued as new has several
                runs = [r async for r in env.client.list_workflows(f'WorkflowId="{workflow_id}"')]
                runs.sort(key=lambda r: r.start_time)
                for i, run in enumerate(runs):
                    handle = env.client.get_workflow_handle(workflow_id, run_id=run.run_id)
                    history = await handle.fetch_history()
                    suffix = f"--run{i + 1}" if len(runs) > 1 else ""
                    target = HISTORIES / f"{name}--{workflow_id.replace('/', '_')}{suffix}.json"
                    target.write_text(json.dumps(json.loads(history.to_json()), indent=1))
                    print(f"recorded {target.name}")
    finally:
        await env.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
