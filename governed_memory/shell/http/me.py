"""A person's own: what is kept about the caller (a user), their corrections (a user assertion
through the whole write pipeline), and deleting one memory or everything."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from governed_memory.memory.models import DeletionReceipt, MemoryRecord, WriteRequest, WriteResult
from governed_memory.shell.http.bodies import CorrectionBody, correction
from governed_memory.shell.http.deps import Caller_, Session, own_namespace

router = APIRouter(prefix="/v1", tags=["me"])


@router.get("/me/memories")
def my_memories(s: Caller_) -> list[MemoryRecord]:
    """What is kept about the caller (a user): every memory of their own namespace that is
    not deleted, newest first."""
    pages = s.client.export_pages(s.ref, own_namespace(s), versions=False)
    kept = [m for page in pages for m in page.memories if m.status != "deleted"]
    return sorted(kept, key=lambda m: m.recorded_at, reverse=True)


@router.post("/me/corrections")
async def correct(body: CorrectionBody, s: Caller_) -> WriteResult:
    """Correct what is kept about the caller (a user): the right value, for a memory of their
    own namespace (by id) or a key, written as their own assertion through the whole write
    pipeline. Returns the write's decision."""
    return await s.client.run_write(await run_in_threadpool(_corrected, s, body))


@router.delete("/me/memories/{memory_id}")
async def forget_one(memory_id: str, s: Caller_) -> DeletionReceipt:
    """Delete one memory of the caller's own namespace (a user), everywhere it is kept, and
    verify it is gone. Returns the deletion's durable receipt (read `verification_status`)."""
    return await s.client.forget(s.ref, {"namespace": own_namespace(s), "memory_id": memory_id})


@router.delete("/me/memories")
async def forget_all(s: Caller_) -> DeletionReceipt:
    """Delete everything kept about the caller (a user): every memory, message, summary and
    consent of their own namespace, and verify it is gone. Returns the deletion's durable
    receipt (read `verification_status`)."""
    return await s.client.forget(s.ref, {"namespace": own_namespace(s)})


def _corrected(s: Session, body: CorrectionBody) -> WriteRequest:
    """The write a correction is, through the door (it reads the memory it corrects)."""
    return s.client.write_request(s.ref, own_namespace(s), correction(s, body))
