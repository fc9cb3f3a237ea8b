"""Consents subjects gave: recorded, read, revoked (what depended on one invalidated in the same
transaction), and deleted with their subject. A commit writing a memory that cites a consent
locks that consent's row and checks it is still in force (`held`), so a write and a revocation
racing each other cannot leave an active memory on a revoked consent."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, func, insert, select, update

from governed_memory.memory.consents import Consent
from governed_memory.memory.errors import NotFound
from governed_memory.memory.models import READABLE_STATUSES, AuditEvent
from governed_memory.memory.plans import slot_for
from governed_memory.memory.stores.canonical._db import Part, chunks
from governed_memory.memory.stores.canonical.records import next_version
from governed_memory.memory.stores.schema import consents, memory_heads

if TYPE_CHECKING:
    from governed_memory.memory.stores.canonical import CanonicalStore


def _consent(row: Any) -> Consent:
    return Consent.model_validate(dict(row._mapping))


class Invalidated:
    """What invalidating the dependents of consents changed: memory ids and outbox events."""

    def __init__(self) -> None:
        self.memory_ids: list[str] = []
        self.outbox_seqs: list[int] = []


class Consents(Part):
    def __init__(self, store: CanonicalStore) -> None:
        super().__init__(store.db)
        self.store = store

    def record(self, consent: Consent) -> None:
        with self.db.write() as conn:
            conn.execute(insert(consents), consent.model_dump(mode="python"))

    def get(self, consent_id: str) -> Consent | None:
        with self.db.read() as conn:
            row = conn.execute(select(consents).where(consents.c.consent_id == consent_id)).first()
        return None if row is None else _consent(row)

    def many(self, consent_ids: Sequence[str]) -> dict[str, Consent]:
        found: dict[str, Consent] = {}
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(consent_ids))):
                for row in conn.execute(select(consents).where(consents.c.consent_id.in_(chunk))):
                    found[row.consent_id] = _consent(row)
        return found

    def of_subject(self, tenant_id: str, subject_ref: str) -> list[Consent]:
        """A subject's consents, oldest first (revoked ones too)."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(consents)
                .where(consents.c.tenant_id == tenant_id, consents.c.subject_ref == subject_ref)
                .order_by(consents.c.given_at, consents.c.consent_id)
            )
            return [_consent(r) for r in rows]

    def held(
        self, conn: Connection, tenant_id: str, cited: Sequence[tuple[str, str]], at: datetime
    ) -> list[str]:
        """Of the `(consent id, subject)` pairs new memories cite, the consent ids not in force
        for that subject at `at`, read with their rows locked (a revocation waits for this
        transaction, or this one sees it)."""
        wanted = sorted({c for c, _ in cited})
        rows = {
            r.consent_id: _consent(r)
            for chunk in chunks(wanted)
            for r in conn.execute(
                select(consents)
                .where(consents.c.consent_id.in_(chunk))
                .order_by(consents.c.consent_id)
                .with_for_update()
            )
        }
        return sorted(
            {
                c
                for c, subject in cited
                if c not in rows or not rows[c].in_force(tenant_id, subject, at)
            }
        )

    def lock(self, conn: Connection, consent_ids: Sequence[str]) -> None:
        """Take these consents' row locks first (an erasure does, so that it and a commit
        citing one of them lock in the same order: consent, then slots)."""
        for chunk in chunks(sorted(set(consent_ids))):
            conn.execute(
                select(consents.c.consent_id)
                .where(consents.c.consent_id.in_(chunk))
                .order_by(consents.c.consent_id)
                .with_for_update()
            ).all()

    def revoke(self, tenant_id: str, consent_id: str, by: str, at: datetime) -> Invalidated:
        """Revoke a consent (again: it stays revoked as first) and invalidate, in the same
        transaction, every readable memory that cites it: a new version each, its outbox event,
        an audit row per namespace and the namespaces' cache generations."""
        with self.db.write() as conn:
            row = conn.execute(
                select(consents).where(consents.c.consent_id == consent_id).with_for_update()
            ).first()
            if row is None or row.tenant_id != tenant_id:
                raise NotFound(f"no consent {consent_id!r}", field="consent_id")
            if row.revoked_at is None:
                conn.execute(
                    update(consents)
                    .where(consents.c.consent_id == consent_id)
                    .values(revoked_at=at, revoked_by=by)
                )
            return self.invalidate_dependents(conn, tenant_id, [consent_id], by, at)

    def withdraw(
        self, conn: Connection, tenant_id: str, consent_ids: Sequence[str], by: str, at: datetime
    ) -> Invalidated:
        """Inside an erasure: what depends on these consents invalidated, then their rows
        deleted (their purpose is their subject's words)."""
        if not consent_ids:
            return Invalidated()
        done = self.invalidate_dependents(conn, tenant_id, consent_ids, by, at)
        for chunk in chunks(list(consent_ids)):
            conn.execute(
                delete(consents).where(
                    consents.c.tenant_id == tenant_id, consents.c.consent_id.in_(chunk)
                )
            )
        return done

    def invalidate_dependents(
        self, conn: Connection, tenant_id: str, consent_ids: Sequence[str], by: str, at: datetime
    ) -> Invalidated:
        s = self.store
        rows = [
            r
            for chunk in chunks(list(consent_ids))
            for r in conn.execute(
                select(memory_heads).where(
                    memory_heads.c.tenant_id == tenant_id,
                    memory_heads.c.consent_ref.in_(chunk),
                    memory_heads.c.status.in_(READABLE_STATUSES),
                )
            )
        ]
        done = Invalidated()
        if not rows:
            return done
        s.records.append_versions(
            conn,
            [
                next_version(r, at, f"consent_revoked:{r.consent_ref}", status="invalidated")
                for r in rows
            ],
        )
        # Plans decided against these slots decide again (they may have matched what went).
        s.slots.move(conn, sorted({(r.namespace, slot_for(r.key, r.gist)) for r in rows}), at)
        for ns in sorted({r.namespace for r in rows}):
            in_ns = [r for r in rows if r.namespace == ns]
            done.outbox_seqs += s.outbox.append(
                conn,
                f"consent:{at.isoformat()}",
                tenant_id,
                ns,
                [(r.memory_id, r.version + 1) for r in in_ns],
                "invalidate",
                at,
            )
            s.audit.append(
                [
                    AuditEvent(
                        stage="consent",
                        outcome="revoked",
                        decision="invalidate",
                        reason_code="consent_revoked",
                        memory_id=r.memory_id,
                        memory_version=r.version + 1,
                        principal=by,
                        details={"consent_id": r.consent_ref},
                    )
                    for r in in_ns
                ],
                tenant_id=tenant_id,
                namespace=ns,
                workflow_id=None,
                at=at,
                conn=conn,
            )
            done.memory_ids += [r.memory_id for r in in_ns]
        s.generations.bump({r.namespace for r in rows}, at, conn)
        return done

    def remaining(self, consent_ids: Sequence[str]) -> int:
        """How many of these consents are still kept (a deletion's probe: none)."""
        with self.db.read() as conn:
            return sum(
                conn.execute(
                    select(func.count())
                    .select_from(consents)
                    .where(consents.c.consent_id.in_(chunk))
                ).scalar()
                or 0
                for chunk in chunks(list(consent_ids))
            )
