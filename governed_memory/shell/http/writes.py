"""Writes: a ready candidate, a raw utterance, a batch (an import), a memory promoted into a
shared namespace, a grant to start one from the caller's own Temporal client, and a write's
decision by its idempotency key.

Each is built at the client's door (`MemoryClient.write_request`: the caller proven, the input
validated and screened, the caller's quota checked) before anything starts; the door reads the
store, so it runs in the threadpool, and only the wait for the run is awaited on the loop."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel

from governed_memory.memory.errors import InvalidInput, NotFound
from governed_memory.memory.models import (
    BatchRequest,
    BatchResult,
    CandidateOutcome,
    PromotionResult,
    WriteRequest,
    WriteResult,
)
from governed_memory.shell.client import GrantedStart
from governed_memory.shell.http.bodies import (
    BatchBody,
    BatchEntry,
    GrantBody,
    ObserveBody,
    PromoteBody,
    WriteBody,
)
from governed_memory.shell.http.deps import Caller_, Session

router = APIRouter(prefix="/v1", tags=["writes"])


@router.post("/memories")
async def write(body: WriteBody, s: Caller_) -> WriteResult:
    """Propose a ready candidate (the whole write pipeline from normalisation on)."""
    request = await run_in_threadpool(
        s.client.write_request,
        s.ref,
        body.namespace,
        body.candidate,
        idempotency_key=body.idempotency_key,
        at=body.at,
    )
    return await s.client.run_write(request)


@router.post("/observe")
async def observe_text(body: ObserveBody, s: Caller_) -> WriteResult:
    """A raw utterance: the whole write pipeline, extraction included. The answer says, for
    each sentence, whether anything it said was kept, and why not (`statements`)."""
    return await s.client.observe(
        s.ref,
        body.namespace,
        body.text,
        thread=body.thread,
        idempotency_key=body.idempotency_key,
        at=body.at,
    )


@router.post("/memories/batch")
async def batch(body: BatchBody, s: Caller_) -> BatchResult:
    """Many writes of the caller in one WriteBatch run (an import)."""
    requests = await run_in_threadpool(_entries, s, body.requests)
    return await s.client.write_batch(requests)


@router.post("/memories/{memory_id}/promote")
async def promote(memory_id: str, body: PromoteBody, s: Caller_) -> PromotionResult:
    """Promote a memory into a shared namespace (a user's into a team's or a project's): a copy
    with its lineage, as the policy's `[promotion]` rules allow. The caller reads the memory and
    writes the target. Where a review is required the answer is `pending_review` with its
    `review_id`, for a reviewer of the target namespace to answer (`POST /v1/reviews/{id}`); a
    memory that is not active, restricted, or refused by the policy is a 403 problem and changes
    nothing. Deleting the memory deletes its copies."""
    request = await run_in_threadpool(
        s.client.promote_request, s.ref, memory_id, body.target_namespace, at=body.at
    )
    return await s.client.run_promotion(request)


@router.post("/grants")
def grant(body: GrantBody, s: Caller_) -> GrantedStart:
    """What to start from your own Temporal client, and the grant it runs by: the
    workflow, its id and task queue, and the input (screened: a secret is redacted) with
    a grant signed for that run alone. Start exactly that; the worker refuses anything
    else (and any input not encrypted with the service's codec key)."""
    return s.client.start_for(_granted_request(s, body))


@router.get("/outcomes/{tenant}/{idempotency_key}")
def outcome(tenant: str, idempotency_key: str, s: Caller_) -> list[CandidateOutcome]:
    """The decision of the caller's own write by its idempotency key."""
    found = s.client.write_outcome(tenant, idempotency_key, s.ref)
    if found is None:
        raise NotFound(f"no decided write with key {idempotency_key!r}", field="key")
    return found


def _entries(s: Session, entries: list[BatchEntry]) -> list[WriteRequest]:
    """A batch's entries as the caller's write requests (validated and screened at the door)."""
    return [
        s.client.write_request(
            s.ref,
            e.namespace,
            e.candidate,
            text=e.text,
            thread=e.thread,
            idempotency_key=e.idempotency_key,
            at=e.at,
        )
        for e in entries
    ]


def _granted_request(s: Session, body: GrantBody) -> BaseModel:
    """The request `body` asks a grant for, built through the door as the caller's own."""
    client = s.client
    if body.workflow == "WriteMemory":
        if body.namespace is None:
            raise InvalidInput("a write names its namespace", field="namespace")
        return client.write_request(
            s.ref,
            body.namespace,
            body.candidate,
            text=body.text,
            thread=body.thread,
            idempotency_key=body.idempotency_key,
            at=body.at,
        )
    if body.workflow == "WriteBatch":
        if not body.requests:
            raise InvalidInput("a batch lists its requests", field="requests")
        requests = _entries(s, body.requests)
        client.check_quota(requests)  # the batch as a whole: each entry was checked alone
        return BatchRequest(requests=requests)
    if body.workflow == "DeleteSubject":
        if body.scope is None:
            raise InvalidInput("a deletion names its scope", field="scope")
        return client.delete_request(s.ref, body.scope, at=body.at)
    if body.thread is None:
        raise InvalidInput("a summary names its thread", field="thread")
    return client.summarize_request(s.ref, body.thread, range=body.range, at=body.at)
