"""The registry of principals: an admin of a tenant writes it; a principal reads its own."""

from __future__ import annotations

from fastapi import APIRouter

from governed_memory.memory.models import Principal
from governed_memory.shell.http.deps import Caller_

router = APIRouter(prefix="/v1", tags=["registry"])


@router.put("/principals")
def put_principal(body: Principal, s: Caller_) -> Principal:
    """Create or replace a principal: an admin of its tenant only."""
    return s.client.register_principal(body, token=s.token)


@router.get("/principals/{ref:path}")
def get_principal(ref: str, s: Caller_) -> Principal:
    """A principal of the registry, by reference (`agent:shop-a/support-bot`): its grants,
    roles and limits. For the principal itself, or an operator, auditor or admin of its
    tenant."""
    return s.client.access.principal(s.token, ref)
