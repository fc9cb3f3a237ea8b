"""Consents: record one, list a subject's, revoke one. Plain `def`: each is a short SQL
transaction, run in the threadpool."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from governed_memory.memory.consents import Consent, ConsentRevocation
from governed_memory.shell.http.bodies import ConsentBody
from governed_memory.shell.http.deps import Caller_

router = APIRouter(prefix="/v1", tags=["consents"])


@router.post("/consents", status_code=201)
def give_consent(body: ConsentBody, s: Caller_) -> Consent:
    """Record a consent (the subject themself, or a principal that may write its
    namespace)."""
    return s.client.give_consent(s.ref, body.subject, body.purpose, at=body.at)


@router.get("/consents")
def consents(s: Caller_, subject: Annotated[str | None, Query()] = None) -> list[Consent]:
    """A subject's consents, revoked ones too (default: the caller's own); a subject the
    caller may not see has none to show."""
    return s.client.consents(s.ref, subject)


@router.post("/consents/{consent_id}/revoke")
def revoke_consent(
    consent_id: str, s: Caller_, at: Annotated[datetime | None, Query()] = None
) -> ConsentRevocation:
    """Revoke a consent: every memory that cited it is invalidated, out of every read
    path, in the same transaction."""
    return s.client.revoke_consent(s.ref, consent_id, at=at)
