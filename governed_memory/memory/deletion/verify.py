"""Proof that no read path returns what a deletion erased.

Verification asks every read path for what was erased, one probe each, in a fixed order:
canonical by id and by key; keyword search, vector search and the projection's rows; recall and
context building as the owner and as an agent; summaries, conversation history, and the cache.
A probe passes only if nothing comes back: no erased id, and no text that holds an erased text.
The erased text itself is not kept: it is recognised by its salted fingerprints
(`memory.fingerprints`), and the read paths are asked with the scope's keys and their labels,
the words the service itself uses for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from governed_memory.memory.context import ContextBuilder
from governed_memory.memory.fingerprints import Fingerprints
from governed_memory.memory.models import (
    READABLE_STATUSES,
    MemoryRecord,
    Principal,
    ProbeResult,
    RecallQuery,
)
from governed_memory.memory.models.context import ContextBudget, ContextRequest
from governed_memory.memory.models.deletion import ResolvedScope
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters, graph_of
from governed_memory.memory.vocabulary import PROFILE_KEYS

#: Recall and context probes ask with at most this many of the scope's queries (spread over the
#: scope); every erased id is checked exhaustively by the store-level probes, and recall can
#: only return what the canonical re-check confirms.
READ_PATH_SAMPLE = 16


def _spread(items: list[str], n: int) -> list[str]:
    """At most `n` items, evenly spread over the list (deterministic)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


@dataclass
class _Probing:
    """One verification: what was erased, how to recognise it, and the probe results so far."""

    stores: Stores
    resolved: ResolvedScope
    at: datetime
    progress: Callable[[Any], None]
    erased: set[str]
    #: What the read paths are asked with (the scope's keys and their labels).
    texts: list[str]
    needles: Fingerprints
    results: list[ProbeResult] = field(default_factory=list)

    @property
    def namespaces(self) -> list[str]:
        return self.resolved.namespaces

    def probe(self, name: str, leaked: int, detail: str = "") -> None:
        self.progress(name)
        self.results.append(
            ProbeResult(probe=name, passed=leaked == 0, returned=leaked, detail=detail)
        )

    def leaks(self, memory_id: str, content: str) -> bool:
        """An erased memory, or any text holding an erased text."""
        return memory_id in self.erased or self.needles.found_in(content)


def verify_erased(
    stores: Stores,
    *,
    requester: Principal,
    resolved: ResolvedScope,
    probes: list[dict[str, Any]],
    generations_before: dict[str, int],
    at: datetime,
    progress: Callable[[Any], None] = lambda _: None,
) -> list[ProbeResult]:
    """Ask every read path for what was erased; each probe passes only if nothing comes back:
    canonical by id and by key, keyword search with the erased text, vector search with its
    embedding, recall and context building as the owner and as an agent, summaries,
    conversation history, feedback, the subject's consents, projection rows, and the cache
    (every namespace's generation moved)."""
    erased = set(resolved.all_memory_ids)
    salt = next((str(p["salt"]) for p in probes if p["salt"]), None)
    needles = Fingerprints(salt, [str(p["fingerprint"]) for p in probes])
    run = _Probing(stores, resolved, at, progress, erased, _asked_with(resolved), needles)
    namespaces = resolved.namespaces
    _probe_canonical(run)
    tenant = parse_namespace(namespaces[0]).tenant if namespaces else requester.tenant
    _probe_search(run, tenant)
    _probe_readers(run, _readers(run, requester, tenant))
    _probe_summaries(run)
    _probe_conversation_history(run)
    _probe_feedback(run)
    _probe_consents(run)
    _probe_cache(run, generations_before)
    _probe_storage(run)
    return run.results


def _asked_with(resolved: ResolvedScope) -> list[str]:
    """What the read paths are asked with: each key of the scope, with its labels."""
    asked: list[str] = []
    for key in resolved.keys:
        known = PROFILE_KEYS.get(key)
        asked += [key.replace(".", " ")] + ([known.label_en, known.label_zh] if known else [])
    return asked


