"""Deletion receipts, durable, with what each deletion resolved when it started."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from governed_memory.memory.errors import NotFound
from governed_memory.memory.models import DeletionReceipt
from governed_memory.memory.stores.canonical._db import Part, upsert
from governed_memory.memory.stores.schema import deletion_receipts


class Receipts(Part):
    def save(
        self, receipt: DeletionReceipt, at: datetime, *, started: dict[str, Any] | None = None
    ) -> None:
        values: dict[str, Any] = {
            "tenant_id": receipt.tenant_id,
            "scope_fingerprint": receipt.scope.fingerprint(),
            "verification_status": receipt.verification_status,
            "requested_at": receipt.requested_at,
            "updated_at": at,
            "receipt": receipt.model_dump(mode="json"),
        }
        if started is not None:
            values["started"] = started
        with self.db.write() as conn:
            upsert(
                conn,
                deletion_receipts,
                {"deletion_id": receipt.deletion_id, **values},
                keys=["deletion_id"],
            )

    def started(self, deletion_id: str) -> dict[str, Any] | None:
        """What a deletion resolved when it started (None: it has not started)."""
        with self.db.read() as conn:
            value: dict[str, Any] | None = conn.execute(
                select(deletion_receipts.c.started).where(
                    deletion_receipts.c.deletion_id == deletion_id
                )
            ).scalar()
        return value

    def of_tenant(self, tenant_id: str, limit: int = 1000) -> list[DeletionReceipt]:
        """A tenant's receipts, newest first."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(deletion_receipts.c.receipt)
                .where(deletion_receipts.c.tenant_id == tenant_id)
                .order_by(deletion_receipts.c.requested_at.desc())
                .limit(limit)
            ).scalars()
            return [DeletionReceipt.model_validate(r) for r in rows]

    def get(self, deletion_id: str) -> DeletionReceipt:
        with self.db.read() as conn:
            row = conn.execute(
                select(deletion_receipts.c.receipt).where(
                    deletion_receipts.c.deletion_id == deletion_id
                )
            ).scalar()
        if row is None:
            raise NotFound(f"no deletion receipt {deletion_id!r}", field="deletion_id")
        return DeletionReceipt.model_validate(row)
