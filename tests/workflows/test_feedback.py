"""Feedback on memories through the real client, worker and stores: each type's effect and its
audit, who may say what, erasure with the memory, and a harmful memory that never comes back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from governed_memory.memory.errors import Forbidden, InvalidInput, NotFound
from governed_memory.memory.models import Principal
from governed_memory.memory.stores.schema import memory_feedback, memory_signals
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, NS, T0, USER, sms

REVIEWER = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
#: A verifier: a service that may write where it vouches (or a tool).
VERIFIER = Principal(
    type="service",
    tenant="shop-a",
    id="checker",
    read=["tenant/shop-a/**"],
    write=["tenant/shop-a/**"],
)
STRANGER = Principal(
    type="agent", tenant="shop-b", id="bot", read=["tenant/shop-b/**"], write=["tenant/shop-b/**"]
)
AT = T0 + timedelta(hours=1)


def _feedback_rows(client: MemoryClient, memory_id: str) -> tuple[int, int]:
    with client.stores.canonical.engine.connect() as conn:
        events = conn.execute(
            select(func.count())
            .select_from(memory_feedback)
            .where(memory_feedback.c.memory_id == memory_id)
        ).scalar_one()
        signals = conn.execute(
            select(func.count())
            .select_from(memory_signals)
            .where(memory_signals.c.memory_id == memory_id)
        ).scalar_one()
    return int(events), int(signals)


def _feedback_audit(client: MemoryClient, memory_id: str) -> list[dict[str, object]]:
    return [
        r
        for r in client.stores.canonical.audit.trail(memory_id=memory_id)
        if r["stage"] == "feedback"
    ]


async def _memory(client: MemoryClient, **over: object) -> str:
    written = await client.write(USER, NS, sms(**over), at=T0)
    memory_id = written.outcome.memory_id
    assert memory_id is not None, written.outcome
    return memory_id


async def _recalled(client: MemoryClient, **query: object) -> list[str]:
    found = await client.recall(BOT.ref, [NS], **query)  # type: ignore[arg-type]
    return [m.memory_id for m in found.memories]


async def test_a_confirmation_raises_confidence_within_its_sources_ceiling(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    client.register_principal(VERIFIER)
    memory_id = await _memory(client, confidence=0.9)
    first = await client.feedback(USER, memory_id, "confirmed", occurred_at=AT)
    assert first.event.source == "user"
    assert first.event.effect == "confidence_raised"
    assert first.confidence == pytest.approx(0.95)
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.confidence == pytest.approx(0.95)
    assert head.version == 2
    assert head.source_type == "user_assertion"  # never promoted
    # a user's statement tops out at its source type's ceiling (policy: 0.98), not 1.0
    await client.feedback(VERIFIER.ref, memory_id, "confirmed", source="verifier")
    third = await client.feedback(USER, memory_id, "confirmed")
    assert third.event.effect == "confidence_at_ceiling"
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.confidence == pytest.approx(0.98)
    # an agent's confirmation is a metric: recorded, vouches for nothing
    metric = await client.feedback(BOT.ref, memory_id, "confirmed")
    assert (metric.event.source, metric.event.effect) == ("system_metric", "recorded")
    audit = _feedback_audit(client, memory_id)
    assert [(r["decision"], r["outcome"]) for r in audit] == [
        ("confirmed", "confidence_raised"),
        ("confirmed", "confidence_raised"),
        ("confirmed", "confidence_at_ceiling"),
        ("confirmed", "recorded"),
    ]
    assert audit[0]["details"]["event_id"] == first.event.event_id  # type: ignore[index]
    assert [v.confidence for v in client.history(USER, memory_id)] == pytest.approx(
        [0.9, 0.95, 0.98]
    )


async def test_a_model_inference_is_never_confirmed_into_a_users_statement(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    client.register_principal(REVIEWER)
    written = await client.write(
        BOT.ref, NS, sms(source_type="model_inference", confidence=0.7), at=T0
    )
    memory_id = written.outcome.memory_id
    assert memory_id is not None, written.outcome
    for _ in range(5):
        await client.feedback(REVIEWER.ref, memory_id, "confirmed")
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.source_type == "model_inference"
    assert head.confidence == pytest.approx(0.75)  # the ceiling of an inference


async def test_nobody_gives_feedback_as_someone_else(client: MemoryClient) -> None:
    client.register_principal(BOT)
    client.register_principal(STRANGER)
    memory_id = await _memory(client)
    with pytest.raises(Forbidden, match="may not give feedback as user"):
        await client.feedback(BOT.ref, memory_id, "confirmed", source="user")
    with pytest.raises(Forbidden):
        await client.feedback(BOT.ref, memory_id, "confirmed", source="human_reviewer")
    with pytest.raises(NotFound):  # another tenant's memory does not exist for it
        await client.feedback(STRANGER.ref, memory_id, "harmful")
    with pytest.raises(Forbidden, match="may not delete"):  # nor delete through it
        await client.feedback(BOT.ref, memory_id, "deleted")
    with pytest.raises(InvalidInput, match="correction"):
        await client.feedback(USER, memory_id, "corrected")
    with pytest.raises(InvalidInput):
        await client.feedback(USER, memory_id, "loved")
    with pytest.raises(InvalidInput, match="evidence"):
        await client.feedback(USER, memory_id, "used", evidence_refs=["not a ref"])
    assert _feedback_rows(client, memory_id) == (0, 0)
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.version == 1


async def test_a_harmful_memory_is_never_recalled_again_until_a_reviewer_releases_it(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    client.register_principal(REVIEWER)
    memory_id = await _memory(client)
    assert memory_id in await _recalled(
        client, task="通知物流异常", keys=["notification.preference"]
    )
    reported = await client.feedback(BOT.ref, memory_id, "harmful", run_id="run-1")
    assert reported.event.effect == "quarantined"
    assert reported.review is not None
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "quarantined"
    for query in (
        {"task": "通知物流异常", "keys": ["notification.preference"]},
        {"task": "通知", "query": "短信通知"},
        {"task": "", "query": "用户偏好短信通知"},
    ):
        assert memory_id not in await _recalled(client, **query)
    package = await client.build_context(BOT.ref, [NS], "通知物流异常", {"total_tokens": 4000})
    assert "短信" not in package.text()
    assert client.stores.projection.state([memory_id]) == {}  # out of the projection too
    # the same report again: the same event, the same review
    again = await client.feedback(
        BOT.ref, memory_id, "harmful", run_id="run-1", event_id=reported.event.event_id
    )
    assert again.replayed
    assert again.event == reported.event
    review = client.find_review(REVIEWER.ref, memory_id=memory_id)
    assert review.kind == "harmful"
    assert review.review_id == reported.event.effect_ref
    outcome = await client.review(REVIEWER.ref, review.review_id, "reject")
    assert outcome.committed == [memory_id]
    assert memory_id in await _recalled(
        client, task="通知物流异常", keys=["notification.preference"]
    )
    kinds = [(e.feedback_type, e.source) for e in client.feedback_on(USER, memory_id)]
    assert kinds == [("harmful", "system_metric"), ("confirmed", "human_reviewer")]


async def test_an_upheld_harmful_report_keeps_the_memory_out_for_good(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    client.register_principal(REVIEWER)
    memory_id = await _memory(client)
    reported = await client.feedback(USER, memory_id, "harmful")
    assert reported.event.source == "user"
    assert reported.review is not None
    outcome = await client.review(REVIEWER.ref, reported.review.review.review_id, "approve")
    assert outcome.invalidated == [memory_id]
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "quarantined"
    assert memory_id not in await _recalled(
        client, task="通知物流异常", keys=["notification.preference"]
    )
    # nor in a question about a time it was in force (an invalidated memory would answer it)
    for at in (T0 + timedelta(minutes=1), AT):
        past = await client.recall(
            BOT.ref, [NS], task="通知物流异常", keys=["notification.preference"], at=at
        )
        assert memory_id not in [m.memory_id for m in past.memories]
    again = await client.feedback(BOT.ref, memory_id, "harmful")
    assert (again.event.effect, again.review) == ("already_quarantined", None)
    audit = client.stores.canonical.audit.trail(memory_id=memory_id)
    assert any(r["stage"] == "feedback" and r["outcome"] == "quarantined" for r in audit)


async def test_runs_that_keep_ignoring_a_memory_lower_its_rank_and_a_use_restores_it(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    first = await _memory(client, key=None, kind="semantic", content="用户喜欢蓝色的包装盒")
    second = await _memory(client, key=None, kind="semantic", content="用户喜欢蓝色的礼品卡")
    query = {"task": "", "query": "用户喜欢蓝色"}
    order = await _recalled(client, **query)
    top, other = order[0], order[1]
    assert {top, other} == {first, second}
    weights = []
    for n in range(5):
        report = await client.report_run(
            BOT.ref, f"run-{n}", shown=[top, other], used=[other], outcome="success"
        )
        weights.append(next(e.rank_weight for e in report.events if e.event.memory_id == top))
    assert weights == pytest.approx([1.0, 1.0, 0.85, 0.7, 0.55])  # after 3 in a row, a step each
    assert await _recalled(client, **query) == [other, top]
    audit = _feedback_audit(client, top)
    assert [r["outcome"] for r in audit].count("rank_lowered") == 3
    # reporting a run again records nothing twice
    again = await client.report_run(BOT.ref, "run-4", shown=[top, other], used=[other])
    assert all(e.replayed for e in again.events)
    assert len(client.run_feedback(BOT.ref, "run-4")) == 2
    used = await client.report_run(BOT.ref, "run-5", shown=[top, other], used=[top])
    assert next(e.event.effect for e in used.events if e.event.memory_id == top) == "rank_restored"
    assert (await _recalled(client, **query))[0] == top


async def test_a_correction_writes_the_right_value_with_the_users_authority(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    memory_id = await _memory(client)
    corrected = await client.feedback(
        USER,
        memory_id,
        "corrected",
        correction={"structured_value": {"channel": "email"}, "content": "用户偏好邮件通知"},
        occurred_at=AT,
        evidence_refs=["msg://t9/4"],
    )
    assert corrected.event.effect == "correction_started"
    assert corrected.event.effect_ref is not None
    assert corrected.event.effect_ref.startswith("feedback/shop-a/")
    assert corrected.event.effect_ref.endswith("/correction")
    [outcome] = corrected.correction
    assert (outcome.decision, outcome.relation) == ("update", "SUPERSEDES")
    [audited] = _feedback_audit(client, memory_id)
    assert (audited["outcome"], audited["principal"]) == ("correction_started", USER)
    assert audited["details"]["effect_ref"] == corrected.event.effect_ref  # type: ignore[index]
    found = await client.recall(BOT.ref, [NS], task="通知", keys=["notification.preference"])
    assert [m.structured_value for m in found.memories] == [{"channel": "email"}]
    head = client.stores.canonical.records.head(found.memories[0].memory_id)
    assert head is not None
    assert (head.written_by, head.source_type) == (USER, "user_assertion")
    # the write pipeline itself says the old version was corrected by the user
    said = [(e.feedback_type, e.source, e.given_by) for e in client.feedback_on(USER, memory_id)]
    assert said.count(("corrected", "user", USER)) == 2  # the request, and the pipeline's own
    # an agent may not correct a user's value through feedback
    with pytest.raises(InvalidInput, match="only the user or a reviewer"):
        await client.feedback(
            BOT.ref, found.memories[0].memory_id, "corrected", correction={"text": "发短信"}
        )


async def test_feedback_is_erased_with_its_memory(client: MemoryClient) -> None:
    client.register_principal(BOT)
    memory_id = await _memory(client)
    await client.feedback(USER, memory_id, "confirmed")
    await client.report_run(BOT.ref, "run-a", shown=[memory_id], used=[])
    assert _feedback_rows(client, memory_id) == (2, 1)
    receipt = await client.forget(USER, {"namespace": NS, "key": "notification.preference"})
    assert receipt.verification_status == "passed"
    [probe] = [p for p in receipt.probes if p.probe == "feedback"]
    assert (probe.passed, probe.returned) == (True, 0)
    assert _feedback_rows(client, memory_id) == (0, 0)
    assert client.run_feedback(BOT.ref, "run-a") == []
    with pytest.raises(NotFound):
        await client.feedback(USER, memory_id, "used")


async def test_deleted_feedback_deletes_that_memory(client: MemoryClient) -> None:
    client.register_principal(BOT)
    keep = await _memory(
        client,
        key="profile.language",
        structured_value={"value": "en"},
        content="用户希望用英文回复",
    )
    memory_id = await _memory(client)
    done = await client.feedback(USER, memory_id, "deleted")
    assert done.deletion is not None
    assert done.deletion.verification_status == "passed"
    assert done.event.effect_ref is not None
    assert done.event.effect_ref.startswith("feedback/shop-a/")
    assert done.event.effect_ref.endswith("/deletion")
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "deleted"
    assert _feedback_rows(client, memory_id) == (0, 0)  # the deletion took its own event too
    # the audit keeps that it happened, by ids
    assert [r["outcome"] for r in _feedback_audit(client, memory_id)] == ["deletion_started"]
    still = client.stores.canonical.records.head(keep)
    assert still is not None
    assert still.status == "active"


async def test_a_released_memory_does_not_displace_a_value_written_while_it_was_quarantined(
    client: MemoryClient,
) -> None:
    client.register_principal(BOT)
    client.register_principal(REVIEWER)
    memory_id = await _memory(client)
    reported = await client.feedback(BOT.ref, memory_id, "harmful")
    assert reported.review is not None
    newer = await client.write(
        USER,
        NS,
        {**sms(), "structured_value": {"channel": "email"}, "content": "用户偏好邮件"},
        at=AT,
    )
    assert newer.outcome.decision == "add"  # the quarantined value is out of the way
    outcome = await client.review(REVIEWER.ref, reported.review.review.review_id, "reject")
    assert outcome.committed == [memory_id]
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert (head.status, head.valid_to) == ("superseded", AT)
    found = await client.recall(BOT.ref, [NS], task="通知", keys=["notification.preference"])
    assert [m.structured_value for m in found.memories] == [{"channel": "email"}]


async def test_who_may_judge_a_memory(client: MemoryClient) -> None:
    """Only who may read a memory (within its sensitivity ceiling), its user, its reviewers and
    its tenant's operators give feedback; an auditor reads what was and judges nothing; a
    candidate-only principal's word is recorded and changes nothing."""
    client.register_principal(BOT)
    narrow = BOT.model_copy(update={"id": "public-bot", "sensitivity_ceiling": "public"})
    auditor = Principal(type="service", tenant="shop-a", id="audit", roles=["auditor"])
    drafter = BOT.model_copy(update={"id": "drafter", "candidate_only": True})
    for p in (narrow, auditor, drafter):
        client.register_principal(p)
    memory_id = await _memory(client)
    for outsider in (narrow, auditor):
        with pytest.raises(NotFound):
            await client.feedback(outsider.ref, memory_id, "harmful")
    assert client.feedback_on(auditor.ref, memory_id) == []  # it may read the feedback
    said = await client.feedback(drafter.ref, memory_id, "harmful")
    assert (said.event.effect, said.review) == ("recorded", None)
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert (head.status, head.version) == ("active", 1)
    with pytest.raises(InvalidInput, match="run_id"):
        await client.feedback(BOT.ref, memory_id, "ignored")
    with pytest.raises(InvalidInput, match="run_id"):
        await client.feedback(BOT.ref, memory_id, "used", run_id="a run with words in it")


async def test_two_agents_may_name_their_runs_alike(client: MemoryClient) -> None:
    client.register_principal(BOT)
    other = BOT.model_copy(update={"id": "other-bot"})
    client.register_principal(other)
    memory_id = await _memory(client)
    for agent in (BOT, other):
        report = await client.report_run(agent.ref, "run-1", shown=[memory_id], used=[memory_id])
        assert [e.replayed for e in report.events] == [False]
    assert len(client.run_feedback(BOT.ref, "run-1")) == 2


async def test_a_correction_of_a_memory_without_key_ends_it(client: MemoryClient) -> None:
    client.register_principal(BOT)
    memory_id = await _memory(client, key=None, kind="semantic", content="用户喜欢蓝色的包装盒")
    done = await client.feedback(
        USER, memory_id, "corrected", correction={"content": "用户喜欢绿色的礼品袋"}
    )
    [outcome] = done.correction
    assert outcome.decision == "add"
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "superseded"
    found = await _recalled(client, task="", query="用户喜欢的颜色 包装")
    assert memory_id not in found
    assert outcome.memory_id in found
