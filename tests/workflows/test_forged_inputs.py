"""A workflow input is a request, never a fact.

Every workflow type, started raw through the Temporal client as an attacker who reaches Temporal
would (with the codec key, the strongest such attacker): with no grant, with a grant the service
gave another tenant, and with an honest grant of the attacker's own whose input it then forged.
Each is refused with a typed error and changes nothing in the canonical store (not even an audit
row in a tenant the attacker picks). Then the auditor's five findings one by one: a forged
conflict review that times out, the old `ReviewTask` shape, a reviewer of another tenant
answering, a squatted deletion id, and a receipt closed early.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from temporalio.client import WorkflowFailureError, WorkflowUpdateFailedError
from temporalio.common import WorkflowIDConflictPolicy
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.exceptions import ApplicationError

from governed_memory.memory.errors import RunConflict
from governed_memory.memory.feedback import FeedbackRequest, FeedbackStart
from governed_memory.memory.grants import SYSTEM
from governed_memory.memory.models import (
    BatchRequest,
    Candidate,
    CloseReceiptInput,
    DeleteRequest,
    DeletionScope,
    ExpireRequest,
    Principal,
    RelayRequest,
    RepairRequest,
    ReviewDecision,
    ReviewRecord,
    ReviewStart,
    SummarizeRequest,
    WriteRequest,
)
from governed_memory.memory.plans import CommitPlan, RecordChange
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.stores.schema import metadata
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.temporal import delete_workflow_id
from tests.factories import BOT, DRAFTER, NS, T0, USER, email, sms

#: The attacker: a user of the victim's own tenant, proven (its token is honest).
ATTACKER = "user:shop-a/666"
ATTACKER_NS = "tenant/shop-a/user/666"
#: Another tenant's user and reviewer.
STRANGER = "user:shop-b/9"
STRANGER_NS = "tenant/shop-b/user/9"
LEAD = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
OUTSIDER = Principal(type="reviewer", tenant="shop-b", id="lead", approve=["tenant/shop-b/**"])
CRM = Principal(type="service", tenant="shop-a", id="crm", write=["tenant/shop-a/user/*"])
REFUSED = ("Unauthenticated", "RequestMismatch", "InvalidInput")


# ------------------------------------------------------------------------------ helpers


def snapshot(client: MemoryClient) -> dict[str, Any]:
    """Everything the canonical store holds, as row counts per table, and the statuses that a
    refused run must not move: memories, reviews, receipts."""
    canonical = client.stores.canonical
    with canonical.engine.connect() as conn:
        counts = {
            table.name: conn.execute(select(func.count()).select_from(table)).scalar()
            for table in metadata.sorted_tables
            # which run a grant admitted is bookkeeping of the door, not what a run changed
            if table.name != "admitted_grants"
        }
        heads = dict(
            conn.execute(
                select(
                    metadata.tables["memory_heads"].c.memory_id,
                    metadata.tables["memory_heads"].c.status,
                )
            ).all()
        )
        reviews = dict(
            conn.execute(
                select(metadata.tables["reviews"].c.review_id, metadata.tables["reviews"].c.status)
            ).all()
        )
    receipts = {
        r.deletion_id: (r.backup_status, r.closed_at)
        for tenant in ("shop-a", "shop-b")
        for r in canonical.receipts.of_tenant(tenant, 100)
    }
    return {"counts": counts, "heads": heads, "reviews": reviews, "receipts": receipts}


async def refused(
    client: MemoryClient,
    workflow: str,
    payload: Any,
    *,
    workflow_id: str | None = None,
    types: tuple[str, ...] = REFUSED,
) -> ApplicationError:
    """Start `workflow` raw with `payload` and expect a typed refusal."""
    with pytest.raises(WorkflowFailureError) as info:
        await asyncio.wait_for(
            client.temporal.execute_workflow(
                workflow,
                payload,
                id=workflow_id or f"raw/{uuid.uuid4().hex}",
                task_queue=client.settings.task_queue,
            ),
            timeout=60,
        )
    cause = info.value.cause
    assert isinstance(cause, ApplicationError), cause
    assert cause.type in types, (cause.type, cause.message)
    return cause


def bare(model: Any) -> dict[str, Any]:
    """A request as an attacker writes it: JSON, no grant."""
    data: dict[str, Any] = model.model_dump(mode="json")
    data.pop("grant", None)
    return data


async def three_ways(
    client: MemoryClient,
    workflow: str,
    victim: dict[str, Any],
    stranger: Any,
    own: Any,
    forge: dict[str, Any],
) -> None:
    """The three raw starts: no grant; the grant the service gave another tenant's request;
    the attacker's own honest grant on an input it then forged (`forge` overrides fields)."""
    before = snapshot(client)
    cause = await refused(client, workflow, victim)
    assert cause.type == "Unauthenticated"
    theirs = client.start_for(stranger)
    await refused(client, workflow, {**victim, "grant": theirs.input["grant"]})
    await refused(
        client,
        workflow,
        {**victim, "grant": theirs.input["grant"]},
        workflow_id=theirs.workflow_id,
    )
    mine = client.start_for(own)
    assert mine.input["grant"]
    await refused(client, workflow, {**mine.input, **forge}, workflow_id=mine.workflow_id)
    assert snapshot(client) == before


