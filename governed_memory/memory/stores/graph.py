"""The graph index of the embedded projection: entities, aliases and relations, per memory row.

Kept in the projection's own SQLite file, written and removed in the same transaction as the
memory's row (`EmbeddedProjection.upsert`/`remove`), so the graph never holds what the row does
not: a memory's mentions, aliases and relations are replaced with each version it is projected
at and erased with it (`secure_delete` zeroes their pages; `compact` checkpoints the WAL). An
entity is not a row of its own: it is the set of mentions of its key, so an entity nothing
mentions any more is gone with its names. `graph_done` records the version each memory's graph
was derived at (and `proj_meta.graph` the extractor's version): a row whose graph is missing or
older is `stale` to the repair, which derives it again from canonical.

Every read joins the memory rows and their filters (tenant, namespaces, kinds, statuses, valid
time, expiry, sensitivity), exactly as search does: a reader reaches through the graph only
what it could find by search. Two namespaces that name the same entity never meet unless the
reader may read both.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from governed_memory.memory.graph import GraphFacts

#: The graph tables' shape: another is dropped and derived again (`EmbeddedProjection`).
SCHEMA_VERSION = "2"

SCHEMA: tuple[str, ...] = (
    # Every row carries its memory's namespace, and each read names the reader's: the mentions
    # of one entity in other tenants' and users' namespaces are never walked.
    """
    CREATE TABLE IF NOT EXISTS graph_mentions (
        entity TEXT NOT NULL,
        namespace TEXT NOT NULL,
        rid INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        -- 1: only a word opening a sentence; a name where another row writes it as one
        weak INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (entity, namespace, rid)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX IF NOT EXISTS ix_graph_mentions_rid ON graph_mentions(rid)",
    "CREATE INDEX IF NOT EXISTS ix_graph_mentions_ns ON graph_mentions(namespace)",
    """
    CREATE TABLE IF NOT EXISTS graph_aliases (
        alias TEXT NOT NULL,
        namespace TEXT NOT NULL,
        entity TEXT NOT NULL,
        rid INTEGER NOT NULL,
        PRIMARY KEY (alias, namespace, entity, rid)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX IF NOT EXISTS ix_graph_aliases_entity ON graph_aliases(entity, namespace)",
    "CREATE INDEX IF NOT EXISTS ix_graph_aliases_rid ON graph_aliases(rid)",
    """
    CREATE TABLE IF NOT EXISTS graph_relations (
        subject TEXT NOT NULL,
        predicate TEXT NOT NULL,
        object TEXT NOT NULL,
        namespace TEXT NOT NULL,
        rid INTEGER NOT NULL,
        PRIMARY KEY (subject, namespace, predicate, object, rid)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX IF NOT EXISTS ix_graph_relations_object ON graph_relations(object, namespace)",
    "CREATE INDEX IF NOT EXISTS ix_graph_relations_rid ON graph_relations(rid)",
    """
    CREATE TABLE IF NOT EXISTS graph_done (
        rid INTEGER PRIMARY KEY,
        version INTEGER NOT NULL
    )
    """,
)

TABLES = ("graph_mentions", "graph_aliases", "graph_relations", "graph_done")


@dataclass(frozen=True, slots=True)
class Scope:
    """A reader's filters as SQL over the memory rows (`proj_memories p`), and its namespaces,
    which every graph read names on the graph's own rows."""

    namespaces: tuple[str, ...]
    where: str
    params: list[object]

    def within(self, column: str) -> str:
        return f"{column} IN ({','.join('?' * len(self.namespaces))})"


@dataclass(frozen=True, slots=True)
class Reached:
    """A memory a walk reached: through which entity, how common that entity is among what the
    reader may read (its degree), and the row's version and namespace."""

    memory_id: str
    version: int
    namespace: str
    entity: str
    degree: int


@dataclass(frozen=True, slots=True)
class Named:
    """An entity a memory mentions: its key, the name the memory uses, its kind."""

    key: str
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class RelationRow:
    subject: str
    predicate: str
    object: str
    memory_id: str
    valid_from: float | None
    valid_to: float | None


@dataclass
class EntityRows:
    """What the rows a reader may read say of one entity."""

    key: str
    names: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)
    memory_ids: list[str] = field(default_factory=list)
    relations: list[RelationRow] = field(default_factory=list)


