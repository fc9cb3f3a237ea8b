from __future__ import annotations

from datetime import timedelta

import pytest

from memory.errors import ClockOverrideRefused, ContentTooLarge, UnauthorizedNamespace
from memory.models import Principal, WriteRequest
from memory.policy import Limits, Policy
from memory.stores.canonical import SlotState
from memory.write.resolution import resolve
from memory.write.stages import effective_time, prepare
from tests.factories import NS, T0, email, prepared, record, sms


def test_prepare_fills_policy_defaults() -> None:
    p = prepared({"kind": "episodic", "content": "用户咨询退款"})
    assert p.record.valid_from == T0
    assert p.record.expires_at == T0 + timedelta(days=90)  # episodic retention default
    assert p.record.subject_ref == "user:123"
    assert p.record.sensitivity == "internal"
    assert p.slot.startswith("hash:")
    assert prepared(sms()).slot == "key:notification.preference"


def test_prepare_refuses_a_foreign_namespace() -> None:
    other = Principal(type="user", tenant="shop-a", id="999")
    with pytest.raises(UnauthorizedNamespace):
        prepared(sms(), principal=other)


def test_prepare_refuses_oversize_content() -> None:
    who = Principal(type="user", tenant="shop-a", id="123")
    request = WriteRequest(
        principal=who.ref,
        namespace=NS,
        candidate={"kind": "episodic", "content": "x" * 100},
        idempotency_key="k",
    )
    with pytest.raises(ContentTooLarge):
        prepare(
            request,
            who,
            Policy(limits=Limits(max_content_bytes=50)),
            workflow_id="w",
            memory_id="m",
            at=T0,
        )


def test_clock_override_only_when_enabled() -> None:
    assert effective_time(None, T0, False) == T0
    assert effective_time(T0, T0 + timedelta(days=1), True) == T0
    with pytest.raises(ClockOverrideRefused):
        effective_time(T0, T0, False)


def test_new_duplicate_supersedes() -> None:
    empty = SlotState(version=0, records=[])
    r = resolve(prepared(sms()), empty, commit_id="c1")
    assert (r.outcome.relation, r.outcome.decision) == ("NEW", "add")
    assert r.plan is not None
    assert r.plan.expected_slot_version == 0

    current = record()
    dup = resolve(
        prepared(sms(content="短信通知我")), SlotState(version=1, records=[current]), commit_id="c2"
    )
    assert (dup.outcome.relation, dup.outcome.decision, dup.outcome.reason) == (
        "DUPLICATE",
        "no_op",
        "duplicate",
    )
    assert dup.plan is None

    later = T0 + timedelta(days=9)
    sup = resolve(
        prepared(email(), at=later), SlotState(version=1, records=[current]), commit_id="c3"
    )
    assert (sup.outcome.relation, sup.outcome.decision) == ("SUPERSEDES", "update")
    assert sup.plan is not None
    (change,) = sup.plan.changes
    assert change.memory_id == current.memory_id
    assert change.status == "superseded"
    assert change.valid_to == later
