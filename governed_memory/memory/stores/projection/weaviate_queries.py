"""Reading the Weaviate projection's rows: `SearchFilters` as Weaviate filters, result objects
as `Hit`s, and the searches in one tenant's rows (each keyword side by BM25, the vector side by
cosine, both fused as the embedded projection fuses them; the rows at places)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from weaviate.classes.query import Filter, FilterReturn, MetadataQuery

from governed_memory.memory.embedding import Embedder
from governed_memory.memory.models import SENSITIVITY_ORDER
from governed_memory.memory.stores.projection import Hit, ProjectedState, SearchFilters
from governed_memory.memory.stores.projection.weaviate_rows import VECTOR, object_id
from governed_memory.memory.terms import query_trigrams, query_words

#: At most this many objects per request (Weaviate's own query maximum is 10,000).
_PAGE = 1_000


#: What a row's search returns of it (never its text or terms: only what a `Hit` needs).
HIT_FIELDS = ["memory_id", "version", "namespace"]


def admits_nothing(f: SearchFilters) -> bool:
    """Whether no row can pass these filters (an empty list of namespaces, kinds or statuses):
    no query is sent then."""
    return (
        not f.namespaces
        or (f.kinds is not None and not f.kinds)
        or (f.statuses is not None and not f.statuses)
    )


def build_filters(f: SearchFilters) -> FilterReturn:
    """Every filter of `SearchFilters` as one Weaviate filter (the tenant is the query's own
    Weaviate tenant, not a filter). See `admits_nothing` for the filters no row passes."""
    parts = [Filter.by_property("namespace").contains_any(list(f.namespaces))]
    if f.kinds is not None:
        parts.append(Filter.by_property("kind").contains_any(list(f.kinds)))
    if f.statuses is not None:
        parts.append(Filter.by_property("status").contains_any(list(f.statuses)))
    if f.valid_at is not None:
        t = f.valid_at.timestamp()
        parts.append(Filter.by_property("valid_from").less_or_equal(t))
        parts.append(Filter.by_property("valid_to").greater_than(t))
    if f.not_expired_at is not None:
        parts.append(Filter.by_property("expires_at").greater_than(f.not_expired_at.timestamp()))
    parts.append(
        Filter.by_property("sensitivity_rank").less_or_equal(SENSITIVITY_ORDER[f.max_sensitivity])
    )
    return Filter.all_of(parts)


def place_filter(namespace: str, thread: str, positions: Sequence[int]) -> FilterReturn:
    """The rows said at these positions of one thread of one namespace."""
    return Filter.all_of(
        [
            Filter.by_property("namespace").equal(namespace),
            Filter.by_property("thread").equal(thread),
            Filter.any_of([Filter.by_property("position").equal(p) for p in positions]),
        ]
    )


def ids_filter(memory_ids: Iterable[str]) -> FilterReturn:
    """The objects of these memories (by their deterministic UUIDs)."""
    return Filter.by_id().contains_any([object_id(m) for m in memory_ids])


def vector_of(obj: Any) -> npt.NDArray[np.float32] | None:
    """A result object's vector (None when the query did not ask for it)."""
    raw = (getattr(obj, "vector", None) or {}).get(VECTOR)
    return None if raw is None else np.asarray(raw, dtype=np.float32)


Side = Literal["words", "grams", "vector", "rows"]


def hits_from(objects: Sequence[Any], side: Side = "rows") -> list[Hit]:
    """Hits from result objects, in their order. A keyword side's score is its BM25 as a share
    of the best one's (in [0, 1]); the vector side's is the cosine (1 − cosine distance) with its
    rank; `rows` (a lookup) sets no score. The vector is attached whenever it was returned."""
    hits: list[Hit] = []
    scores = [float(getattr(o.metadata, "score", None) or 0.0) for o in objects]
    best = max(scores, default=0.0)
    for rank, (obj, score) in enumerate(zip(objects, scores, strict=True), 1):
        props: Mapping[str, Any] = obj.properties
        hit = Hit(
            str(props["memory_id"]),
            int(props["version"]),
            str(props["namespace"]),
            vector=vector_of(obj),
        )
        if side == "words":
            hit.word_score = score / best if best > 0 else 0.0
        elif side == "grams":
            hit.trigram_score = score / best if best > 0 else 0.0
        elif side == "vector":
            distance = obj.metadata.distance
            hit.vector_score = None if distance is None else 1.0 - float(distance)
            hit.vector_rank = rank
        hits.append(hit)
    return hits