def index(
    conn: sqlite3.Connection, rid: int, namespace: str, version: int, facts: GraphFacts
) -> None:
    """Replace the graph of row `rid` (of `namespace`) with `facts` (in the caller's
    transaction)."""
    unindex(conn, rid)
    conn.executemany(
        "INSERT OR IGNORE INTO graph_mentions VALUES (?, ?, ?, ?, ?, ?)",
        [(m.key, namespace, rid, m.name, m.kind, int(m.weak)) for m in facts.mentions],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO graph_aliases VALUES (?, ?, ?, ?)",
        [(alias, namespace, key, rid) for alias, key in facts.aliases],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO graph_relations VALUES (?, ?, ?, ?, ?)",
        [(r.subject, r.predicate, r.object, namespace, rid) for r in facts.relations],
    )
    conn.execute("INSERT OR REPLACE INTO graph_done VALUES (?, ?)", (rid, version))


def unindex(conn: sqlite3.Connection, rid: int) -> None:
    """Remove everything row `rid` said to the graph (inside the caller's transaction)."""
    for table in TABLES:
        conn.execute(f"DELETE FROM {table} WHERE rid = ?", (rid,))


def clear(conn: sqlite3.Connection) -> None:
    for table in TABLES:
        conn.execute(f"DELETE FROM {table}")


def drop(conn: sqlite3.Connection) -> None:
    """Drop the graph's tables (another extractor's, perhaps of another shape)."""
    for table in TABLES:
        conn.execute(f"DROP TABLE IF EXISTS {table}")


