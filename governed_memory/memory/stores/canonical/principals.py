"""The registry of principals: agents, reviewers and services with their grants."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import bindparam, select

from governed_memory.memory.errors import MemoryServiceError, NotFound
from governed_memory.memory.models import Principal, parse_principal_ref
from governed_memory.memory.stores.canonical._db import Part, chunks, upsert
from governed_memory.memory.stores.schema import principals

#: Built once, with a bound parameter (each write asks it).
_DEFINITION = select(principals.c.definition).where(principals.c.ref == bindparam("ref"))


class Principals(Part):
    def put(self, principal: Principal, at: datetime) -> None:
        values = {
            "ref": principal.ref,
            "tenant_id": principal.tenant,
            "type": principal.type,
            "definition": principal.model_dump(mode="json"),
            "updated_at": at,
        }
        with self.db.write() as conn:
            upsert(conn, principals, values, keys=["ref"])

    def get(self, ref: str) -> Principal:
        """The registered principal; users need no registration (their id gives their rights)."""
        type_, tenant, id_ = parse_principal_ref(ref)
        with self.db.read() as conn:
            row = conn.execute(_DEFINITION, {"ref": ref}).first()
        if row is not None:
            return Principal.model_validate(row.definition)
        if type_ == "user":
            return Principal(type="user", tenant=tenant, id=id_)
        raise NotFound(f"unknown principal {ref!r}", field="principal")

    def many(self, refs: Sequence[str]) -> dict[str, Principal]:
        """`get` of each of `refs`, in one query; an unregistered principal that is not a user
        is left out (`get` refuses it)."""
        wanted = list(dict.fromkeys(refs))
        found: dict[str, Principal] = {}
        with self.db.read() as conn:
            for part in chunks(wanted):
                for ref, definition in conn.execute(
                    select(principals.c.ref, principals.c.definition).where(
                        principals.c.ref.in_(part)
                    )
                ):
                    found[ref] = Principal.model_validate(definition)
        for ref in wanted:
            if ref not in found:
                try:
                    type_, tenant, id_ = parse_principal_ref(ref)
                except MemoryServiceError:
                    continue  # `get` refuses it, for its own write alone
                if type_ == "user":
                    found[ref] = Principal(type="user", tenant=tenant, id=id_)
        return found

    def of_tenant(self, tenant_id: str) -> list[Principal]:
        """The registered principals of a tenant."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(principals.c.definition)
                .where(principals.c.tenant_id == tenant_id)
                .order_by(principals.c.ref)
            )
            return [Principal.model_validate(r.definition) for r in rows]

    def reviewers(self, tenant_id: str) -> list[Principal]:
        """Registered principals of a tenant that hold any approve pattern."""
        return [p for p in self.of_tenant(tenant_id) if p.approve]
