"""The outbox: one event per memory version written, in the transaction that wrote it;
projections follow it. Events carry ids, never content."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update

from governed_memory.memory.models.sync import OutboxEvent, OutboxStatus
from governed_memory.memory.stores.canonical._db import Part, chunks, digest
from governed_memory.memory.stores.schema import memory_outbox

_INSERT_OUTBOX = insert(memory_outbox).returning(memory_outbox.c.seq)
_INSERT_OUTBOX_MANY = insert(memory_outbox)
_SEQS = select(memory_outbox.c.event_id, memory_outbox.c.seq).where(
    memory_outbox.c.event_id.in_(bindparam("ids", expanding=True))
)


def event_row(
    source: str,
    tenant_id: str,
    namespace: str,
    memory_id: str,
    version: int,
    operation: str,
    at: datetime,
) -> dict[str, Any]:
    """The outbox row of one (memory, version) written by `source`."""
    return {
        "event_id": f"{digest(source)}:{memory_id}:{version}",
        "memory_id": memory_id,
        "memory_version": version,
        "tenant_id": tenant_id,
        "namespace": namespace,
        "operation": operation,
        # No content: the outbox must not keep what a deletion erases.
        "payload": {"memory_id": memory_id, "version": version},
        "created_at": at,
    }


class Outbox(Part):
    def append(
        self,
        conn: Connection,
        source: str,
        tenant_id: str,
        namespace: str,
        written: Sequence[tuple[str, int]],
        operation: str,
        at: datetime,
    ) -> list[int]:
        """An event for each (memory, version) written by `source` (a commit, an erasure …)."""
        return self.append_rows(
            conn, [event_row(source, tenant_id, namespace, m, v, operation, at) for m, v in written]
        )

    def append_rows(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Events (`event_row`), their seqs in the rows' order. Many rows are written in one
        statement and their seqs read back by event id (unique): a RETURNING in the rows'
        order is one statement per row on SQLite."""
        if len(rows) <= 1:
            return [conn.execute(_INSERT_OUTBOX, dict(row)).scalar_one() for row in rows]
        conn.execute(_INSERT_OUTBOX_MANY, list(rows))
        ids = [row["event_id"] for row in rows]
        seq_of: dict[str, int] = {}
        for part in chunks(ids):
            seq_of.update((str(e), int(q)) for e, q in conn.execute(_SEQS, {"ids": part}))
        return [seq_of[event_id] for event_id in ids]

    def append_many(
        self, conn: Connection, written: Sequence[tuple[str, int, str, str]], at: datetime
    ) -> list[int]:
        """Events for a bulk load: (memory, version, tenant, namespace) each, one statement."""
        if not written:
            return []
        first = conn.execute(select(func.coalesce(func.max(memory_outbox.c.seq), 0))).scalar_one()
        conn.execute(
            insert(memory_outbox),
            [
                {
                    "event_id": f"bulk:{memory_id}:{version}",
                    "memory_id": memory_id,
                    "memory_version": version,
                    "tenant_id": tenant,
                    "namespace": namespace,
                    "operation": "upsert",
                    "payload": {"memory_id": memory_id, "version": version},
                    "created_at": at,
                }
                for memory_id, version, tenant, namespace in written
            ],
        )
        return list(
            conn.execute(
                select(memory_outbox.c.seq)
                .where(memory_outbox.c.seq > first)
                .where(memory_outbox.c.event_id.like("bulk:%"))
            ).scalars()
        )

    def events(self, *, unprocessed_only: bool = True, limit: int = 1000) -> list[OutboxEvent]:
        query = select(memory_outbox).order_by(memory_outbox.c.seq).limit(limit)
        if unprocessed_only:
            query = query.where(memory_outbox.c.processed_at.is_(None))
        with self.db.read() as conn:
            return [OutboxEvent.model_validate(dict(r._mapping)) for r in conn.execute(query)]

    def status(self) -> OutboxStatus:
        with self.db.read() as conn:
            last = conn.execute(
                select(func.coalesce(func.max(memory_outbox.c.seq), 0))
            ).scalar_one()
            pending = memory_outbox.c.processed_at.is_(None)
            count = conn.execute(
                select(func.count()).select_from(memory_outbox).where(pending)
            ).scalar_one()
            oldest = conn.execute(
                select(memory_outbox.c.seq, memory_outbox.c.created_at)
                .where(pending)
                .order_by(memory_outbox.c.seq)
                .limit(1)
            ).first()
        return OutboxStatus(
            last_seq=last,
            unprocessed=count,
            oldest_unprocessed_seq=oldest.seq if oldest else None,
            oldest_unprocessed_at=oldest.created_at if oldest else None,
        )

    def changed_after(self, seq: int, limit: int) -> tuple[list[str], int]:
        """Memories with an outbox event after `seq` (processed or not), up to `limit` events;
        and the last seq read."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(memory_outbox.c.seq, memory_outbox.c.memory_id)
                .where(memory_outbox.c.seq > seq)
                .order_by(memory_outbox.c.seq)
                .limit(limit)
            ).all()
        if not rows:
            return [], seq
        return list(dict.fromkeys(r.memory_id for r in rows)), rows[-1].seq

    def unprocessed(self, memory_ids: Iterable[str]) -> list[int]:
        """Unprocessed outbox events of these memories."""
        out: list[int] = []
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(memory_ids))):
                out += conn.execute(
                    select(memory_outbox.c.seq).where(
                        memory_outbox.c.memory_id.in_(chunk),
                        memory_outbox.c.processed_at.is_(None),
                    )
                ).scalars()
        return sorted(out)

    def mark_processed(self, seqs: Sequence[int], at: datetime) -> None:
        if not seqs:
            return
        with self.db.write() as conn:
            for chunk in chunks(list(seqs)):
                conn.execute(
                    update(memory_outbox)
                    .where(memory_outbox.c.seq.in_(chunk), memory_outbox.c.processed_at.is_(None))
                    .values(processed_at=at)
                )
