"""Projections: rebuildable read models that follow the canonical store through the outbox.

This module is the interface: `Projection` is what every backend implements, its read side
(`ProjectionReads`: recall, context, deletion's probes) and its sync side (`ProjectionSync`:
`memory.sync`, the only writer, and the repair sweep), with the values they exchange. One module
per backend:

- `embedded`: one SQLite file beside the canonical store (the default; its helpers are the
  `embedded_*` modules: the file's SQL, the keyword sides, the vector matrices, the rows' reads,
  the graph's own reads);
- `weaviate`: a shared Weaviate cluster, for many hosts (its helpers: the `weaviate_*` modules:
  a memory as a row, the queries, the ledger, the collections, the client);
- `shared_graph`: the graph in the canonical database, beside a projection without one.

`memory.sync.apply.project()` reads the *current* canonical state of each memory and makes the
projection equal to it, so applying an event twice, late or out of order converges.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, cast

import numpy as np
import numpy.typing as npt

from governed_memory.memory.embedding import Embedder
from governed_memory.memory.graph import GraphFacts, facts_of
from governed_memory.memory.models import READABLE_STATUSES, MemoryRecord, Place
from governed_memory.memory.stores import graph


@dataclass(frozen=True, slots=True)
class SearchFilters:
    tenant_id: str
    namespaces: tuple[str, ...]
    kinds: tuple[str, ...] | None = None
    #: Only rows valid at this instant, not expired at `not_expired_at`, in these statuses.
    #: All three off (None) for "as recorded by" questions: the canonical re-check decides then.
    valid_at: datetime | None = None
    not_expired_at: datetime | None = None
    statuses: tuple[str, ...] | None = READABLE_STATUSES
    max_sensitivity: str = "restricted"


@dataclass(slots=True)
class Hit:
    memory_id: str
    version: int
    namespace: str
    #: The fused relevance in [0, 1] (see `relevance`).
    score: float = 0.0
    vector_score: float | None = None
    vector_rank: int | None = None
    keyword_rank: int | None = None
    #: Each keyword side's BM25 as a share of the query's IDF mass, in [0, 1] (see `_side`).
    word_score: float = 0.0
    trigram_score: float = 0.0
    #: The projected embedding, when the hit came from the vector side (reused for diversity).
    vector: npt.NDArray[np.float32] | None = None

    def relevance(self, embedder: Embedder) -> float:
        """The sides fused: the mean of the word and trigram scores and, weighted by how much
        the embedder's similarity is worth beside them, its cosine above its floor."""
        lexical = self.word_score + self.trigram_score
        weight = embedder.ranking_weight
        if weight <= 0 or self.vector_score is None:
            return lexical / 2.0
        floor = embedder.similarity_floor
        semantic = max(0.0, (self.vector_score - floor) / (1.0 - floor))
        return (lexical + weight * semantic) / (2.0 + weight)


@dataclass(frozen=True, slots=True)
class ProjectedState:
    version: int
    content_hash: str
    namespace: str
    #: Whether the row's graph (mentions, aliases, relations) is derived at this version by
    #: this release's extractor: a row without is `stale` to the repair.
    graph: bool = True


class ProjectionReads(Protocol):
    """The read side: what recall, the context builder and deletion's probes ask."""

    name: str
    #: Index names a deletion removes the data from (stated on receipts).
    indexes: tuple[str, ...]

    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]: ...
    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]: ...
    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]: ...
    def scan(self, filters: SearchFilters) -> Iterator[tuple[str, str]]: ...
    def at_places(self, places: Sequence[Place], filters: SearchFilters) -> list[Hit]: ...


class ProjectionSync(Protocol):
    """The sync side: what `memory.sync` (the only writer) and the repair sweep use."""

    name: str
    indexes: tuple[str, ...]

    def upsert(
        self,
        records: Sequence[MemoryRecord],
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None: ...
    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None: ...
    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]: ...
    #: Changes when the index is created anew (empty): a repair then compares everything.
    @property
    def epoch(self) -> str: ...
    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
    ) -> dict[str, ProjectedState]: ...
    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]: ...
    def last_written(self) -> int: ...
    def expired_rows(self, at: datetime, limit: int) -> list[str]: ...
    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]: ...
    #: After a removal: no copy of removed rows left in the index's own files (done, detail).
    def compact(self) -> tuple[bool, str]: ...
    def close(self) -> None: ...


class Projection(ProjectionReads, ProjectionSync, Protocol):
    """What every backend implements: both sides."""


def record_facts(record: MemoryRecord) -> GraphFacts:
    """What a stored memory says to the graph: what the extractor finds in its text, and the
    writer's hints the text still says (a redacted text keeps fewer)."""
    hints = record.graph.still_said(record.content) if record.graph is not None else None
    return facts_of(record.content, hints)


def graph_of(projection: Projection) -> GraphReads | None:
    """The projection's graph, if it keeps one (the embedded projection does; the Weaviate
    projection does not yet, and recall then walks no graph)."""
    if "graph" in projection.indexes:
        return cast("GraphReads", projection)
    return None


class GraphReads(Protocol):
    """The graph's read side (`memory.stores.graph`), for a projection that keeps one."""

    def entities_of(
        self, memory_ids: Sequence[str], filters: SearchFilters
    ) -> dict[str, list[graph.Named]]: ...
    def aliases(self, keys: Sequence[str], filters: SearchFilters) -> dict[str, set[str]]: ...
    def known_entities(self, keys: Sequence[str], filters: SearchFilters) -> set[str]: ...
    def mentioning(
        self, keys: Sequence[str], filters: SearchFilters, *, max_degree: int, limit: int
    ) -> list[graph.Reached]: ...
    def naming(
        self,
        names: Sequence[tuple[str, str]],
        filters: SearchFilters,
        *,
        max_degree: int,
        limit: int,
    ) -> list[graph.Reached]: ...
    def entity(self, key: str, filters: SearchFilters, limit: int) -> graph.EntityRows: ...
    def top_entities(self, filters: SearchFilters, limit: int) -> list[str]: ...
    def graph_leftovers(self) -> int: ...