def setup(client: MemoryClient) -> None:
    for principal in (BOT, DRAFTER, LEAD, OUTSIDER, CRM):
        client.register_principal(principal)


# ------------------------------------------------------------------------------ every workflow


async def test_write_memory(client: MemoryClient) -> None:
    setup(client)
    victim = WriteRequest(
        principal=USER,
        namespace=NS,
        idempotency_key="forged",
        candidate=Candidate.model_validate(sms(source_type="human_review")),
    )
    await three_ways(
        client,
        "WriteMemory",
        bare(victim),
        client.write_request(STRANGER, STRANGER_NS, sms()),
        client.write_request(ATTACKER, ATTACKER_NS, sms(), idempotency_key="mine"),
        {"principal": USER, "namespace": NS},
    )
    assert client.stores.canonical.records.namespace_heads(NS) == []


async def test_write_batch(client: MemoryClient) -> None:
    setup(client)
    victim = BatchRequest(
        requests=[
            WriteRequest(
                principal=USER,
                namespace=NS,
                idempotency_key=f"forged-{i}",
                candidate=Candidate.model_validate({"kind": "episodic", "content": f"说过 {i}"}),
            )
            for i in range(3)
        ]
    )
    own = BatchRequest(requests=[client.write_request(ATTACKER, ATTACKER_NS, sms())])
    forged = [{**r, "principal": USER, "namespace": NS} for r in bare(own)["requests"]]
    await three_ways(
        client,
        "WriteBatch",
        bare(victim),
        BatchRequest(requests=[client.write_request(STRANGER, STRANGER_NS, sms())]),
        own,
        {"requests": forged},
    )
    assert client.stores.canonical.records.namespace_heads(NS) == []


async def test_delete_subject(client: MemoryClient) -> None:
    setup(client)
    await client.write(USER, NS, sms(), at=T0)
    victim = DeleteRequest(principal=USER, tenant="shop-a", scope=DeletionScope(namespace=NS))
    await three_ways(
        client,
        "DeleteSubject",
        bare(victim),
        client.delete_request(STRANGER, {"namespace": STRANGER_NS}),
        client.delete_request(ATTACKER, {"namespace": ATTACKER_NS}),
        {"principal": USER, "scope": {"namespace": NS}},
    )
    (kept,) = client.stores.canonical.records.namespace_heads(NS)
    assert kept.status == "active"


