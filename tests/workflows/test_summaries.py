"""SummarizeThread on the real worker, Temporal server and stores: quoting, negations, versions,
lineage, the verification fallback, bad input."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.errors import InvalidInput, NotFound, UnauthorizedNamespace
from governed_memory.memory.models import ConversationMessage, ExtractorInfo, Principal
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.summary import Claim, SummaryBody, ThreadSummary
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, NS, T0, USER


async def _thread(client: MemoryClient, thread: str, texts: Sequence[tuple[str, str]]) -> None:
    for i, (who, text) in enumerate(texts):
        await client.observe(who, NS, text, thread=thread, at=T0 + timedelta(minutes=i))


HEADPHONES = [
    (USER, "我买的耳机左边没声音。"),
    (BOT.ref, "抱歉！可以为您退款或者换新，您选哪个？"),
    (USER, "不用退款，给我换个新的吧，最好这周五前送到。"),
]


async def test_a_summary_quotes_decisions_deadlines_and_negations(client: MemoryClient) -> None:
    client.register_principal(BOT)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await _thread(client, thread, HEADPHONES)
    result = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=10))
    assert result.source_range == (1, 3)
    assert result.summary_version == 1
    assert result.content is not None
    assert "不用退款" in result.content
    assert "周五" in result.content
    assert result.fallback_reason is None
    head = client.stores.canonical.records.head(result.memory_id or "")
    assert head is not None
    assert (head.kind, head.source_type) == ("summary", "derived_summary")
    summary = ThreadSummary.model_validate(head.structured_value)
    assert any("不用退款" in c.text for c in summary.key_decisions)
    assert any(c.deadline and "周五" in c.deadline for c in summary.commitments)
    assert all(c.refs for c in summary.claims())
    links = client.stores.canonical.lineage.sources_of(head.memory_id)
    assert len([link for link in links if link.source_kind == "message"]) == 3


async def test_summarising_again_makes_a_new_version_with_lineage(client: MemoryClient) -> None:
    client.register_principal(BOT)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await _thread(client, thread, HEADPHONES)
    first = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=10))
    await _thread(
        client, thread, [(BOT.ref, "好的，新耳机会在周四前为您寄出。"), (USER, "我不需要发票。")]
    )
    second = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=20))
    assert second.summary_version == 2
    assert second.source_range == (1, 5)
    assert second.content is not None
    assert "不用退款" in second.content  # carried over from version 1
    assert "我不需要发票" in second.content
    old = client.stores.canonical.records.head(first.memory_id or "")
    assert old is not None
    assert old.status == "superseded"
    links = client.stores.canonical.lineage.sources_of(second.memory_id or "")
    assert {
        (link.source_kind, link.source_id) for link in links if link.source_kind == "memory"
    } == {("memory", first.memory_id)}
    assert len([link for link in links if link.source_kind == "message"]) == 2
    unchanged = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=21))
    assert unchanged.unchanged
    assert unchanged.memory_id == second.memory_id
    ranged = await client.summarize(
        BOT.ref, thread, namespace=NS, range=(2, 3), at=T0 + timedelta(minutes=22)
    )
    assert (ranged.summary_version, ranged.source_range) == (3, (2, 3))


async def test_secrets_in_a_thread_are_not_quoted(client: MemoryClient) -> None:
    client.register_principal(BOT)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await _thread(client, thread, [(USER, "我的支付密码是 884213"), (USER, "请帮我换货。")])
    result = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=5))
    assert result.content is not None
    assert "884213" not in result.content


@pytest.mark.parametrize(
    ("thread", "range_", "who", "error"),
    [
        ("no-such-thread", None, BOT.ref, NotFound),
        ("THREAD", (3, 1), BOT.ref, InvalidInput),
        ("THREAD", (0, 2), BOT.ref, InvalidInput),
        ("THREAD", (1, 99), BOT.ref, InvalidInput),
        # a thread of a namespace the principal may not read is no thread to it
        ("THREAD", None, "agent:shop-a/outsider", NotFound),
        ("THREAD", None, "agent:shop-a/reader", UnauthorizedNamespace),
    ],
)
async def test_bad_input_writes_nothing(
    client: MemoryClient, thread: str, range_: tuple[int, int] | None, who: str, error: type
) -> None:
    client.register_principal(BOT)
    client.register_principal(
        Principal(type="agent", tenant="shop-a", id="outsider", read=["tenant/shop-a/team/*"])
    )
    client.register_principal(
        Principal(type="agent", tenant="shop-a", id="reader", read=["tenant/shop-a/user/*"])
    )
    real = f"t-{uuid.uuid4().hex[:6]}"
    await _thread(client, real, HEADPHONES)
    with pytest.raises(error):
        await client.summarize(
            who, real if thread == "THREAD" else thread, namespace=NS, range=range_
        )
    assert [
        r for r in client.stores.canonical.records.namespace_heads(NS) if r.kind == "summary"
    ] == []


class NegationDroppingSummarizer:
    """Stands in for a paraphrasing model that loses a negation."""

    info = ExtractorInfo(name="paraphraser", version="0", model="lossy")

    def summarize(self, messages: Sequence[ConversationMessage]) -> SummaryBody:
        last = messages[-1]
        return SummaryBody(
            key_decisions=[Claim(text="用户要退款，换个新的", refs=[last.ref])],
            open_questions=[Claim(text="耳机问题")],  # cites nothing
        )


@pytest.fixture
async def lossy_client(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> AsyncIterator[MemoryClient]:
    from governed_memory.shell.worker import build_worker

    async with build_worker(
        temporal_env.client, settings, stores, summarizer=NegationDroppingSummarizer()
    ):
        yield MemoryClient(temporal_env.client, settings, stores)


async def test_a_failed_verification_falls_back_to_the_extractive_summary(
    lossy_client: MemoryClient,
) -> None:
    client = lossy_client
    client.register_principal(BOT)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    await _thread(client, thread, HEADPHONES)
    result = await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=10))
    assert result.fallback_reason is not None
    assert "negation" in result.fallback_reason
    assert "cites no message" in result.fallback_reason
    assert result.content is not None
    assert "不用退款" in result.content
    head = client.stores.canonical.records.head(result.memory_id or "")
    assert head is not None
    assert head.extractor.name == "extractive-summarizer"
    trail = client.stores.canonical.audit.trail(memory_id=head.memory_id)
    assert any(row["outcome"] == "fallback" for row in trail)


async def test_two_users_with_the_same_thread_id_each_summarise_their_own(
    client: MemoryClient,
) -> None:
    """Thread ids are a namespace's: the same id in two users' namespaces is two conversations
    (positions, summaries, context, message references), and neither learns of the other."""
    run = uuid.uuid4().hex[:6]
    ann, ann_ns = f"user:shop-a/a{run}", f"tenant/shop-a/user/a{run}"
    bob, bob_ns = f"user:shop-a/b{run}", f"tenant/shop-a/user/b{run}"
    thread = "support"  # the id everyone's first conversation gets
    await client.observe(
        ann, ann_ns, "我买的耳机左边没声音，给我换个新的吧。", thread=thread, at=T0
    )
    await client.observe(bob, bob_ns, "不要退款，我决定改成到店自提。", thread=thread, at=T0)
    await client.observe(
        bob, bob_ns, "请周五前把发票寄到公司。", thread=thread, at=T0 + timedelta(minutes=1)
    )
    canonical = client.stores.canonical
    assert [m.position for m in canonical.messages.in_thread("shop-a", ann_ns, thread)] == [1]
    assert [m.position for m in canonical.messages.in_thread("shop-a", bob_ns, thread)] == [1, 2]
    mine = await client.summarize(ann, thread, at=T0 + timedelta(minutes=5))
    theirs = await client.summarize(bob, thread, at=T0 + timedelta(minutes=5))
    assert mine.workflow_id != theirs.workflow_id
    assert (mine.source_range, theirs.source_range) == ((1, 1), (1, 2))
    assert mine.content is not None
    assert theirs.content is not None
    assert "耳机" in mine.content
    assert "到店自提" not in mine.content
    assert "到店自提" in theirs.content
    assert "耳机" not in theirs.content
    head = canonical.records.head(mine.memory_id or "")
    assert head is not None
    assert head.namespace == ann_ns
    # asking for the other's thread reads as no such thread, as for one nobody has
    for asked in (bob_ns, f"tenant/shop-a/user/n{run}"):
        with pytest.raises(NotFound) as missing:
            await client.summarize(ann, thread, namespace=asked, at=T0 + timedelta(minutes=6))
        assert bob_ns not in str(missing.value)
        assert f"b{run}" not in str(missing.value)
    with pytest.raises(NotFound) as missing:
        await client.summarize(ann, "nobody-has-this", at=T0 + timedelta(minutes=6))
    assert [r for r in canonical.records.namespace_heads(bob_ns) if r.kind == "summary"] == [
        canonical.records.head(theirs.memory_id or "")
    ]
    # the conversation slice of Ann's context is Ann's thread only
    package = await client.build_context(
        ann, [ann_ns], "换货", {"total_tokens": 4000}, thread=thread, at=T0 + timedelta(minutes=7)
    )
    said = [i for i in package.items if i.kind == "conversation_slice"]
    assert [i.source_refs for i in said] == [[f"msg://{thread}/1"]]
    assert "到店自提" not in package.text()
    # and a message reference is the namespace's own: forgetting Ann's msg://support/1 leaves
    # Bob's first message alone
    receipt = await client.forget(ann, {"source_ref": f"msg://{thread}/1"})
    assert receipt.verification_status == "passed", [p for p in receipt.probes if not p.passed]
    assert receipt.withheld == 0
    bob_first = canonical.messages.in_thread("shop-a", bob_ns, thread)[0]
    assert (bob_first.status, bob_first.text) == ("active", "不要退款，我决定改成到店自提。")
    ann_first = canonical.messages.in_thread("shop-a", ann_ns, thread, include_erased=True)[0]
    assert ann_first.status == "erased"
