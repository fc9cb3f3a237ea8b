"""Cache generations: every change to a namespace moves its generation (caches key on it) and
its changed_at (the latest recorded time of a change)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, case, func, select

from governed_memory.memory.stores.canonical._db import Part, dialect_insert
from governed_memory.memory.stores.schema import cache_generations

_BUMP: dict[str, Any] = {}


def _bump_statement(conn: Connection) -> Any:
    stmt = _BUMP.get(conn.dialect.name)
    if stmt is None:
        table = cache_generations
        ins = dialect_insert(conn, table)
        stmt = ins.values(
            namespace=bindparam("ns"), generation=1, changed_at=bindparam("at")
        ).on_conflict_do_update(
            index_elements=["namespace"],
            set_={
                "generation": table.c.generation + 1,
                "changed_at": func.coalesce(
                    case(
                        (table.c.changed_at > ins.excluded.changed_at, table.c.changed_at),
                        else_=ins.excluded.changed_at,
                    ),
                    ins.excluded.changed_at,
                ),
            },
        )
        _BUMP[conn.dialect.name] = stmt
    return stmt


#: Built once: every recall reads it (see `records._HEADS_BY_ID`).
_BY_NAMESPACE = select(cache_generations).where(
    cache_generations.c.namespace.in_(bindparam("namespaces", expanding=True))
)


class Generations(Part):
    def bump(self, namespaces: Iterable[str], at: datetime, conn: Connection | None = None) -> None:
        self.bump_each(dict.fromkeys(namespaces, at), conn)

    def bump_each(self, changed: Mapping[str, datetime], conn: Connection | None = None) -> None:
        """Each namespace's generation moved, its latest change at its time: one statement."""
        if not changed:
            return
        with self.db.write(conn) as c:
            c.execute(
                _bump_statement(c), [{"ns": ns, "at": at} for ns, at in sorted(changed.items())]
            )

    def read(self, namespaces: Sequence[str]) -> dict[str, tuple[int, datetime | None]]:
        """Per namespace: its generation and the recorded time of its latest change."""
        with self.db.read() as conn:
            rows = conn.execute(_BY_NAMESPACE, {"namespaces": list(namespaces)})
            found = {r.namespace: (r.generation, r.changed_at) for r in rows}
        return {ns: found.get(ns, (0, None)) for ns in namespaces}