def _feedback(principal: str, memory_id: str, namespace: str, event_id: str) -> FeedbackStart:
    """A `deleted` feedback run's input, as the door builds it."""
    tenant = namespace.split("/")[1]
    return FeedbackStart(
        feedback=FeedbackRequest(
            principal=principal, memory_id=memory_id, feedback_type="deleted", event_id=event_id
        ),
        deletion=DeleteRequest(
            principal=principal,
            tenant=tenant,
            scope=DeletionScope(namespace=namespace, memory_id=memory_id),
        ),
    )


async def test_record_feedback(client: MemoryClient) -> None:
    setup(client)
    victims = (await client.write(USER, NS, sms(), at=T0)).outcome.memory_id
    strangers = (await client.write(STRANGER, STRANGER_NS, sms(), at=T0)).outcome.memory_id
    mine = (await client.write(ATTACKER, ATTACKER_NS, sms(), at=T0)).outcome.memory_id
    assert victims is not None
    assert strangers is not None
    assert mine is not None
    victim = _feedback(USER, victims, NS, "forged-feedback")
    await three_ways(
        client,
        "RecordFeedback",
        bare(victim),
        _feedback(STRANGER, strangers, STRANGER_NS, "theirs-1"),
        _feedback(ATTACKER, mine, ATTACKER_NS, "mine-0001"),
        {"feedback": bare(victim)["feedback"], "deletion": bare(victim)["deletion"]},
    )
    (kept,) = client.stores.canonical.records.namespace_heads(NS)
    assert kept.status == "active"


async def test_a_granted_feedback_run_is_still_checked_against_the_store(
    client: MemoryClient,
) -> None:
    """Even with the service's own grant, a feedback run whose deletion is not of the memory
    its feedback names (here: the whole namespace) is refused, and nothing changes."""
    setup(client)
    first = (await client.write(USER, NS, sms(), at=T0)).outcome.memory_id
    await client.write(USER, NS, email(key="profile.email", content="邮箱"), at=T0)
    assert first
    wider = _feedback(USER, first, NS, "wider-0001")
    assert wider.deletion is not None
    wider.deletion.scope = DeletionScope(namespace=NS)
    granted = client.start_for(wider)
    before = snapshot(client)
    cause = await refused(client, "RecordFeedback", granted.input, workflow_id=granted.workflow_id)
    assert cause.type == "RequestMismatch"
    assert snapshot(client) == before
    assert {h.status for h in client.stores.canonical.records.namespace_heads(NS)} == {"active"}


async def test_summarize_thread(client: MemoryClient) -> None:
    setup(client)
    await client.observe(USER, NS, "请周五前把耳机换新的送到", thread="t-victim", at=T0)
    victim = SummarizeRequest(principal=BOT.ref, tenant="shop-a", namespace=NS, thread="t-victim")
    await three_ways(
        client,
        "SummarizeThread",
        bare(victim),
        client.summarize_request(STRANGER, "t-stranger"),
        client.summarize_request(ATTACKER, "t-mine"),
        {"principal": BOT.ref, "namespace": NS, "thread": "t-victim"},
    )
    assert not [
        r for r in client.stores.canonical.records.namespace_heads(NS) if r.kind == "summary"
    ]


async def test_expire_memories(client: MemoryClient) -> None:
    setup(client)
    written = await client.write(
        USER,
        NS,
        {
            "kind": "episodic",
            "content": "用户咨询物流",
            "expires_at": (T0 + timedelta(days=1)).isoformat(),
        },
        at=T0,
    )
    late = T0 + timedelta(days=30)
    await three_ways(
        client,
        "ExpireMemories",
        bare(ExpireRequest(at=late)),
        # another workflow's grant is the nearest thing to another tenant's: a sweep is nobody's
        RelayRequest(),
        ExpireRequest(),
        {"at": late.isoformat()},
    )
    head = client.stores.canonical.records.head(written.outcome.memory_id or "")
    assert head is not None
    assert head.status == "active"


