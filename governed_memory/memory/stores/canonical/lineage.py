"""Lineage: what each derived record (a summary, a promoted copy) was made from."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, insert, select

from governed_memory.memory.plans import LineageLink
from governed_memory.memory.stores.canonical._db import Part, chunks
from governed_memory.memory.stores.schema import memory_lineage


class Lineage(Part):
    def add(
        self,
        links: Sequence[LineageLink],
        tenant_id: str,
        at: datetime,
        conn: Connection | None = None,
    ) -> None:
        if not links:
            return
        with self.db.write(conn) as c:
            c.execute(
                insert(memory_lineage),
                [{**link.model_dump(), "tenant_id": tenant_id, "created_at": at} for link in links],
            )

    def derived_from(
        self, source_kind: str, source_ids: Sequence[str], conn: Connection | None = None
    ) -> list[str]:
        """Ids of the derived records made from any of these sources (one step)."""
        if not source_ids:
            return []
        found: list[str] = []
        with self.db.read(conn) as c:
            for chunk in chunks(list(source_ids)):
                found += c.execute(
                    select(memory_lineage.c.derived_id).where(
                        memory_lineage.c.source_kind == source_kind,
                        memory_lineage.c.source_id.in_(chunk),
                    )
                ).scalars()
        return list(dict.fromkeys(found))

    def sources_of(self, derived_id: str) -> list[LineageLink]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(memory_lineage).where(memory_lineage.c.derived_id == derived_id)
            )
            return [
                LineageLink(
                    derived_id=r.derived_id,
                    derived_version=r.derived_version,
                    source_kind=r.source_kind,
                    source_id=r.source_id,
                )
                for r in rows
            ]
