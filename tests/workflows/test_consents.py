"""Consents on the real worker, Temporal server and stores (SQLite and Postgres): a consent_ref
names a consent its subject recorded, or the write is refused; revoking one takes what depended
on it out of every read path; a subject's deletion deletes its consents."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from governed_memory.memory.errors import Forbidden, InvalidInput, NotFound
from governed_memory.memory.models import Principal
from governed_memory.shell.client import MemoryClient
from tests.factories import T0

TEAM = "tenant/shop-a/team/ops"
SCRIBE = Principal(
    type="agent",
    tenant="shop-a",
    id="scribe",
    read=["tenant/shop-a/user/*", TEAM],
    write=["tenant/shop-a/user/*", TEAM],
)


def someone() -> tuple[str, str, str]:
    """A user of this test only: their principal ref, namespace and subject."""
    who = f"c{uuid.uuid4().hex[:8]}"
    return f"user:shop-a/{who}", f"tenant/shop-a/user/{who}", f"user:{who}"


async def test_a_consent_ref_names_a_recorded_consent(client: MemoryClient) -> None:
    user, ns, subject = someone()
    made_up = await client.write(
        user, ns, {"kind": "semantic", "content": "我对花生过敏", "consent_ref": "yes"}, at=T0
    )
    assert [(o.decision, o.reason) for o in made_up.outcomes] == [("reject", "consent_unknown")]
    consent = client.give_consent(user, subject, "记住我的过敏原，推荐菜品时避开", at=T0)
    assert consent.consent_id.startswith("cns_")
    assert (consent.subject_ref, consent.given_by) == (subject, user)
    kept = await client.write(
        user,
        ns,
        {"kind": "semantic", "content": "我对花生过敏", "consent_ref": consent.consent_id},
        at=T0 + timedelta(minutes=1),
    )
    assert kept.outcome.decision == "add"
    head = client.stores.canonical.records.head(kept.outcome.memory_id or "")
    assert head is not None
    assert (head.sensitivity, head.consent_ref) == ("restricted", consent.consent_id)
    # another user's consent is not this one's, in a batch as alone
    other, other_ns, _ = someone()
    batch = await client.write_batch(
        [
            client.write_request(
                other,
                other_ns,
                {"kind": "semantic", "content": "我对花生过敏", "consent_ref": consent.consent_id},
                idempotency_key=uuid.uuid4().hex,
                at=T0,
            )
        ]
    )
    assert [(o.decision, o.reason) for o in batch.items[0].outcomes] == [
        ("reject", "consent_unknown")
    ]


async def test_who_may_record_list_and_revoke_a_consent(client: MemoryClient) -> None:
    user, _, subject = someone()
    stranger, _, _ = someone()
    client.register_principal(SCRIBE)
    with pytest.raises(Forbidden):
        client.give_consent(stranger, subject, "随便")
    with pytest.raises(InvalidInput):
        client.give_consent(user, "order:ORD-1", "an order gives no consent")
    with pytest.raises(InvalidInput):
        client.give_consent(user, subject, "   ")
    mine = client.give_consent(user, subject, "记住我的饮食禁忌")
    recorded = client.give_consent(SCRIBE.ref, subject, "客服记录：用户同意保存健康信息")
    assert recorded.given_by == SCRIBE.ref
    assert [c.consent_id for c in client.consents(user)] == [
        mine.consent_id,
        recorded.consent_id,
    ]
    assert len(client.consents(SCRIBE.ref, subject)) == 2
    assert client.consents(stranger, subject) == []  # nothing to see, nothing learnt
    with pytest.raises(NotFound):
        client.revoke_consent(stranger, mine.consent_id)
    with pytest.raises(NotFound):
        client.revoke_consent(user, "cns_made_up")
    revoked = client.revoke_consent(user, recorded.consent_id)
    assert revoked.consent.revoked_by == user
    assert revoked.consent.revoked_at is not None
    again = client.revoke_consent(user, recorded.consent_id)
    assert again.consent.revoked_at == revoked.consent.revoked_at


async def test_revoking_a_consent_takes_what_depended_on_it_out_of_every_read(
    client: MemoryClient,
) -> None:
    user, ns, subject = someone()
    client.register_principal(SCRIBE)
    consent = client.give_consent(user, subject, "记住我常用的收货习惯", at=T0)
    said = await client.write(
        user,
        ns,
        {
            "kind": "semantic",
            "content": "我喜欢把快递放在小区北门的丰巢柜",
            "consent_ref": consent.consent_id,
        },
        at=T0,
    )
    other = await client.write(user, ns, {"kind": "semantic", "content": "我周末一般在家"}, at=T0)
    memory_id = said.outcome.memory_id or ""
    found = await client.recall(SCRIBE.ref, [ns], query="丰巢柜 快递", at=T0 + timedelta(hours=1))
    assert memory_id in [m.memory_id for m in found.memories]
    revoked = client.revoke_consent(user, consent.consent_id, at=T0 + timedelta(hours=2))
    assert revoked.invalidated == [memory_id]
    head = client.stores.canonical.records.head(memory_id)
    assert head is not None
    assert head.status == "invalidated"
    kept = client.stores.canonical.records.head(other.outcome.memory_id or "")
    assert kept is not None
    assert kept.status == "active"
    assert client.stores.projection.state([memory_id]) == {}
    for reader in (SCRIBE.ref, user):
        found = await client.recall(reader, [ns], query="丰巢柜 快递", at=T0 + timedelta(hours=3))
        assert memory_id not in [m.memory_id for m in found.memories]
    trail = client.stores.canonical.audit.trail(memory_id=memory_id)
    assert any(r["stage"] == "consent" and r["reason_code"] == "consent_revoked" for r in trail)
    assert "丰巢" not in str(client.stores.canonical.audit.trail())
    # the revoked consent is no consent for a write after it
    late = await client.write(
        user,
        ns,
        {"kind": "semantic", "content": "我也常用南门快递柜", "consent_ref": consent.consent_id},
        at=T0 + timedelta(hours=4),
    )
    assert [(o.decision, o.reason) for o in late.outcomes] == [("reject", "consent_unknown")]


async def test_a_subjects_deletion_deletes_its_consents(client: MemoryClient) -> None:
    user, ns, subject = someone()
    client.register_principal(SCRIBE)
    consent = client.give_consent(user, subject, "记住我家人的生日，提前提醒我", at=T0)
    await client.write(
        user,
        ns,
        {
            "kind": "semantic",
            "content": "我妈妈的生日是五月三日",
            "consent_ref": consent.consent_id,
        },
        at=T0,
    )
    # kept about them where they may not delete, on their consent
    elsewhere = await client.write(
        SCRIBE.ref,
        TEAM,
        {
            "kind": "semantic",
            "content": "客户要求生日前一周提醒",
            "subject_ref": subject,
            "consent_ref": consent.consent_id,
        },
        at=T0,
    )
    receipt = await client.forget(user, {"subject_ref": subject}, at=T0 + timedelta(days=1))
    assert receipt.verification_status == "passed", [p for p in receipt.probes if not p.passed]
    probe = next(p for p in receipt.probes if p.probe == "consents")
    assert probe.passed
    assert client.stores.canonical.consents.get(consent.consent_id) is None
    assert client.consents(user) == []
    assert (receipt.withheld, receipt.withheld_namespaces) == (1, 1)
    # left alone (not theirs to erase), but no longer standing on a consent that is gone
    head = client.stores.canonical.records.head(elsewhere.outcome.memory_id or "")
    assert head is not None
    assert (head.status, head.content) == ("invalidated", "客户要求生日前一周提醒")
    assert client.stores.projection.state([head.memory_id]) == {}


async def test_a_secret_in_a_consents_purpose_is_not_kept(client: MemoryClient) -> None:
    user, _, subject = someone()
    consent = client.give_consent(user, subject, "可以保存我的支付密码是 884213 这件事")
    assert "884213" not in consent.purpose
    assert "[REDACTED:" in consent.purpose
    (kept,) = client.consents(user)
    assert "884213" not in kept.purpose