async def test_repair_projections(client: MemoryClient) -> None:
    setup(client)
    written = await client.write(USER, NS, sms(), at=T0)
    memory_id = written.outcome.memory_id or ""
    client.stores.projection.remove([memory_id])
    await three_ways(
        client,
        "RepairProjections",
        bare(RepairRequest(full=True)),
        RelayRequest(),
        RepairRequest(),
        {"full": True, "page_size": 1},
    )
    assert memory_id not in client.stores.projection.state([memory_id])


async def test_relay_outbox(client: MemoryClient) -> None:
    setup(client)
    await three_ways(
        client,
        "RelayOutbox",
        bare(RelayRequest(batch_size=10)),
        ExpireRequest(),
        RelayRequest(),
        {"batch_size": 1},
    )


# ------------------------------------------------------------------------------ the findings


async def _conflict(client: MemoryClient) -> tuple[ReviewRecord, str]:
    """An open conflict review in shop-a (what the user said against a CRM's note written at the
    same moment), and the user's memory id."""
    at = T0 + timedelta(days=1)
    mine = await client.observe(USER, NS, "以后有通知请发我邮箱。", thread="t1", at=at)
    theirs = await client.write(
        CRM.ref,
        NS,
        email(content="CRM 记录用户偏好邮件", structured_value={"channel": "phone"}),
        at=at,
    )
    assert theirs.outcome.review_id is not None
    review = client.stores.canonical.reviews.get(theirs.outcome.review_id)
    return review, mine.outcomes[0].memory_id or ""


async def test_finding_1_a_forged_review_times_out_and_invalidates_nothing(
    client: MemoryClient,
) -> None:
    setup(client)
    victim = await client.write(
        USER, NS, {"kind": "episodic", "content": "用户咨询退款进度"}, at=T0
    )
    victim_id = victim.outcome.memory_id or ""
    review, _ = await _conflict(client)
    forged_review = review.model_copy(
        update={
            "review_id": f"rev_{uuid.uuid4().hex}",
            "workflow_id": f"review/shop-b/rev_{uuid.uuid4().hex}",
            "memory_ids": [victim_id],
            "tenant_id": "shop-b",
        }
    )
    forged = ReviewStart(review=forged_review, newcomers=[victim_id], timeout=timedelta(seconds=1))
    before = snapshot(client)
    # no grant; a grant for another workflow (another tenant's write); the honest grant a real
    # review runs with, on a start whose newcomers were forged
    await refused(client, "ReviewMemory", bare(forged), workflow_id=forged_review.workflow_id)
    stranger = client.start_for(client.write_request(STRANGER, STRANGER_NS, sms()))
    await refused(
        client,
        "ReviewMemory",
        {**bare(forged), "grant": stranger.input["grant"]},
        workflow_id=forged_review.workflow_id,
    )
    honest = ReviewStart(review=review, newcomers=[], timeout=timedelta(seconds=1))
    honest_grant = client.runs.grant("ReviewMemory", review.workflow_id, honest, SYSTEM, "shop-a")
    await refused(
        client,
        "ReviewMemory",
        {**bare(honest), "newcomers": [victim_id], "grant": honest_grant},
        workflow_id=f"review/shop-a/{uuid.uuid4().hex}",
    )
    # Granted by the service itself (as if its door had been fooled), the run still reads the
    # review by id: a stated review that differs from the stored one is refused ...
    granted_id = f"review/shop-a/{uuid.uuid4().hex}"
    lying = ReviewStart(
        review=review.model_copy(update={"workflow_id": granted_id, "memory_ids": [victim_id]}),
        newcomers=[victim_id],
        timeout=timedelta(seconds=1),
    )
    lying.grant = client.runs.grant("ReviewMemory", granted_id, lying, SYSTEM, "shop-a")
    cause = await refused(client, "ReviewMemory", lying, workflow_id=granted_id)
    assert cause.type == "RequestMismatch"
    await asyncio.sleep(1.5)  # any timeout would have fired
    assert snapshot(client) == before
    head = client.stores.canonical.records.head(victim_id)
    assert head is not None
    assert head.status == "active"
    with client.stores.canonical.engine.connect() as conn:
        audit = metadata.tables["audit_events"]
        assert (
            conn.execute(
                select(func.count()).select_from(audit).where(audit.c.tenant_id == "shop-b")
            ).scalar()
            == 0
        )


