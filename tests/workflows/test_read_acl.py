"""Every read carries a token and sees only what its principal may: memories by grant, receipts
by who asked or whom they are about, outcomes by their writer, reviews by reviewer, audit,
history and exports by namespace, the registry by admins. An unproven token is a typed, audited
refusal; a proven principal asking for what is not its own is `Forbidden`."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from governed_memory.memory.errors import Forbidden, NotFound, Unauthenticated
from governed_memory.memory.models import Principal
from governed_memory.memory.stores.schema import audit_events
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER, sms
from tests.tokens import bad_tokens

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
REVIEWER = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])


def _refusals(client: MemoryClient) -> int:
    with client.stores.canonical.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(audit_events)
                .where(audit_events.c.stage == "authenticate", audit_events.c.outcome == "refused")
            ).scalar_one()
        )


async def test_every_read_must_prove_its_principal(client: MemoryClient) -> None:
    key = f"k-{uuid.uuid4().hex[:6]}"
    written = await client.write(BOB, BOB_NS, sms(), idempotency_key=key, at=T0)
    memory_id = written.outcome.memory_id
    assert memory_id is not None
    receipt = await client.forget(BOB, {"namespace": BOB_NS, "key": "profile.language"})
    reads: dict[str, Callable[[str | None], Any]] = {
        "recall": lambda t: client.access.recall(t, client_query(BOB, [BOB_NS], "how to notify")),
        "receipt": lambda t: client.access.receipt(t, receipt.deletion_id),
        "outcome": lambda t: client.access.outcome(t, "shop-a", key),
        "reviews": lambda t: client.access.reviews(t),
        "audit": lambda t: client.access.audit(t, memory_id=memory_id),
        "history": lambda t: client.access.history(t, memory_id),
        "export": lambda t: client.access.export(t, BOB_NS),
        "principal": lambda t: client.access.principal(t, BOB),
    }
    before = _refusals(client)
    tokens = bad_tokens(client, BOB)
    for name, read in reads.items():
        for kind, token in tokens.items():
            if kind == "someone_else":
                continue  # a valid token of another principal is a matter of ACL (below)
            with pytest.raises(Unauthenticated):
                read(token)
            assert name  # the read named in a failure
    # refusals are counted (memory_auth_refusals_total) and traced boundedly: at most one audit
    # row per claimed principal, client and reason a minute, not one per refused request
    refused = _refusals(client) - before
    assert 0 < refused <= 2 * (len(tokens) - 1)
    # the token naming another principal than the recall's own is refused too
    with pytest.raises(Unauthenticated, match="not user:shop-a/456"):
        await client.recall(BOB, [BOB_NS], task="x", token=tokens["someone_else"])
    # and Bob's own token reads
    own = client.token_for(BOB)
    for read in reads.values():
        read(own)


def client_query(principal: str, namespaces: list[str], task: str) -> Any:
    from governed_memory.memory.models import RecallQuery

    return RecallQuery(principal=principal, namespaces=namespaces, task=task)


async def test_a_receipt_is_for_who_asked_whom_it_is_about_and_operators(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    await client.write(BOB, BOB_NS, sms(), at=T0)
    receipt = await client.forget(BOB, {"namespace": BOB_NS})
    assert client.receipt(receipt.deletion_id, BOB) == receipt
    # the agent that may read Bob's namespace, the tenant's operator
    assert client.receipt(receipt.deletion_id, BOT.ref).deletion_id == receipt.deletion_id
    client.access.receipt(client.operator_token("shop-a"), receipt.deletion_id)
    # another user, another tenant's operator
    with pytest.raises(Forbidden):
        client.receipt(receipt.deletion_id, USER)
    with pytest.raises(Forbidden):
        client.access.receipt(client.operator_token("shop-b"), receipt.deletion_id)
    with pytest.raises(NotFound):
        client.receipt("del_nope", BOB)


async def test_a_person_reads_the_receipt_of_a_deletion_about_them_whoever_asked(
    client: MemoryClient,
) -> None:
    """A deletion by subject that someone else asked for (an agent that may erase users'
    memories, here): the person it is about reads its receipt; another user does not."""
    eraser = Principal(type="agent", tenant="shop-a", id="eraser", delete=["tenant/shop-a/user/*"])
    client.register_principal(eraser)
    await client.write(BOB, BOB_NS, sms(), at=T0)
    # the subject as a principal ref: one of its accepted forms
    receipt = await client.forget(eraser.ref, {"subject_ref": BOB})
    assert (receipt.resolved_scope or receipt.scope).subject_ref == "user:456"
    assert client.receipt(receipt.deletion_id, BOB).deletion_id == receipt.deletion_id
    with pytest.raises(Forbidden):
        client.receipt(receipt.deletion_id, USER)


async def test_an_outcome_is_read_only_by_its_writer(client: MemoryClient) -> None:
    key = f"k-{uuid.uuid4().hex[:6]}"
    bob = await client.write(BOB, BOB_NS, sms(), idempotency_key=key, at=T0)
    assert client.write_outcome("shop-a", key, BOB) == bob.outcomes
    # Mallory asks with Bob's key: she reads her own (none), never Bob's
    assert client.write_outcome("shop-a", key, USER) is None
    with pytest.raises(Forbidden):
        client.access.outcome(client.token_for(BOB), "shop-b", key)


async def test_reviews_are_seen_by_those_who_may_answer_them(client: MemoryClient) -> None:
    client.register_principal(DRAFTER)
    client.register_principal(REVIEWER)
    client.register_principal(BOT)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    review_id = deferred.outcome.review_id
    assert review_id is not None
    assert [r.review_id for r in client.open_reviews(REVIEWER.ref)] == [review_id]
    assert client.open_reviews(BOT.ref) == []
    assert client.open_reviews(USER) == []
    with pytest.raises(Forbidden):
        client.access.review(client.token_for(BOT.ref), review_id)
    operator = client.operator_token("shop-a")
    assert client.access.review(operator, review_id).review_id == review_id
    assert client.access.reviews(client.operator_token("shop-b")) == []
    found = client.find_review(REVIEWER.ref, write_workflow_id=deferred.workflow_id)
    assert found.review_id == review_id
    with pytest.raises(NotFound):
        client.find_review(BOT.ref, write_workflow_id=deferred.workflow_id)


async def test_audit_history_and_export_follow_the_namespace(client: MemoryClient) -> None:
    client.register_principal(BOT)
    written = await client.write(BOB, BOB_NS, sms(), at=T0)
    memory_id = written.outcome.memory_id
    assert memory_id is not None
    for who in (BOB, BOT.ref):
        assert client.audit(who, memory_id=memory_id)
        assert [v.memory_id for v in client.history(who, memory_id)] == [memory_id]
        exported = client.export(who, BOB_NS)
        assert [m.memory_id for m in exported.memories] == [memory_id]
        assert exported.exported_by == who
    operator = client.operator_token("shop-a")
    assert client.access.audit(operator, workflow_id=written.workflow_id)
    assert client.access.export(operator, BOB_NS).memories
    for refused in (
        lambda: client.audit(USER, memory_id=memory_id),
        lambda: client.audit(USER, workflow_id=written.workflow_id),
        lambda: client.history(USER, memory_id),
        lambda: client.export(USER, BOB_NS),
        lambda: client.access.audit(client.operator_token("shop-b"), memory_id=memory_id),
        lambda: client.access.export(client.operator_token("shop-b"), BOB_NS),
    ):
        with pytest.raises(Forbidden):
            refused()


async def test_registry_changes_need_the_tenants_admin(client: MemoryClient) -> None:
    client.register_principal(BOT)
    greedy = BOT.model_copy(update={"read": ["tenant/shop-a/**"], "roles": ["admin"]})
    for token in (
        client.token_for(BOT.ref),  # an agent granting itself more
        client.token_for(USER),
        client.operator_token("shop-a"),  # an operator is not an admin
        client.admin_token("shop-b"),  # another tenant's admin
    ):
        with pytest.raises(Forbidden):
            client.register_principal(greedy, token=token)
    assert client.stores.canonical.principals.get(BOT.ref) == BOT
    # a role in the token is not a role in the payload: the definition cannot carry its own proof
    with pytest.raises(Forbidden):
        client.access.put_principal(client.token_for(BOT.ref), greedy.model_dump())
    assert client.register_principal(greedy) == greedy
    # reading the registry: oneself, or an overseer
    assert client.access.principal(client.token_for(BOT.ref), BOT.ref) == greedy
    with pytest.raises(Forbidden):
        client.access.principal(client.token_for(USER), BOT.ref)
    assert BOT.ref in [p.ref for p in client.access.principals(client.operator_token("shop-a"))]


ORDERS = Principal(type="service", tenant="shop-a", id="orders", tools=["order"])
ORDER_FACT = {
    "kind": "semantic",
    "key": "order.status",
    "content": "Store policy confirmed by the order system: the order has shipped",
    "structured_value": {"status": "shipped"},
    "subject_ref": "order:ORD-1",
    "source_type": "verified_tool_fact",
    "source_refs": ["order://ORD-1?version=1"],
}


async def test_a_tool_fact_needs_the_tool_that_issued_its_reference(client: MemoryClient) -> None:
    client.register_principal(BOT)
    client.register_principal(ORDERS)
    # the agent's made-up reference: refused, and nothing enters the verified section
    made_up = await client.write(BOT.ref, NS, ORDER_FACT, at=T0)
    assert (made_up.outcome.decision, made_up.outcome.reason) == ("reject", "source_not_verified")
    # only the order system attests order:// references
    for who in (BOT.ref, USER):
        with pytest.raises(Forbidden):
            client.attest(who, ["order://ORD-1?version=1"])
    with pytest.raises(Forbidden):
        client.attest(ORDERS.ref, ["refund://RF-1"])
    assert (
        client.stores.canonical.attestations.attested("shop-a", ["order://ORD-1?version=1"])
        == set()
    )
    assert client.attest(ORDERS.ref, ["order://ORD-1?version=1"]) == ["order://ORD-1?version=1"]
    relayed = await client.write(BOT.ref, NS, ORDER_FACT, at=T0)
    assert relayed.outcome.decision == "add"
    package = await client.build_context(BOT.ref, [NS], "where is my order", {"total_tokens": 4000})
    facts = [i for i in package.items if i.kind == "verified_tool_facts"]
    assert any("order has shipped" in i.content for i in facts)