def _probe_canonical(run: _Probing) -> None:
    """canonical_by_id: every erased memory tombstoned and every version blanked;
    canonical_by_key: no readable record of the scope's keys is erased or states it."""
    records = run.stores.canonical.records
    heads = records.heads(run.erased)
    leaked_heads = [m for m, r in heads.items() if r.status != "deleted" or r.content]
    leaked_versions = records.unblanked(run.erased)
    run.probe(
        "canonical_by_id",
        len(leaked_heads) + len(leaked_versions),
        f"{len(heads)} memories tombstoned, every version blanked",
    )
    by_key = [
        r
        for r in records.key_records(run.namespaces, run.resolved.keys, READABLE_STATUSES)
        if run.leaks(r.memory_id, r.content)
    ]
    run.probe("canonical_by_key", len(by_key))


def _probe_search(run: _Probing, tenant: str) -> None:
    """keyword_search, vector_search and projection_rows: the projection's read paths asked
    with the scope's keys and labels, and every indexed row of the scope looked through."""
    projection = run.stores.projection
    wide = SearchFilters(tenant_id=tenant, namespaces=tuple(run.namespaces), statuses=None)
    # The keyword read path with the scope's queries; then every indexed row of the scope
    # is read and looked through for any of them.
    keyword_ids = {
        h.memory_id
        for t in _spread(run.texts, READ_PATH_SAMPLE * 4)
        for h in projection.keyword_search(t, wide, 50)
    }
    indexed = {m for m, text in projection.scan(wide) if run.leaks(m, text)}
    vector_ids = {
        h.memory_id
        for v in (
            run.stores.embedder.embed(_spread(run.texts, READ_PATH_SAMPLE * 4)) if run.texts else []
        )
        for h in projection.vector_search(v, wide, 20)
    }
    found_heads = run.stores.canonical.records.heads(keyword_ids | vector_ids)
    asked = f"asked with {len(run.texts)} queries of the scope's keys"
    run.probe("keyword_search", _leaking(run, keyword_ids, found_heads), asked)
    run.probe("vector_search", _leaking(run, vector_ids, found_heads), asked)
    run.probe(
        "projection_rows",
        len(set(projection.state(list(run.erased))) | indexed),
        "no indexed row is an erased memory or holds an erased text",
    )
    graph = graph_of(projection)
    if graph is not None:
        # An entity is the mentions of its key: with no mention, alias or relation of an erased
        # memory left (and none whose memory row is gone), its names are unreachable.
        said = graph.entities_of(list(run.erased), wide)
        run.probe(
            "graph",
            graph.graph_leftovers() + sum(len(named) for named in said.values()),
            "no entity mention, alias or relation of an erased memory is left",
        )


def _leaking(run: _Probing, ids: set[str], found_heads: dict[str, MemoryRecord]) -> int:
    """How many of the ids a search returned are erased, or hold an erased text."""
    return sum(
        1
        for m in ids
        if m in run.erased or (m in found_heads and run.needles.found_in(found_heads[m].content))
    )


def _readers(run: _Probing, requester: Principal, tenant: str) -> list[tuple[Principal, str]]:
    """Who reads, labelled: the requester and the owner of a user namespace (at most two
    owners), then up to three agents that may read in the scope."""
    readers = [requester]
    for ns in {parse_namespace(n) for n in run.namespaces}:
        owner = Principal(type="user", tenant=ns.tenant, id=ns.id or "")
        if ns.scope == "user" and all(r.ref != owner.ref for r in readers):
            readers.append(owner)
    agents = [
        p
        for p in run.stores.canonical.principals.of_tenant(tenant)
        if p.type == "agent" and any(p.can_read(ns) for ns in run.namespaces)
    ][:3]
    return [*((r, "owner") for r in readers[:2]), *((a, "agent") for a in agents)]


def _probe_readers(run: _Probing, readers: list[tuple[Principal, str]]) -> None:
    """recall_as_<label> and context_as_<label>, for each reader that may read in the scope."""
    reader = Reader(run.stores)
    builder = ContextBuilder(reader)
    for who, label in readers:
        readable = [ns for ns in run.namespaces if who.can_read(ns)]
        if not readable:
            continue
        _probe_recall(run, reader, who, label, readable)
        _probe_context(run, builder, who, label, readable)