async def test_finding_1_every_commit_stays_in_its_plans_namespace(client: MemoryClient) -> None:
    """Whoever built a plan, a commit changes only records of the plan's tenant and namespace."""
    setup(client)
    victim = await client.write(USER, NS, sms(), at=T0)
    victim_id = victim.outcome.memory_id or ""
    head = client.stores.canonical.records.head(victim_id)
    assert head is not None
    before = snapshot(client)
    for tenant, namespace in (("shop-a", ATTACKER_NS), ("shop-b", STRANGER_NS)):
        plan = CommitPlan(
            commit_id=f"forged-{uuid.uuid4().hex}",
            tenant_id=tenant,
            namespace=namespace,
            at=T0 + timedelta(days=1),
            changes=[
                RecordChange(
                    memory_id=victim_id,
                    expected_version=head.version,
                    status="invalidated",
                    valid_to=None,
                    conflict_group=None,
                    change="forged",
                )
            ],
        )
        from governed_memory.memory.errors import RequestMismatch

        with pytest.raises(RequestMismatch):
            client.stores.canonical.commits.apply(plan)
    assert snapshot(client) == before


async def test_finding_2_the_old_review_task_shape_is_gone(client: MemoryClient) -> None:
    """The pre-staging `ReviewTask` embedded a whole write, decided on approval as the principal
    it named: a reviewer of shop-b could write into shop-a. No such shape runs any more."""
    setup(client)
    review, _ = await _conflict(client)
    old = {
        "review": review.model_dump(mode="json"),
        "request": bare(
            WriteRequest(
                principal=USER,
                namespace=NS,
                idempotency_key="planted",
                candidate=Candidate.model_validate(sms(source_type="human_review")),
            )
        ),
        "pending": [],
        "newcomers": [],
        "timeout": "PT1S",
    }
    before = snapshot(client)
    await refused(client, "ReviewMemory", old, workflow_id=f"review/shop-a/{uuid.uuid4().hex}")
    old["grant"] = client.runs.grant(
        "ReviewMemory", "x", ReviewStart(review=review, timeout=timedelta(1)), SYSTEM, "shop-a"
    )
    await refused(client, "ReviewMemory", old)
    assert snapshot(client) == before


async def test_finding_3_a_reviewer_of_another_tenant_cannot_answer(client: MemoryClient) -> None:
    setup(client)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    assert deferred.outcome.decision == "defer"
    assert deferred.outcome.review_id
    review = client.stores.canonical.reviews.get(deferred.outcome.review_id)
    handle = client.temporal.get_workflow_handle(review.workflow_id)
    before = snapshot(client)

    async def answer(body: dict[str, Any]) -> None:
        with pytest.raises(WorkflowUpdateFailedError):
            await asyncio.wait_for(handle.execute_update("review", body), timeout=60)

    approve = ReviewDecision(reviewer=OUTSIDER.ref, decision="approve")
    # no grant; the old claim of approve rights; another review's grant (shop-b's own)
    await answer(bare(approve))
    await answer({**bare(approve), "approve": ["tenant/shop-a/**"]})
    theirs = client.runs.grant(
        "ReviewMemory.review", "review/shop-b/rev_x", approve, OUTSIDER.ref, "shop-b"
    )
    await answer({**bare(approve), "grant": theirs})
    # an honest shop-a reviewer's grant to reject, forged into an approval
    reject = ReviewDecision(reviewer=LEAD.ref, decision="reject")
    honest = client.runs.grant(
        "ReviewMemory.review", review.workflow_id, reject, LEAD.ref, "shop-a"
    )
    await answer({**bare(reject), "decision": "approve", "grant": honest})
    # granted for this very review (as if the door had been fooled): the reviewer is checked
    # against the stored review and the registry, not against what the answer claims
    fooled = client.runs.grant(
        "ReviewMemory.review", review.workflow_id, approve, OUTSIDER.ref, "shop-a"
    )
    await answer({**bare(approve), "grant": fooled})
    assert snapshot(client)["reviews"] == before["reviews"]
    assert client.stores.canonical.reviews.get(review.review_id).status == "open"
    assert [
        r for r in client.stores.canonical.records.namespace_heads(NS) if r.status == "active"
    ] == []
    # the tenant's own reviewer, through the door: it goes through
    settled = await client.review(LEAD.ref, review.review_id, "approve", at=T0 + timedelta(hours=1))
    assert settled.status == "approved"


