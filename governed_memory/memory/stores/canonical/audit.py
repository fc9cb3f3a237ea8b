"""The audit: every stage and policy decision with its reason code (ids and codes, no content)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, or_, select

from governed_memory.memory.models import AuditEvent, ExtractorInfo
from governed_memory.memory.stores.canonical._db import Part, chunks
from governed_memory.memory.stores.schema import audit_events

_INSERT = insert(audit_events)


class Audit(Part):
    def append(
        self,
        events: Sequence[AuditEvent],
        *,
        tenant_id: str,
        namespace: str | None,
        workflow_id: str | None,
        at: datetime,
        conn: Connection | None = None,
    ) -> None:
        if not events:
            return
        rows = self.rows(
            events, tenant_id=tenant_id, namespace=namespace, workflow_id=workflow_id, at=at
        )
        with self.db.write(conn) as c:
            self.insert_rows(c, rows)

    @staticmethod
    def rows(
        events: Sequence[AuditEvent],
        *,
        tenant_id: str,
        namespace: str | None,
        workflow_id: str | None,
        at: datetime,
    ) -> list[dict[str, Any]]:
        """The audit rows of `events` (`insert_rows` writes them)."""
        extractors: dict[int, dict[str, Any]] = {}  # a write's events share its extractor's

        def extractor(info: ExtractorInfo) -> dict[str, Any]:
            dumped = extractors.get(id(info))
            if dumped is None:
                dumped = extractors[id(info)] = info.model_dump()
            return dumped

        return [
            {
                "at": at,
                "tenant_id": tenant_id,
                "namespace": namespace,
                "workflow_id": workflow_id,
                "stage": e.stage,
                "outcome": e.outcome,
                "decision": e.decision,
                "relation": e.relation,
                "reason_code": e.reason_code,
                "memory_id": e.memory_id,
                "memory_version": e.memory_version,
                "principal": e.principal,
                "extractor": extractor(e.extractor) if e.extractor else None,
                "details": e.details,
            }
            for e in events
        ]

    @staticmethod
    def insert_rows(conn: Connection, rows: list[dict[str, Any]]) -> None:
        if rows:
            conn.execute(_INSERT, rows)

    def trail(
        self, *, memory_id: str | None = None, workflow_id: str | None = None
    ) -> list[dict[str, Any]]:
        query = select(audit_events).order_by(audit_events.c.seq)
        conds = []
        if memory_id:
            conds.append(audit_events.c.memory_id == memory_id)
        if workflow_id:
            conds.append(audit_events.c.workflow_id == workflow_id)
        if conds:
            query = query.where(or_(*conds))
        with self.db.read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def workflows_about(
        self, tenant_id: str, memory_ids: Sequence[str], namespaces: Sequence[str] = ()
    ) -> set[str]:
        """The workflow runs (by id) whose audit names one of these memories, or anything in
        one of these namespaces: the runs whose history carried that content."""
        found: set[str] = set()
        with self.db.read() as conn:
            conds = [audit_events.c.memory_id.in_(b) for b in chunks(list(memory_ids))]
            if namespaces:
                conds.append(audit_events.c.namespace.in_(list(namespaces)))
            for cond in conds:
                found.update(
                    w
                    for w in conn.execute(
                        select(audit_events.c.workflow_id)
                        .distinct()
                        .where(audit_events.c.tenant_id == tenant_id, cond)
                    ).scalars()
                    if w
                )
        return found
