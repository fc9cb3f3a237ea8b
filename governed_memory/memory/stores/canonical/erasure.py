"""Erasure and expiry: the only changes that take content away.

`erase` tombstones memories and blanks the content of every version, blanks or redacts messages,
fences the erased slots against writes decided before it, and records the deletion in the ledger
— in one transaction. Salted fingerprints of the erased text go to `deletion_probes` so
verification can recognise it without keeping it; `drop_probes` removes them. `expire`
invalidates what outlived its retention.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, insert, select

from governed_memory.memory.fingerprints import fingerprint, new_salt
from governed_memory.memory.models import AuditEvent, content_hash
from governed_memory.memory.plans import (
    EraseResult,
    ErasureLedgerEntry,
    MessageErasure,
    PendingScope,
    slot_for,
)
from governed_memory.memory.stores.canonical._db import Part, upsert
from governed_memory.memory.stores.canonical.records import next_version
from governed_memory.memory.stores.schema import deletion_ledger, deletion_probes, memory_heads

if TYPE_CHECKING:
    from governed_memory.memory.stores.canonical import CanonicalStore


class Erasure(Part):
    def __init__(self, store: CanonicalStore) -> None:
        super().__init__(store.db)
        self.store = store

    def erase(
        self,
        deletion_id: str,
        memory_ids: Sequence[str],
        at: datetime,
        *,
        messages: Sequence[MessageErasure] = (),
        ledger: ErasureLedgerEntry | None = None,
        pending: PendingScope | None = None,
        consents: Sequence[str] = (),
        tenant_id: str | None = None,
        by: str = "deletion",
    ) -> EraseResult:
        """Erase in one transaction. Ids, versions, times and source refs stay (the audit needs
        them); content, structured value and hashes go. A subject's `consents` (of `tenant_id`)
        are deleted, and what depended on them invalidated. Idempotent: erasing what is erased
        writes nothing."""
        s = self.store
        with self.db.write() as conn:
            s.consents.lock(conn, consents)
            rows = s.records.locked_heads(conn, memory_ids, for_update=True)
            # A copy promoted from one of them goes too, even one committed since the scope
            # was resolved (a promotion's commit holds its source's row, so it is either in
            # the lineage by now or will find its source erased).
            copies = self._copies(conn, rows)
            rows += copies
            memory_ids = [*memory_ids, *(r.memory_id for r in copies)]
            live = [r for r in rows if not (r.status == "deleted" and r.content == "")]
            namespaces = {r.namespace for r in rows}
            slots = {(r.namespace, slot_for(r.key, r.gist)) for r in live}
            salt = self._salt(conn, deletion_id)
            probes = [
                _probe(deletion_id, salt, r.memory_id, r.namespace, r.key, r.content) for r in live
            ]
            tombstones = [
                next_version(
                    r,
                    at,
                    f"erased:{deletion_id}",
                    status="deleted",
                    content="",
                    structured_value=None,
                    content_hash="erased",
                    gist=None,
                    graph=None,
                    conflict_group=None,
                )
                for r in live
            ]
            versions = s.records.blank_history(conn, [r.memory_id for r in live])
            if rows:
                s.outcomes.blank(conn, rows[0].tenant_id, [r.memory_id for r in rows])
            s.feedback.erase(conn, [r.memory_id for r in rows])
            s.records.append_versions(conn, tombstones)
            message_probes, message_namespaces = self._erase_messages(
                conn, deletion_id, salt, messages
            )
            probes += message_probes
            namespaces |= message_namespaces
            if consents and pending is not None:
                namespaces |= set(pending.namespaces)  # the subject's, whose consents go
            if probes:
                conn.execute(insert(deletion_probes), probes)
            if pending is not None:
                # What waits to be committed or reviewed goes too: plans staged by runs in
                # flight and the tasks of open reviews.
                mentions = [*memory_ids, *pending.keys]
                for part in (s.staged.erase, s.reviews.erase_tasks):
                    part(conn, pending.tenant_id, pending.namespaces, mentions, whole=pending.whole)
            # In-flight writes decided before this moment may not write these slots again,
            # and plans made against the old slot versions must decide again.
            s.slots.move(conn, sorted(slots), at)
            s.slots.fence(conn, deletion_id, sorted(slots), at)
            if ledger is not None:
                self._record(conn, deletion_id, ledger, slots, at)
            erased = [(t["memory_id"], t["version"], t["namespace"]) for t in tombstones]
            seqs = self._events(conn, f"erase:{deletion_id}", erased, "erase", at)
            s.generations.bump(namespaces, at, conn)
            withdrawn = (
                s.consents.withdraw(conn, tenant_id, consents, by, at)
                if consents and tenant_id is not None
                else None
            )
        return EraseResult(
            invalidated=withdrawn.memory_ids if withdrawn else [],
            invalidated_seqs=withdrawn.outbox_seqs if withdrawn else [],
            memory_ids=[m for m, _, _ in erased],
            versions_erased=versions + len(tombstones),
            messages_erased=len(message_probes),
            namespaces=sorted(namespaces),
            outbox_seqs=seqs,
            slots=sorted(slots),
        )

    def _copies(self, conn: Connection, rows: Sequence[Any]) -> list[Any]:
        """The promoted copies of these memories (lineage from a memory to a memory that is not
        a summary: summaries are resolved, erased and written again apart), transitively, their
        head rows locked."""
        s = self.store
        have = {r.memory_id for r in rows}
        frontier = sorted(have)
        found: list[Any] = []
        while frontier:
            derived = [d for d in s.lineage.derived_from("memory", frontier, conn) if d not in have]
            heads = [
                r
                for r in s.records.locked_heads(conn, derived, for_update=True)
                if r.kind != "summary"
            ]
            have.update(r.memory_id for r in heads)
            found += heads
            frontier = [r.memory_id for r in heads]
        return found

    @staticmethod
    def _salt(conn: Connection, deletion_id: str) -> str:
        """The deletion's salt: the one its first erase drew (an erase again, in a repair,
        fingerprints alike), else a new one."""
        found = conn.execute(
            select(deletion_probes.c.salt)
            .where(deletion_probes.c.deletion_id == deletion_id)
            .limit(1)
        ).scalar()
        return found or new_salt()

    def _erase_messages(
        self,
        conn: Connection,
        deletion_id: str,
        salt: str,
        messages: Sequence[MessageErasure],
    ) -> tuple[list[dict[str, Any]], set[str]]:
        by_id = {m.message_id: m for m in messages}
        probes: list[dict[str, Any]] = []
        namespaces: set[str] = set()
        updates: list[dict[str, Any]] = []
        current = self.store.messages.locked(conn, list(by_id))
        for row in sorted(current, key=lambda r: r.message_id):
            m = by_id[row.message_id]
            text = "" if m.new_text is None else m.new_text
            if row.status == "erased" or text == row.text:
                continue
            namespaces.add(row.namespace)
            for part in m.erased_parts or [row.text]:
                probes.append(
                    _probe(
                        deletion_id,
                        salt,
                        f"{m.message_id}#{len(probes)}",
                        row.namespace,
                        None,
                        part,
                    )
                )
            updates.append(
                {
                    "b_message_id": m.message_id,
                    "text": text,
                    "status": "erased" if m.new_text is None else row.status,
                    "content_hash": "erased" if m.new_text is None else content_hash(text),
                }
            )
        self.store.messages.rewrite(conn, updates)
        return probes, namespaces

    @staticmethod
    def _record(
        conn: Connection,
        deletion_id: str,
        ledger: ErasureLedgerEntry,
        slots: set[tuple[str, str]],
        at: datetime,
    ) -> None:
        entry = ledger.model_copy(update={"fences": sorted({*map(tuple, ledger.fences), *slots})})
        upsert(
            conn,
            deletion_ledger,
            {
                "deletion_id": deletion_id,
                "tenant_id": ledger.tenant_id,
                "entry": entry.model_dump(mode="json"),
                "committed_at": at,
            },
            keys=["deletion_id"],
        )

    def _events(
        self,
        conn: Connection,
        source: str,
        changed: Sequence[tuple[str, int, str]],
        operation: str,
        at: datetime,
    ) -> list[int]:
        """Outbox events of changed (memory, version, namespace), namespace by namespace."""
        seqs: list[int] = []
        for ns in sorted({n for _, _, n in changed}):
            in_ns = [(m, v) for m, v, n in changed if n == ns]
            seqs += self.store.outbox.append(
                conn, source, ns.split("/")[1], ns, in_ns, operation, at
            )
        return seqs

    def expire(self, at: datetime, limit: int) -> EraseResult:
        """Invalidate up to `limit` memories whose retention ended by `at` (a new version each,
        with its outbox event, audit and the generation bump of its namespace)."""
        s = self.store
        with self.db.write() as conn:
            rows = conn.execute(
                select(memory_heads)
                .where(memory_heads.c.expires_at <= at)
                .where(memory_heads.c.status.in_(("active", "superseded")))
                .order_by(memory_heads.c.expires_at)
                .limit(limit)
            ).all()
            s.records.append_versions(
                conn, [next_version(r, at, "expired", status="invalidated") for r in rows]
            )
            changed = [(r.memory_id, r.version + 1, r.namespace) for r in rows]
            seqs = self._events(conn, f"expire:{at.isoformat()}", changed, "expire", at)
            namespaces = sorted({ns for _, _, ns in changed})
            for ns in namespaces:
                s.audit.append(
                    [
                        AuditEvent(
                            stage="expire",
                            outcome="invalidated",
                            decision="invalidate",
                            reason_code="expired",
                            details={"memories": [m for m, _, n in changed if n == ns]},
                        )
                    ],
                    tenant_id=ns.split("/")[1],
                    namespace=ns,
                    workflow_id=None,
                    at=at,
                    conn=conn,
                )
            s.generations.bump(namespaces, at, conn)
        return EraseResult(
            memory_ids=[m for m, _, _ in changed],
            versions_erased=0,
            namespaces=namespaces,
            outbox_seqs=seqs,
        )

    def ledger(self, tenant_id: str | None = None) -> list[ErasureLedgerEntry]:
        query = select(deletion_ledger.c.entry).order_by(deletion_ledger.c.committed_at)
        if tenant_id is not None:
            query = query.where(deletion_ledger.c.tenant_id == tenant_id)
        with self.db.read() as conn:
            return [ErasureLedgerEntry.model_validate(e) for e in conn.execute(query).scalars()]

    def probes(self, deletion_id: str) -> list[dict[str, Any]]:
        with self.db.read() as conn:
            return [
                dict(r._mapping)
                for r in conn.execute(
                    select(deletion_probes).where(deletion_probes.c.deletion_id == deletion_id)
                )
            ]

    def drop_probes(self, deletion_id: str) -> None:
        with self.db.write() as conn:
            conn.execute(
                delete(deletion_probes).where(deletion_probes.c.deletion_id == deletion_id)
            )


def _probe(
    deletion_id: str, salt: str, memory_id: str, namespace: str, key: str | None, content: str
) -> dict[str, Any]:
    return {
        "deletion_id": deletion_id,
        "memory_id": memory_id,
        "namespace": namespace,
        "key": key,
        "salt": salt,
        "fingerprint": fingerprint(content, salt),
    }
