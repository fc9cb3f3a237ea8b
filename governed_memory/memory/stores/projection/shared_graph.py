"""The graph projection in the canonical database, for a deployment whose projection keeps none.

The embedded projection keeps its graph in its own file (`memory.stores.graph`). A deployment on
many hosts projects into Weaviate, which keeps no graph; its graph lives here instead, in tables
of the canonical database every host shares (`graph_mentions`, `graph_aliases`,
`graph_relations`, `graph_done`; migration 0021), and `GraphedProjection` makes the two one
`Projection`: the one sync path writes both, the repair compares both (a row whose graph is
missing, older or another extractor's is `stale`), and a removal takes both.

It is a projection like the others: derived from the heads only, by version (`graph_done` keeps
the version each memory's graph was derived at and the highest version removed, so a late,
older write never brings a removed memory's names back), dropped and rebuilt at will. Every read
joins the heads and applies the reader's filters to them (tenant, namespaces, kinds, statuses,
valid time, expiry, sensitivity), so a reader reaches through the graph only what canonical
holds readable for it; two namespaces that name one entity never meet unless the reader may read
both. After an erase, its tables are vacuumed with the canonical ones (`compact`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import and_, case, delete, distinct, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from governed_memory.memory.graph import EXTRACTOR_VERSION
from governed_memory.memory.models import SENSITIVITY_ORDER, MemoryRecord, Place
from governed_memory.memory.stores import graph
from governed_memory.memory.stores.canonical._db import Database, chunks, dialect_insert
from governed_memory.memory.stores.projection import (
    Hit,
    ProjectedState,
    Projection,
    SearchFilters,
    record_facts,
)
from governed_memory.memory.stores.schema import (
    graph_aliases,
    graph_done,
    graph_epoch,
    graph_mentions,
    graph_relations,
    memory_heads,
)

#: The tables an erase vacuums (Postgres) with the canonical ones.
TABLES = ("graph_mentions", "graph_aliases", "graph_relations", "graph_done")
#: A key or name longer than its column is no name that links anything: not kept.
_LONGEST = 256
#: At most this many names a recall looks for in text (a scan of the reader's heads each).
_NAMING = 8

_h = memory_heads.c
_m = graph_mentions.c
_a = graph_aliases.c
_r = graph_relations.c
_d = graph_done.c


def _readable(f: SearchFilters) -> list[ColumnElement[bool]]:
    """The reader's filters over the heads (`memory_heads`), as search applies them."""
    out: list[ColumnElement[bool]] = [_h.tenant_id == f.tenant_id, _h.namespace.in_(f.namespaces)]
    if f.kinds is not None:
        out.append(_h.kind.in_(f.kinds))
    if f.statuses is not None:
        out.append(_h.status.in_(f.statuses))
    if f.valid_at is not None:
        out.append(or_(_h.valid_from.is_(None), _h.valid_from <= f.valid_at))
        out.append(or_(_h.valid_to.is_(None), _h.valid_to > f.valid_at))
    if f.not_expired_at is not None:
        out.append(or_(_h.expires_at.is_(None), _h.expires_at > f.not_expired_at))
    ceiling = SENSITIVITY_ORDER[f.max_sensitivity]
    out.append(_h.sensitivity.in_([s for s, o in SENSITIVITY_ORDER.items() if o <= ceiling]))
    return out


