"""Write outcomes by idempotency key: a key decided once is never decided again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from governed_memory.memory.models import CandidateOutcome
from governed_memory.memory.plans import WriteOutcome
from governed_memory.memory.stores.canonical._db import Part, chunks, mentioning
from governed_memory.memory.stores.schema import write_outcomes

_INSERT = insert(write_outcomes)
#: Built once, with bound parameters (each write asks it).
_OUTCOME = select(write_outcomes).where(
    write_outcomes.c.tenant_id == bindparam("tenant_id"),
    write_outcomes.c.principal == bindparam("principal"),
    write_outcomes.c.idempotency_key == bindparam("key"),
)


class Outcomes(Part):
    def save(self, outcome: WriteOutcome, at: datetime, conn: Connection | None = None) -> None:
        # A plain insert: a key decided twice at once fails one of the two (VersionConflict),
        # and the loser finds the winner's outcome when it decides again.
        with self.db.write(conn) as c:
            self.insert_rows(c, [self.row(outcome, at)])

    @staticmethod
    def row(outcome: WriteOutcome, at: datetime) -> dict[str, Any]:
        return {
            "tenant_id": outcome.tenant_id,
            "principal": outcome.principal,
            "idempotency_key": outcome.idempotency_key,
            "workflow_id": outcome.workflow_id,
            "outcomes": [o.model_dump(mode="json") for o in outcome.outcomes],
            "decided_at": at,
        }

    @staticmethod
    def insert_rows(conn: Connection, rows: list[dict[str, Any]]) -> None:
        """Plain inserts: a key decided twice at once fails one of the two (VersionConflict,
        through `Database.write`), and the loser finds the winner's outcome when it decides
        again."""
        if rows:
            conn.execute(_INSERT, rows)

    def get(self, tenant_id: str, principal: str, idempotency_key: str) -> WriteOutcome | None:
        """The decision already made for this principal's idempotency key, if any."""
        params = {"tenant_id": tenant_id, "principal": principal, "key": idempotency_key}
        with self.db.read() as conn:
            row = conn.execute(_OUTCOME, params).first()
        if row is None:
            return None
        return WriteOutcome(
            tenant_id=row.tenant_id,
            idempotency_key=row.idempotency_key,
            workflow_id=row.workflow_id,
            outcomes=[CandidateOutcome.model_validate(o) for o in row.outcomes],
            principal=row.principal,
        )

    def many(
        self, tenant_id: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], list[CandidateOutcome]]:
        """The outcomes decided for these (principal, idempotency key) pairs (those decided)."""
        wanted = set(keys)
        found: dict[tuple[str, str], list[CandidateOutcome]] = {}
        with self.db.read() as conn:
            for batch in chunks(sorted({k for _, k in wanted})):
                for row in conn.execute(
                    select(
                        write_outcomes.c.principal,
                        write_outcomes.c.idempotency_key,
                        write_outcomes.c.outcomes,
                    ).where(
                        write_outcomes.c.tenant_id == tenant_id,
                        write_outcomes.c.idempotency_key.in_(batch),
                    )
                ):
                    pair = (row.principal, row.idempotency_key)
                    if pair in wanted:
                        found[pair] = [CandidateOutcome.model_validate(o) for o in row.outcomes]
        return found

    def blank(self, conn: Connection, tenant_id: str, memory_ids: Sequence[str]) -> int:
        """Erase the values of every outcome about these memories (its own or one it matched):
        an idempotency key must not keep readable what a deletion erased. Decisions, ids and
        reasons stay. Returns how many outcome rows changed."""
        changed = 0
        wanted = set(memory_ids)
        for mentions in mentioning(write_outcomes.c.outcomes, memory_ids):
            rows = conn.execute(
                select(write_outcomes).where(write_outcomes.c.tenant_id == tenant_id, mentions)
            ).fetchall()
            for row in rows:
                outcomes = [dict(o) for o in row.outcomes]
                touched = False
                for o in outcomes:
                    about = {o.get("memory_id"), *o.get("matched_memory_ids", [])}
                    if about & wanted and o.get("value") is not None:
                        o["value"] = None
                        touched = True
                if touched:
                    conn.execute(
                        update(write_outcomes)
                        .where(
                            write_outcomes.c.tenant_id == row.tenant_id,
                            write_outcomes.c.principal == row.principal,
                            write_outcomes.c.idempotency_key == row.idempotency_key,
                        )
                        .values(outcomes=outcomes)
                    )
                    changed += 1
        return changed
