"""Entity views: what the memories a reader may read say of one entity (its names, kinds,
aliases, the relations stated and the memories that mention it), and the entities they mention
most. Every memory is read from canonical and admitted as a recall candidate is."""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.graph import entity_key
from governed_memory.memory.models import (
    EntityMemory,
    EntityRelation,
    EntityView,
    Principal,
    utcnow,
)
from governed_memory.memory.retrieval.candidates import _filters, _may_read
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import graph_of


def entity_view(
    stores: Stores,
    principal: Principal,
    allowed: list[str],
    refused: list[str],
    name: str,
    at: datetime | None,
    limit: int,
) -> EntityView:
    """What the memories `principal` may read in `allowed` say of the entity `name` (a name, an
    id or a role word, as written or as its key); `refused` are the namespaces it asked for and
    may not read. Relations come only from memories canonical admits."""
    graph = graph_of(stores.projection)
    empty = EntityView(key=entity_key(name), refused_namespaces=refused)
    if not allowed or graph is None:
        return empty
    when = at or utcnow()
    filters = _filters(principal, allowed, None, when, when, False)
    rows = None
    for key in _entity_keys(name):
        rows = graph.entity(key, filters, limit)
        if rows.memory_ids:
            break
    if rows is None or not rows.memory_ids:
        return empty
    ids = list(dict.fromkeys([*rows.memory_ids, *(r.memory_id for r in rows.relations)]))
    heads = stores.canonical.records.heads(ids)
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


def top_entity_keys(
    stores: Stores, principal: Principal, allowed: list[str], limit: int
) -> list[str]:
    """The keys of the entities the memories `principal` may read in `allowed` mention most."""
    graph = graph_of(stores.projection)
    if not allowed or graph is None:
        return []
    now = utcnow()
    filters = _filters(principal, allowed, None, now, now, False)
    return graph.top_entities(filters, limit)


def _entity_keys(name: str) -> list[str]:
    """The keys a name asked for may be: as a name, an id, a role (`role:sister` as given)."""
    if name.startswith(("role:", "id:")):
        return [name]
    keys = [entity_key(name), entity_key(name, "id"), entity_key(name, "role")]
    return list(dict.fromkeys(k for k in keys if k not in ("id:", "role:")))
