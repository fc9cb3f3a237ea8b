"""The read path: governed recall over the projection, re-checked against the canonical store.

Order of the pipeline: identity → allowed namespaces → kinds → valid time and expiry → candidates
(key lookup in canonical for the keys asked or implied by the task, plus hybrid search in the
projection) → every candidate re-checked against canonical (status, version, namespace,
sensitivity ceiling, as known at `at`) → score (relevance, task relevance, source trust,
freshness, user priority, minus conflict, staleness and privacy; weights in the policy) → dedupe
and conflict grouping → diversity → top k, with a verdict per key.

The projection only proposes; canonical decides. A lagging or broken projection can make recall
miss something, never return something deleted, superseded, expired or forbidden.

`reader` holds the `Reader` (the pipeline's steps in order), `cache` the `RecallCache`,
`candidates` what a candidate is and how candidates are admitted, scored and chosen,
`graph_walk` the walks to conversational neighbours and through the graph, `verdicts` the
verdict per key, and `entities` the entity views.
"""

from governed_memory.memory.retrieval.cache import RecallCache
from governed_memory.memory.retrieval.reader import Reader

__all__ = ["Reader", "RecallCache"]
