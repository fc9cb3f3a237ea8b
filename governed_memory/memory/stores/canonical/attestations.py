"""References tools vouch for: a tool (a service principal with `tools`) attests the references
it issued, and an agent relaying that tool's fact as `verified_tool_fact` must cite one."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select

from governed_memory.memory.stores.canonical._db import Part, chunks, upsert
from governed_memory.memory.stores.schema import tool_attestations


class Attestations(Part):
    def attest(
        self, tenant_id: str, refs: Iterable[tuple[str, str]], by: str, at: datetime
    ) -> None:
        """Record `(ref, scheme)` pairs as vouched for by tool `by` (again: the latest wins)."""
        with self.db.write() as conn:
            for ref, scheme in refs:
                values = {
                    "tenant_id": tenant_id,
                    "ref": ref,
                    "scheme": scheme,
                    "attested_by": by,
                    "attested_at": at,
                }
                upsert(conn, tool_attestations, values, keys=["tenant_id", "ref"])

    def attested(self, tenant_id: str, refs: Iterable[str]) -> set[str]:
        """Of these references, those a tool of the tenant has attested."""
        found: set[str] = set()
        with self.db.read() as conn:
            for chunk in chunks(list(dict.fromkeys(refs))):
                found.update(
                    conn.execute(
                        select(tool_attestations.c.ref).where(
                            tool_attestations.c.tenant_id == tenant_id,
                            tool_attestations.c.ref.in_(chunk),
                        )
                    ).scalars()
                )
        return found