def done(conn: sqlite3.Connection, rids: Sequence[int]) -> dict[int, int]:
    """The version each of these rows' graph was derived at (absent: none)."""
    out: dict[int, int] = {}
    for i in range(0, len(rids), 500):
        chunk = list(rids[i : i + 500])
        out.update(
            conn.execute(
                f"SELECT rid, version FROM graph_done WHERE rid IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    return out


def entities_of(
    conn: sqlite3.Connection, memory_ids: Sequence[str], scope: Scope
) -> dict[str, list[Named]]:
    """The entities each of these memories mentions (rows the filters pass only). A word that
    only opens a sentence is an entity only where some such row writes it as a name."""
    out: dict[str, list[Named]] = {}
    weak: set[str] = set()
    for i in range(0, len(memory_ids), 500):
        chunk = list(memory_ids[i : i + 500])
        for memory_id, entity, name, kind, only_opens in conn.execute(
            "SELECT p.memory_id, g.entity, g.name, g.kind, g.weak FROM proj_memories p"
            " JOIN graph_mentions g ON g.rid = p.rid"
            f" WHERE p.memory_id IN ({','.join('?' * len(chunk))}) AND {scope.where}",
            [*chunk, *scope.params],
        ):
            out.setdefault(memory_id, []).append(Named(entity, name, kind))
            if only_opens:
                weak.add(entity)
    unconfirmed = weak - known(conn, sorted(weak), scope)
    if unconfirmed:
        out = {m: [e for e in named if e.key not in unconfirmed] for m, named in out.items()}
    return out


def aliases(conn: sqlite3.Connection, keys: Sequence[str], scope: Scope) -> dict[str, set[str]]:
    """The keys each key is one entity with, as the rows the filters pass say (both ways)."""
    out: dict[str, set[str]] = {}
    if not keys:
        return out
    marks = ",".join("?" * len(keys))
    for side in ("alias", "entity"):
        for alias, entity in conn.execute(
            "SELECT a.alias, a.entity FROM graph_aliases a CROSS JOIN proj_memories p"
            f" ON p.rid = a.rid WHERE a.{side} IN ({marks}) AND {scope.within('a.namespace')}"
            f" AND {scope.where}",
            [*keys, *scope.namespaces, *scope.params],
        ):
            out.setdefault(alias, set()).add(entity)
            out.setdefault(entity, set()).add(alias)
    return out


def reached_through(
    keys: Iterable[str],
    rows_of: Callable[[str], Sequence[tuple[str, int, str]]],
    *,
    max_degree: int,
    limit: int,
) -> list[Reached]:
    """The (memory_id, version, namespace) rows `rows_of(key)` finds for each key (it asks for
    at most `max_degree + 1`), with the key's degree among them; a key more than `max_degree`
    rows share names too much to link anything (a speaker, "the customer") and reaches nothing.
    At most `limit` rows in all. The one rule every graph read that reaches memories keeps."""
    reached: list[Reached] = []
    for key in keys:
        rows = rows_of(key)
        if len(rows) > max_degree:
            continue
        reached.extend(Reached(m, v, ns, key, len(rows)) for m, v, ns in rows)
        if len(reached) >= limit:
            break
    return reached[:limit]


def mentioning(
    conn: sqlite3.Connection,
    keys: Sequence[str],
    scope: Scope,
    *,
    max_degree: int,
    limit: int,
) -> list[Reached]:
    """The rows the filters pass that mention each key (`reached_through`)."""

    def rows_of(key: str) -> list[tuple[str, int, str]]:
        return conn.execute(
            "SELECT p.memory_id, p.version, p.namespace FROM graph_mentions g"
            # CROSS JOIN: SQLite then walks the entity's mentions in the reader's namespaces
            " CROSS JOIN proj_memories p ON p.rid = g.rid"
            f" WHERE g.entity = ? AND {scope.within('g.namespace')} AND {scope.where}"
            " LIMIT ?",  # no order: over `max_degree` rows is all that is to know
            [key, *scope.namespaces, *scope.params, max_degree + 1],
        ).fetchall()

    return reached_through(keys, rows_of, max_degree=max_degree, limit=limit)


def known(conn: sqlite3.Connection, keys: Sequence[str], scope: Scope) -> set[str]:
    """Which of these keys some row the filters pass mentions as a name (not only as a word
    opening a sentence)."""
    out: set[str] = set()
    for i in range(0, len(keys), 400):
        chunk = list(keys[i : i + 400])
        out.update(
            k
            for (k,) in conn.execute(
                "SELECT DISTINCT g.entity FROM graph_mentions g CROSS JOIN proj_memories p"
                f" ON p.rid = g.rid WHERE g.entity IN ({','.join('?' * len(chunk))})"
                f" AND {scope.within('g.namespace')} AND g.weak = 0 AND {scope.where}",
                [*chunk, *scope.namespaces, *scope.params],
            )
        )
    return out


def entity(conn: sqlite3.Connection, key: str, scope: Scope, limit: int) -> EntityRows:
    """One entity as the rows the filters pass describe it: its names and kinds (with how many
    memories use each), the keys it is one with, the memories that mention it (newest first)
    and the relations they state of it, each with its memory's valid time."""
    found = EntityRows(key)
    keys = [key, *sorted(aliases(conn, [key], scope).get(key, set()) - {key})]
    found.aliases = set(keys[1:])
    marks = ",".join("?" * len(keys))
    seen: set[str] = set()
    for memory_id, name, kind in conn.execute(
        "SELECT p.memory_id, g.name, g.kind FROM graph_mentions g CROSS JOIN proj_memories p"
        f" ON p.rid = g.rid WHERE g.entity IN ({marks}) AND {scope.within('g.namespace')}"
        f" AND {scope.where} ORDER BY p.recorded_at DESC",
        [*keys, *scope.namespaces, *scope.params],
    ):
        found.names[name] = found.names.get(name, 0) + 1
        found.kinds[kind] = found.kinds.get(kind, 0) + 1
        if memory_id not in seen and len(seen) < limit:
            seen.add(memory_id)
            found.memory_ids.append(memory_id)
    stated: dict[tuple[str, str, str, str], RelationRow] = {}
    for side in ("subject", "object"):
        for s, pred, o, memory_id, vf, vt in conn.execute(
            "SELECT r.subject, r.predicate, r.object, p.memory_id, p.valid_from, p.valid_to"
            " FROM graph_relations r CROSS JOIN proj_memories p ON p.rid = r.rid"
            f" WHERE r.{side} IN ({marks}) AND {scope.within('r.namespace')} AND {scope.where}",
            [*keys, *scope.namespaces, *scope.params],
        ):
            stated[(s, pred, o, memory_id)] = RelationRow(s, pred, o, memory_id, vf, vt)
    found.relations = sorted(
        stated.values(), key=lambda r: (r.valid_from is not None, r.valid_from or 0.0)
    )
    return found


def top(conn: sqlite3.Connection, scope: Scope, limit: int) -> list[str]:
    """The keys the rows the filters pass mention most (people, places, ids; not roles)."""
    return [
        k
        for (k,) in conn.execute(
            "SELECT g.entity FROM graph_mentions g CROSS JOIN proj_memories p ON p.rid = g.rid"
            f" WHERE {scope.within('g.namespace')} AND g.kind != 'role' AND {scope.where}"
            " GROUP BY g.entity HAVING min(g.weak) = 0 ORDER BY count(*) DESC, g.entity LIMIT ?",
            [*scope.namespaces, *scope.params, limit],
        )
    ]


def orphans(conn: sqlite3.Connection) -> int:
    """Graph rows whose memory row is gone: a removal that left something behind."""
    return sum(
        conn.execute(
            f"SELECT count(*) FROM {table} t WHERE NOT EXISTS"
            " (SELECT 1 FROM proj_memories p WHERE p.rid = t.rid)"
        ).fetchone()[0]
        for table in TABLES
    )


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows per graph table, and distinct entities."""
    out = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    out["entities"] = conn.execute("SELECT count(DISTINCT entity) FROM graph_mentions").fetchone()[
        0
    ]
    return out
