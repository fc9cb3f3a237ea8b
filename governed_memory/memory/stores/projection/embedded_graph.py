"""The graph reads of the embedded projection that need its own tables (the rest are
`memory.stores.graph`'s, over the same file): a read's scope as SQL over `proj_memories`, and the
rows that say a name as written, found through the tenant's word index."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from governed_memory.memory.stores import graph
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.memory.stores.projection.embedded_keyword import _quoted
from governed_memory.memory.stores.projection.embedded_sql import _filter_sql, _fts_tables
from governed_memory.memory.terms import name_terms


def _graph_filters(filters: SearchFilters) -> graph.Scope:
    """The filters as the scope of a graph read (`memory.stores.graph`)."""
    where, params = _filter_sql(filters, driving=False)
    return graph.Scope(
        filters.namespaces, f"{where} AND +p.tenant_id = ?", [*params, filters.tenant_id]
    )


def naming(
    conn: sqlite3.Connection,
    names: Sequence[tuple[str, str]],
    filters: SearchFilters,
    *,
    max_degree: int,
    limit: int,
) -> list[graph.Reached]:
    """The rows that hold each (key, name)'s name as written (found through the word index,
    then checked by containment): an entity one memory names is reached in a memory that
    says the name without the extractor taking it for one ("奶茶今年做了绝育"). A name more
    than `max_degree` such rows hold reaches nothing."""
    _, words = _fts_tables(filters.tenant_id)
    scope = _graph_filters(filters)
    said = {key: name for key, name in names if name_terms(name)}

    def rows_of(key: str) -> list[tuple[str, int, str]]:
        name = said[key]
        return conn.execute(
            f"SELECT p.memory_id, p.version, p.namespace FROM {words} f"
            " JOIN proj_memories p ON p.rid = f.rowid"
            f" WHERE {words} MATCH ? AND {scope.where}"
            " AND (instr(p.content, ?) > 0 OR instr(lower(p.content), ?) > 0)"
            " LIMIT ?",
            [
                " ".join(_quoted(t) for t in name_terms(name)),
                *scope.params,
                name,
                name.lower(),
                max_degree + 1,
            ],
        ).fetchall()

    try:
        return graph.reached_through(said, rows_of, max_degree=max_degree, limit=limit)
    except sqlite3.OperationalError:
        return []  # the tenant has no keyword index yet: nothing projected
