"""A batch reads ahead what its decisions would each read (writers, decided keys, timezones,
named slots) and keeps its messages in one transaction: its writes decide as each would alone.
Messages land in order, at the next positions of their conversations, and only those a write on
its own would keep (an allowed writer, an idempotency key not decided before)."""

from __future__ import annotations

import uuid

from governed_memory.memory.models import WriteRequest
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.batch import process_batch
from governed_memory.memory.write.extraction import RuleExtractor
from tests.factories import NS, T0

OTHER_NS = "tenant/shop-b/user/9"


def _turn(text: str, thread: str | None = "t-1", key: str | None = None) -> WriteRequest:
    return WriteRequest(
        principal="user:shop-a/123",
        namespace=NS,
        idempotency_key=key or uuid.uuid4().hex,
        utterance={"text": text, "thread": thread},
        at=T0,
    )


def _batch(stores: Stores, requests: list[WriteRequest]) -> list[list[str]]:
    seed = uuid.uuid4().hex
    result = process_batch(
        stores,
        requests,
        RuleExtractor(),
        workflow_id=f"batch/{seed}",
        seed=seed,
        now=T0,
        allow_override=True,
    )
    return [[o.decision for o in item.outcomes] for item in result.items]


def test_a_batch_keeps_its_turns_in_order_after_those_kept_before(stores: Stores) -> None:
    _batch(stores, [_turn("I moved to Lisbon in May."), _turn("Hi!", thread="t-2")])
    _batch(
        stores,
        [
            _turn("My sister lives in Porto."),
            _turn("以后物流更新请优先短信通知"),
            _turn("Nice weather today.", thread="t-2"),
            _turn("I like green tea.", thread=None),
        ],
    )
    canonical = stores.canonical
    t1 = [(m.position, m.text) for m in canonical.messages.in_thread("shop-a", NS, "t-1")]
    assert t1 == [
        (1, "I moved to Lisbon in May."),
        (2, "My sister lives in Porto."),
        (3, "以后物流更新请优先短信通知"),
    ]
    t2 = [(m.position, m.text) for m in canonical.messages.in_thread("shop-a", NS, "t-2")]
    assert t2 == [(1, "Hi!"), (2, "Nice weather today.")]
    off_thread = [m for m in canonical.messages.in_namespace(NS) if m.thread is None]
    assert [(m.position, m.text) for m in off_thread] == [(1, "I like green tea.")]


def test_a_batch_keeps_no_message_of_a_refused_writer_or_a_decided_key(stores: Stores) -> None:
    decided = _turn("I prefer email.", key="k-1")
    _batch(stores, [decided])
    outsider = WriteRequest(
        principal="user:shop-a/123",
        namespace=OTHER_NS,  # another tenant's namespace: refused
        idempotency_key=uuid.uuid4().hex,
        utterance={"text": "I live in Oslo.", "thread": "t-1"},
        at=T0,
    )
    outcomes = _batch(stores, [decided, outsider, _turn("I prefer SMS now.")])
    assert outcomes[1] == ["reject"]
    texts = [m.text for m in stores.canonical.messages.in_namespace(NS)]
    assert texts == ["I prefer email.", "I prefer SMS now."]  # the repeated key kept nothing new
    assert stores.canonical.messages.in_namespace(OTHER_NS) == []


def test_a_secret_in_a_batched_turn_is_never_kept(stores: Stores) -> None:
    _batch(stores, [_turn("我的支付密码是 884213"), _turn("My card PIN is 4921, keep it.")])
    kept = " ".join(m.text for m in stores.canonical.messages.in_namespace(NS))
    assert "884213" not in kept
    assert "4921" not in kept


def _propose(user: int, key: str, value: dict[str, str], content: str) -> WriteRequest:
    return WriteRequest(
        principal=f"user:shop-a/{user}",
        namespace=f"tenant/shop-a/user/{user}",
        idempotency_key=uuid.uuid4().hex,
        candidate={
            "kind": "profile",
            "key": key,
            "structured_value": value,
            "content": content,
        },
        at=T0,
    )


def test_what_a_batch_reads_ahead_is_what_each_write_would_read(stores: Stores) -> None:
    berlin = _propose(1, "profile.timezone", {"value": "Europe/Berlin"}, "timezone Berlin")
    first = _propose(2, "notification.preference", {"channel": "sms"}, "prefers sms")
    assert _batch(stores, [berlin, first]) == [["add"], ["add"]]
    later = [
        # the timezone stored before this batch frames the quiet hours
        WriteRequest(
            principal="user:shop-a/1",
            namespace="tenant/shop-a/user/1",
            idempotency_key=uuid.uuid4().hex,
            utterance={"text": "No calls after 10pm please.", "thread": "t-1"},
            at=T0,
        ),
        # a slot read ahead: the stored value is superseded, a repeat is a no-op
        _propose(2, "notification.preference", {"channel": "email"}, "prefers email"),
        _propose(3, "notification.preference", {"channel": "sms"}, "prefers sms"),
        first,  # decided before: its stored outcome, nothing new
    ]
    outcomes = _batch(stores, later)
    assert outcomes[1:] == [["update"], ["add"], ["add"]]
    heads = stores.canonical.records.key_records(
        ["tenant/shop-a/user/1"], ["notification.preference"], ["active"]
    )
    assert [h.structured_value for h in heads] == [{"quiet_hours": "22:00-08:00 Europe/Berlin"}]
    user2 = stores.canonical.records.key_records(
        ["tenant/shop-a/user/2"], ["notification.preference"], ["active", "superseded"]
    )
    assert sorted((h.status, (h.structured_value or {}).get("channel")) for h in user2) == [
        ("active", "email"),
        ("superseded", "sms"),
    ]
