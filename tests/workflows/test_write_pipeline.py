"""The whole write pipeline through the real worker, Temporal server and stores: observe,
reviews (approve, reject, timeout, refused reviewer), conflicts, audit trail."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select

from governed_memory.memory.errors import PolicyRefusal, UnauthorizedNamespace
from governed_memory.memory.models import Principal
from governed_memory.memory.stores.schema import audit_events
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER, email, sms

REVIEWER = Principal(type="reviewer", tenant="shop-a", id="ops-7", approve=["tenant/shop-a/**"])
CRM = Principal(type="service", tenant="shop-a", id="crm", write=["tenant/shop-a/user/*"])


async def test_observe_keeps_the_message_and_extracts(client: MemoryClient) -> None:
    result = await client.observe(
        USER, NS, "订单 ORD-A1B2C3D4 三天没发货，我以后都希望优先短信通知。", thread="t1", at=T0
    )
    by_key = {o.key: o for o in result.outcomes}
    pref = by_key["notification.preference"]
    assert (pref.decision, pref.relation, pref.value) == ("add", "NEW", {"channel": "sms"})
    assert any(
        o.decision == "reject" and o.reason == "unverified_business_fact" for o in result.outcomes
    )
    messages = client.stores.canonical.messages.in_thread("shop-a", NS, "t1")
    assert [(m.position, m.speaker) for m in messages] == [(1, USER)]
    head = client.stores.canonical.records.head(pref.memory_id or "")
    assert head is not None
    assert head.source_refs == ["msg://t1/1"]
    assert "三天没发货" not in head.content

    chat = await client.observe(USER, NS, "好的，谢谢！", thread="t1", at=T0 + timedelta(minutes=1))
    assert [(o.decision, o.reason) for o in chat.outcomes] == [("no_op", "not_memorable")]
    assert [m.position for m in client.stores.canonical.messages.in_thread("shop-a", NS, "t1")] == [
        1,
        2,
    ]


async def test_an_agents_own_message_is_conversation(client: MemoryClient) -> None:
    client.register_principal(BOT)
    result = await client.observe(BOT.ref, NS, "好的，以后给您发短信通知。", thread="t1", at=T0)
    assert [(o.decision, o.reason) for o in result.outcomes] == [("no_op", "not_memorable")]
    assert (
        client.stores.canonical.records.key_records([NS], ["notification.preference"], ["active"])
        == []
    )


async def test_candidate_only_writes_wait_for_a_reviewer(client: MemoryClient) -> None:
    client.register_principal(DRAFTER)
    client.register_principal(REVIEWER)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    outcome = deferred.outcome
    assert (outcome.decision, outcome.reason) == ("defer", "candidate_only")
    assert outcome.review_id is not None
    assert (
        client.stores.canonical.records.key_records([NS], ["notification.preference"], ["active"])
        == []
    )

    settled = await client.review(
        REVIEWER.ref, outcome.review_id, "approve", at=T0 + timedelta(hours=1)
    )
    assert settled.status == "approved"
    (head,) = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert head.structured_value == {"channel": "sms"}
    assert client.stores.canonical.reviews.get(outcome.review_id).decided_by == REVIEWER.ref
    with pytest.raises(PolicyRefusal):
        await client.review(REVIEWER.ref, outcome.review_id, "reject")

    rejected = await client.write(DRAFTER.ref, NS, email(), at=T0 + timedelta(days=1))
    assert rejected.outcome.review_id is not None
    result = await client.review(REVIEWER.ref, rejected.outcome.review_id, "reject")
    assert result.status == "rejected"
    (head,) = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert head.structured_value == {"channel": "sms"}


async def test_only_a_reviewer_with_approve_rights_settles(client: MemoryClient) -> None:
    client.register_principal(DRAFTER)
    client.register_principal(BOT)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    assert deferred.outcome.review_id is not None
    with pytest.raises(UnauthorizedNamespace):
        await client.review(BOT.ref, deferred.outcome.review_id, "approve")
    assert client.stores.canonical.reviews.get(deferred.outcome.review_id).status == "open"


async def test_a_conflict_keeps_both_sides_until_review(client: MemoryClient) -> None:
    client.register_principal(CRM)
    client.register_principal(REVIEWER)
    mine = await client.write(USER, NS, sms(), at=T0)
    theirs = await client.write(
        CRM.ref, NS, email(source_refs=["crm://profile/123?version=4"]), at=T0
    )
    assert theirs.outcome.relation == "CONFLICTS"
    group = theirs.outcome.conflict_group
    assert group is not None
    active = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert {r.conflict_group for r in active} == {group}
    assert len(active) == 2
    review = client.find_review(REVIEWER.ref, memory_id=mine.outcome.memory_id)
    settled = await client.review(
        REVIEWER.ref,
        review.review_id,
        "approve",
        memory_id=mine.outcome.memory_id,
        at=T0 + timedelta(hours=2),
    )
    assert settled.invalidated == [theirs.outcome.memory_id]
    (winner,) = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert (winner.memory_id, winner.conflict_group) == (mine.outcome.memory_id, None)
    loser = client.stores.canonical.records.head(theirs.outcome.memory_id or "")
    assert loser is not None
    assert loser.status == "invalidated"


async def test_two_accounts_of_one_event_conflict_until_review(client: MemoryClient) -> None:
    """A memory without key that restates a stored one with a changed detail (same order, other
    amount) from another writer at the same instant: both kept, grouped, a review settles it."""
    client.register_principal(CRM)
    client.register_principal(REVIEWER)
    said = "Refund of 120 yuan for order A-7781 was approved"
    mine = await client.write(USER, NS, {"kind": "episodic", "content": said}, at=T0)
    theirs = await client.write(
        CRM.ref, NS, {"kind": "episodic", "content": said.replace("120", "150")}, at=T0
    )
    assert (theirs.outcome.relation, theirs.outcome.matched_memory_ids) == (
        "CONFLICTS",
        [mine.outcome.memory_id],
    )
    review = client.find_review(REVIEWER.ref, memory_id=mine.outcome.memory_id)
    settled = await client.review(
        REVIEWER.ref,
        review.review_id,
        "approve",
        memory_id=theirs.outcome.memory_id,
        at=T0 + timedelta(hours=2),
    )
    assert settled.invalidated == [mine.outcome.memory_id]
    winner = client.stores.canonical.records.head(theirs.outcome.memory_id or "")
    assert winner is not None
    assert (winner.status, winner.conflict_group) == ("active", None)


async def test_an_unanswered_review_times_out(client: MemoryClient) -> None:
    # The worker shares these stores: a 1.8 s review timeout for this test.
    client.stores.policy = client.stores.policy.model_copy(
        update={"review": client.stores.policy.review.model_copy(update={"timeout_hours": 0.0005})}
    )
    client.register_principal(DRAFTER)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    review_id = deferred.outcome.review_id
    assert review_id is not None
    for _ in range(100):
        if client.stores.canonical.reviews.get(review_id).status != "open":
            break
        await asyncio.sleep(0.2)
    review = client.stores.canonical.reviews.get(review_id)
    assert review.status == "timed_out"
    with client.stores.canonical.engine.connect() as conn:
        reasons = (
            conn.execute(select(audit_events.c.reason_code).where(audit_events.c.stage == "review"))
            .scalars()
            .all()
        )
    assert "review_timeout" in reasons


async def test_every_stage_is_audited(client: MemoryClient) -> None:
    result = await client.observe(USER, NS, "以后有通知请发我邮箱。", at=T0)
    trail = client.stores.canonical.audit.trail(workflow_id=result.workflow_id)
    stages = [row["stage"] for row in trail]
    for stage in (
        "extract",
        "normalise",
        "detect",
        "consent",
        "source_validation",
        "resolve",
        "propose",
        "policy_decision",
    ):
        assert stage in stages, stage
    extract = next(row for row in trail if row["stage"] == "extract")
    assert extract["extractor"]["name"] == "rule-extractor"
    assert all(row["principal"] == USER for row in trail)
    rejected = await client.observe(USER, NS, "记一下我的支付密码是 884213", at=T0)
    trail = client.stores.canonical.audit.trail(workflow_id=rejected.workflow_id)
    assert any(row["reason_code"] == "secret" for row in trail)
    assert "884213" not in str(trail)


async def test_an_idempotency_key_is_the_writers_own(client: MemoryClient) -> None:
    """Another principal's write with the same key is another write: it neither gets the first
    writer's outcome nor is dropped."""
    import uuid

    key = f"shared-{uuid.uuid4().hex[:8]}"
    bob = await client.write(
        "user:shop-a/456", "tenant/shop-a/user/456", sms(), idempotency_key=key, at=T0
    )
    mallory = await client.write(USER, NS, email(), idempotency_key=key, at=T0)
    assert bob.workflow_id != mallory.workflow_id
    assert mallory.outcome.decision == "add"
    assert mallory.outcome.value == {"channel": "email"}
    assert mallory.outcome.memory_id != bob.outcome.memory_id
    (mine,) = client.stores.canonical.records.key_records(
        [NS], ["notification.preference"], ["active"]
    )
    assert mine.structured_value == {"channel": "email"}
    # The same writer with the same key is the same write, decided once.
    again = await client.write(USER, NS, email(), idempotency_key=key, at=T0)
    assert again.outcomes == mallory.outcomes
    assert client.write_outcome("shop-a", key, "user:shop-a/456") == bob.outcomes
