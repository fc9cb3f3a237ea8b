"""DeleteSubject, complete: every scope, words, refusal, every read path verified, repair after a
failed probe, fences against in-flight writes, the ledger after a restore, the backup timer,
expiry and schedules — on the real worker, Temporal server and stores."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import WorkflowExecutionStatus, WorkflowFailureError
from temporalio.exceptions import ApplicationError
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.errors import FencedByDeletion, InvalidInput, UnauthorizedNamespace
from governed_memory.memory.models import (
    DeleteRequest,
    DeletionReceipt,
    DeletionScope,
    Principal,
    WriteRequest,
)
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.write.extraction import RuleExtractor
from governed_memory.memory.write.pipeline import decide
from governed_memory.memory.write.stages import IdSource
from governed_memory.memory.write.state import StoreView
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.devserver import test_server_binary as time_skipping_server
from tests.codec_keys import CONVERTER
from tests.factories import BOT, NS, T0, USER, sms
from tests.faults import FaultyProjection

LATER = T0 + timedelta(days=5)
REFUNDS = Principal(type="service", tenant="shop-a", id="refunds", tools=["refund"])


async def story(client: MemoryClient, thread: str) -> None:
    """The seed's story: a preference said in a thread, an order complaint, a summary."""
    client.register_principal(BOT)
    await client.observe(USER, NS, "以后物流更新请优先短信通知", thread=thread, at=T0)
    await client.observe(
        USER,
        NS,
        "订单 ORD-A1B2C3D4 三天没发货，我要换货。",
        thread=thread,
        at=T0 + timedelta(minutes=1),
    )
    await client.observe(
        USER, NS, "记住我喜欢周末送货", thread=thread, at=T0 + timedelta(minutes=2)
    )
    summary = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=5))
    assert summary.content is not None
    assert "短信" in summary.content


def everything_said(client: MemoryClient, thread: str) -> str:
    canonical = client.stores.canonical
    texts = [
        m.text for m in canonical.messages.in_thread("shop-a", NS, thread, include_erased=True)
    ]
    texts += [r.content for r in canonical.records.namespace_heads(NS) if r.status != "deleted"]
    return "\n".join(texts)


def assert_passed(receipt: DeletionReceipt) -> None:
    failed = [p for p in receipt.probes if not p.passed]
    assert receipt.verification_status == "passed", failed
    probes = {p.probe for p in receipt.probes}
    for expected in (
        "canonical_by_id",
        "canonical_by_key",
        "keyword_search",
        "vector_search",
        "projection_rows",
        "graph",
        "recall_as_owner",
        "context_as_owner",
        "recall_as_agent",
        "context_as_agent",
        "summaries",
        "conversation_history",
        "feedback",
        "cache",
        "storage_files",
        "temporal_history",
    ):
        assert expected in probes, expected
    assert receipt.indexes_removed == ["vector", "search", "graph"] or not receipt.canonical_records
    # What it cannot guarantee is stated, by the stores it ran on.
    assert any("backup" in limit for limit in receipt.storage_limits)


