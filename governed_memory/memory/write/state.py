"""The pipeline's reads, from the canonical store (truth) and the projection (similarity)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from governed_memory.memory.consents import Consent
from governed_memory.memory.plans import SlotState
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.write.resolution import Neighbour


class StoreView:
    def __init__(self, stores: Stores) -> None:
        self.stores = stores

    def slot(self, namespace: str, slot: str) -> SlotState:
        return self.stores.canonical.records.slot_state(namespace, slot)

    def similar(self, namespace: str, kind: str, content: str) -> list[Neighbour]:
        writes = self.stores.policy.writes
        vector = self.stores.embedder.embed([content])[0]
        if not vector.any():
            return []
        filters = SearchFilters(
            tenant_id=namespace.split("/")[1],
            namespaces=(namespace,),
            kinds=(kind,),
            statuses=("active",),
        )
        hits = [
            h
            for h in self.stores.projection.vector_search(
                vector, filters, writes.compare_neighbours
            )
            if (h.vector_score or 0.0) >= writes.compare_similarity
        ]
        heads = self.stores.canonical.records.heads(h.memory_id for h in hits)
        # The projection proposes, canonical decides.
        return [
            Neighbour(r, h.vector_score or 0.0)
            for r, h in ((heads.get(h.memory_id), h) for h in hits)
            if r is not None and r.status == "active" and r.key is None and r.kind == kind
        ]

    def consent(self, consent_id: str) -> Consent | None:
        return self.stores.canonical.consents.get(consent_id)

    def attested(self, tenant_id: str, refs: Sequence[str]) -> set[str]:
        return self.stores.canonical.attestations.attested(tenant_id, refs) if refs else set()

    def current_value(self, namespace: str, key: str, at: datetime) -> dict[str, Any] | None:
        for record in self.stores.canonical.records.key_records([namespace], [key], ["active"]):
            if record.valid_at(at) and not record.conflict_group:
                return record.structured_value
        return None
