"""Feedback: events on memories (ids, types, sources, times) and what they taught recall (an
ignored streak and a rank weight per memory). Both go with the memory they point to."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from governed_memory.memory.errors import VersionConflict
from governed_memory.memory.feedback import MemoryFeedbackEvent, Signals
from governed_memory.memory.stores.canonical._db import Part, chunks, dialect_insert
from governed_memory.memory.stores.schema import memory_feedback, memory_signals

#: Signals of a few memories, by id (recall's re-check asks on every read).
_SIGNALS = (
    select(memory_signals.c.memory_id, memory_signals.c.rank_weight)
    .where(memory_signals.c.memory_id.in_(bindparam("ids", expanding=True)))
    .where(memory_signals.c.rank_weight < 1.0)
)


def _event(row: Any) -> MemoryFeedbackEvent:
    return MemoryFeedbackEvent.model_validate(dict(row._mapping))


_ANY_LOWERED = (
    select(memory_signals.c.memory_id)
    .where(memory_signals.c.tenant_id == bindparam("tenant"))
    .where(memory_signals.c.rank_weight < 1.0)
    .limit(1)
)


class Feedback(Part):
    def add(self, conn: Connection, events: Sequence[MemoryFeedbackEvent]) -> None:
        if events:
            conn.execute(insert(memory_feedback), [e.model_dump(mode="python") for e in events])

    def get(self, event_id: str) -> MemoryFeedbackEvent | None:
        with self.db.read() as conn:
            row = conn.execute(
                select(memory_feedback).where(memory_feedback.c.event_id == event_id)
            ).first()
        return None if row is None else _event(row)

    def of_memory(self, memory_id: str) -> list[MemoryFeedbackEvent]:
        query = (
            select(memory_feedback)
            .where(memory_feedback.c.memory_id == memory_id)
            .order_by(memory_feedback.c.recorded_at, memory_feedback.c.event_id)
        )
        with self.db.read() as conn:
            return [_event(r) for r in conn.execute(query)]

    def of_run(self, tenant_id: str, run_id: str) -> list[MemoryFeedbackEvent]:
        query = (
            select(memory_feedback)
            .where(memory_feedback.c.tenant_id == tenant_id, memory_feedback.c.run_id == run_id)
            .order_by(memory_feedback.c.recorded_at, memory_feedback.c.event_id)
        )
        with self.db.read() as conn:
            return [_event(r) for r in conn.execute(query)]

    # ------------------------------------------------------------------------ signals

    def signals(self, memory_id: str, conn: Connection | None = None) -> Signals:
        with self.db.read(conn) as c:
            row = c.execute(
                select(memory_signals.c.ignored_streak, memory_signals.c.rank_weight).where(
                    memory_signals.c.memory_id == memory_id
                )
            ).first()
        if row is None:
            return Signals()
        return Signals(ignored_streak=row.ignored_streak, rank_weight=row.rank_weight)

    def swap_signals(
        self,
        conn: Connection,
        tenant_id: str,
        memory_id: str,
        expected: Signals,
        signals: Signals,
        at: datetime,
    ) -> None:
        """Move a memory's signals from `expected` to `signals`, or raise `VersionConflict` if
        someone moved them since they were read (two runs reported at once each count)."""
        c = memory_signals.c
        same = [
            c.memory_id == memory_id,
            c.ignored_streak == expected.ignored_streak,
            c.rank_weight == expected.rank_weight,
        ]
        values = {"ignored_streak": signals.ignored_streak, "rank_weight": signals.rank_weight}
        if expected == Signals():  # no row was there (the defaults are never stored)
            statement: Any = (
                dialect_insert(conn, memory_signals)
                .values(memory_id=memory_id, tenant_id=tenant_id, updated_at=at, **values)
                .on_conflict_do_nothing(index_elements=["memory_id"])
            )
        elif signals == Signals():
            statement = delete(memory_signals).where(*same)
        else:
            statement = update(memory_signals).where(*same).values(updated_at=at, **values)
        # RETURNING, not rowcount: the driver does not report a row count for every statement.
        moved = len(conn.execute(statement.returning(c.memory_id)).all())
        if moved != 1:
            raise VersionConflict(f"the signals of memory {memory_id} moved meanwhile")

    def any_lowered(self, tenant_id: str) -> bool:
        """Whether any memory of the tenant has a lowered rank weight (most have none: recall
        then asks no more)."""
        with self.db.read() as conn:
            return conn.execute(_ANY_LOWERED, {"tenant": tenant_id}).first() is not None

    def rank_weights(self, memory_ids: Iterable[str]) -> dict[str, float]:
        """The lowered rank weights among these memories (absent: 1)."""
        ids = list(memory_ids)
        if not ids:
            return {}
        with self.db.read() as conn:
            return {m: float(w) for m, w in conn.execute(_SIGNALS, {"ids": ids})}

    # ------------------------------------------------------------------------ erasure

    def erase(self, conn: Connection, memory_ids: Sequence[str]) -> int:
        """Drop every event about these memories, and their signals. Returns the events."""
        gone = 0
        for chunk in chunks(list(memory_ids)):
            gone += conn.execute(
                delete(memory_feedback).where(memory_feedback.c.memory_id.in_(chunk))
            ).rowcount
            conn.execute(delete(memory_signals).where(memory_signals.c.memory_id.in_(chunk)))
        return gone

    def remaining(self, memory_ids: Sequence[str]) -> int:
        """Events and signals still kept about these memories (a deletion's verification wants
        0)."""
        found = 0
        with self.db.read() as conn:
            for chunk in chunks(list(memory_ids)):
                for table in (memory_feedback, memory_signals):
                    found += int(
                        conn.execute(
                            select(func.count())
                            .select_from(table)
                            .where(table.c.memory_id.in_(chunk))
                        ).scalar_one()
                    )
        return found
