"""The read path: governed recall over the projection, re-checked against the canonical store.

Order of the pipeline: identity → allowed namespaces → kinds → valid time and expiry → candidates
(key lookup in canonical + hybrid search in the projection) → every candidate re-checked against
canonical (status, version, namespace, sensitivity ceiling) → rerank → top k. The projection only
proposes; canonical decides. A lagging or broken projection can therefore make recall miss
something, never return something deleted, superseded, expired or forbidden.
"""

from __future__ import annotations

from datetime import datetime

from memory.errors import InvalidInput
from memory.models import (
    READABLE_STATUSES,
    SENSITIVITY_ORDER,
    MemoryRecord,
    Principal,
    RecallQuery,
    RecallResult,
    RetrievedMemory,
    utcnow,
)
from memory.namespaces import parse_namespace
from memory.stores import Stores
from memory.stores.projection import SearchFilters

# Trust order of sources (DESIGN.md): human review > user's explicit statement > verified tool >
# derived summary > model inference.
SOURCE_TRUST: dict[str, float] = {
    "human_review": 1.0,
    "user_assertion": 0.9,
    "system_policy": 0.85,
    "verified_tool_fact": 0.8,
    "derived_summary": 0.6,
    "model_inference": 0.4,
}


class Reader:
    """Read-side service: the client and the worker's verification probes use the same code."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores

    def allowed_namespaces(
        self, principal: Principal, namespaces: list[str]
    ) -> tuple[list[str], list[str]]:
        allowed = [ns for ns in namespaces if principal.can_read(ns)]
        refused = [ns for ns in namespaces if ns not in allowed]
        return allowed, refused

    def recall(self, query: RecallQuery, *, now: datetime | None = None) -> RecallResult:
        canonical = self.stores.canonical
        principal = canonical.get_principal(query.principal)
        if query.k > self.stores.policy.limits.max_recall_k:
            raise InvalidInput(
                f"k must be at most {self.stores.policy.limits.max_recall_k}", field="k"
            )
        allowed, refused = self.allowed_namespaces(principal, query.namespaces)
        if not allowed:
            return RecallResult(memories=[], refused_namespaces=refused)
        at = query.at or now or utcnow()
        valid_at = query.valid_at or at
        ceiling = SENSITIVITY_ORDER[principal.sensitivity_ceiling]
        kinds = tuple(query.kinds) if query.kinds else None

        reasons: dict[str, list[str]] = {}
        relevance: dict[str, float] = {}
        for keyed in canonical.key_records(allowed, query.keys, READABLE_STATUSES):
            reasons.setdefault(keyed.memory_id, []).append(f"key:{keyed.key}")

        text = " ".join(t for t in (query.query, query.task) if t)
        if text:
            filters = SearchFilters(
                tenant_id=parse_namespace(allowed[0]).tenant,
                namespaces=tuple(allowed),
                kinds=kinds,
                valid_at=valid_at,
                not_expired_at=at,
                max_sensitivity=principal.sensitivity_ceiling,
            )
            for hit in self.stores.projection.search(text, filters, limit=2 * query.k + 5):
                reasons.setdefault(hit.memory_id, []).append("search")
                relevance[hit.memory_id] = max(hit.vector_score or 0.0, 0.0) + (
                    0.2 if hit.keyword_rank is not None else 0.0
                )

        records = canonical.heads(reasons)
        # "As recorded by `at`": a head written after `at` is replaced by the version known then.
        late = [m for m, head in records.items() if head.recorded_at > at]
        if late:
            known = canonical.as_of(late, at)
            for memory_id in late:
                if memory_id in known:
                    records[memory_id] = known[memory_id]
                else:
                    del records[memory_id]

        scored: list[RetrievedMemory] = []
        for memory_id, why in reasons.items():
            record = records.get(memory_id)
            if record is None or not self._admissible(
                record, allowed, kinds, ceiling, at, valid_at
            ):
                continue
            score = self._score(record, relevance.get(memory_id, 0.0), why, at)
            scored.append(_retrieved(record, score, [*why, "canonical_checked"]))
        scored.sort(key=lambda m: (-m.retrieval_score, m.memory_id))
        return RecallResult(memories=scored[: query.k], refused_namespaces=refused)

    @staticmethod
    def _admissible(
        record: MemoryRecord,
        allowed: list[str],
        kinds: tuple[str, ...] | None,
        ceiling: int,
        at: datetime,
        valid_at: datetime,
    ) -> bool:
        return (
            record.namespace in allowed
            and (kinds is None or record.kind in kinds)
            and SENSITIVITY_ORDER[record.sensitivity] <= ceiling
            and record.readable_at(at, valid_at)
        )

    @staticmethod
    def _score(record: MemoryRecord, relevance: float, reasons: list[str], at: datetime) -> float:
        key_match = 0.5 if any(r.startswith("key:") for r in reasons) else 0.0
        trust = 0.2 * SOURCE_TRUST[record.source_type] * record.confidence
        age_days = max((at - record.recorded_at).total_seconds() / 86400.0, 0.0)
        freshness = 0.1 / (1.0 + age_days / 30.0)
        return round(relevance + key_match + trust + freshness, 6)


def _retrieved(record: MemoryRecord, score: float, reasons: list[str]) -> RetrievedMemory:
    return RetrievedMemory(
        memory_id=record.memory_id,
        version=record.version,
        namespace=record.namespace,
        kind=record.kind,
        key=record.key,
        content=record.content,
        structured_value=record.structured_value,
        source_refs=record.source_refs,
        source_type=record.source_type,
        valid_from=record.valid_from,
        valid_to=record.valid_to,
        recorded_at=record.recorded_at,
        confidence=record.confidence,
        sensitivity=record.sensitivity,
        retrieval_score=score,
        retrieval_reasons=reasons,
        conflict_group=record.conflict_group,
    )
