"""Builders for records and requests used across tests."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from memory.models import DIRECT_EXTRACTOR, Candidate, MemoryRecord, Principal, content_hash
from memory.policy import Policy
from memory.write.stages import Draft, build_draft

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
NS = "tenant/shop-a/user/123"
USER = "user:shop-a/123"
BOT = Principal(
    type="agent",
    tenant="shop-a",
    id="support-bot",
    read=["tenant/shop-a/user/*"],
    write=["tenant/shop-a/user/*"],
)


def record(**over: Any) -> MemoryRecord:
    content = over.pop("content", "用户偏好短信通知")
    value = over.pop("structured_value", {"channel": "sms"})
    at = over.pop("at", T0)
    data: dict[str, Any] = {
        "memory_id": f"mem_{uuid.uuid4().hex}",
        "tenant_id": "shop-a",
        "namespace": NS,
        "subject_ref": "user:123",
        "kind": "profile",
        "key": "notification.preference",
        "content": content,
        "structured_value": value,
        "source_refs": ["msg://t1/1"],
        "source_type": "user_assertion",
        "confidence": 1.0,
        "sensitivity": "internal",
        "valid_from": at,
        "valid_to": None,
        "recorded_at": at,
        "expires_at": None,
        "consent_ref": None,
        "status": "active",
        "version": 1,
        "content_hash": content_hash(content, value),
        "extractor": DIRECT_EXTRACTOR,
        "written_by": USER,
    }
    data.update(over)
    return MemoryRecord.model_validate(data)


def draft(
    candidate: dict[str, Any],
    *,
    at: datetime = T0,
    principal: Principal | None = None,
    negated: bool = False,
    policy: Policy | None = None,
) -> Draft:
    who = principal or Principal(type="user", tenant="shop-a", id="123")
    return build_draft(
        Candidate.model_validate(candidate),
        principal=who,
        namespace=NS,
        policy=policy or Policy(),
        at=at,
        memory_id=f"mem_{uuid.uuid4().hex}",
        extractor=DIRECT_EXTRACTOR,
        default_timezone="Asia/Shanghai",
        negated=negated,
    )


def sms(**over: Any) -> dict[str, Any]:
    return {
        "kind": "profile",
        "key": "notification.preference",
        "structured_value": {"channel": "sms"},
        "content": "用户偏好短信通知",
        **over,
    }


def email(**over: Any) -> dict[str, Any]:
    return {
        "kind": "profile",
        "key": "notification.preference",
        "structured_value": {"channel": "email"},
        "content": "用户偏好邮件通知",
        **over,
    }
