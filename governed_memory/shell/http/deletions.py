"""Deletion: run DeleteSubject to its receipt, and read a receipt."""

from __future__ import annotations

from fastapi import APIRouter

from governed_memory.memory.models import DeletionReceipt
from governed_memory.shell.http.bodies import ForgetBody
from governed_memory.shell.http.deps import Caller_

router = APIRouter(prefix="/v1", tags=["deletion"])


@router.post("/forget")
async def forget(body: ForgetBody, s: Caller_) -> DeletionReceipt:
    """Run DeleteSubject to the end: the durable receipt (200 whatever its status; read
    `verification_status`)."""
    return await s.client.forget(s.ref, body.scope, at=body.at)


@router.get("/receipts/{deletion_id}")
def receipt(deletion_id: str, s: Caller_) -> DeletionReceipt:
    """A deletion's durable receipt, by id: while it runs (`pending`) and after. For who asked
    for it, a principal that may delete or read in its namespace (a user: their own), or an
    operator, auditor or admin of its tenant."""
    return s.client.receipt(deletion_id, s.ref)
