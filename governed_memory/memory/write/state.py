"""The pipeline's reads, from the canonical store (truth) and the projection (similarity)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from governed_memory.memory.consents import Consent
from governed_memory.memory.models import MemoryRecord, Principal, WriteRequest
from governed_memory.memory.plans import SlotState
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.write.resolution import Neighbour


@dataclass
class Known:
    """What a batch's decisions would each read one by one, read at once before they start:
    the writers, the idempotency keys decided before, the values every decision consults (the
    timezone) and the slots of the keys the candidates name. Decisions read the store as it
    was before the batch commits, so they may share one reading; a write decided again after a
    lost race reads afresh."""

    principals: dict[str, Principal] = field(default_factory=dict)
    #: (principal, idempotency key) pairs with a stored outcome.
    decided: set[tuple[str, str]] = field(default_factory=set)
    namespaces: frozenset[str] = frozenset()
    #: Keys whose active records in `namespaces` are all in `values`.
    value_keys: frozenset[str] = frozenset()
    values: dict[tuple[str, str], list[MemoryRecord]] = field(default_factory=dict)
    slots: dict[tuple[str, str], SlotState] = field(default_factory=dict)

    @classmethod
    def read(
        cls, stores: Stores, requests: Sequence[WriteRequest], value_keys: Sequence[str]
    ) -> Known:
        canonical = stores.canonical
        principals = canonical.principals.many([r.principal for r in requests])
        decided: set[tuple[str, str]] = set()
        by_tenant: dict[str, list[tuple[str, str]]] = {}
        for r in requests:
            p = principals.get(r.principal)
            if p is not None:
                by_tenant.setdefault(p.tenant, []).append((p.ref, r.idempotency_key))
        for tenant, pairs in by_tenant.items():
            decided.update(canonical.outcomes.many(tenant, pairs))
        namespaces = sorted({r.namespace for r in requests})
        values: dict[tuple[str, str], list[MemoryRecord]] = {}
        for record in canonical.records.key_records(namespaces, value_keys, ["active"]):
            values.setdefault((record.namespace, record.key or ""), []).append(record)
        keys = sorted({r.candidate.key for r in requests if r.candidate and r.candidate.key})
        return cls(
            principals=principals,
            decided=decided,
            namespaces=frozenset(namespaces),
            value_keys=frozenset(value_keys),
            values=values,
            slots=canonical.records.key_slot_states(namespaces, keys) if keys else {},
        )

    def undecided(self, request: WriteRequest) -> bool:
        """Whether `request`'s idempotency key had no stored outcome when the batch read ahead
        (False when its writer was not read: the decision then looks for itself)."""
        writer = self.principals.get(request.principal)
        return writer is not None and (writer.ref, request.idempotency_key) not in self.decided

    def principal(self, ref: str, registry: Callable[[str], Principal]) -> Principal:
        found = self.principals.get(ref)
        return found if found is not None else registry(ref)


class StoreView:
    def __init__(self, stores: Stores, known: Known | None = None) -> None:
        self.stores = stores
        #: What was read ahead for a batch (None: every read goes to the store).
        self.known = known

    def slot(self, namespace: str, slot: str) -> SlotState:
        found = self.known.slots.get((namespace, slot)) if self.known is not None else None
        if found is not None:
            return found.model_copy(deep=True)  # two writes of a batch may name one slot
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
        known = self.known
        if known is not None and key in known.value_keys and namespace in known.namespaces:
            records = known.values.get((namespace, key), [])
        else:
            records = self.stores.canonical.records.key_records([namespace], [key], ["active"])
        for record in records:
            if record.valid_at(at) and not record.conflict_group:
                return record.structured_value
        return None
