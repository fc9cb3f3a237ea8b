"""Reviews: a deferred write waiting for approval, or an open conflict group."""

from __future__ import annotations

from sqlalchemy import Connection, select

from memory.errors import NotFound
from memory.models import ReviewRecord
from memory.stores.canonical._db import Part, chunks, upsert
from memory.stores.schema import reviews


class Reviews(Part):
    def save(self, review: ReviewRecord, conn: Connection | None = None) -> None:
        with self.db.write(conn) as c:
            upsert(c, reviews, review.model_dump(mode="python"), keys=["review_id"])

    def get(self, review_id: str) -> ReviewRecord:
        with self.db.read() as conn:
            row = conn.execute(select(reviews).where(reviews.c.review_id == review_id)).first()
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
            select(reviews).where(reviews.c.tenant_id == tenant_id).order_by(reviews.c.opened_at)
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
