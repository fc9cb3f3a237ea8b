"""Staged plans: a plan decided and not yet committed, kept by its commit id.

A workflow's decide activity stages its plan here and hands the workflow a `CommitRef` (the id
and a digest); the commit activity loads it, and the commit deletes it in its own transaction.
So what moves through Temporal history between the two is an id, not what the user said. An
erasure deletes the staged plans of its scope; the expiry sweep deletes those a failed run left
behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, Text, cast, delete, select

from governed_memory.memory.errors import InvalidInput, NotFound
from governed_memory.memory.plans import CommitPlan, CommitRef
from governed_memory.memory.stores.canonical._db import (
    Part,
    change_mentioning,
    chunks,
    digest,
    upsert,
)
from governed_memory.memory.stores.schema import staged_plans


class Staged(Part):
    def put(self, plan: CommitPlan, at: datetime) -> CommitRef:
        """Stage a plan (again, idempotently: a retried decide activity stages it anew)."""
        body = plan.model_dump(mode="json")
        ref = CommitRef(
            commit_id=plan.commit_id,
            digest=digest(plan.model_dump_json()),
            memory_ids=sorted(
                {r.memory_id for r in plan.new_records} | {c.memory_id for c in plan.changes}
            ),
        )
        with self.db.write() as conn:
            upsert(
                conn,
                staged_plans,
                {
                    "commit_id": plan.commit_id,
                    "tenant_id": plan.tenant_id,
                    "namespace": plan.namespace,
                    "digest": ref.digest,
                    "plan": body,
                    "staged_at": at,
                },
                keys=["commit_id"],
            )
        return ref

    def get(self, ref: CommitRef) -> CommitPlan:
        with self.db.read() as conn:
            row = conn.execute(
                select(staged_plans.c.plan, staged_plans.c.digest).where(
                    staged_plans.c.commit_id == ref.commit_id
                )
            ).first()
        if row is None:
            raise NotFound(
                f"no staged plan {ref.commit_id!r} (erased, or left behind and swept)",
                field="commit_id",
            )
        if row.digest != ref.digest:
            raise InvalidInput(f"staged plan {ref.commit_id!r} is not the one decided")
        return CommitPlan.model_validate(row.plan)

    def drop(self, conn: Connection, commit_id: str) -> None:
        self.drop_all(conn, [commit_id])

    @staticmethod
    def drop_all(conn: Connection, commit_ids: Sequence[str]) -> None:
        for chunk in chunks(list(commit_ids)):
            conn.execute(delete(staged_plans).where(staged_plans.c.commit_id.in_(chunk)))

    def erase(
        self,
        conn: Connection,
        tenant_id: str,
        namespaces: Sequence[str],
        mentions: Sequence[str],
        *,
        whole: bool,
    ) -> int:
        """Delete the staged plans of these namespaces: all of them (`whole`), or those that
        mention one of `mentions` (erased memory ids, keys). Returns how many."""
        if not namespaces:
            return 0
        where = [staged_plans.c.tenant_id == tenant_id, staged_plans.c.namespace.in_(namespaces)]
        return change_mentioning(
            conn, delete(staged_plans), where, staged_plans.c.plan, mentions, whole=whole
        )

    def in_namespaces(self, namespaces: Sequence[str]) -> list[str]:
        """The staged plans' bodies in these namespaces, as text (what verification reads)."""
        with self.db.read() as conn:
            return [
                str(p)
                for p in conn.execute(
                    select(cast(staged_plans.c.plan, Text)).where(
                        staged_plans.c.namespace.in_(list(namespaces))
                    )
                ).scalars()
            ]

    def sweep(self, before: datetime) -> int:
        """Delete plans staged before `before` that no commit took (their run failed)."""
        with self.db.write() as conn:
            return (
                conn.execute(delete(staged_plans).where(staged_plans.c.staged_at < before)).rowcount
                or 0
            )
