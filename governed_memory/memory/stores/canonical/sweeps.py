"""What the projection sweeps keep: watermarks per projection and a record of every repair."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from governed_memory.memory.models.sync import RepairRecord, Watermarks
from governed_memory.memory.stores.canonical._db import Part, dialect_insert, upsert
from governed_memory.memory.stores.schema import (
    projection_hosts,
    projection_repairs,
    projection_watermarks,
)


class Sweeps(Part):
    def claim_host(self, projection: str, host: str, epoch: str, at: datetime) -> str | None:
        """Claim `projection` (one served from a single host) for `host`; the claim then
        follows the index's epoch. Returns the other host that holds it, or None when `host`
        does (now or already)."""
        with self.db.write() as conn:
            conn.execute(
                dialect_insert(conn, projection_hosts)
                .values(projection=projection, host=host, epoch=epoch, claimed_at=at)
                .on_conflict_do_nothing(index_elements=["projection"])
            )
            row = conn.execute(
                select(projection_hosts).where(projection_hosts.c.projection == projection)
            ).one()
            if row.host != host:
                return str(row.host)
            if row.epoch != epoch:
                conn.execute(
                    update(projection_hosts)
                    .where(projection_hosts.c.projection == projection)
                    .values(epoch=epoch, claimed_at=at)
                )
        return None

    def release_host(self, projection: str) -> str | None:
        """Give up the claim on `projection` (the service moved to another host); returns the
        host that held it."""
        with self.db.write() as conn:
            row = conn.execute(
                select(projection_hosts.c.host).where(projection_hosts.c.projection == projection)
            ).first()
            conn.execute(
                delete(projection_hosts).where(projection_hosts.c.projection == projection)
            )
        return None if row is None else str(row.host)

    def watermarks(self, projection: str) -> Watermarks:
        with self.db.read() as conn:
            row = conn.execute(
                select(projection_watermarks).where(
                    projection_watermarks.c.projection == projection
                )
            ).first()
        if row is None:
            return Watermarks(projection=projection)
        values = dict(row._mapping)
        values.pop("updated_at")
        return Watermarks.model_validate(values)

    def save_watermarks(self, marks: Watermarks, at: datetime) -> None:
        with self.db.write() as conn:
            upsert(
                conn,
                projection_watermarks,
                {**marks.model_dump(), "updated_at": at},
                keys=["projection"],
            )

    def record_repairs(
        self, repair_id: str, projection: str, repairs: Sequence[RepairRecord], at: datetime
    ) -> None:
        if not repairs:
            return
        with self.db.write() as conn:
            conn.execute(
                insert(projection_repairs),
                [
                    {"repair_id": repair_id, "projection": projection, "at": at, **r.model_dump()}
                    for r in repairs
                ],
            )

    def repairs(self, repair_id: str | None = None, limit: int = 1000) -> list[dict[str, Any]]:
        query = select(projection_repairs).order_by(projection_repairs.c.id).limit(limit)
        if repair_id is not None:
            query = query.where(projection_repairs.c.repair_id == repair_id)
        with self.db.read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
