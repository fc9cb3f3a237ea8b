"""Builders for records and requests used across tests."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from governed_memory.memory.models import (
    DIRECT_EXTRACTOR,
    Candidate,
    MemoryRecord,
    Principal,
    content_hash,
)
from governed_memory.memory.policy import Policy
from governed_memory.memory.sameness import gist_of
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.write.stages import Draft, build_draft

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
#: An agent whose writes wait for a reviewer (candidate only).
DRAFTER = Principal(
    type="agent",
    tenant="shop-a",
    id="drafter",
    write=["tenant/shop-a/user/*"],
    read=["tenant/shop-a/user/*"],
    candidate_only=True,
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
        "gist": gist_of(content, value),
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


_PRODUCTS = (
    "耳机",
    "冰箱",
    "洗衣机",
    "手机壳",
    "电饭煲",
    "台灯",
    "运动鞋",
    "羽绒服",
    "咖啡机",
    "行李箱",
)
_ISSUES = ("左边没有声音", "发货太慢", "少发了配件", "包装破损", "颜色不对", "无法开机", "尺码偏小")
_FILLER = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指"


def episode(i: int) -> dict[str, Any]:
    """The i-th of many distinct episodic memories (distinct words, not only distinct numbers,
    so recall tests that look one of them up are not about telling numbers apart)."""
    rng = random.Random(i)
    tail = "".join(rng.choice(_FILLER) for _ in range(10))
    text = f"用户说{_PRODUCTS[i % len(_PRODUCTS)]}{_ISSUES[i % len(_ISSUES)]}，{tail}"
    return {"kind": "episodic", "content": text}


def search_filters(**over: Any) -> SearchFilters:
    """The projection's filters for tenant shop-a's user namespace, an hour after T0."""
    base: dict[str, Any] = {
        "tenant_id": "shop-a",
        "namespaces": (NS,),
        "valid_at": T0 + timedelta(hours=1),
        "not_expired_at": T0 + timedelta(hours=1),
    }
    base.update(over)
    return SearchFilters(**base)
