"""Reviews: a deferred write waiting for approval, or an open conflict group."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select, update

from governed_memory.memory.errors import NotFound
from governed_memory.memory.models import ReviewRecord
from governed_memory.memory.stores.canonical._db import Part, change_mentioning, chunks, upsert
from governed_memory.memory.stores.schema import reviews

#: A review's columns as a `ReviewRecord` (ids, status, decision; the task is read apart).
_RECORD = [c for c in reviews.c if c.name != "task"]


class Reviews(Part):
    def save(
        self,
        review: ReviewRecord,
        conn: Connection | None = None,
        *,
        task: dict[str, Any] | None = None,
    ) -> None:
        """Insert or update a review; its task is written when given and kept otherwise."""
        values = review.model_dump(mode="python")
        if task is not None:
            values["task"] = task
        with self.db.write(conn) as c:
            upsert(c, reviews, values, keys=["review_id"])

    def task(self, review_id: str) -> dict[str, Any] | None:
        """What settling the review needs (None: erased, or a review opened before tasks were
        kept here)."""
        with self.db.read() as conn:
            found = conn.execute(
                select(reviews.c.task).where(reviews.c.review_id == review_id)
            ).scalar()
        return dict(found) if found else None

    def erase_tasks(
        self,
        conn: Connection,
        tenant_id: str,
        namespaces: Sequence[str],
        mentions: Sequence[str],
        *,
        whole: bool,
    ) -> int:
        """Blank the tasks of the reviews in these namespaces: all (`whole`), or those that
        mention an erased memory id or key. Returns how many."""
        if not namespaces:
            return 0
        where = [
            reviews.c.tenant_id == tenant_id,
            reviews.c.namespace.in_(list(namespaces)),
            reviews.c.task.is_not(None),
        ]
        blank = update(reviews).values(task=None)
        return change_mentioning(conn, blank, where, reviews.c.task, mentions, whole=whole)

    def get(self, review_id: str) -> ReviewRecord:
        with self.db.read() as conn:
            row = conn.execute(select(*_RECORD).where(reviews.c.review_id == review_id)).first()
        if row is None:
            raise NotFound(f"no review {review_id!r}", field="review_id")
        return ReviewRecord.model_validate(dict(row._mapping))

    def find(
        self,
        tenant_id: str,
        *,
        status: str | None = "open",
        conflict_group: str | None = None,
        write_workflow_id: str | None = None,
    ) -> list[ReviewRecord]:
        query = (
            select(*_RECORD).where(reviews.c.tenant_id == tenant_id).order_by(reviews.c.opened_at)
        )
        if status is not None:
            query = query.where(reviews.c.status == status)
        if conflict_group is not None:
            query = query.where(reviews.c.conflict_group == conflict_group)
        if write_workflow_id is not None:
            query = query.where(reviews.c.write_workflow_id == write_workflow_id)
        with self.db.read() as conn:
            return [ReviewRecord.model_validate(dict(r._mapping)) for r in conn.execute(query)]

    def opened_by(self, tenant_id: str, write_workflow_ids: list[str]) -> set[str]:
        """The review workflow ids opened by these writes (their inputs carry the write)."""
        found: set[str] = set()
        with self.db.read() as conn:
            for batch in chunks(write_workflow_ids):
                found.update(
                    conn.execute(
                        select(reviews.c.workflow_id).where(
                            reviews.c.tenant_id == tenant_id,
                            reviews.c.write_workflow_id.in_(batch),
                        )
                    ).scalars()
                )
        return found
