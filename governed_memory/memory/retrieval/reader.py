"""The `Reader`: recall's orchestration (identity, allowed namespaces, the cache, candidates,
the walks, scores, choice and verdicts; the pipeline is `memory.retrieval`'s docstring), the
principals it reads for, and entity views."""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from governed_memory.memory import metrics
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import (
    READABLE_STATUSES,
    EntityView,
    Kind,
    Principal,
    RecallQuery,
    RecallResult,
    RetrievedMemory,
    built,
    utcnow,
)
from governed_memory.memory.policy import Policy
from governed_memory.memory.retrieval.cache import RecallCache
from governed_memory.memory.retrieval.candidates import (
    _Candidate,
    _filters,
    _known_at,
    _may_read,
    _refusal,
    _score,
    _select,
    _text_and_keys,
    asked_terms,
)
from governed_memory.memory.retrieval.entities import entity_view, top_entity_keys
from governed_memory.memory.retrieval.graph_walk import _add_context, _add_graph
from governed_memory.memory.retrieval.verdicts import _verdicts
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import Hit, SearchFilters

#: Seconds a reader trusts its copy of a principal's grants.
PRINCIPAL_TTL = 2.0


class Reader:
    """Read-side service: the client, the context builder and the deletion probes use it."""

    def __init__(
        self, stores: Stores, cache: RecallCache | None = None, *, clock_override: bool = False
    ) -> None:
        self.stores = stores
        #: Whether a query's `at` is the clock (evaluation and tests) rather than a read as of
        #: a past time.
        self.clock_override = clock_override
        policy = stores.policy.retrieval
        self.cache = cache or RecallCache(policy.cache_entries, policy.cache_ttl_seconds)
        self._principals: dict[str, tuple[float, Principal]] = {}
        #: Whether a tenant has lowered rank weights, by the generations of the namespaces read
        #: (a weight that changes moves its namespace's generation).
        self._lowered: OrderedDict[tuple[Any, ...], bool] = OrderedDict()
        self._lowered_lock = threading.Lock()

    @property
    def policy(self) -> Policy:
        return self.stores.policy

    def principal(self, ref: str) -> Principal:
        return self._principal(ref)

    def forget_principal(self, ref: str) -> None:
        """A registry change made here takes effect here at once."""
        self._principals.pop(ref, None)

    def _principal(self, ref: str) -> Principal:
        """The registry's principal, remembered for a moment: a change of grants takes effect
        within PRINCIPAL_TTL seconds (and at once in a fresh process)."""
        now = time.monotonic()
        cached = self._principals.get(ref)
        if cached is not None and now - cached[0] <= PRINCIPAL_TTL:
            return cached[1]
        principal = self.stores.canonical.principals.get(ref)
        self._principals[ref] = (now, principal)
        return principal

    def allowed_namespaces(
        self, principal: Principal, namespaces: Iterable[str]
    ) -> tuple[list[str], list[str]]:
        names = list(dict.fromkeys(namespaces))
        allowed = [ns for ns in names if principal.can_read(ns)]
        return allowed, [ns for ns in names if ns not in allowed]

    # ------------------------------------------------------------------------ entities

    def entity(
        self,
        principal_ref: str,
        name: str,
        namespaces: Sequence[str],
        *,
        at: datetime | None = None,
        limit: int = 50,
    ) -> EntityView:
        """What the memories `principal_ref` may read in `namespaces` say of the entity `name`
        (a name, an id or a role word, as written or as its key). Every memory is read from
        canonical and admitted as a recall candidate is; relations come only from those."""
        principal = self._principal(principal_ref)
        allowed, refused = self.allowed_namespaces(principal, namespaces)
        return entity_view(self.stores, principal, allowed, refused, name, at, limit)

    def known_about(
        self, principal_ref: str, namespaces: Sequence[str], *, limit: int = 5
    ) -> list[EntityView]:
        """The entities the reader's memories mention most, each as `entity` shows it (the
        memory page's "what is known about")."""
        principal = self._principal(principal_ref)
        allowed, _ = self.allowed_namespaces(principal, namespaces)
        views = [
            self.entity(principal_ref, key, allowed)
            for key in top_entity_keys(self.stores, principal, allowed, limit)
        ]
        return [v for v in views if v.memories]

    # ------------------------------------------------------------------------ recall

    def recall(
        self,
        query: RecallQuery,
        *,
        now: datetime | None = None,
        use_cache: bool = True,
        roles: Collection[str] = (),
    ) -> RecallResult:
        """The memories `query` finds. `roles` are the principal's roles beyond the registry's
        (its verified token's): the caller has proven them."""
        canonical = self.stores.canonical
        principal = self._principal(query.principal)
        auditor = "auditor" in principal.roles or "auditor" in roles
        limit = self.policy.limits.max_recall_k
        if query.k > limit:
            raise InvalidInput(f"k must be at most {limit}", field="k")
        allowed, refused = self.allowed_namespaces(principal, query.namespaces)
        explicit = query.at is not None or query.valid_at is not None
        at = query.at or now or utcnow()
        valid_at = query.valid_at or at
        if not allowed:
            return RecallResult(memories=[], refused_namespaces=refused, at=at, valid_at=valid_at)
        # Every canonical read of one recall (generations, heads, the walks' re-checks) on one
        # connection: a connection taken and given back per read was a tenth of a recall.
        with canonical.db.reading():
            return self._recall(
                query, principal, allowed, refused, explicit, at, valid_at, auditor, now, use_cache
            )

    def _recall(
        self,
        query: RecallQuery,
        principal: Principal,
        allowed: list[str],
        refused: list[str],
        explicit: bool,
        at: datetime,
        valid_at: datetime,
        auditor: bool,
        now: datetime | None,
        use_cache: bool,
    ) -> RecallResult:
        canonical = self.stores.canonical
        generations = canonical.generations.read(allowed)
        cache_key = (
            principal.ref,
            tuple(allowed),
            query.task,
            query.query,
            tuple(query.keys),
            tuple(query.kinds or ()),
            query.k,
            at if explicit else None,
            valid_at if explicit else None,
            auditor,
        )
        if use_cache:
            hit = self.cache.get(cache_key, generations, None if explicit else at)
            if hit is not None:
                metrics.recall_returned(hit.memories)
                return hit.model_copy(update={"refused_namespaces": refused})

        # Asked about a time before the latest change of a namespace: the projection's current
        # filters may not describe that time, so it only proposes and canonical "as of" decides.
        as_of = any(changed is not None and changed > at for _, changed in generations.values())
        candidates = self._candidates(query, principal, allowed, at, valid_at, as_of)
        if self._any_lowered(principal.tenant, generations):
            self._rerank(candidates)
        if query.at is not None and not auditor:
            # A read as of a past time does not bring back what has expired since: that needs
            # an auditor. (With the clock override on, `at` is the clock itself.)
            current = at if self.clock_override else (now or utcnow())
            candidates = {m: c for m, c in candidates.items() if not c.record.expired_at(current)}
        verdicts = _verdicts(
            self.stores, query, allowed, candidates, at, valid_at, as_of, principal
        )
        chosen = _select(
            candidates,
            query.k,
            self.stores.embedder,
            self.policy,
            asked_terms(_text_and_keys(query)[0]),
        )
        result = RecallResult(
            memories=[self._retrieved(c) for c in chosen],
            verdicts=verdicts,
            refused_namespaces=refused,
            at=at,
            valid_at=valid_at,
        )
        if use_cache:
            self.cache.put(cache_key, generations, result)
        metrics.recall_returned(result.memories)
        return result

    def _candidates(
        self,
        query: RecallQuery,
        principal: Principal,
        allowed: list[str],
        at: datetime,
        valid_at: datetime,
        as_of: bool,
    ) -> dict[str, _Candidate]:
        """What recall may choose from, scored: the memories of the keys asked or implied, and
        what search proposes, re-checked against canonical as known at `at`, admitted, and
        joined by the other sides of their conflicts."""
        kinds = tuple(query.kinds) if query.kinds else None
        text, keys = _text_and_keys(query)
        found = self._key_candidates(allowed, keys, as_of)
        filters = self._filters(principal, allowed, kinds, at, valid_at, as_of)
        if text:
            self._propose(found, self._search(query, filters))
        _known_at(self.stores, found, at)
        admitted = self._admit(found, principal, allowed, kinds, at, valid_at)
        if text:
            # Neighbours brought in, like search's headroom, grow no further past
            # `pool_headroom_k`: at k = 200 reading 200 of them cost a quarter of the recall.
            neighbours = min(query.k, self.policy.retrieval.pool_headroom_k)
            _add_context(
                self.stores, admitted, filters, neighbours, principal, allowed, kinds, at, valid_at
            )
            # The walk admits no more than search proposes for this k (`pool`): at k = 5,
            # reading 40 reached memories from canonical was a third of a slow recall at 100k.
            admit = min(self.policy.retrieval.graph_admit, self.policy.retrieval.pool(query.k))
            _add_graph(
                self.stores,
                admitted,
                filters,
                text,
                principal,
                allowed,
                kinds,
                at,
                valid_at,
                admit=admit,
            )
        self._add_conflict_sides(admitted, allowed, at, valid_at)
        for c in admitted.values():
            c.score = _score(c, at, self.policy)
        return admitted

    def _any_lowered(
        self, tenant: str, generations: dict[str, tuple[int, datetime | None]]
    ) -> bool:
        key = (tenant, tuple(sorted((ns, g[0]) for ns, g in generations.items())))
        with self._lowered_lock:
            found = self._lowered.get(key)
        if found is None:
            found = self.stores.canonical.feedback.any_lowered(tenant)
            with self._lowered_lock:
                self._lowered[key] = found
                while len(self._lowered) > 1024:
                    self._lowered.popitem(last=False)
        return found

    def _rerank(self, candidates: dict[str, _Candidate]) -> None:
        """Scores of memories runs kept ignoring, lowered by their weight (memory/feedback.py)."""
        weights = self.stores.canonical.feedback.rank_weights(candidates)
        for memory_id, weight in weights.items():
            c = candidates.get(memory_id)
            if c is not None:
                c.score = c.score * weight if c.score > 0 else c.score - (1.0 - weight)
                c.reasons.append(f"feedback_rank:{weight:.2f}")

    def _key_candidates(
        self, allowed: list[str], keys: list[str], as_of: bool
    ) -> dict[str, _Candidate]:
        """Key lookup in canonical: every memory of a key asked or implied by the task (with
        the statuses it may have had then, when the question is about an earlier time)."""
        statuses = ("active", "superseded", "invalidated") if as_of else READABLE_STATUSES
        found: dict[str, _Candidate] = {}
        for record in self.stores.canonical.records.key_records(allowed, keys, statuses):
            c = found.setdefault(record.memory_id, _Candidate(record))
            c.key_match = True
            c.reasons.append(f"key:{record.key}")
        return found

    @staticmethod
    def _filters(
        principal: Principal,
        allowed: list[str],
        kinds: tuple[Kind, ...] | None,
        at: datetime,
        valid_at: datetime,
        as_of: bool,
    ) -> SearchFilters:
        """What the projection may propose (`candidates._filters`)."""
        return _filters(principal, allowed, kinds, at, valid_at, as_of)

    def _search(self, query: RecallQuery, filters: SearchFilters) -> list[Hit]:
        """Hybrid search in the projection, cut to what is relevant enough. The query and the
        task are searched each on its own, a memory keeping the better relevance: what the
        task says about the work at hand does not dilute the question asked, nor the reverse."""
        pool = self.policy.retrieval.pool(query.k)
        best: dict[str, Hit] = {}
        for text in dict.fromkeys(t for t in (query.query, query.task) if t):
            for hit in self.stores.projection.search(text, filters, limit=pool):
                seen = best.get(hit.memory_id)
                if seen is None or hit.score > seen.score:
                    best[hit.memory_id] = hit
        min_relevance = self.policy.retrieval.min_relevance
        hits = sorted(best.values(), key=lambda h: (-h.score, h.memory_id))
        return [h for h in hits if h.score >= min_relevance][:pool]

    def _propose(self, found: dict[str, _Candidate], hits: list[Hit]) -> None:
        """Add the search hits to the candidates (one read of canonical heads for those the key
        lookup did not find), with their fused relevance, keyword match and projected vector."""
        missing = [h.memory_id for h in hits if h.memory_id not in found]
        heads = self.stores.canonical.records.heads(missing)
        for hit in hits:
            proposed = found.get(hit.memory_id)
            if proposed is None:
                head = heads.get(hit.memory_id)
                if head is None:
                    continue  # a projection row with no canonical record: never returned
                proposed = found[hit.memory_id] = _Candidate(head)
            c = proposed
            c.relevance = hit.score
            c.keyword = hit.keyword_rank is not None
            c.vector = hit.vector
            c.reasons.append(f"search:{c.relevance:.2f}" + ("+keyword" if c.keyword else ""))

    def _admit(
        self,
        found: dict[str, _Candidate],
        principal: Principal,
        allowed: list[str],
        kinds: tuple[Kind, ...] | None,
        at: datetime,
        valid_at: datetime,
    ) -> dict[str, _Candidate]:
        """The candidates canonical allows (`_may_read`) that are asked for by key or relevant
        enough."""
        min_relevance = self.policy.retrieval.min_relevance
        admitted: dict[str, _Candidate] = {}
        refused: Counter[str] = Counter()
        for memory_id, c in found.items():
            if not _may_read(c.record, principal, allowed, kinds, at, valid_at):
                refused[_refusal(c.record, principal, allowed, kinds)] += 1
                continue
            if not c.key_match and c.relevance < min_relevance:
                continue
            c.reasons.append("canonical_checked")
            admitted[memory_id] = c
        metrics.recall_checked(len(admitted), refused)
        return admitted

    def _add_conflict_sides(
        self,
        admitted: dict[str, _Candidate],
        allowed: list[str],
        at: datetime,
        valid_at: datetime,
    ) -> None:
        """Both sides of a conflict surface together: fetch the sides search did not propose."""
        groups = {c.record.conflict_group for c in admitted.values() if c.record.conflict_group}
        if not groups:
            return
        keys_in_groups = {c.record.key for c in admitted.values() if c.record.conflict_group}
        for record in self.stores.canonical.records.key_records(
            allowed, [k for k in keys_in_groups if k], ["active"]
        ):
            if (
                record.conflict_group in groups
                and record.memory_id not in admitted
                and record.readable_at(at, valid_at)
            ):
                side = _Candidate(record, reasons=["conflict_side", "canonical_checked"])
                admitted[record.memory_id] = side

    @staticmethod
    def _retrieved(c: _Candidate) -> RetrievedMemory:
        """What recall answers of a chosen memory: its record's fields as canonical holds them
        (a validated record, not validated again: at k = 200 that was a twentieth of the
        recall), its score and reasons."""
        r = c.record
        return built(
            RetrievedMemory,
            {
                "memory_id": r.memory_id,
                "version": r.version,
                "namespace": r.namespace,
                "kind": r.kind,
                "key": r.key,
                "content": r.content,
                "structured_value": r.structured_value,
                "source_refs": r.source_refs,
                "source_type": r.source_type,
                "valid_from": r.valid_from,
                "valid_to": r.valid_to,
                "recorded_at": r.recorded_at,
                "confidence": r.confidence,
                "sensitivity": r.sensitivity,
                "retrieval_score": round(c.score, 6),
                "retrieval_reasons": c.reasons,
                "conflict_group": r.conflict_group,
            },
        )
