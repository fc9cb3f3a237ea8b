from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from governed_memory.memory.errors import InvalidInput, from_validation_error
from governed_memory.memory.models import (
    Candidate,
    DeletionScope,
    Principal,
    RecallQuery,
    content_hash,
)


def test_candidate_defaults_and_trimmed_content() -> None:
    c = Candidate(kind="profile", key="notification.preference", content="  用户偏好短信通知 ")
    assert c.content == "用户偏好短信通知"
    assert c.source_type == "user_assertion"
    assert c.confidence == 1.0


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "feeling", "content": "x"}, "kind"),
        ({"kind": "profile", "content": "x", "confidence": 1.5}, "confidence"),
        ({"kind": "profile", "content": "x", "confidence": -0.1}, "confidence"),
        ({"kind": "profile", "content": "   "}, "content"),
        ({"kind": "profile", "content": "x", "source_type": "rumour"}, "source_type"),
        ({"kind": "profile", "content": "x", "key": "Not A Key"}, "key"),
        ({"kind": "profile", "content": "x", "valid_from": "yesterday"}, "valid_from"),
        ({"kind": "profile", "content": "x", "valid_from": "2026-07-01T00:00:00"}, "valid_from"),
        (
            {
                "kind": "profile",
                "content": "x",
                "valid_from": "2026-07-10T00:00:00+08:00",
                "valid_to": "2026-07-01T00:00:00+08:00",
            },
            "",
        ),
        ({"kind": "profile", "content": "x", "surprise": 1}, "surprise"),
    ],
)
def test_malformed_candidates_get_a_located_typed_error(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        Candidate.model_validate(data)
    err = from_validation_error(info.value, "candidate")
    assert isinstance(err, InvalidInput)
    assert field in (err.field or "")


def test_user_principal_reads_and_writes_only_its_own_namespace() -> None:
    user = Principal(type="user", tenant="shop-a", id="123")
    assert user.can_write("tenant/shop-a/user/123")
    assert user.can_read("tenant/shop-a/user/123")
    assert user.can_delete("tenant/shop-a/user/123")
    assert not user.can_read("tenant/shop-a/user/124")
    assert not user.can_read("tenant/other/user/123")
    assert not user.can_approve("tenant/shop-a/user/123")


def test_agent_principal_follows_its_patterns() -> None:
    bot = Principal(
        type="agent",
        tenant="shop-a",
        id="support-bot",
        read=["tenant/shop-a/user/*"],
        write=["tenant/shop-a/user/*"],
    )
    assert bot.can_read("tenant/shop-a/user/9")
    assert not bot.can_read("tenant/shop-b/user/9")
    assert not bot.can_delete("tenant/shop-a/user/9")


def test_principal_patterns_may_not_leave_its_tenant() -> None:
    with pytest.raises(ValidationError):
        Principal(type="agent", tenant="shop-a", id="x", read=["tenant/shop-b/user/*"])


def test_recall_query_bounds() -> None:
    for k in (0, -1, 10_000):
        with pytest.raises(ValidationError):
            RecallQuery(principal="user:shop-a/1", namespaces=["tenant/shop-a/user/1"], k=k)
    with pytest.raises(ValidationError):
        RecallQuery(principal="user:shop-a/1", namespaces=["tenant/shop-a/usr/1"])


def test_deletion_scope_shapes() -> None:
    assert DeletionScope(subject_ref="user:123").describe() == "user:123"
    assert (
        DeletionScope(namespace="tenant/a/user/1", key="profile.language").describe()
        == "tenant/a/user/1#profile.language"
    )
    with pytest.raises(ValidationError):
        DeletionScope()
    with pytest.raises(ValidationError):
        DeletionScope(key="profile.language")


def test_content_hash_ignores_spacing_not_values() -> None:
    assert content_hash("a  b") == content_hash("a b")
    assert content_hash("x", {"channel": "sms"}) != content_hash("x", {"channel": "email"})
    assert content_hash("x", {"a": 1, "b": 2}) == content_hash("x", {"b": 2, "a": 1})
    assert datetime(2026, 1, 1, tzinfo=UTC)  # aware times are the only ones accepted


@pytest.mark.parametrize(
    "request_",
    [
        {"candidate": {"kind": "semantic", "content": "a\x00b"}},
        {"candidate": {"kind": "profile", "key": "k.x", "structured_value": {"\x00": 1}}},
        {"utterance": {"text": "hi\x00"}},
    ],
)
def test_text_a_store_cannot_keep_is_refused_up_front(request_: dict[str, Any]) -> None:
    from governed_memory.memory.models import WriteRequest

    with pytest.raises(ValidationError) as info:
        WriteRequest.model_validate(
            {"principal": "user:shop-a/1", "namespace": "tenant/shop-a/user/1", **request_}
        )
    assert from_validation_error(info.value).message.startswith("text may not contain NUL")
    with pytest.raises(ValidationError):
        Principal.model_validate({"type": "agent", "tenant": "shop-a", "id": "b\x00t"})


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ("a\x00b", "R"),
        ({"a": [1, {"b": ("x", "y\x00")}]}, "R.a.b"),
        ({"k\x00": 1}, "R"),
        ({"when": datetime(2026, 1, 1, tzinfo=UTC), "text": "\x00"}, "R.text"),  # not JSON
        ({(1, 2): "\x00"}, "R"),  # a key JSON cannot write: the walk decides
        ({"ok": "a literal \\u0000 and then \x00"}, "R.ok"),
    ],
)
def test_nul_is_found_at_any_depth_beside_anything(value: Any, field: str) -> None:
    from governed_memory.memory.models import refuse_nul

    with pytest.raises(InvalidInput) as info:
        refuse_nul(value, "R")
    assert info.value.field == field


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        {"a": ["b", {"c": None}], "n": 1.5},
        {"text": "a literal \\u0000 is six characters, not NUL"},  # the fast pass's false alarm
        {"when": datetime(2026, 1, 1, tzinfo=UTC), "set": {"x"}, "bytes": b"\x00"},  # not text
    ],
)
def test_text_without_nul_passes_unchanged(value: Any) -> None:
    from governed_memory.memory.models import refuse_nul

    assert refuse_nul(value, "R") is value


def test_a_memory_is_placed_at_the_one_message_it_cites() -> None:
    from governed_memory.memory.models import place_of

    ns = "tenant/shop-a/user/123"
    assert place_of(ns, ["msg://t1/4"]) == (ns, "t1", 4)
    assert place_of(ns, ["orders://u/1?version=1", "msg://t1/4", "msg://t1/4"]) == (ns, "t1", 4)
    assert place_of(ns, ["msg://t1/4", "msg://t1/9"]) is None  # a summary of a stretch
    assert place_of(ns, ["msg://mid-123", "orders://u/1"]) is None  # off-thread, not a place
    assert place_of(ns, []) is None
