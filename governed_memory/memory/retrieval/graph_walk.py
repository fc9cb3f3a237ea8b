"""Where recall walks from its admitted candidates: to their conversational neighbours (a
memory takes a share of the relevance of what was said just before and after it) and through the
graph (memories that mention the same entity, one or two hops away). Whatever a walk reaches is
read from canonical and admitted as any candidate is (`_may_read`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from governed_memory.memory.graph import extract
from governed_memory.memory.models import Kind, Place, Principal
from governed_memory.memory.retrieval.candidates import _Candidate, _known_at, _may_read, _place
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import SearchFilters, graph_of

#: The relevance a role the question names (my sister, 上司) lends the memories that name it.
QUESTION_ROLE_RELEVANCE = 0.5


def _add_context(
    stores: Stores,
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
    lent = _lent(admitted, stores)
    if not lent:
        return
    placed = {m: p for m, c in admitted.items() if (p := _place(c)) in lent}
    # Of the places that were not candidates, the `limit` that take the most (no more can
    # be chosen), and only those relevant enough.
    floor = stores.policy.retrieval.min_relevance
    held = {placed[m] for m in placed}
    open_places = sorted(
        (p for p, v in lent.items() if p not in held and v >= floor), key=lambda p: -lent[p]
    )[:limit]
    hits = {
        h.memory_id: h
        for h in stores.projection.at_places(open_places, filters)
        if h.memory_id not in admitted
    }
    if hits:
        for m, c in _read_reached(stores, hits, principal, allowed, kinds, at, valid_at).items():
            place = _place(c)
            if place in lent:
                c.vector = hits[m].vector
                admitted[m], placed[m] = c, place
    for m, place in placed.items():
        c = admitted[m]
        c.relevance += lent[place]
        c.reasons.append(f"context:{lent[place]:.2f}")


def _add_graph(
    stores: Stores,
    admitted: dict[str, _Candidate],
    filters: SearchFilters,
    text: str,
    principal: Principal,
    allowed: list[str],
    kinds: tuple[Kind, ...] | None,
    at: datetime,
    valid_at: datetime,
    *,
    admit: int | None = None,
) -> None:
    """The graph walk: from the entities the question names and those of the most relevant
    candidates, one or two hops to memories that mention the same entity (or one the text
    says is the same: "my sister Anna"). A memory reached takes `graph_share` of the
    relevance of what led there, weighed by how specific the entity is and `graph_decay`
    times less at the second hop, and says the path in its reasons. Of what it reaches, the
    `admit` best-lent (default `graph_admit`) are read from canonical and admitted like any
    candidate (`_may_read`): a memory the reader may not read, or that is not active at `at`,
    is neither reached nor reaching."""
    policy = stores.policy.retrieval
    graph = graph_of(stores.projection)
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
        # What the next hop lends is at most graph_share * decay of what leads there: a
        # memory reached with less than the floor over that can lend nothing that is kept, and
        # walking on from it (a hundred memories at 100k) cost a third of the walk.
        onward = policy.graph_share * policy.graph_decay ** (hop + 1)
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
                if share * onward >= policy.min_relevance:
                    frontier[r.memory_id] = share
        if budget <= 0 or not frontier:
            break
    floor = policy.min_relevance
    # Only the best-lent few are read from canonical: reaching 200 memories through common
    # names cost 3x a recall's time at 100k, and a memory lent less than the first
    # `graph_admit` never reaches the top k.
    best = sorted((m for m, v in lent.items() if v[0] >= floor), key=lambda m: -lent[m][0])
    lent = {m: lent[m] for m in best[: policy.graph_admit if admit is None else admit]}
    if not lent:
        return
    missing = [m for m in lent if m not in admitted]
    admitted.update(_read_reached(stores, missing, principal, allowed, kinds, at, valid_at))
    for m, (share, reason) in lent.items():
        # at least as relevant as what led there says (a search hit already more relevant
        # keeps its own relevance: the walk adds memories, it does not re-rank search)
        if m in admitted and share > admitted[m].relevance:
            admitted[m].relevance = share
            admitted[m].reasons.append(reason)


def _read_reached(
    stores: Stores,
    memory_ids: Iterable[str],
    principal: Principal,
    allowed: list[str],
    kinds: tuple[Kind, ...] | None,
    at: datetime,
    valid_at: datetime,
) -> dict[str, _Candidate]:
    """Memories a neighbour or a graph link brought in, read from canonical as known at `at`
    and admitted as any candidate is (`_may_read`); the rest are dropped."""
    found = {m: _Candidate(r) for m, r in stores.canonical.records.heads(memory_ids).items()}
    _known_at(stores, found, at)
    readable = {
        m: c
        for m, c in found.items()
        if _may_read(c.record, principal, allowed, kinds, at, valid_at)
    }
    for c in readable.values():
        c.reasons.append("canonical_checked")
    return readable


def _lent(admitted: dict[str, _Candidate], stores: Stores) -> dict[Place, float]:
    """The relevance each place takes from its neighbours: shares of the best relevance
    said at each place before and after it, within the policy's window, the shares
    shrinking with the distance."""
    policy = stores.policy.retrieval
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


def _said_in(text: str, name: str | None) -> bool:
    return name is not None and name.casefold() in text.casefold()


def _entity_label(key: str) -> str:
    """An entity key as a reason shows it: `entity Anna`, `role sister`, `id ORDA1B2`."""
    kind, _, name = key.partition(":")
    if kind in ("role", "id") and name:
        return f"{kind} {name}"
    return f"entity {key}"