async def test_forgetting_a_key_erases_it_where_it_is_said(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    receipt = await client.forget(USER, {"text": "忘掉我的通知偏好", "namespace": NS}, at=LATER)
    assert_passed(receipt)
    assert receipt.resolved_scope is not None
    assert receipt.resolved_scope.key == "notification.preference"
    assert receipt.canonical_records >= 1
    assert receipt.derived_records_invalidated >= 1
    assert receipt.summaries_regenerated == 1
    assert receipt.backup_retention_deadline == LATER + timedelta(days=30)
    said = everything_said(client, thread)
    assert "短信" not in said
    assert "三天没发货" in said  # the rest of the thread is kept
    assert "周末送货" in said
    found = await client.recall(
        BOT.ref, [NS], task="通知物流异常", query="短信 通知 偏好", at=LATER + timedelta(hours=1)
    )
    assert not any("短信" in m.content for m in found.memories)
    verdict = found.verdict("notification.preference")
    assert verdict is not None
    assert verdict.state == "none_confirmed"
    package = await client.build_context(
        BOT.ref,
        [NS],
        "通知物流异常",
        {"total_tokens": 8000},
        thread=thread,
        at=LATER + timedelta(hours=1),
    )
    assert "短信" not in package.text()
    assert "周末送货" in package.text()


async def test_a_package_built_before_the_deletion_is_reported(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    package = await client.build_context(
        BOT.ref, [NS], "通知物流异常", {"total_tokens": 8000}, thread=thread, at=LATER
    )
    assert "短信" in package.text()
    assert client.validate_context(package).valid
    await client.forget(USER, {"namespace": NS, "key": "notification.preference"}, at=LATER)
    report = client.validate_context(package)
    assert not report.valid
    reasons = {
        (c.reason, c.memory_id is not None, c.message_ref is not None) for c in report.changed
    }
    assert ("deleted", True, False) in reasons  # the pinned preference
    assert ("deleted", False, True) in reasons  # the message that said it (all of it)
    kept = [i for i in package.items if "周末送货" in i.content and i.kind == "conversation_slice"]
    assert kept
    assert all(c.item_id != kept[0].item_id for c in report.changed)


@pytest.mark.parametrize(
    ("scope", "gone", "kept"),
    [
        ({"subject_ref": "user:123"}, ["短信", "周末送货"], []),
        ({"namespace": NS}, ["短信", "周末送货", "三天没发货"], []),
        ({"source_ref": "msg://THREAD/3"}, ["周末送货"], ["短信", "三天没发货"]),
        (
            {"text": "Please forget how I like to be notified", "namespace": NS},
            ["短信"],
            ["周末送货"],
        ),
        (
            {"text": "删除你记得的关于我的一切", "namespace": NS},
            ["短信", "周末送货", "三天没发货"],
            [],
        ),
    ],
)
async def test_every_scope(
    client: MemoryClient, scope: dict[str, Any], gone: list[str], kept: list[str]
) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    scope = {
        k: (v.replace("THREAD", thread) if isinstance(v, str) else v) for k, v in scope.items()
    }
    receipt = await client.forget(USER, scope, at=LATER)
    assert_passed(receipt)
    said = everything_said(client, thread)
    for text in gone:
        assert text not in said, text
    for text in kept:
        assert text in said, text


async def test_a_refused_request_deletes_nothing_and_is_audited(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    before = everything_said(client, thread)
    with pytest.raises(UnauthorizedNamespace):
        await client.forget("user:shop-a/999", {"namespace": NS}, at=LATER)
    with pytest.raises(UnauthorizedNamespace):
        await client.forget(BOT.ref, {"namespace": NS, "key": "notification.preference"}, at=LATER)
    assert everything_said(client, thread) == before
    # the same request granted past the client's check (as if the door had let it through) is
    # refused (and audited) by the workflow: proven, but not allowed to delete there
    raw = DeleteRequest(principal=BOT.ref, tenant="shop-a", scope=DeletionScope(namespace=NS))
    workflow_id = f"delete/raw/{uuid.uuid4().hex}"
    raw.grant = client.runs.grant("DeleteSubject", workflow_id, raw, BOT.ref, "shop-a")
    with pytest.raises(WorkflowFailureError) as info:
        await client.temporal.execute_workflow(
            "DeleteSubject", raw, id=workflow_id, task_queue=client.settings.task_queue
        )
    assert isinstance(info.value.cause, ApplicationError)
    assert info.value.cause.type == "UnauthorizedNamespace"
    trail = client.stores.canonical.audit.trail()
    assert any(row["stage"] == "delete_authorize" and row["outcome"] == "refused" for row in trail)
    assert everything_said(client, thread) == before


async def test_a_failed_verification_is_repaired_and_verified_again(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    flaky = FaultyProjection(client.stores, lose_removes=1)
    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
    )
    assert flaky.removes >= 2  # removed again by the repair after the failed probe
    assert_passed(receipt)


async def test_a_receipt_never_says_passed_when_a_probe_failed(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    FaultyProjection(client.stores, lose_removes=100)
    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
    )
    assert receipt.verification_status == "failed"
    assert not all(p.passed for p in receipt.probes)
    assert client.receipt(receipt.deletion_id, receipt.requested_by).verification_status == "failed"
    # The run is a failed one (red in the UI), not a green COMPLETED run.
    handle = client.temporal.get_workflow_handle(receipt.workflow_id or "")
    assert (await handle.describe()).status == WorkflowExecutionStatus.FAILED
    # What it was asked to erase is not kept for verification after it gave up.
    assert client.stores.canonical.erasure.probes(receipt.deletion_id) == []


@pytest.mark.parametrize("form", ["user:123", "user:shop-a/123", "tenant/shop-a/user/123"])
async def test_every_documented_subject_form_deletes_the_subject(
    client: MemoryClient, form: str
) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    receipt = await client.forget(USER, {"subject_ref": form}, at=LATER)
    assert_passed(receipt)
    assert receipt.canonical_records > 0
    assert "短信" not in everything_said(client, thread)


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ("bob", InvalidInput),
        # another tenant's subject is out of reach, as its namespaces are for reads and writes
        ("user:shop-b/123", UnauthorizedNamespace),
        ("tenant/shop-b/user/1", UnauthorizedNamespace),
    ],
)
async def test_an_unknown_subject_form_is_a_typed_error(
    client: MemoryClient, form: str, error: type[Exception]
) -> None:
    client.register_principal(BOT)
    with pytest.raises(error):
        await client.forget(USER, {"subject_ref": form}, at=LATER)


async def test_another_tenants_agent_asking_to_delete_is_refused_as_reads_and_writes_are(
    client: MemoryClient,
) -> None:
    """An agent of shop-b naming shop-a's namespace or subject gets `unauthorized_namespace`
    (what a write or a recall there gets), not `invalid_input`; nothing changes."""
    stranger = Principal(
        type="agent",
        tenant="shop-b",
        id="bot",
        read=["tenant/shop-b/**"],
        write=["tenant/shop-b/**"],
        delete=["tenant/shop-b/**"],
    )
    client.register_principal(stranger)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    before = everything_said(client, thread)
    for scope in (
        {"namespace": NS},
        {"namespace": NS, "key": "notification.preference"},
        {"subject_ref": "user:shop-a/123"},
        {"subject_ref": NS},
    ):
        with pytest.raises(UnauthorizedNamespace) as refused:
            await client.forget(stranger.ref, scope, at=LATER)
        assert refused.value.code == "unauthorized_namespace"
    with pytest.raises(UnauthorizedNamespace):
        await client.write(stranger.ref, NS, sms(), at=LATER)
    assert everything_said(client, thread) == before


async def test_a_scope_that_matches_nothing_says_so(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    before = sorted(everything_said(client, thread).splitlines())
    receipt = await client.forget(USER, {"namespace": NS, "key": "shipping.address"}, at=LATER)
    assert receipt.verification_status == "nothing_matched"
    assert receipt.canonical_records == 0
    assert sorted(everything_said(client, thread).splitlines()) == before


async def test_words_resolve_against_the_keys_the_namespace_holds(client: MemoryClient) -> None:
    client.register_principal(BOT)
    await client.write(
        USER,
        NS,
        {
            "kind": "profile",
            "key": "reply.language",
            "content": "Reply to me in English",
            "structured_value": {"language": "en"},
        },
        at=T0,
    )
    receipt = await client.forget(
        USER,
        {"namespace": NS, "text": "Please forget which language I want replies in"},
        at=LATER,
    )
    assert_passed(receipt)
    assert receipt.resolved_scope is not None
    assert receipt.resolved_scope.key == "reply.language"
    assert not [
        r
        for r in client.stores.canonical.records.namespace_heads(NS, "reply.language")
        if r.content
    ]


async def test_a_repeated_request_attaches_and_the_receipt_is_queryable(
    client: MemoryClient,
) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    scope = {"namespace": NS, "key": "notification.preference"}
    first, second = await asyncio.gather(
        client.forget(USER, scope, at=LATER), client.forget(USER, scope, at=LATER)
    )
    assert first.deletion_id == second.deletion_id
    handle = client.temporal.get_workflow_handle(first.workflow_id or "")
    queried = await handle.query("receipt", result_type=DeletionReceipt)
    assert queried.deletion_id == first.deletion_id


def decided_before(stores: Stores, at: Any) -> Any:
    user = Principal(type="user", tenant="shop-a", id="123")
    request = WriteRequest(
        principal=user.ref,
        namespace=NS,
        idempotency_key=uuid.uuid4().hex,
        candidate={
            "kind": "profile",
            "key": "notification.preference",
            "structured_value": {"channel": "sms"},
            "content": "用户偏好短信通知",
        },
    )
    return decide(
        request,
        user,
        stores.policy,
        StoreView(stores),
        RuleExtractor(),
        workflow_id="in-flight",
        at=at,
        ids=IdSource(seed=uuid.uuid4().hex),
    )


async def test_a_write_in_flight_cannot_bring_erased_data_back(client: MemoryClient) -> None:
    thread = f"t-{uuid.uuid4().hex[:6]}"
    stores = client.stores
    # Decided (a NEW value) before anything was stored, then held up in flight.
    in_flight = decided_before(stores, T0 - timedelta(minutes=1))
    assert in_flight.outcomes[0].decision == "add"
    await story(client, thread)
    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
    )
    assert_passed(receipt)
    with pytest.raises(FencedByDeletion):
        stores.canonical.commits.apply(in_flight.plan(uuid.uuid4().hex))
    assert stores.canonical.records.key_records([NS], ["notification.preference"], ["active"]) == []
    # the user saying it again after the deletion is a new statement, and is kept
    again = await client.observe(USER, NS, "以后还是短信通知我吧", at=LATER + timedelta(days=1))
    assert again.outcomes[0].decision == "add"


async def test_the_ledger_is_applied_again_after_a_restore(
    temporal_env: WorkflowEnvironment, tmp_path: Path
) -> None:
    from governed_memory.memory.deletion import load_journal, reapply
    from governed_memory.shell.worker import build_worker

    data = tmp_path / "store"
    settings = Settings(
        data_dir=data, allow_clock_override=True, task_queue=f"restore-{uuid.uuid4().hex[:8]}"
    )
    backup = tmp_path / "backup"
    thread = f"t-{uuid.uuid4().hex[:6]}"
    stores = open_stores(settings)
    async with build_worker(temporal_env.client, settings, stores):
        client = MemoryClient(temporal_env.client, settings, stores)
        await story(client, thread)
        stores.close()
        for name in ("canonical.db", "projection.db"):  # a consistent file backup
            with sqlite3.connect(data / name) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copytree(data, backup)
        stores = open_stores(settings)
        client = MemoryClient(temporal_env.client, settings, stores)
    async with build_worker(temporal_env.client, settings, stores):
        receipt = await client.forget(
            USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
        )
        assert_passed(receipt)
    stores.close()
    journal = settings.deletion_journal_file
    assert journal.exists()
    kept_journal = journal.read_text()
    shutil.rmtree(data)
    shutil.copytree(backup, data)  # restored from the backup taken before the deletion
    journal.write_text(kept_journal)  # the journal lives apart from the database
    restored = open_stores(settings)
    client = MemoryClient(temporal_env.client, settings, restored)
    assert "短信" in everything_said(client, thread)  # the restore brought it back
    counts = reapply(restored, load_journal(journal), RuleExtractor())
    assert counts["reapplied"] == 1
    assert "短信" not in everything_said(client, thread)
    assert restored.projection.state(receipt_memory_ids(restored, receipt)) == {}
    assert reapply(restored, load_journal(journal), RuleExtractor())["reapplied"] == 0
    restored.close()


def receipt_memory_ids(stores: Stores, receipt: DeletionReceipt) -> list[str]:
    (entry,) = [
        e for e in stores.canonical.erasure.ledger() if e.deletion_id == receipt.deletion_id
    ]
    return entry.memory_ids


async def test_the_backup_timer_closes_the_receipt(tmp_path: Path) -> None:
    from governed_memory.memory.contracts.writes import DecideInput, WriteInput
    from governed_memory.memory.services.writes import WriteService
    from governed_memory.shell.devserver import STARTUP_TIMEOUT
    from governed_memory.shell.worker import build_worker

    env = await WorkflowEnvironment.start_time_skipping(
        test_server_existing_path=str(time_skipping_server()),
        data_converter=CONVERTER,
        test_server_startup_timeout=STARTUP_TIMEOUT,
    )
    settings = Settings(data_dir=tmp_path, allow_clock_override=True, task_queue="skip")
    stores = open_stores(settings)
    try:
        async with build_worker(env.client, settings, stores):
            client = MemoryClient(env.client, settings, stores)
            client.search_attributes = False
            with env.auto_time_skipping_disabled():  # the deletion itself runs in real time
                # Written through the service, not a workflow: the time-skipping server cannot
                # delete executions, so a run carrying it would (rightly) fail the receipt.
                writes = WriteService(stores, settings, client.keys)
                request = client.write_request(
                    USER,
                    NS,
                    {
                        "kind": "profile",
                        "key": "profile.language",
                        "structured_value": {"value": "en"},
                        "content": "用英文回复",
                    },
                    at=T0,
                )
                decide = DecideInput(request=request, workflow_id="direct", seed="direct", now=T0)
                done = writes.write(WriteInput(decide=decide, commit_id="direct#0"))
                assert done.commit is not None
                assert done.commit.written
                receipt = await client.forget(
                    USER, {"namespace": NS, "key": "profile.language"}, at=T0 + timedelta(days=1)
                )
            assert receipt.backup_status == "retained"
            await env.sleep(timedelta(days=29))  # the durable timer has not fired yet
            assert (
                client.receipt(receipt.deletion_id, receipt.requested_by).backup_status
                == "retained"
            )
            # Just past the deadline: once the timer has fired and the closing activity ran,
            # the test server stops skipping, so any remainder of a sleep passes in real time.
            await env.sleep(timedelta(days=1, seconds=1))
            closer = env.client.get_workflow_handle(
                f"backup-expiry/shop-a/{receipt.deletion_id}", result_type=DeletionReceipt
            )
            with env.auto_time_skipping_disabled():
                closed = await closer.result()
            assert closed.backup_status == "expired"
            assert (
                client.receipt(receipt.deletion_id, receipt.requested_by).backup_status == "expired"
            )
    finally:
        stores.close()
        await env.shutdown()


async def test_expiry_invalidates_unprojects_and_moves_the_cache(client: MemoryClient) -> None:
    client.register_principal(BOT)
    client.register_principal(REFUNDS)
    client.attest(REFUNDS.ref, ["refund://RF-1"])
    result = await client.write(
        BOT.ref,
        NS,
        {
            "kind": "episodic",
            "content": "用户因超过72小时未发货申请退款，规则R001命中",
            "source_type": "verified_tool_fact",
            "source_refs": ["refund://RF-1"],
            "subject_ref": "order:ORD-1",
            "expires_at": (T0 + timedelta(days=10)).isoformat(),
        },
        at=T0,
    )
    memory_id = result.outcome.memory_id or ""
    before = client.stores.canonical.generations.read([NS])[NS][0]
    summary = await client.expire(at=T0 + timedelta(days=11))
    assert summary.expired == 1
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "invalidated"
    assert client.stores.projection.state([memory_id]) == {}
    assert client.stores.canonical.generations.read([NS])[NS][0] > before
    again = await client.expire(at=T0 + timedelta(days=12))
    assert again.expired == 0


async def test_schedules_are_applied_idempotently(client: MemoryClient) -> None:
    from temporalio.client import ScheduleActionStartWorkflow

    from governed_memory.shell.schedules import apply_schedules

    # Each test deployment has a task queue of its own, so schedules of its own on the shared
    # dev server: `<queue>-expire` (`memory-expire` for the default queue).
    expire = f"{client.settings.task_queue}-expire"
    first = await apply_schedules(client.temporal, client.settings, only=("ExpireMemories",))
    second = await apply_schedules(client.temporal, client.settings, only=("ExpireMemories",))
    assert first == [(expire, "created")]
    assert second == [(expire, "updated")]
    described = await client.temporal.get_schedule_handle(expire).describe()
    action = described.schedule.action
    assert isinstance(action, ScheduleActionStartWorkflow)
    assert action.task_queue == client.settings.task_queue
    assert described.schedule.spec.intervals[0].every == timedelta(hours=1)
    # a run the schedule starts is admitted by the grant its action carries
    await client.temporal.get_schedule_handle(expire).trigger()
    query = f'WorkflowType = "ExpireMemories" AND TaskQueue = "{client.settings.task_queue}"'
    for _ in range(100):
        runs = [r async for r in client.temporal.list_workflows(query)]
        if runs and all(r.status is not None and r.status.name != "RUNNING" for r in runs):
            break
        await asyncio.sleep(0.2)
    assert runs
    assert {r.status.name for r in runs if r.status is not None} == {"COMPLETED"}
    await client.temporal.get_schedule_handle(expire).delete()


async def test_a_deletion_is_found_by_its_hashed_subject(client: MemoryClient) -> None:
    import asyncio

    from governed_memory.workflows.attributes import SUBJECT

    who = uuid.uuid4().hex[:8]  # the dev server is the session's: a subject of this test only
    await client.write(f"user:shop-a/{who}", f"tenant/shop-a/user/{who}", sms(), at=T0)
    receipt = await client.forget(f"user:shop-a/{who}", {"namespace": f"tenant/shop-a/user/{who}"})
    assert receipt.workflow_id is not None
    key = client.subject_key("shop-a", f"user:{who}")
    assert who not in key
    described = await client.temporal.get_workflow_handle(receipt.workflow_id).describe()
    assert described.typed_search_attributes.get(SUBJECT) == key
    query = f"MemoryTenant = 'shop-a' AND MemorySubject = '{key}'"
    for _ in range(50):  # visibility follows the run within moments
        found = [w.id async for w in client.temporal.list_workflows(query)]
        if found:
            break
        await asyncio.sleep(0.2)
    assert found == [receipt.workflow_id]


async def test_schedules_are_listed_paused_and_unpaused(client: MemoryClient) -> None:
    from governed_memory.memory.errors import NotFound
    from governed_memory.shell.schedules import apply_schedules, list_schedules, set_paused

    async def state() -> dict[str, Any]:
        """The schedule as described, once the scheduler has taken the last change in (updates
        and pauses reach it as signals, a moment later)."""
        listed = await list_schedules(client.temporal, client.settings)
        return {s["schedule"]: s for s in listed}[expire]

    async def settled(wanted: str) -> dict[str, Any]:
        for _ in range(50):
            found = await state()
            if found["state"] == wanted:
                return found
            await asyncio.sleep(0.1)
        return found

    expire = f"{client.settings.task_queue}-expire"
    await apply_schedules(client.temporal, client.settings, only=("ExpireMemories",))
    await set_paused(client.temporal, client.settings, "expire", True, "restore in progress")
    paused = await settled("paused")
    assert paused["state"] == "paused"
    assert paused["note"] == "restore in progress"
    await set_paused(client.temporal, client.settings, expire, False, "restore done")
    assert (await settled("running"))["state"] == "running"
    with pytest.raises(NotFound):
        await set_paused(client.temporal, client.settings, "nonsense", True, "")


async def test_the_receipt_states_what_temporal_keeps(client: MemoryClient) -> None:
    from temporalio.api.workflowservice.v1 import DescribeNamespaceRequest

    thread = f"t-{uuid.uuid4().hex[:6]}"
    await story(client, thread)
    receipt = await client.forget(
        USER, {"namespace": NS, "key": "notification.preference"}, at=LATER
    )
    assert_passed(receipt)
    found = await client.temporal.workflow_service.describe_namespace(
        DescribeNamespaceRequest(namespace=client.temporal.namespace)
    )
    assert receipt.temporal is not None
    assert receipt.temporal.namespace == client.temporal.namespace
    assert (
        receipt.temporal.retention_seconds == found.config.workflow_execution_retention_ttl.seconds
    )
    assert receipt.temporal.history_archival.startswith("ARCHIVAL_STATE_")
    # The backup deadline covers Temporal's retention of the closed runs.
    assert receipt.backup_retention_deadline is not None
    assert receipt.backup_retention_deadline >= receipt.requested_at + timedelta(
        seconds=receipt.temporal.retention_seconds or 0
    )
    assert client.receipt(receipt.deletion_id, receipt.requested_by).temporal == receipt.temporal
