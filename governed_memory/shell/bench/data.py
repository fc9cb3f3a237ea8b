"""Synthetic memories and queries for the benchmarks, and loading them into the stores."""

from __future__ import annotations

import random
import statistics
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from governed_memory.memory.models import DIRECT_EXTRACTOR, MemoryRecord, content_hash
from governed_memory.memory.sameness import gist_of
from governed_memory.memory.stores import Stores

_SUBJECTS_ZH = ["用户", "客户", "买家", "会员"]
_TOPICS_ZH = ["退款", "物流", "发票", "换货", "优惠券", "积分", "地址", "配送", "售后", "评价"]
_DETAILS_ZH = [
    "延误三天",
    "已经签收",
    "需要加急",
    "希望周末送达",
    "申请部分退款",
    "咨询保修",
    "更换颜色",
    "修改收货人",
    "重复扣款",
    "包裹破损",
]
_TOPICS_EN = [
    "refund",
    "delivery",
    "invoice",
    "exchange",
    "coupon",
    "loyalty points",
    "address",
    "shipping",
    "warranty",
    "review",
]
_DETAILS_EN = [
    "was delayed three days",
    "arrived damaged",
    "needs express handling",
    "should arrive on the weekend",
    "was charged twice",
    "asked about the warranty",
    "wants another colour",
    "changed the recipient",
    "lost the receipt",
    "prefers pickup",
]


#: Recipients half the memories name (1,000 per language): an entity a few memories of a
#: namespace share, so the graph walk has links to follow, as in real memories.
def _names(text: str) -> list[str]:
    return text.split()


_FIRST_EN = _names(
    "Anna Ben Clara David Emma Felix Grace Henry Iris Jonas Karin Leo Maya Noah Olga Paul Rosa"
    " Sam Tara Umar Vera Will Yara Zoe Adam Bella Carl Dina Eric Fay Gil Hana Ivan Jade Kurt"
    " Lena Milo Nina Otto Pia"
)
_LAST_EN = _names(
    "Schmidt Kowalski Novak Larsen Moreau Rossi Silva Jensen Berg Weber Costa Dubois Hansen"
    " Horvat Lindqvist Meyer Nowak Petrov Quinn Russo Sato Tanaka Varga Walsh Young"
)
_SURNAMES_ZH = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
_GIVEN_ZH = _names(
    "思远 晓峰 立新 雨桐 子涵 浩然 欣怡 俊杰 嘉怡 宇轩 梓萱 明轩 诗琪 一鸣 佳琪 博文 雅婷"
    " 志强 婉清 天佑 若曦 承泽 可欣 文博 静怡 子墨 语嫣 泽宇 梦洁 建华 秀英 国栋 丽娟 海涛"
    " 春燕 振宇 慧敏 永刚 晓东 美玲 德胜 玉兰 卫东 红霞 少华 秋月 家豪 思琪 宏伟 凤英"
)


def synthetic_text(rng: random.Random, i: int) -> str:
    named = rng.random() < 0.5
    if rng.random() < 0.6:
        who = f"，收件人{rng.choice(_SURNAMES_ZH)}{rng.choice(_GIVEN_ZH)}" if named else ""
        return (
            f"{rng.choice(_SUBJECTS_ZH)}关于{rng.choice(_TOPICS_ZH)}的记录：订单 ORD-{i:08d} "
            f"{rng.choice(_DETAILS_ZH)}{who}，{rng.choice(_TOPICS_ZH)}{rng.choice(_DETAILS_ZH)}"
        )
    who = f", for {rng.choice(_FIRST_EN)} {rng.choice(_LAST_EN)}" if named else ""
    return (
        f"The customer's {rng.choice(_TOPICS_EN)} for order ORD-{i:08d} "
        f"{rng.choice(_DETAILS_EN)}{who}; also {rng.choice(_TOPICS_EN)} {rng.choice(_DETAILS_EN)}"
    )


def synthetic_queries(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        if rng.random() < 0.6:
            out.append(f"{rng.choice(_TOPICS_ZH)} {rng.choice(_DETAILS_ZH)}")
        else:
            out.append(f"{rng.choice(_TOPICS_EN)} {rng.choice(_DETAILS_EN)}")
    return out


def _stats(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
    }


# ------------------------------------------------------------------------------ write


def synthetic_records(
    tenant: str, namespace: str, n: int, rng: random.Random
) -> list[MemoryRecord]:
    at = datetime(2026, 7, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        text = synthetic_text(rng, i)
        out.append(
            MemoryRecord(
                memory_id=f"mem_{uuid.uuid4().hex}",
                tenant_id=tenant,
                namespace=namespace,
                subject_ref="user:bench",
                kind="episodic" if i % 4 else "semantic",
                key=None,
                content=text,
                structured_value=None,
                source_refs=[f"msg://bench/{i}"],
                source_type="user_assertion",
                confidence=0.9,
                sensitivity="internal",
                valid_from=at - timedelta(minutes=i),
                valid_to=None,
                recorded_at=at,
                expires_at=None,
                consent_ref=None,
                status="active",
                version=1,
                content_hash=content_hash(text),
                gist=gist_of(text),
                extractor=DIRECT_EXTRACTOR,
                written_by="service:bench/loader",
            )
        )
    return out


def load(stores: Stores, records: list[MemoryRecord], vectors: Any = None) -> None:
    """Bulk-load records into canonical (with their outbox events) and the projection."""
    at = datetime(2026, 7, 1, tzinfo=UTC)
    for i in range(0, len(records), 5000):
        batch = records[i : i + 5000]
        seqs = stores.canonical.commits.load(batch, at)
        stores.projection.upsert(batch, None if vectors is None else vectors[i : i + 5000])
        stores.canonical.outbox.mark_processed(seqs, at)