def _ts(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


class SharedGraph:
    """The graph's tables in the canonical database: writes by version, reads joined to the
    heads (`GraphReads`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------------ writes

    def index(self, records: Sequence[MemoryRecord]) -> None:
        """Derive each record's graph, unless it is derived at this version by this extractor
        already, or a newer version (or a removal of this one) holds the memory. A version is
        claimed in `graph_done` first (the row's lock serialises racing writers), then the
        memory's mentions, aliases and relations are replaced."""
        if not records:
            return
        latest: dict[str, MemoryRecord] = {}
        for r in records:
            if r.memory_id not in latest or latest[r.memory_id].version < r.version:
                latest[r.memory_id] = r
        with self.db.write() as conn:
            for chunk in chunks(list(latest.values()), 200):
                claimed = self._claim(conn, chunk)
                if not claimed:
                    continue
                ids = [r.memory_id for r in chunk if r.memory_id in claimed]
                self._clear_rows(conn, ids)
                mentions, aliases, relations = [], [], []
                for memory_id in ids:
                    facts = record_facts(latest[memory_id])
                    ns = latest[memory_id].namespace
                    mentions += [
                        {
                            "entity": m.key,
                            "namespace": ns,
                            "memory_id": memory_id,
                            "name": m.name,
                            "kind": m.kind,
                            "weak": int(m.weak),
                        }
                        for m in facts.mentions
                        if len(m.key) <= _LONGEST and len(m.name) <= _LONGEST
                    ]
                    aliases += [
                        {"alias": alias, "namespace": ns, "entity": key, "memory_id": memory_id}
                        for alias, key in facts.aliases
                        if len(alias) <= _LONGEST and len(key) <= _LONGEST
                    ]
                    relations += [
                        {
                            "subject": r.subject,
                            "namespace": ns,
                            "predicate": r.predicate,
                            "object": r.object,
                            "memory_id": memory_id,
                        }
                        for r in facts.relations
                        if max(len(r.subject), len(r.object)) <= _LONGEST and len(r.predicate) <= 32
                    ]
                for table, rows in (
                    (graph_mentions, mentions),
                    (graph_aliases, aliases),
                    (graph_relations, relations),
                ):
                    if rows:
                        conn.execute(dialect_insert(conn, table).on_conflict_do_nothing(), rows)

    def _claim(self, conn: Connection, records: Sequence[MemoryRecord]) -> set[str]:
        """Claim these records' versions for derivation: the memories whose graph is absent,
        older, or another extractor's at this version (and not removed at it or later)."""
        stmt = dialect_insert(conn, graph_done).values(
            [
                {
                    "memory_id": r.memory_id,
                    "version": r.version,
                    "extractor": EXTRACTOR_VERSION,
                    "removed": 0,
                }
                for r in records
            ]
        )
        new = stmt.excluded
        stmt = stmt.on_conflict_do_update(
            index_elements=["memory_id"],
            set_={"version": new.version, "extractor": new.extractor, "removed": 0},
            where=or_(
                graph_done.c.version < new.version,
                and_(
                    graph_done.c.version == new.version,
                    graph_done.c.removed == 0,
                    graph_done.c.extractor != new.extractor,
                ),
            ),
        ).returning(graph_done.c.memory_id)
        return {row[0] for row in conn.execute(stmt)}

    @staticmethod
    def _clear_rows(conn: Connection, memory_ids: Sequence[str]) -> None:
        for table in (graph_mentions, graph_aliases, graph_relations):
            for chunk in chunks(list(memory_ids)):
                conn.execute(delete(table).where(table.c.memory_id.in_(chunk)))

    def unindex(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        """Remove what these memories said to the graph; with `versions`, remember them as
        removed so that no older version is derived again."""
        if not memory_ids:
            return
        with self.db.write() as conn:
            self._clear_rows(conn, memory_ids)
            if versions is None:
                for chunk in chunks(list(memory_ids)):
                    conn.execute(delete(graph_done).where(_d.memory_id.in_(chunk)))
                return
            rows = [
                {"memory_id": m, "version": v, "extractor": EXTRACTOR_VERSION, "removed": 1}
                for m, v in zip(memory_ids, versions, strict=True)
            ]
            for chunk in chunks(rows, 200):
                stmt = dialect_insert(conn, graph_done).values(chunk)
                new = stmt.excluded
                conn.execute(
                    stmt.on_conflict_do_update(
                        index_elements=["memory_id"],
                        set_={
                            "version": case(
                                (graph_done.c.version > new.version, graph_done.c.version),
                                else_=new.version,
                            ),
                            "removed": 1,
                        },
                    )
                )

    def clear(self) -> None:
        """Drop the whole graph and start a new epoch (the next repair derives every graph)."""
        with self.db.write() as conn:
            for table in (graph_mentions, graph_aliases, graph_relations, graph_done):
                conn.execute(delete(table))
            conn.execute(delete(graph_epoch))
            conn.execute(graph_epoch.insert().values(id=1, epoch=uuid.uuid4().hex))

    @property
    def epoch(self) -> str:
        """Changes when the graph is dropped, or derived by another extractor."""
        with self.db.read() as conn:
            found = conn.execute(select(graph_epoch.c.epoch).where(graph_epoch.c.id == 1)).first()
        if found is None:
            with self.db.write() as conn:
                conn.execute(
                    dialect_insert(conn, graph_epoch)
                    .values(id=1, epoch=uuid.uuid4().hex)
                    .on_conflict_do_nothing()
                )
            return self.epoch
        return f"{found[0]}/{EXTRACTOR_VERSION}"

    def derived(self, memory_ids: Sequence[str]) -> dict[str, int]:
        """The version each memory's graph is derived at by this extractor (absent: none, or
        removed, or another extractor's)."""
        out: dict[str, int] = {}
        with self.db.read() as conn:
            for chunk in chunks(list(memory_ids)):
                out.update(
                    (m, v)
                    for m, v in conn.execute(
                        select(_d.memory_id, _d.version).where(
                            _d.memory_id.in_(chunk),
                            _d.removed == 0,
                            _d.extractor == EXTRACTOR_VERSION,
                        )
                    )
                )
        return out

    # ------------------------------------------------------------------------ reads

    def entities_of(
        self, memory_ids: Sequence[str], filters: SearchFilters
    ) -> dict[str, list[graph.Named]]:
        out: dict[str, list[graph.Named]] = {}
        weak: set[str] = set()
        with self.db.read() as conn:
            for chunk in chunks(list(memory_ids)):
                for memory_id, entity, name, kind, only_opens in conn.execute(
                    select(_m.memory_id, _m.entity, _m.name, _m.kind, _m.weak)
                    .join(memory_heads, _h.memory_id == _m.memory_id)
                    .where(_m.memory_id.in_(chunk), *_readable(filters))
                ):
                    out.setdefault(memory_id, []).append(graph.Named(entity, name, kind))
                    if only_opens:
                        weak.add(entity)
        unconfirmed = weak - self.known_entities(sorted(weak), filters)
        if unconfirmed:
            out = {m: [e for e in named if e.key not in unconfirmed] for m, named in out.items()}
        return out

    def aliases(self, keys: Sequence[str], filters: SearchFilters) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        if not keys:
            return out
        with self.db.read() as conn:
            for alias, entity in conn.execute(
                select(_a.alias, _a.entity)
                .join(memory_heads, _h.memory_id == _a.memory_id)
                .where(
                    or_(_a.alias.in_(keys), _a.entity.in_(keys)),
                    _a.namespace.in_(filters.namespaces),
                    *_readable(filters),
                )
            ):
                out.setdefault(alias, set()).add(entity)
                out.setdefault(entity, set()).add(alias)
        return out

    def known_entities(self, keys: Sequence[str], filters: SearchFilters) -> set[str]:
        out: set[str] = set()
        with self.db.read() as conn:
            for chunk in chunks(list(keys)):
                out.update(
                    k
                    for (k,) in conn.execute(
                        select(_m.entity)
                        .distinct()
                        .join(memory_heads, _h.memory_id == _m.memory_id)
                        .where(
                            _m.entity.in_(chunk),
                            _m.namespace.in_(filters.namespaces),
                            _m.weak == 0,
                            *_readable(filters),
                        )
                    )
                )
        return out

    def mentioning(
        self, keys: Sequence[str], filters: SearchFilters, *, max_degree: int, limit: int
    ) -> list[graph.Reached]:
        readable = _readable(filters)
        with self.db.read() as conn:

            def rows_of(key: str) -> list[tuple[str, int, str]]:
                return [
                    (m, v, ns)
                    for m, v, ns in conn.execute(
                        select(_h.memory_id, _h.version, _h.namespace)
                        .select_from(graph_mentions)
                        .join(memory_heads, _h.memory_id == _m.memory_id)
                        .where(_m.entity == key, _m.namespace.in_(filters.namespaces), *readable)
                        .limit(max_degree + 1)
                    )
                ]

            return graph.reached_through(keys, rows_of, max_degree=max_degree, limit=limit)

    def naming(
        self,
        names: Sequence[tuple[str, str]],
        filters: SearchFilters,
        *,
        max_degree: int,
        limit: int,
    ) -> list[graph.Reached]:
        """The heads that say each (key, name)'s name as written (or in lower case), for the
        first few names: a scan of the reader's heads each."""
        readable = _readable(filters)
        said = dict(names[:_NAMING])
        with self.db.read() as conn:

            def rows_of(key: str) -> list[tuple[str, int, str]]:
                name = said[key]
                return [
                    (m, v, ns)
                    for m, v, ns in conn.execute(
                        select(_h.memory_id, _h.version, _h.namespace)
                        .where(
                            or_(
                                _h.content.contains(name, autoescape=True),
                                func.lower(_h.content).contains(name.lower(), autoescape=True),
                            ),
                            *readable,
                        )
                        .limit(max_degree + 1)
                    )
                ]

            return graph.reached_through(said, rows_of, max_degree=max_degree, limit=limit)

    def entity(self, key: str, filters: SearchFilters, limit: int) -> graph.EntityRows:
        found = graph.EntityRows(key)
        keys = [key, *sorted(self.aliases([key], filters).get(key, set()) - {key})]
        found.aliases = set(keys[1:])
        seen: set[str] = set()
        readable = _readable(filters)
        with self.db.read() as conn:
            for memory_id, name, kind in conn.execute(
                select(_h.memory_id, _m.name, _m.kind)
                .select_from(graph_mentions)
                .join(memory_heads, _h.memory_id == _m.memory_id)
                .where(_m.entity.in_(keys), _m.namespace.in_(filters.namespaces), *readable)
                .order_by(_h.recorded_at.desc(), _h.memory_id)
            ):
                found.names[name] = found.names.get(name, 0) + 1
                found.kinds[kind] = found.kinds.get(kind, 0) + 1
                if memory_id not in seen and len(seen) < limit:
                    seen.add(memory_id)
                    found.memory_ids.append(memory_id)
            for s, pred, o, memory_id, vf, vt in conn.execute(
                select(
                    _r.subject, _r.predicate, _r.object, _h.memory_id, _h.valid_from, _h.valid_to
                )
                .select_from(graph_relations)
                .join(memory_heads, _h.memory_id == _r.memory_id)
                .where(
                    or_(_r.subject.in_(keys), _r.object.in_(keys)),
                    _r.namespace.in_(filters.namespaces),
                    *readable,
                )
                .order_by(_h.valid_from, _h.memory_id)
            ):
                found.relations.append(graph.RelationRow(s, pred, o, memory_id, _ts(vf), _ts(vt)))
        return found

    def top_entities(self, filters: SearchFilters, limit: int) -> list[str]:
        with self.db.read() as conn:
            return [
                k
                for (k,) in conn.execute(
                    select(_m.entity)
                    .join(memory_heads, _h.memory_id == _m.memory_id)
                    .where(
                        _m.namespace.in_(filters.namespaces),
                        _m.kind != "role",
                        *_readable(filters),
                    )
                    .group_by(_m.entity)
                    .having(func.min(_m.weak) == 0)
                    .order_by(func.count().desc(), _m.entity)
                    .limit(limit)
                )
            ]

    def graph_leftovers(self) -> int:
        """Graph rows of a memory that is gone, erased or removed: a removal that left
        something behind (a deletion's `graph` probe: 0)."""
        total = 0
        with self.db.read() as conn:
            for table in (graph_mentions, graph_aliases, graph_relations):
                live = (
                    select(_d.memory_id)
                    .join(memory_heads, _h.memory_id == _d.memory_id)
                    .where(_d.memory_id == table.c.memory_id, _d.removed == 0)
                    .where(_h.status != "deleted")
                )
                total += conn.execute(
                    select(func.count()).select_from(table).where(~live.exists())
                ).scalar_one()
        return total

    def counts(self) -> dict[str, int]:
        with self.db.read() as conn:
            out = {
                t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (graph_mentions, graph_aliases, graph_relations, graph_done)
            }
            out["entities"] = conn.execute(select(func.count(distinct(_m.entity)))).scalar_one()
        return out


class GraphedProjection:
    """A projection that keeps no graph, with the shared graph beside it: one `Projection`
    (and `GraphReads`) to the sync path, the repair, recall and deletion."""

    def __init__(self, base: Projection, shared: SharedGraph) -> None:
        self.base = base
        self.shared = shared
        self.name = base.name
        self.indexes: tuple[str, ...] = (*base.indexes, "graph")

    # -- the sync path and the repair
    def upsert(
        self,
        records: Sequence[MemoryRecord],
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None:
        self.base.upsert(records, vectors)
        self.shared.index(records)

    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        self.base.remove(memory_ids, versions)
        self.shared.unindex(memory_ids, versions)

    def _with_graph(self, states: dict[str, ProjectedState]) -> dict[str, ProjectedState]:
        derived = self.shared.derived(list(states))
        return {
            m: dataclasses.replace(s, graph=derived.get(m) == s.version) for m, s in states.items()
        }

    def state(self, memory_ids: Sequence[str]) -> dict[str, ProjectedState]:
        return self._with_graph(self.base.state(memory_ids))

    def rows_in_order(
        self, after: str | None, upto: str | None, limit: int
    ) -> dict[str, ProjectedState]:
        return self._with_graph(self.base.rows_in_order(after, upto, limit))

    @property
    def epoch(self) -> str:
        """Changes when either index is created anew (a 32-hex digest, as epochs are kept)."""
        both = f"{self.base.epoch}+{self.shared.epoch}"
        return hashlib.sha256(both.encode()).hexdigest()[:32]

    def rows_written_after(self, written: int, limit: int) -> list[tuple[int, str]]:
        return self.base.rows_written_after(written, limit)

    def last_written(self) -> int:
        return self.base.last_written()

    def expired_rows(self, at: datetime, limit: int) -> list[str]:
        return self.base.expired_rows(at, limit)

    def applies(self, memory_ids: Sequence[str]) -> dict[tuple[str, int], int]:
        return self.base.applies(memory_ids)

    def compact(self) -> tuple[bool, str]:
        done, detail = self.base.compact()
        shared = self.shared.db.compact(TABLES)
        return done and shared.done, f"{detail}; graph: {shared.detail}"

    def close(self) -> None:
        self.base.close()

    # -- search
    def search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        return self.base.search(text, filters, limit)

    def keyword_search(self, text: str, filters: SearchFilters, limit: int) -> list[Hit]:
        return self.base.keyword_search(text, filters, limit)

    def vector_search(
        self, vector: npt.NDArray[np.float32], filters: SearchFilters, limit: int
    ) -> list[Hit]:
        return self.base.vector_search(vector, filters, limit)

    def scan(self, filters: SearchFilters) -> Iterator[tuple[str, str]]:
        return self.base.scan(filters)

    def at_places(self, places: Sequence[Place], filters: SearchFilters) -> list[Hit]:
        return self.base.at_places(places, filters)

    # -- the graph's reads (`GraphReads`)
    def entities_of(
        self, memory_ids: Sequence[str], filters: SearchFilters
    ) -> dict[str, list[graph.Named]]:
        return self.shared.entities_of(memory_ids, filters)

    def aliases(self, keys: Sequence[str], filters: SearchFilters) -> dict[str, set[str]]:
        return self.shared.aliases(keys, filters)

    def known_entities(self, keys: Sequence[str], filters: SearchFilters) -> set[str]:
        return self.shared.known_entities(keys, filters)

    def mentioning(
        self, keys: Sequence[str], filters: SearchFilters, *, max_degree: int, limit: int
    ) -> list[graph.Reached]:
        return self.shared.mentioning(keys, filters, max_degree=max_degree, limit=limit)

    def naming(
        self,
        names: Sequence[tuple[str, str]],
        filters: SearchFilters,
        *,
        max_degree: int,
        limit: int,
    ) -> list[graph.Reached]:
        return self.shared.naming(names, filters, max_degree=max_degree, limit=limit)

    def entity(self, key: str, filters: SearchFilters, limit: int) -> graph.EntityRows:
        return self.shared.entity(key, filters, limit)

    def top_entities(self, filters: SearchFilters, limit: int) -> list[str]:
        return self.shared.top_entities(filters, limit)

    def graph_leftovers(self) -> int:
        return self.shared.graph_leftovers()

    def graph_counts(self) -> dict[str, int]:
        counts = self.shared.counts()
        return {
            "graph_mentions": counts["graph_mentions"],
            "graph_aliases": counts["graph_aliases"],
            "graph_relations": counts["graph_relations"],
            "graph_done": counts["graph_done"],
            "entities": counts["entities"],
        }

    def drop_graph(self) -> None:
        self.shared.clear()

    def __getattr__(self, name: str) -> Any:
        # What a backend offers beyond the protocol (tests and tools reach for it).
        return getattr(self.base, name)