def fuse_keyword(words: Sequence[Hit], grams: Sequence[Hit]) -> list[Hit]:
    """The two keyword sides as one list, a hit on both carrying both scores, ranked by their
    sum (`keyword_rank`), as the embedded projection ranks them."""
    fused: dict[str, Hit] = {h.memory_id: h for h in words}
    for hit in grams:
        seen = fused.get(hit.memory_id)
        if seen is None:
            fused[hit.memory_id] = hit
        else:
            seen.trigram_score = hit.trigram_score
            if seen.vector is None:
                seen.vector = hit.vector
    ranked = sorted(fused.values(), key=lambda h: (-(h.word_score + h.trigram_score), h.memory_id))
    for rank, hit in enumerate(ranked, 1):
        hit.keyword_rank = rank
    return ranked


def _search_side(rows: Any, query: str, prop: str, filters: SearchFilters, limit: int) -> list[Hit]:
    if not query:
        return []
    found = rows.query.bm25(
        query=query,
        query_properties=[prop],
        filters=build_filters(filters),
        limit=limit,
        return_metadata=MetadataQuery(score=True),
        return_properties=HIT_FIELDS,
        include_vector=True,
    )
    return hits_from(found.objects, "words" if prop == "words" else "grams")


def _keyword(rows: Any, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
    words = _search_side(rows, " ".join(query_words(text)), "words", filters, limit)
    grams = _search_side(rows, " ".join(query_trigrams(text)), "grams", filters, limit)
    return fuse_keyword(words, grams)


def _vector(
    rows: Any, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
) -> list[Hit]:
    found = rows.query.near_vector(
        near_vector=vector.astype(np.float32).tolist(),
        target_vector=VECTOR,
        filters=build_filters(filters),
        limit=limit,
        return_metadata=MetadataQuery(distance=True),
        return_properties=HIT_FIELDS,
        include_vector=True,
    )
    return hits_from(found.objects, "vector")


def _hybrid(
    rows: Any, text: str, filters: SearchFilters, limit: int, embedder: Embedder
) -> list[Hit]:
    """Both keyword sides and (when the embedder's similarity counts in ranking) the vector
    side in one tenant's rows, fused by `Hit.relevance`."""
    fused = {h.memory_id: h for h in _keyword(rows, text, filters, limit)}
    if embedder.ranking_weight > 0:
        query = embedder.embed([text])[0]
        for hit in _vector(rows, query, filters, limit):
            seen = fused.get(hit.memory_id)
            if seen is None:
                fused[hit.memory_id] = hit
            else:
                seen.vector_score, seen.vector_rank = hit.vector_score, hit.vector_rank
                seen.vector = hit.vector
        # A keyword hit beyond the vector side's top rows is still scored by its cosine
        # (else its relevance would be its keyword sides alone, undiluted).
        for hit in fused.values():
            if hit.vector_score is None and hit.vector is not None:
                hit.vector_score = float(hit.vector @ query)
    for hit in fused.values():
        hit.score = hit.relevance(embedder)
    return sorted(fused.values(), key=lambda h: (-h.score, h.memory_id))[:limit]


def _at_places(
    rows: Any, by_thread: dict[tuple[str, str], list[int]], filters: SearchFilters
) -> list[Hit]:
    """The rows said at these positions of these threads that the filters pass."""
    base = build_filters(filters)
    hits: list[Hit] = []
    for (namespace, thread), positions in by_thread.items():
        for i in range(0, len(positions), 200):
            chunk = positions[i : i + 200]
            found = rows.query.fetch_objects(
                filters=base & place_filter(namespace, thread, chunk),
                limit=_PAGE,
                return_properties=HIT_FIELDS,
                include_vector=True,
            )
            hits.extend(hits_from(found.objects))
    return hits


def _states_in(ids: list[str], out: dict[str, ProjectedState]) -> Callable[[Any], None]:
    """A reader of what the rows of these memories hold, into `out` (one tenant's rows)."""

    def run(rows: Any) -> None:
        for i in range(0, len(ids), _PAGE):
            chunk = ids[i : i + _PAGE]
            found = rows.query.fetch_objects(
                filters=ids_filter(chunk),
                limit=len(chunk),
                return_properties=["memory_id", "version", "content_hash", "namespace"],
            )
            for o in found.objects:
                p = o.properties
                out[str(p["memory_id"])] = ProjectedState(
                    int(p["version"]), str(p["content_hash"]), str(p["namespace"])
                )

    return run