async def test_finding_4_a_deletion_id_cannot_be_computed_or_squatted(
    client: MemoryClient,
) -> None:
    setup(client)
    scope = DeletionScope(namespace=NS)
    # without the service's key, nobody computes the id (another key gives another one)
    mine = delete_workflow_id(client.keys, "shop-a", USER, scope)
    assert mine != delete_workflow_id(ServiceKeys.new(), "shop-a", USER, scope)
    assert scope.fingerprint() not in mine
    # once a deletion ran, its id is in visibility: someone squats it with a run that never
    # ends (another type, on a queue no worker polls) before the user asks again
    await client.write(USER, NS, sms(), at=T0)
    first = await client.forget(USER, {"namespace": NS}, at=T0 + timedelta(days=1))
    assert first.verification_status == "passed"
    assert first.workflow_id == mine
    await client.temporal.start_workflow("Squat", {"x": 1}, id=mine, task_queue="nobody-polls-this")
    await client.write(USER, NS, email(), at=T0 + timedelta(days=2))
    again = await client.forget(USER, {"namespace": NS}, at=T0 + timedelta(days=3))
    assert again.verification_status == "passed"
    assert [
        r for r in client.stores.canonical.records.namespace_heads(NS) if r.status != "deleted"
    ] == []


async def test_finding_4_a_run_the_service_started_for_another_request_is_not_attached(
    client: MemoryClient,
) -> None:
    """The same idempotency key with other content: refused, not answered with the first
    write's decision."""
    first = await client.write(USER, NS, sms(), idempotency_key="same-key", at=T0)
    assert first.outcome.decision == "add"
    again = await client.write(USER, NS, sms(), idempotency_key="same-key", at=T0)
    assert again.workflow_id == first.workflow_id
    with pytest.raises(RunConflict):
        await client.write(USER, NS, email(), idempotency_key="same-key", at=T0)


