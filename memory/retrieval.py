"""The read path: governed recall over the projection, re-checked against the canonical store.

Order of the pipeline: identity → allowed namespaces → kinds → valid time and expiry → candidates
(key lookup in canonical for the keys asked or implied by the task, plus hybrid search in the
projection) → every candidate re-checked against canonical (status, version, namespace,
sensitivity ceiling, as known at `at`) → score (relevance, task relevance, source trust,
freshness, user priority, minus conflict, staleness and privacy; weights in the policy) → dedupe
and conflict grouping → diversity → top k, with a verdict per key.

The projection only proposes; canonical decides. A lagging or broken projection can make recall
miss something, never return something deleted, superseded, expired or forbidden.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from memory import metrics
from memory.errors import InvalidInput
from memory.graph import entity_key, extract
from memory.models import (
    READABLE_STATUSES,
    SENSITIVITY_ORDER,
    EntityMemory,
    EntityRelation,
    EntityView,
    KeyState,
    KeyVerdict,
    Kind,
    MemoryRecord,
    Place,
    Principal,
    RecallQuery,
    RecallResult,
    RetrievedMemory,
    place_of,
    utcnow,
)
from memory.namespaces import parse_namespace
from memory.policy import Policy
from memory.sameness import redundant, same_statement
from memory.stores import Stores
from memory.stores.projection import Hit, SearchFilters, graph_of
from memory.vocabulary import SOURCE_TRUST, implied_keys

#: The relevance a role the question names (my sister, 上司) lends the memories that name it.
QUESTION_ROLE_RELEVANCE = 0.5

#: Seconds a reader trusts its copy of a principal's grants.
PRINCIPAL_TTL = 2.0


@dataclass
class _Candidate:
    record: MemoryRecord
    reasons: list[str] = field(default_factory=list)
    relevance: float = 0.0
    keyword: bool = False
    key_match: bool = False
    vector: npt.NDArray[np.float32] | None = None
    score: float = 0.0


@dataclass
class _Entry:
    generations: dict[str, tuple[int, datetime | None]]
    result: RecallResult
    created: float


class RecallCache:
    """Recent results, keyed on the query and valid only while the generations of its namespaces
    (kept in the canonical store, bumped by every write, deletion and expiry) are unchanged —
    whichever process holds the cache and whichever wrote. Entries for "now" also end after a
    short TTL and as soon as a returned memory's validity or retention ends."""

    def __init__(self, entries: int, ttl_seconds: float) -> None:
        self.entries = entries
        self.ttl = ttl_seconds
        self._data: OrderedDict[tuple[object, ...], _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(
        self,
        key: tuple[object, ...],
        generations: dict[str, tuple[int, datetime | None]],
        now: datetime | None,
    ) -> RecallResult | None:
        with self._lock:
            entry = self._data.get(key)
            if entry is None or entry.generations != generations:
                self.misses += 1
                return None
            if now is not None:  # a question about "now": time itself can make it stale
                fresh = time.monotonic() - entry.created <= self.ttl
                if not fresh or any(
                    (m.valid_to is not None and m.valid_to <= now) for m in entry.result.memories
                ):
                    self.misses += 1
                    return None
            self._data.move_to_end(key)
            self.hits += 1
            return entry.result.model_copy(update={"cached": True})

    def put(
        self,
        key: tuple[object, ...],
        generations: dict[str, tuple[int, datetime | None]],
        result: RecallResult,
    ) -> None:
        if self.entries <= 0:
            return
        with self._lock:
            self._data[key] = _Entry(generations, result, time.monotonic())
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)


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
        graph = graph_of(self.stores.projection)
        empty = EntityView(key=entity_key(name), refused_namespaces=refused)
        if not allowed or graph is None:
            return empty
        when = at or utcnow()
        filters = self._filters(principal, allowed, None, when, when, False)
        rows = None
        for key in _entity_keys(name):
            rows = graph.entity(key, filters, limit)
            if rows.memory_ids:
                break
        if rows is None or not rows.memory_ids:
            return empty
        ids = list(dict.fromkeys([*rows.memory_ids, *(r.memory_id for r in rows.relations)]))
        heads = self.stores.canonical.records.heads(ids)
        readable = {
            m: r for m, r in heads.items() if _may_read(r, principal, allowed, None, when, when)
        }
        stated = [r for r in rows.relations if r.memory_id in readable]
        name_of = {
            (m, e.key): e.name
            for m, named in graph.entities_of(
                list(dict.fromkeys(r.memory_id for r in stated)), filters
            ).items()
            for e in named
        }
        return EntityView(
            key=rows.key,
            names=rows.names,
            kinds=sorted(rows.kinds, key=lambda k: -rows.kinds[k]),
            aliases=sorted(rows.aliases),
            relations=[
                EntityRelation(
                    subject=r.subject,
                    predicate=r.predicate,
                    object=r.object,
                    memory_id=r.memory_id,
                    valid_from=readable[r.memory_id].valid_from,
                    valid_to=readable[r.memory_id].valid_to,
                    subject_name=name_of.get((r.memory_id, r.subject)),
                    object_name=name_of.get((r.memory_id, r.object)),
                )
                for r in stated
            ],
            memories=[
                EntityMemory(
                    memory_id=m,
                    version=readable[m].version,
                    namespace=readable[m].namespace,
                    content=readable[m].content,
                    source_type=readable[m].source_type,
                    valid_from=readable[m].valid_from,
                    valid_to=readable[m].valid_to,
                    recorded_at=readable[m].recorded_at,
                )
                for m in rows.memory_ids
                if m in readable
            ],
            refused_namespaces=refused,
        )

    def known_about(
        self, principal_ref: str, namespaces: Sequence[str], *, limit: int = 5
    ) -> list[EntityView]:
        """The entities the reader's memories mention most, each as `entity` shows it (the
        memory page's "what is known about")."""
        principal = self._principal(principal_ref)
        allowed, _ = self.allowed_namespaces(principal, namespaces)
        graph = graph_of(self.stores.projection)
        if not allowed or graph is None:
            return []
        now = utcnow()
        filters = self._filters(principal, allowed, None, now, now, False)
        views = [
            self.entity(principal_ref, key, allowed) for key in graph.top_entities(filters, limit)
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
        verdicts = self._verdicts(query, allowed, candidates, at, valid_at, as_of, principal)
        chosen = self._select(candidates, query.k, at)
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
        self._known_at(found, at)
        admitted = self._admit(found, principal, allowed, kinds, at, valid_at)
        if text:
            self._add_context(admitted, filters, query.k, principal, allowed, kinds, at, valid_at)
            self._add_graph(admitted, filters, text, principal, allowed, kinds, at, valid_at)
        self._add_conflict_sides(admitted, allowed, at, valid_at)
        for c in admitted.values():
            c.score = self._score(c, at)
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
        """What the projection may propose. (About an earlier time, its current filters may not
        describe it: it then proposes without time or status filters and canonical decides.)"""
        return SearchFilters(
            tenant_id=parse_namespace(allowed[0]).tenant,
            namespaces=tuple(allowed),
            kinds=kinds,
            valid_at=None if as_of else valid_at,
            not_expired_at=None if as_of else at,
            statuses=None if as_of else READABLE_STATUSES,
            max_sensitivity=principal.sensitivity_ceiling,
        )

    def _search(self, query: RecallQuery, filters: SearchFilters) -> list[Hit]:
        """Hybrid search in the projection, cut to what is relevant enough. The query and the
        task are searched each on its own, a memory keeping the better relevance: what the
        task says about the work at hand does not dilute the question asked, nor the reverse."""
        pool = max(query.k * self.policy.retrieval.candidate_pool, 20)
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

    def _known_at(self, found: dict[str, _Candidate], at: datetime) -> None:
        """Re-check against canonical as known at `at`: a head recorded later is replaced by the
        version known then (or dropped if it was not known yet)."""
        late = [m for m, c in found.items() if c.record.recorded_at > at]
        if late:
            then = self.stores.canonical.records.as_of(late, at)
            for memory_id in late:
                if memory_id in then:
                    found[memory_id].record = then[memory_id]
                else:
                    del found[memory_id]

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

    def _add_context(
        self,
        admitted: dict[str, _Candidate],
        filters: SearchFilters,
        limit: int,
        principal: Principal,
        allowed: list[str],
        kinds: tuple[Kind, ...] | None,
        at: datetime,
        valid_at: datetime,
    ) -> None:
        """Conversational context: a memory said in a conversation takes a share of the
        relevance of what was said before it (`context_previous`) and after it (`context_next`)
        in the same thread, within `context_window` messages, the share shrinking by
        `context_decay` with each message farther. An answer ("Yes, last May!") shares no word with
        a question about it; the turn it answers does. Only what canonical admitted for this
        reader lends relevance, and a neighbour it brings in is admitted like any candidate:
        a deleted, superseded or forbidden memory never counts, either way."""
        lent = self._lent(admitted)
        if not lent:
            return
        placed = {m: p for m, c in admitted.items() if (p := _place(c)) in lent}
        # Of the places that were not candidates, the `limit` that take the most (no more can
        # be chosen), and only those relevant enough.
        floor = self.policy.retrieval.min_relevance
        held = {placed[m] for m in placed}
        open_places = sorted(
            (p for p, v in lent.items() if p not in held and v >= floor), key=lambda p: -lent[p]
        )[:limit]
        hits = {
            h.memory_id: h
            for h in self.stores.projection.at_places(open_places, filters)
            if h.memory_id not in admitted
        }
        if hits:
            for m, c in self._read_reached(hits, principal, allowed, kinds, at, valid_at).items():
                place = _place(c)
                if place in lent:
                    c.vector = hits[m].vector
                    admitted[m], placed[m] = c, place
        for m, place in placed.items():
            c = admitted[m]
            c.relevance += lent[place]
            c.reasons.append(f"context:{lent[place]:.2f}")

    def _add_graph(
        self,
        admitted: dict[str, _Candidate],
        filters: SearchFilters,
        text: str,
        principal: Principal,
        allowed: list[str],
        kinds: tuple[Kind, ...] | None,
        at: datetime,
        valid_at: datetime,
    ) -> None:
        """The graph walk: from the entities the question names and those of the most relevant
        candidates, one or two hops to memories that mention the same entity (or one the text
        says is the same: "my sister Anna"). A memory reached takes `graph_share` of the
        relevance of what led there, weighed by how specific the entity is and `graph_decay`
        times less at the second hop, and says the path in its reasons. Everything reached is
        read from canonical and admitted like any candidate (`_may_read`): a memory the reader
        may not read, or that is not active at `at`, is neither reached nor reaching."""
        policy = self.policy.retrieval
        graph = graph_of(self.stores.projection)
        if graph is None or policy.graph_hops == 0 or policy.graph_budget == 0:
            return
        # Sources: the question (relevance 1 for the entities it names) and the best candidates.
        named = graph.known_entities(
            list(dict.fromkeys(m.key for m in extract(text).mentions)), filters
        )
        sources = sorted(
            (c for c in admitted.values() if c.relevance > 0),
            key=lambda c: (-c.relevance, c.record.memory_id),
        )[: policy.graph_seeds]
        lent: dict[str, tuple[float, str]] = {}
        frontier: dict[str, float] = {c.record.memory_id: c.relevance for c in sources}
        question = dict.fromkeys(named, 1.0)
        budget = policy.graph_budget
        for hop in range(policy.graph_hops):
            decay = policy.graph_decay**hop
            by_entity: dict[str, tuple[float, str]] = {}
            names: dict[str, str] = {}
            for memory_id, mentioned in graph.entities_of(list(frontier), filters).items():
                for e in mentioned:
                    if frontier[memory_id] > by_entity.get(e.key, (0.0, ""))[0]:
                        by_entity[e.key] = (frontier[memory_id], memory_id)
                    if e.kind not in ("role", "id") and len(e.name) >= 2:
                        names.setdefault(e.key, e.name)
            # An alias stands for its entity: what mentions either is reached. The question's
            # own names reach only through their aliases ("my sister" → Anna): what says the
            # name itself, search finds already.
            asked = {k: (w, "question") for k, w in question.items()}
            question = {}
            for key, others in graph.aliases([*by_entity, *asked], filters).items():
                source = by_entity.get(key) or asked.get(key)
                if source is None:
                    continue
                for other in others:
                    if other not in asked and source[0] > by_entity.get(other, (0.0, ""))[0]:
                        by_entity[other] = source
            if not by_entity:
                break
            # An entity the question says by name links nothing search does not find already;
            # a role it names does (上司 and 领导, "my boss" and 老板 are one role).
            for key in [k for k in by_entity if k in asked or _said_in(text, names.get(k))]:
                del by_entity[key]
            for key in asked:
                if key.startswith("role:") and key not in by_entity:
                    by_entity[key] = (QUESTION_ROLE_RELEVANCE, "question")
            ordered = sorted(by_entity, key=lambda k: -by_entity[k][0])
            reached = graph.mentioning(
                ordered, filters, max_degree=policy.graph_max_degree, limit=budget
            )
            # and where the name is said without being taken for one
            reached += graph.naming(
                [(k, names[k]) for k in ordered if k in names],
                filters,
                max_degree=policy.graph_max_degree,
                limit=max(budget - len(reached), 0),
            )
            budget -= len(reached)
            frontier = {}
            for r in reached:
                relevance, via = by_entity[r.entity]
                if via == r.memory_id:
                    continue
                # the source's relevance, shared among the other memories naming the entity
                sharing = r.degree - (0 if via == "question" else 1)
                share = policy.graph_share * decay * relevance / max(sharing, 1)
                if share > lent.get(r.memory_id, (0.0, ""))[0]:
                    label = _entity_label(r.entity)
                    lent[r.memory_id] = (share, f"graph:{share:.2f} via {label} ← {via}")
                    frontier[r.memory_id] = share
            if budget <= 0 or not frontier:
                break
        floor = policy.min_relevance
        # Only the best-lent few are read from canonical: reaching 200 memories through common
        # names cost 3x a recall's time at 100k, and a memory lent less than the first
        # `graph_admit` never reaches the top k.
        best = sorted((m for m, v in lent.items() if v[0] >= floor), key=lambda m: -lent[m][0])
        lent = {m: lent[m] for m in best[: policy.graph_admit]}
        if not lent:
            return
        missing = [m for m in lent if m not in admitted]
        admitted.update(self._read_reached(missing, principal, allowed, kinds, at, valid_at))
        for m, (share, reason) in lent.items():
            # at least as relevant as what led there says (a search hit already more relevant
            # keeps its own relevance: the walk adds memories, it does not re-rank search)
            if m in admitted and share > admitted[m].relevance:
                admitted[m].relevance = share
                admitted[m].reasons.append(reason)

    def _read_reached(
        self,
        memory_ids: Iterable[str],
        principal: Principal,
        allowed: list[str],
        kinds: tuple[Kind, ...] | None,
        at: datetime,
        valid_at: datetime,
    ) -> dict[str, _Candidate]:
        """Memories a neighbour or a graph link brought in, read from canonical as known at `at`
        and admitted as any candidate is (`_may_read`); the rest are dropped."""
        found = {
            m: _Candidate(r) for m, r in self.stores.canonical.records.heads(memory_ids).items()
        }
        self._known_at(found, at)
        readable = {
            m: c
            for m, c in found.items()
            if _may_read(c.record, principal, allowed, kinds, at, valid_at)
        }
        for c in readable.values():
            c.reasons.append("canonical_checked")
        return readable

    def _lent(self, admitted: dict[str, _Candidate]) -> dict[Place, float]:
        """The relevance each place takes from its neighbours: shares of the best relevance
        said at each place before and after it, within the policy's window, the shares
        shrinking with the distance."""
        policy = self.policy.retrieval
        shares = [
            (sign * distance, share * policy.context_decay ** (distance - 1))
            for distance in range(1, policy.context_window + 1)
            for sign, share in ((1, policy.context_previous), (-1, policy.context_next))
        ]
        best: dict[Place, float] = {}
        for c in admitted.values():
            place = _place(c)
            if place is not None and c.relevance > 0:
                best[place] = max(best.get(place, 0.0), c.relevance)
        lent: dict[Place, float] = {}
        for (namespace, thread, position), relevance in best.items():
            for step, share in shares:
                if share > 0:
                    target = (namespace, thread, position + step)
                    lent[target] = lent.get(target, 0.0) + share * relevance
        return lent

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

    def _score(self, c: _Candidate, at: datetime) -> float:
        r = c.record
        w = self.policy.retrieval.weights
        relevance = c.relevance
        trust = SOURCE_TRUST[r.source_type].weight * r.confidence
        age_days = max((at - (r.valid_from or r.recorded_at)).total_seconds() / 86400.0, 0.0)
        freshness = math.pow(0.5, age_days / self.policy.retrieval.freshness_half_life_days)
        # What the user said themselves, in their own namespace, weighs a little more.
        ns = parse_namespace(r.namespace)
        said_by_owner = ns.scope == "user" and r.written_by == f"user:{ns.tenant}/{ns.id}"
        priority = 1.0 if said_by_owner and r.source_type == "user_assertion" else 0.0
        staleness = 0.0
        if r.expires_at is not None and r.valid_from is not None and r.expires_at > r.valid_from:
            lived = (at - r.valid_from) / (r.expires_at - r.valid_from)
            staleness = max(0.0, min(1.0, (lived - 0.8) / 0.2))  # the last fifth of its life
        privacy = {"restricted": 1.0, "confidential": 0.5}.get(r.sensitivity, 0.0)
        return (
            w.semantic_relevance * relevance
            + w.task_relevance * (1.0 if c.key_match else 0.0)
            + w.source_trust * trust
            + w.freshness * freshness
            + w.explicit_user_priority * priority
            - w.conflict_penalty * (1.0 if r.conflict_group else 0.0)
            - w.staleness_penalty * staleness
            - w.privacy_penalty * privacy
        )

    def _select(self, candidates: dict[str, _Candidate], k: int, at: datetime) -> list[_Candidate]:
        """Dedupe (the same statement: same key and value, or the same gist), keep conflict
        groups together, and prefer diversity: each pick lowers the score of what repeats it —
        never of a memory a salient detail (a number, a date, an identifier …) tells apart."""
        if not candidates:
            return []
        pool = sorted(candidates.values(), key=lambda c: (-c.score, c.record.memory_id))
        missing = [c for c in pool if c.vector is None]
        if missing:
            vectors = self.stores.embedder.embed([c.record.content for c in missing])
            for c, v in zip(missing, vectors, strict=True):
                c.vector = v
        weight = self.policy.retrieval.weights.redundancy_penalty
        chosen: list[_Candidate] = []
        remaining = list(pool)
        # How much each candidate repeats what is chosen so far (updated with each pick only).
        repeats = {id(c): 0.0 for c in remaining}
        while remaining and len(chosen) < k:
            best, best_score = None, -math.inf
            for c in remaining:
                score = c.score - weight * max(0.0, repeats[id(c)] - 0.5)
                if score > best_score:
                    best, best_score = c, score
            assert best is not None
            remaining.remove(best)
            if any(_same(best, s) for s in chosen):
                continue
            chosen.append(best)
            for c in remaining:
                repeats[id(c)] = max(repeats[id(c)], _redundancy(c, best))
            if best.record.conflict_group:
                sides = [
                    c for c in remaining if c.record.conflict_group == best.record.conflict_group
                ]
                for side in sides:
                    remaining.remove(side)
                    side.reasons.append("conflict_side")
                    chosen.append(side)
        return chosen

    def _verdicts(
        self,
        query: RecallQuery,
        allowed: list[str],
        candidates: dict[str, _Candidate],
        at: datetime,
        valid_at: datetime,
        as_of: bool,
        principal: Principal,
    ) -> list[KeyVerdict]:
        """A verdict per key asked or implied by the task, in the order asked."""
        _, keys = _text_and_keys(query)
        if not keys:
            return []
        threshold = self.policy.retrieval.confirmed_confidence
        expired_seen = self._expired_by_key(allowed, keys, at, valid_at, principal)
        return [_verdict(key, candidates, threshold, expired_seen) for key in keys]

    def _expired_by_key(
        self,
        allowed: list[str],
        keys: list[str],
        at: datetime,
        valid_at: datetime,
        principal: Principal,
    ) -> dict[str, list[str]]:
        """Per key, the memories (as known at `at`) this reader could have seen but that have
        expired: their value needs reconfirmation rather than being simply unknown."""
        ceiling = SENSITIVITY_ORDER[principal.sensitivity_ceiling]
        expired_seen: dict[str, list[str]] = {}
        statuses = ("active", "superseded", "invalidated")
        records = self.stores.canonical.records.key_records(allowed, keys, statuses)
        if any(r.recorded_at > at for r in records):
            known = self.stores.canonical.records.as_of([r.memory_id for r in records], at)
            records = list(known.values())
        for r in records:
            if (
                r.key is not None
                and r.status in READABLE_STATUSES
                and r.valid_at(valid_at)
                and r.expired_at(at)
                and SENSITIVITY_ORDER[r.sensitivity] <= ceiling
            ):
                expired_seen.setdefault(r.key, []).append(r.memory_id)
        return expired_seen

    @staticmethod
    def _retrieved(c: _Candidate) -> RetrievedMemory:
        r = c.record
        return RetrievedMemory(
            memory_id=r.memory_id,
            version=r.version,
            namespace=r.namespace,
            kind=r.kind,
            key=r.key,
            content=r.content,
            structured_value=r.structured_value,
            source_refs=r.source_refs,
            source_type=r.source_type,
            valid_from=r.valid_from,
            valid_to=r.valid_to,
            recorded_at=r.recorded_at,
            confidence=r.confidence,
            sensitivity=r.sensitivity,
            retrieval_score=round(c.score, 6),
            retrieval_reasons=c.reasons,
            conflict_group=r.conflict_group,
        )


def _said_in(text: str, name: str | None) -> bool:
    return name is not None and name.casefold() in text.casefold()


def _entity_keys(name: str) -> list[str]:
    """The keys a name asked for may be: as a name, an id, a role (`role:sister` as given)."""
    if name.startswith(("role:", "id:")):
        return [name]
    keys = [entity_key(name), entity_key(name, "id"), entity_key(name, "role")]
    return list(dict.fromkeys(k for k in keys if k not in ("id:", "role:")))


def _entity_label(key: str) -> str:
    """An entity key as a reason shows it: `entity Anna`, `role sister`, `id ORDA1B2`."""
    kind, _, name = key.partition(":")
    if kind in ("role", "id") and name:
        return f"{kind} {name}"
    return f"entity {key}"


def _text_and_keys(query: RecallQuery) -> tuple[str, list[str]]:
    """The text searched (query and task) and the keys asked or implied by it, without repeats."""
    text = " ".join(t for t in (query.query, query.task) if t)
    return text, list(dict.fromkeys([*query.keys, *implied_keys(text)]))


def _verdict(
    key: str,
    candidates: dict[str, _Candidate],
    threshold: float,
    expired_seen: dict[str, list[str]],
) -> KeyVerdict:
    """The verdict on one key, from the candidates recall admitted with that key."""
    live = [c.record for c in candidates.values() if c.record.key == key]
    groups = {r.conflict_group for r in live if r.conflict_group}
    confirmed = [r for r in live if r.confidence >= threshold]
    state: KeyState
    if any(sum(1 for r in live if r.conflict_group == g) > 1 for g in groups):
        state, ids = "conflicting", [r.memory_id for r in live if r.conflict_group]
        detail = "sides of an open conflict: use none of them as confirmed"
    elif confirmed:
        state, ids, detail = "confirmed", [r.memory_id for r in confirmed], ""
    elif live:
        state, ids = "low_confidence_only", [r.memory_id for r in live]
        detail = f"only values below confidence {threshold}: do not use as confirmed"
    elif key in expired_seen:
        state, ids = "needs_reconfirmation", expired_seen[key]
        detail = "the stored value has expired: ask the user again"
    else:
        state, ids, detail = "none_confirmed", [], "no confirmed value"
    return KeyVerdict(key=key, state=state, memory_ids=ids, detail=detail)


def _place(c: _Candidate) -> Place | None:
    return place_of(c.record.namespace, c.record.source_refs)


def _may_read(
    r: MemoryRecord,
    principal: Principal,
    allowed: list[str],
    kinds: tuple[Kind, ...] | None,
    at: datetime,
    valid_at: datetime,
) -> bool:
    """Canonical's word on one candidate: in a namespace the reader may read, of a kind asked
    for, within the reader's sensitivity ceiling, readable at these times."""
    return (
        r.namespace in allowed
        and (kinds is None or r.kind in kinds)
        and SENSITIVITY_ORDER[r.sensitivity] <= SENSITIVITY_ORDER[principal.sensitivity_ceiling]
        and r.readable_at(at, valid_at)
    )


def _refusal(
    r: MemoryRecord, principal: Principal, allowed: list[str], kinds: tuple[Kind, ...] | None
) -> str:
    """Why canonical refused a candidate `_may_read` refused (a metric label)."""
    if r.namespace not in allowed or (
        SENSITIVITY_ORDER[r.sensitivity] > SENSITIVITY_ORDER[principal.sensitivity_ceiling]
    ):
        return "unauthorized"
    if kinds is not None and r.kind not in kinds:
        return "other"
    return "stale"


def _similarity(a: _Candidate, b: _Candidate) -> float:
    if a.vector is None or b.vector is None:
        return 0.0
    return float(a.vector @ b.vector)


def _redundancy(a: _Candidate, b: _Candidate) -> float:
    """How much `a` repeats `b`: their similarity, unless a salient detail tells them apart."""
    similarity = _similarity(a, b)
    if similarity <= 0.5 or not redundant(a.record.content, b.record.content):
        return 0.0
    return similarity


def _same(a: _Candidate, b: _Candidate) -> bool:
    """Two memories that say the same thing (conflict sides never do: their values differ).
    Two episodes told in different messages are two events, however alike their words ("Thanks,
    Mel!" in May and in June): both stay, the diversity penalty ordering them."""
    ra, rb = a.record, b.record
    if (
        ra.kind == "episodic"
        and rb.kind == "episodic"
        and ra.source_refs
        and rb.source_refs
        and set(ra.source_refs).isdisjoint(rb.source_refs)
    ):
        return False
    return same_statement(ra, rb)
