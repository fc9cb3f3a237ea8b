"""The extractive summarizer and the verification of any summary."""

from __future__ import annotations

from datetime import UTC, datetime

from governed_memory.memory.models import ConversationMessage
from governed_memory.memory.summary import (
    Claim,
    ExtractiveSummarizer,
    SummaryBody,
    summary_key,
    verify,
)

T = datetime(2026, 7, 20, 2, 0, tzinfo=UTC)


def msg(position: int, text: str, speaker: str = "user:shop-a/123") -> ConversationMessage:
    return ConversationMessage(
        message_id=f"m{position}",
        tenant_id="shop-a",
        namespace="tenant/shop-a/user/123",
        thread="t2",
        position=position,
        speaker=speaker,
        speaker_type="user" if speaker.startswith("user:") else "agent",
        text=text,
        at=T,
    )


THREAD = [
    msg(1, "我买的耳机左边没声音。"),
    msg(2, "抱歉！可以为您退款或者换新，您选哪个？", "agent:shop-a/bot"),
    msg(3, "不用退款，给我换个新的吧，最好这周五前送到。"),
]


def test_the_extractive_summary_quotes_and_classifies() -> None:
    body = ExtractiveSummarizer().summarize(THREAD)
    assert [c.text for c in body.key_decisions] == ["不用退款，给我换个新的吧，最好这周五前送到。"]
    assert body.commitments[0].deadline == "这周五前"
    assert [c.text for c in body.confirmed_facts] == ["我买的耳机左边没声音。"]
    assert body.open_questions == []  # the agent's question was answered
    assert all(c.refs for c in body.claims())
    assert verify(body, THREAD, {m.ref for m in THREAD}) == []


def test_an_unanswered_question_stays_open_and_hedges_are_uncertain() -> None:
    body = ExtractiveSummarizer().summarize([msg(1, "可能是蓝牙的问题。"), msg(2, "多久能寄到？")])
    assert [c.text for c in body.open_questions] == ["多久能寄到？"]
    assert [c.text for c in body.uncertainties] == ["可能是蓝牙的问题。"]


def test_english_threads_work_too() -> None:
    body = ExtractiveSummarizer().summarize(
        [
            msg(1, "My order arrived broken."),
            msg(2, "We will ship a replacement by Friday.", "agent:shop-a/bot"),
            msg(3, "I don't want a refund, just the replacement."),
        ]
    )
    assert any("by Friday" in (c.deadline or "") for c in body.commitments)
    assert any("don't want a refund" in c.text for c in body.key_decisions)


def test_verification_catches_a_dropped_negation_an_uncited_claim_and_a_foreign_ref() -> None:
    lossy = SummaryBody(
        key_decisions=[Claim(text="用户要退款，换个新的", refs=["msg://t2/3"])],
        open_questions=[Claim(text="耳机问题", refs=[])],
        confirmed_facts=[Claim(text="左边没声音", refs=["msg://t2/9"])],
    )
    problems = verify(lossy, THREAD, {m.ref for m in THREAD})
    assert any("negation" in p and "不" in p for p in problems)
    assert any("cites no message" in p for p in problems)
    assert any("outside the range" in p for p in problems)
    faithful = SummaryBody(key_decisions=[Claim(text="用户不用退款，要换新", refs=["msg://t2/3"])])
    assert verify(faithful, THREAD, {m.ref for m in THREAD}) == []


def test_summary_keys_are_valid_keys() -> None:
    assert summary_key("t2") == "thread_summary.t2"
    odd = summary_key("Thread #7/客服")
    assert odd.startswith("thread_summary.")
    assert odd == odd.lower()
