"""Recall's candidates: what a candidate carries, canonical's word on one (`_may_read`), the
filters the projection proposes under, and how candidates are scored and chosen (relevance,
trust, freshness …; dedupe, conflict sides together, diversity)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from governed_memory.memory.embedding import Embedder
from governed_memory.memory.models import (
    READABLE_STATUSES,
    SENSITIVITY_ORDER,
    Kind,
    MemoryRecord,
    Place,
    Principal,
    RecallQuery,
    place_of,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.policy import Policy
from governed_memory.memory.sameness import gist_of_statement, salient, same_statement
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.terms import index_words, query_words
from governed_memory.memory.vocabulary import SOURCE_TRUST, implied_keys


@dataclass
class _Candidate:
    record: MemoryRecord
    reasons: list[str] = field(default_factory=list)
    relevance: float = 0.0
    keyword: bool = False
    key_match: bool = False
    vector: npt.NDArray[np.float32] | None = None
    score: float = 0.0


def _text_and_keys(query: RecallQuery) -> tuple[str, list[str]]:
    """The text searched (query and task) and the keys asked or implied by it, without repeats."""
    text = " ".join(t for t in (query.query, query.task) if t)
    return text, list(dict.fromkeys([*query.keys, *implied_keys(text)]))


def asked_terms(text: str) -> frozenset[str]:
    """The query's content terms that can tell two memories apart for it: its words and
    character pairs, without function words or lone characters."""
    return frozenset(t for t in query_words(text) if len(t) >= 2) if text else frozenset()


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


def _known_at(stores: Stores, found: dict[str, _Candidate], at: datetime) -> None:
    """Re-check against canonical as known at `at`: a head recorded later is replaced by the
    version known then (or dropped if it was not known yet)."""
    late = [m for m, c in found.items() if c.record.recorded_at > at]
    if late:
        then = stores.canonical.records.as_of(late, at)
        for memory_id in late:
            if memory_id in then:
                found[memory_id].record = then[memory_id]
            else:
                del found[memory_id]


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


def _score(c: _Candidate, at: datetime, policy: Policy) -> float:
    r = c.record
    w = policy.retrieval.weights
    relevance = c.relevance
    trust = SOURCE_TRUST[r.source_type].weight * r.confidence
    age_days = max((at - (r.valid_from or r.recorded_at)).total_seconds() / 86400.0, 0.0)
    freshness = math.pow(0.5, age_days / policy.retrieval.freshness_half_life_days)
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


#: The largest pool whose pairwise similarities `_select` computes at once (16 MB of float32).
_PAIRWISE = 2048


def _select(
    candidates: dict[str, _Candidate],
    k: int,
    embedder: Embedder,
    policy: Policy,
    asked: frozenset[str] = frozenset(),
) -> list[_Candidate]:
    """Dedupe (the same statement: same key and value, or the same gist), keep conflict
    groups together, and prefer diversity: each pick lowers the score of what repeats it —
    never of a memory a salient detail (a number, a date, an identifier …) tells apart, nor
    of one that says something the question asks (`asked`, its terms) that the pick does not:
    the exact answer to "进水阀" is not a repeat of the later, more general "the whole washing
    machine was replaced", however alike the two read.

    The pool's similarities are one matrix product (`_PAIRWISE` candidates at most; over that,
    one product per pick), the salient details are read only of candidates that resemble
    another, and the dedupe looks only at the chosen memories with the pick's key or gist: a
    pick costs a few vector operations, and k = 200 over a large pool stays in milliseconds (it
    took half a second pair by pair, and twice the time with a product per pick)."""
    if not candidates:
        return []
    pool = sorted(candidates.values(), key=lambda c: (-c.score, c.record.memory_id))
    missing = [c for c in pool if c.vector is None]
    if missing:
        vectors = embedder.embed([c.record.content for c in missing])
        for c, v in zip(missing, vectors, strict=True):
            c.vector = v
    weight = policy.retrieval.weights.redundancy_penalty
    matrix = np.stack([c.vector for c in pool if c.vector is not None])
    assert len(matrix) == len(pool)  # every candidate has its vector now
    scores = np.array([c.score for c in pool], dtype=np.float64)
    alive = np.ones(len(pool), dtype=bool)
    # How much each candidate repeats what is chosen so far, and its score less the penalty
    # for that (-inf once it is out): both updated where a pick changes them, not recomputed
    # over the pool at each pick.
    repeats = np.zeros(len(pool), dtype=np.float64)
    adjusted = scores.copy()
    # Each candidate's salient details, by id (-1: not read yet): `redundant` is their equality.
    details = np.full(len(pool), -1, dtype=np.int64)
    detail_ids: dict[tuple[str, ...], int] = {}
    # The question's terms each candidate says, read where a pick resembles it.
    says: dict[int, frozenset[str]] = {}

    def said(j: int) -> frozenset[str]:
        if j not in says:
            words = set(index_words(pool[j].record.content).split())
            says[j] = frozenset(asked & words)
        return says[j]

    chosen: list[_Candidate] = []
    seen = _Seen()
    # Each pair's similarity, in one matrix product for a pool of usual size (a product per
    # pick cost more than the rest of the pick), and the salient details of every candidate
    # that resembles another (a pick that resembles nothing penalises nothing).
    pairs = matrix @ matrix.T if len(pool) <= _PAIRWISE else None

    def similarities(i: int) -> npt.NDArray[np.float32]:
        row: npt.NDArray[np.float32] = pairs[i] if pairs is not None else matrix @ matrix[i]
        return row

    close = np.zeros(len(pool), dtype=bool)
    for start in range(0, len(pool), _PAIRWISE):
        block = pairs if pairs is not None else matrix[start : start + _PAIRWISE] @ matrix.T
        over = block > 0.5
        rows = np.arange(len(block))
        over[rows, start + rows] = False  # (not itself)
        close[start : start + len(block)] = over.any(axis=1)
    for n in np.flatnonzero(close).tolist():
        details[n] = detail_ids.setdefault(salient(pool[n].record.content), len(detail_ids))
    while len(chosen) < k:
        i = int(np.argmax(adjusted))
        if not alive[i]:
            break  # every candidate is out
        best = pool[i]
        alive[i], adjusted[i] = False, -np.inf
        if any(_same(best, s) for s in seen.like(best)):
            continue
        chosen.append(best)
        seen.add(best)
        # What repeats the pick: a similarity over 0.5 and the same salient details.
        if close[i]:
            sims = similarities(i)
            hit = np.flatnonzero(alive & (sims > 0.5) & (details == details[i]))
            if asked and hit.size:
                hit = hit[[said(int(j)) <= said(i) for j in hit]]
            if hit.size:
                repeats[hit] = np.maximum(repeats[hit], sims[hit])
                adjusted[hit] = scores[hit] - weight * np.maximum(0.0, repeats[hit] - 0.5)
        group = best.record.conflict_group
        if group:
            for j in np.flatnonzero(alive):
                side = pool[j]
                if side.record.conflict_group == group:
                    alive[j], adjusted[j] = False, -np.inf
                    side.reasons.append("conflict_side")
                    chosen.append(side)
                    seen.add(side)
    return chosen


class _Seen:
    """The chosen memories by key and by gist: a pick can say the same thing as (`_same`)
    only one that shares its key or its gist."""

    def __init__(self) -> None:
        self.by_key: dict[str, list[_Candidate]] = {}
        self.by_gist: dict[str, list[_Candidate]] = {}

    def add(self, c: _Candidate) -> None:
        if c.record.key is not None:
            self.by_key.setdefault(c.record.key, []).append(c)
        self.by_gist.setdefault(gist_of_statement(c.record), []).append(c)

    def like(self, c: _Candidate) -> list[_Candidate]:
        same_key = self.by_key.get(c.record.key, []) if c.record.key is not None else []
        return [*same_key, *self.by_gist.get(gist_of_statement(c.record), [])]


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
