"""The write pipeline's pure stages: validation, source checks, resolution semantics."""

from __future__ import annotations

from datetime import timedelta

import pytest

from governed_memory.memory.errors import ClockOverrideRefused, ContentTooLarge, InvalidInput
from governed_memory.memory.models import Principal
from governed_memory.memory.plans import SlotState
from governed_memory.memory.policy import LimitPolicy, Policy
from governed_memory.memory.write.resolution import Neighbour, resolve_keyed, resolve_unkeyed
from governed_memory.memory.write.stages import effective_time, is_business_claim, verified_source
from tests.factories import T0, draft, email, record, sms

CRM = Principal(type="service", tenant="shop-a", id="crm", write=["tenant/shop-a/user/*"])
LATER = T0 + timedelta(days=9)


def state(*records) -> SlotState:
    return SlotState(version=len(records), records=list(records))


def test_drafts_take_policy_defaults() -> None:
    d = draft({"kind": "episodic", "content": " 用户  咨询退款 "})
    assert d.record.content == "用户 咨询退款"
    assert d.record.valid_from == T0
    assert d.record.expires_at == T0 + timedelta(days=90)  # episodic retention default
    assert d.record.subject_ref == "user:123"
    assert d.slot.startswith("gist:")
    assert draft(sms()).slot == "key:notification.preference"


def test_a_writer_cannot_outlive_the_retention_policy() -> None:
    forever = draft(
        {
            "kind": "episodic",
            "content": "asked about a refund",
            "expires_at": "9999-12-31T00:00:00+00:00",
        }
    )
    assert forever.record.expires_at == T0 + timedelta(days=90)
    sooner = draft(
        {
            "kind": "episodic",
            "content": "asked about a refund",
            "expires_at": (T0 + timedelta(days=3)).isoformat(),
        }
    )
    assert sooner.record.expires_at == T0 + timedelta(days=3)
    # kinds the policy keeps until changed take what the writer asks
    kept = draft(sms(expires_at=(T0 + timedelta(days=900)).isoformat()))
    assert kept.record.expires_at == T0 + timedelta(days=900)


def test_channel_synonyms_are_normalised_and_unknown_ones_refused() -> None:
    assert draft(sms(structured_value={"channel": "短信"})).record.structured_value == {
        "channel": "sms"
    }
    with pytest.raises(InvalidInput):
        draft(sms(structured_value={"channel": "carrier pigeon"}))


def test_oversize_content_is_refused() -> None:
    with pytest.raises(ContentTooLarge):
        draft(
            {"kind": "episodic", "content": "x" * 100},
            policy=Policy(limits=LimitPolicy(max_content_bytes=50)),
        )


def test_clock_override_only_when_enabled() -> None:
    assert effective_time(None, T0, False) == T0
    assert effective_time(T0, T0 + timedelta(days=1), True) == T0
    with pytest.raises(ClockOverrideRefused):
        effective_time(T0, T0, False)


def test_business_claims_need_a_verified_pinned_source() -> None:
    claim = draft(
        {
            "kind": "semantic",
            "key": "order.status",
            "content": "订单三天没发货",
            "subject_ref": "order:ORD-A1B2C3D4",
        }
    ).record
    assert is_business_claim(claim)
    assert not verified_source(claim)
    tool = claim.model_copy(
        update={
            "source_type": "verified_tool_fact",
            "source_refs": ["order://ORD-A1B2C3D4?version=8"],
        }
    )
    assert verified_source(tool)
    unpinned = tool.model_copy(update={"source_refs": ["order://ORD-A1B2C3D4"]})
    assert not verified_source(unpinned)
    episode = draft(
        {
            "kind": "episodic",
            "content": "退款完成",
            "subject_ref": "order:ORD-1",
            "source_type": "verified_tool_fact",
            "source_refs": ["run://run_01J", "refund://RF-20260715-88"],
        }
    ).record
    assert verified_source(episode)  # an event is pinned by its identifier
    assert not is_business_claim(
        draft(
            {"kind": "semantic", "content": "商家 A 属于跨境业务", "subject_ref": "merchant:A"}
        ).record
    )


def test_new_duplicate_supersedes() -> None:
    r = resolve_keyed(draft(sms()), state(), group_id="g", approved=False)
    assert (r.relation, r.operation) == ("NEW", "add")

    current = record()
    dup = resolve_keyed(
        draft(sms(content="短信通知我"), at=LATER), state(current), group_id="g", approved=False
    )
    assert (dup.relation, dup.operation, dup.reason) == ("DUPLICATE", "no_op", "duplicate")

    sup = resolve_keyed(draft(email(), at=LATER), state(current), group_id="g", approved=False)
    assert (sup.relation, sup.operation) == ("SUPERSEDES", "update")
    (change,) = sup.changes
    assert (change.memory_id, change.status, change.valid_to) == (
        current.memory_id,
        "superseded",
        LATER,
    )


