"""Principals: who may read, write, approve and delete where, and their references."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import (
    Field,
    field_validator,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import PrincipalType, Sensitivity, Stored
from governed_memory.memory.namespaces import check_tenant, matches_any, parse_pattern

#: A reference scheme (RFC 3986): `order` in `order://ORD-1?version=8`.
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]{0,31}")


class Principal(Stored):
    """Who acts: its tenant, what it may read, write, approve and delete, and its limits."""

    type: PrincipalType
    """What sort of principal it is: `user` (a person, whose own namespace is
    `tenant/{tenant}/user/{id}`), `agent`, `reviewer` or `service` (another system, such as a
    tool)."""
    tenant: str
    """Its tenant (letters, digits, `.`, `_` and `-`, at most 64 characters); every pattern it is
    granted must stay inside it."""
    id: str = Field(min_length=1, max_length=128)
    """Its id within the tenant (1 to 128 characters). Its reference is `{type}:{tenant}/{id}`
    (`agent:shop-a/support-bot`)."""
    read: list[str] = Field(default_factory=list)
    """The namespaces it may read, as patterns (`tenant/shop-a/user/*`: `*` is one segment, `**` any
    number). A user reads its own namespace without a grant."""
    write: list[str] = Field(default_factory=list)
    """The namespaces it may write, as patterns. A user writes its own namespace without a grant."""
    approve: list[str] = Field(default_factory=list)
    """The namespaces whose reviews it may answer, as patterns."""
    delete: list[str] = Field(default_factory=list)
    """The namespaces it may delete in, as patterns. A user deletes in its own namespace without a
    grant."""
    candidate_only: bool = False
    """Whether it only proposes: its writes wait for a reviewer (`defer`), and its confirmations and
    harmful reports are recorded but change nothing. Default false."""
    sensitivity_ceiling: Sensitivity = "internal"
    """The most sensitive memories it may read: `public`, `internal` (the default), `confidential`
    or `restricted`."""
    roles: list[Literal["admin", "auditor", "operator"]] = Field(default_factory=list)
    """Roles beyond the grants: `operator`, `auditor` and `admin` oversee the tenant (its reviews,
    receipts, audit trails and exports); an `admin` also manages its principals and may write
    `system_policy` memories; only an `auditor` may read, as of a past time, what has expired
    since."""
    tools: list[str] = Field(default_factory=list)
    """For a tool (a service principal): the reference schemes it is the system of record for
    (`order`, `refund`). Only it writes or attests `verified_tool_fact`s citing them."""

    @field_validator("tools")
    @classmethod
    def _schemes(cls, v: list[str]) -> list[str]:
        for scheme in v:
            if not _SCHEME.fullmatch(scheme):
                raise InvalidInput(f"{scheme!r} is not a reference scheme", field="tools")
        return v

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, v: str) -> str:
        return check_tenant(v)

    @field_validator("read", "write", "approve", "delete")
    @classmethod
    def _patterns(cls, v: list[str]) -> list[str]:
        for p in v:
            parse_pattern(p)
        return v

    @model_validator(mode="after")
    def _same_tenant(self) -> Principal:
        if self.tools and self.type != "service":
            raise InvalidInput("only a service principal can be a tool", field="tools")
        for p in (*self.read, *self.write, *self.approve, *self.delete):
            if parse_pattern(p).tenant != self.tenant:
                raise InvalidInput(
                    f"pattern {p!r} reaches outside tenant {self.tenant!r}",
                    field="patterns",
                )
        return self

    @property
    def ref(self) -> str:
        return principal_ref(self.type, self.tenant, self.id)

    @property
    def own_namespace(self) -> str | None:
        return f"tenant/{self.tenant}/user/{self.id}" if self.type == "user" else None

    def _own(self, namespace: str) -> bool:
        return self.own_namespace is not None and namespace == self.own_namespace

    def can_read(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.read, namespace)

    def can_write(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.write, namespace)

    def can_delete(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.delete, namespace)

    def can_approve(self, namespace: str) -> bool:
        return matches_any(self.approve, namespace)


def principal_ref(type_: str, tenant: str, id_: str) -> str:
    return f"{type_}:{tenant}/{id_}"


def parse_principal_ref(ref: str) -> tuple[PrincipalType, str, str]:
    try:
        type_, rest = ref.split(":", 1)
        tenant, id_ = rest.split("/", 1)
    except ValueError:
        raise InvalidInput(
            f"invalid principal {ref!r}: expected type:tenant/id", field="principal"
        ) from None
    if type_ not in ("user", "agent", "reviewer", "service") or not id_:
        raise InvalidInput(f"invalid principal {ref!r}", field="principal")
    check_tenant(tenant)
    return type_, tenant, id_  # type: ignore[return-value]
