"""Computing the stored gists again, for the migrations that introduce or change the rule
(`memory.sameness.GIST_VERSION`): every row with content whose gist is not of the current
version gets the current one. Erased rows (empty content) keep none."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from governed_memory.memory.sameness import GIST_VERSION, gist_of

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BATCH = 1000


def recompute_gists(conn: sa.Connection, name: str, keys: list[str]) -> int:
    table = sa.table(
        name,
        *(sa.column(k) for k in keys),
        sa.column("content", sa.Text()),
        sa.column("structured_value", JSON),
        sa.column("gist", sa.String()),
    )
    stale = sa.or_(table.c.gist.is_(None), ~table.c.gist.startswith(GIST_VERSION + ":"))
    rows = conn.execute(
        sa.select(*(table.c[k] for k in keys), table.c.content, table.c.structured_value).where(
            table.c.content != "", stale
        )
    ).fetchall()
    for i in range(0, len(rows), BATCH):
        conn.execute(
            sa.update(table)
            .where(*(table.c[k] == sa.bindparam(f"b_{k}") for k in keys))
            .values(gist=sa.bindparam("b_gist")),
            [
                {
                    **{f"b_{k}": getattr(r, k) for k in keys},
                    "b_gist": gist_of(r.content, r.structured_value),
                }
                for r in rows[i : i + BATCH]
            ],
        )
    return len(rows)