def test_quiet_hours_refine_the_stored_channel() -> None:
    current = record()
    partial = draft(
        {
            "kind": "profile",
            "key": "notification.preference",
            "structured_value": {"quiet_hours": "22:00-08:00 Asia/Shanghai"},
            "content": "晚上十点后别打扰",
        },
        at=LATER,
    )
    assert partial.partial
    r = resolve_keyed(partial, state(current), group_id="g", approved=False)
    assert r.relation == "REFINEMENT"
    assert r.record is not None
    assert r.record.structured_value == {
        "channel": "sms",
        "quiet_hours": "22:00-08:00 Asia/Shanghai",
    }


def test_a_late_fact_becomes_history_not_the_current_value() -> None:
    current = record(at=T0 + timedelta(days=9))
    late = draft(email(valid_from=T0.isoformat()), at=T0 + timedelta(days=11))
    r = resolve_keyed(late, state(current), group_id="g", approved=False)
    assert (r.relation, r.operation) == ("NEW", "add")
    assert r.record is not None
    assert r.record.valid_to == current.valid_from
    assert r.record.status == "superseded"
    assert r.changes == []  # the current value is untouched


def test_same_instant_different_writers_conflict() -> None:
    current = record()
    crm = draft(email(), principal=CRM)
    r = resolve_keyed(crm, state(current), group_id="cg1", approved=False)
    assert (r.relation, r.operation, r.conflict_group) == ("CONFLICTS", "add", "cg1")
    assert r.record is not None
    assert r.record.conflict_group == "cg1"
    assert [c.conflict_group for c in r.changes] == ["cg1"]
    assert not r.defer


def test_same_writer_same_instant_latest_wins() -> None:
    current = record()
    r = resolve_keyed(draft(email()), state(current), group_id="g", approved=False)
    assert r.relation == "SUPERSEDES"


def test_a_model_inference_never_supersedes_a_user_statement() -> None:
    current = record()
    guess = draft(email(source_type="model_inference", confidence=0.9), at=LATER)
    r = resolve_keyed(guess, state(current), group_id="g", approved=False)
    assert r.defer
    assert r.reason == "conflict"
    approved = resolve_keyed(guess, state(current), group_id="g", approved=True)
    assert approved.relation == "SUPERSEDES"


def test_a_tool_fact_against_a_user_statement_conflicts() -> None:
    current = record()
    tool = draft(
        email(source_type="verified_tool_fact", source_refs=["crm://p/1?version=2"]),
        at=LATER,
        principal=CRM,
    )
    r = resolve_keyed(tool, state(current), group_id="g", approved=False)
    assert r.relation == "CONFLICTS"
    assert not r.defer


def test_an_open_conflict_is_not_settled_by_another_equal_claim() -> None:
    a = record(conflict_group="cg1")
    b = record(
        structured_value={"channel": "email"},
        content="邮件",
        conflict_group="cg1",
        written_by="service:shop-a/crm",
    )
    phone = draft(sms(structured_value={"channel": "phone"}, content="电话"), at=LATER)
    r = resolve_keyed(phone, state(a, b), group_id="cg2", approved=False)
    assert (r.relation, r.conflict_group) == ("CONFLICTS", "cg1")
    review = draft(sms(structured_value={"channel": "phone"}, source_type="human_review"), at=LATER)
    settled = resolve_keyed(review, state(a, b), group_id="cg2", approved=False)
    assert settled.relation == "SUPERSEDES"
    assert {c.memory_id for c in settled.changes} == {a.memory_id, b.memory_id}


def test_a_negation_closes_the_value_it_denies() -> None:
    current = record()
    no_sms = draft(sms(content="别再发短信"), at=LATER, negated=True)
    r = resolve_keyed(no_sms, state(current), group_id="g", approved=False)
    assert (r.operation, r.relation) == ("invalidate", "SUPERSEDES")
    assert r.record is None
    assert r.changes[0].valid_to == LATER
    no_email = draft(email(content="别发邮件"), at=LATER, negated=True)
    r = resolve_keyed(no_email, state(current), group_id="g", approved=False)
    assert r.operation == "no_op"


def test_unkeyed_duplicates_say_the_same_thing() -> None:
    d = draft({"kind": "semantic", "content": "用户常买商家 C 的家居用品"})
    assert resolve_unkeyed(d, state(), [], group_id="g", approved=False).relation == "NEW"
    same = record(key=None, structured_value=None, content=d.record.content, kind="semantic")
    r = resolve_unkeyed(d, state(same), [], group_id="g", approved=False)
    assert (r.relation, r.matched) == ("DUPLICATE", [same.memory_id])
    near = record(
        key=None, structured_value=None, content="用户常买商家C的家居用品。", kind="semantic"
    )
    r = resolve_unkeyed(d, state(), [Neighbour(near, 0.97)], group_id="g", approved=False)
    assert (r.relation, r.matched) == ("DUPLICATE", [near.memory_id])
    assert r.evidence["why"] == "no_salient_difference"
    assert r.evidence["compared"][near.memory_id]["similarity"] == 0.97