async def test_finding_5_a_receipt_closes_only_at_its_stored_deadline(client: MemoryClient) -> None:
    setup(client)
    await client.write(USER, NS, sms(), at=T0)
    receipt = await client.forget(USER, {"namespace": NS}, at=T0 + timedelta(days=1))
    assert receipt.verification_status == "passed"
    assert receipt.backup_status == "retained"
    closer_id = f"backup-expiry/shop-a/{receipt.deletion_id}"
    # the real closer waits for the deadline; take it out of the way, so that only forged
    # closers could close the receipt
    await client.temporal.get_workflow_handle(closer_id).terminate(reason="test")
    before = snapshot(client)
    # no grant (today's and the old shape with a deadline of the attacker's choosing)
    await refused(client, "CloseDeletionReceipt", {"deletion_id": receipt.deletion_id})
    await refused(
        client,
        "CloseDeletionReceipt",
        {"deletion_id": receipt.deletion_id, "at": T0.isoformat(), "wait": "PT0S"},
    )
    # another workflow's grant; this receipt's own closer grant on another id
    stranger = client.start_for(client.write_request(STRANGER, STRANGER_NS, sms()))
    await refused(
        client,
        "CloseDeletionReceipt",
        {"deletion_id": receipt.deletion_id, "grant": stranger.input["grant"]},
    )
    closer = CloseReceiptInput(deletion_id=receipt.deletion_id)
    grant = client.runs.grant("CloseDeletionReceipt", closer_id, closer, SYSTEM, "shop-a")
    await refused(client, "CloseDeletionReceipt", {**bare(closer), "grant": grant})
    # the right grant under the right id, but started from outside: not the deletion's child
    cause = await refused(
        client,
        "CloseDeletionReceipt",
        {**bare(closer), "grant": grant},
        workflow_id=closer_id,
    )
    assert cause.type == "RequestMismatch"
    assert snapshot(client) == before
    kept = client.receipt(receipt.deletion_id, USER)
    assert kept.backup_status == "retained"
    assert kept.closed_at is None


# ------------------------------------------------------------------------------ the door


async def test_a_plaintext_input_is_refused_once_encryption_is_on(client: MemoryClient) -> None:
    """Whoever does not hold the codec key cannot even be read: the worker refuses."""
    from temporalio.client import Client

    config = client.temporal.config()
    config["data_converter"] = pydantic_data_converter
    plain = Client(**config)
    request = client.write_request(USER, NS, sms())
    start = client.start_for(request)  # even with an honest grant
    before = snapshot(client)
    await plain.start_workflow(
        start.workflow, start.input, id=start.workflow_id, task_queue=start.task_queue
    )
    # (its failure is encrypted: read with the key)
    with pytest.raises(WorkflowFailureError) as info:
        await asyncio.wait_for(
            client.temporal.get_workflow_handle(start.workflow_id).result(), timeout=60
        )
    assert isinstance(info.value.cause, ApplicationError)
    assert info.value.cause.type == "Unauthenticated"
    assert snapshot(client) == before


async def test_an_agent_starts_a_write_from_its_own_temporal_client(client: MemoryClient) -> None:
    """What docs/api.md shows: the service grants, the agent's own client starts."""
    setup(client)
    bot = client.bound(client.token_for(BOT.ref))
    start = bot.start_for(bot.write_request(BOT.ref, NS, sms()))
    result = await client.temporal.execute_workflow(
        start.workflow,
        start.input,
        id=start.workflow_id,
        task_queue=start.task_queue,
        id_conflict_policy=WorkflowIDConflictPolicy.FAIL,
    )
    assert result["outcomes"][0]["decision"] == "add"
    # the bound door grants only its caller: not another principal, not a sweep
    from governed_memory.memory.errors import Forbidden, Unauthenticated

    with pytest.raises(Unauthenticated):
        bot.write_request(USER, NS, sms())
    with pytest.raises(Forbidden):
        bot.start_for(RelayRequest())


async def test_a_write_accepted_before_an_outage_completes_after_it(
    client: MemoryClient,
) -> None:
    """Grants are checked against when Temporal accepted the run, not when a worker gets to it:
    a write accepted before an outage longer than its grant's start window still completes."""
    from governed_memory.shell.worker import build_worker

    client.grants.start_within = timedelta(seconds=1)
    queue = f"outage-{uuid.uuid4().hex[:8]}"
    settings = client.settings.model_copy(update={"task_queue": queue})
    down = MemoryClient(client.temporal, settings, client.stores)
    down.grants.start_within = timedelta(seconds=1)
    handle = await down.start_write(down.write_request(USER, NS, sms(), at=T0))
    await asyncio.sleep(2.5)  # no worker polls the queue: longer than the grant's window
    async with build_worker(client.temporal, settings, client.stores):
        result = await asyncio.wait_for(handle.result(), timeout=60)
    assert result.outcome.decision == "add"
