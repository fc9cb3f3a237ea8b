"""Deletion: which memories a scope covers, who may delete them, and proof that they are gone."""

from __future__ import annotations

from datetime import datetime

from memory.errors import InvalidInput, UnauthorizedNamespace
from memory.models import (
    READABLE_STATUSES,
    DeletionScope,
    MemoryRecord,
    Principal,
    ProbeResult,
    RecallQuery,
)
from memory.namespaces import parse_namespace
from memory.retrieval import Reader
from memory.stores import Stores
from memory.stores.projection import SearchFilters


def resolve_scope(stores: Stores, tenant: str, scope: DeletionScope) -> list[MemoryRecord]:
    """Every memory (any status) the scope covers, within one tenant."""
    canonical = stores.canonical
    if scope.namespace is not None:
        if parse_namespace(scope.namespace).tenant != tenant:
            raise InvalidInput(
                f"namespace {scope.namespace} is not in tenant {tenant}", field="scope"
            )
        records = canonical.namespace_heads(scope.namespace, scope.key)
    else:
        assert scope.subject_ref is not None
        records = canonical.subject_heads(tenant, scope.subject_ref)
    if scope.subject_ref is not None:
        records = [r for r in records if r.subject_ref == scope.subject_ref]
    return records


def authorize(
    principal: Principal, tenant: str, scope: DeletionScope, records: list[MemoryRecord]
) -> None:
    """All or nothing: a principal that may not delete every covered namespace deletes nothing."""
    if principal.tenant != tenant:
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete in tenant {tenant}", field="scope"
        )
    namespaces = {r.namespace for r in records}
    if scope.namespace is not None:
        namespaces.add(scope.namespace)
    denied = sorted(ns for ns in namespaces if not principal.can_delete(ns))
    if denied:
        raise UnauthorizedNamespace(
            f"{principal.ref} may not delete in {', '.join(denied)}", field="scope"
        )


def verify_erased(
    stores: Stores,
    *,
    principal: Principal,
    memory_ids: list[str],
    probes: list[dict[str, str | None]],
    at: datetime,
) -> list[ProbeResult]:
    """Ask every read path for the erased memories; each probe passes only if none comes back."""
    canonical, projection = stores.canonical, stores.projection
    erased = set(memory_ids)
    texts = [p["content"] for p in probes if p["content"]]
    namespaces = sorted({str(p["namespace"]) for p in probes})
    results: list[ProbeResult] = []

    heads = canonical.heads(memory_ids)
    leaked_heads = [m for m, r in heads.items() if r.status != "deleted" or r.content]
    leaked_versions = [
        m for m in memory_ids for v in canonical.versions(m) if v.content or v.structured_value
    ]
    results.append(
        ProbeResult(
            probe="canonical_by_id",
            passed=not leaked_heads and not leaked_versions,
            returned=len(leaked_heads) + len(leaked_versions),
            detail=f"{len(heads)} tombstoned heads, every version blanked",
        )
    )

    keys = sorted({str(p["key"]) for p in probes if p["key"]})
    by_key = [
        r.memory_id
        for r in canonical.key_records(namespaces, keys, READABLE_STATUSES)
        if r.memory_id in erased
    ]
    results.append(ProbeResult(probe="canonical_by_key", passed=not by_key, returned=len(by_key)))

    if namespaces:
        tenant = parse_namespace(namespaces[0]).tenant
        wide = SearchFilters(tenant_id=tenant, namespaces=tuple(namespaces), statuses=None)
        keyword_hits = {
            h.memory_id for text in texts for h in projection.keyword_search(text, wide, 50)
        }
        vectors = stores.embedder.embed(texts)
        vector_hits = {h.memory_id for v in vectors for h in projection.vector_search(v, wide, 50)}
        leaked_rows = projection.state(memory_ids)
    else:
        keyword_hits, vector_hits, leaked_rows = set(), set(), {}
    results.append(
        ProbeResult(
            probe="keyword_search",
            passed=not keyword_hits & erased,
            returned=len(keyword_hits & erased),
        )
    )
    results.append(
        ProbeResult(
            probe="vector_search",
            passed=not vector_hits & erased,
            returned=len(vector_hits & erased),
        )
    )
    results.append(
        ProbeResult(probe="projection_rows", passed=not leaked_rows, returned=len(leaked_rows))
    )

    reader = Reader(stores)
    readable = [ns for ns in namespaces if principal.can_read(ns)]
    leaked_recall = 0
    if readable:
        for text in texts:
            recall = reader.recall(
                RecallQuery(
                    principal=principal.ref, namespaces=readable, query=text, keys=keys, k=50, at=at
                ),
                now=at,
                use_cache=False,
            )
            leaked_recall += sum(
                1
                for m in recall.memories
                if m.memory_id in erased or any(t in m.content for t in texts)
            )
    results.append(ProbeResult(probe="recall", passed=leaked_recall == 0, returned=leaked_recall))
    return results