def _probe_recall(
    run: _Probing, reader: Reader, who: Principal, label: str, readable: list[str]
) -> None:
    leaked = 0
    asked = _spread(run.texts, READ_PATH_SAMPLE)
    for text in asked or [""]:
        recall = reader.recall(
            RecallQuery(
                principal=who.ref,
                namespaces=readable,
                query=text or None,
                task=text or "forget",
                keys=run.resolved.keys,
                k=50,
                at=run.at,
            ),
            now=run.at,
            use_cache=False,
        )
        leaked += sum(1 for m in recall.memories if run.leaks(m.memory_id, m.content))
    run.probe(
        f"recall_as_{label}", leaked, f"{who.ref}; asked with {len(asked)} of {len(run.texts)}"
    )


def _probe_context(
    run: _Probing, builder: ContextBuilder, who: Principal, label: str, readable: list[str]
) -> None:
    threads = sorted({t.thread for t in run.resolved.summaries})
    package = builder.build(
        ContextRequest(
            principal=who.ref,
            namespaces=readable,
            task=run.texts[0] if run.texts else "forget",
            budget=ContextBudget(total_tokens=16000, reserved_output_tokens=0),
            thread=threads[0] if threads else None,
            at=run.at,
        )
    )
    # The goal is the probe's own words: look everywhere else in the package.
    shown = "\n".join(i.content for i in package.items if i.kind != "current_goal")
    run.probe(f"context_as_{label}", int(run.needles.found_in(shown)), who.ref)


def _probe_summaries(run: _Probing) -> None:
    summaries = [
        r
        for ns in run.namespaces
        for r in run.stores.canonical.records.namespace_heads(ns)
        if r.kind == "summary" and r.status in READABLE_STATUSES
    ]
    run.probe("summaries", sum(1 for r in summaries if run.needles.found_in(r.content)))


def _probe_conversation_history(run: _Probing) -> None:
    messages = [m for ns in run.namespaces for m in run.stores.canonical.messages.in_namespace(ns)]
    run.probe("conversation_history", sum(1 for m in messages if run.needles.found_in(m.text)))


def _probe_feedback(run: _Probing) -> None:
    """No feedback event or rank signal about an erased memory is kept."""
    run.probe(
        "feedback",
        run.stores.canonical.feedback.remaining(sorted(run.erased)),
        "feedback events and signals go with their memory",
    )


def _probe_consents(run: _Probing) -> None:
    """No consent of the erased subject is kept (nor its purpose)."""
    run.probe(
        "consents",
        run.stores.canonical.consents.remaining(run.resolved.consents),
        f"{len(run.resolved.consents)} consents of the subject deleted",
    )


#: The canonical tables an erase rewrites (what Postgres vacuums after it).
ERASED_TABLES = (
    "memory_heads",
    "memory_versions",
    "conversation_messages",
    "write_outcomes",
    "memory_outbox",
    "deletion_probes",
    "memory_feedback",
    "memory_signals",
    "consents",
)


def _probe_storage(run: _Probing) -> None:
    """No copy of erased rows left in the stores' files: SQLite's WAL checkpointed and
    truncated (canonical and projection), Postgres' touched tables vacuumed."""
    canonical = run.stores.canonical.db.compact(ERASED_TABLES)
    projected, detail = run.stores.projection.compact()
    run.probe(
        "storage_files",
        (not canonical.done) + (not projected),
        f"canonical: {canonical.detail}; projection: {detail}",
    )


def _probe_cache(run: _Probing, generations_before: dict[str, int]) -> None:
    """Every namespace's generation moved past the deletion (no cached read survives it). A
    scope that matched nothing erased nothing a cached read could hold."""
    if run.resolved.empty:
        run.probe("cache", 0, "nothing was erased: no cached read holds it")
        return
    now = run.stores.canonical.generations.read(run.namespaces)
    stale = [ns for ns in run.namespaces if now[ns][0] <= generations_before.get(ns, 0)]
    run.probe("cache", len(stale), "every namespace's generation moved past the deletion")
