"""Reads, behind the service's gate and ACL (memory.services.access): recall, context packages
and their validation, what is known of an entity, a memory's history, audit trails.

Recall and context await the client, which runs their SQL and numpy on a worker thread; the
others are plain `def` (FastAPI runs them in its threadpool), never on the event loop."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import EntityView, MemoryRecord, RecallAsk, RecallResult
from governed_memory.memory.models.context import ContextValidation
from governed_memory.shell.http.bodies import ContextAnswer, ContextBody, ValidateBody
from governed_memory.shell.http.deps import Caller_, own_namespace

router = APIRouter(prefix="/v1", tags=["reads"])


@router.post("/recall")
async def recall(body: RecallAsk, s: Caller_) -> RecallResult:
    return await s.client.recall(
        s.ref,
        body.namespaces,
        task=body.task,
        query=body.query,
        keys=body.keys,
        kinds=body.kinds,
        k=body.k,
        at=body.at,
        valid_at=body.valid_at,
    )


@router.post("/context")
async def context(body: ContextBody, s: Caller_) -> ContextAnswer:
    extra = body.model_dump(exclude={"namespaces", "task", "budget"}, exclude_none=True)
    package = await s.client.build_context(s.ref, body.namespaces, body.task, body.budget, **extra)
    return ContextAnswer(package=package, text=package.text())


@router.post("/context/validate")
def validate(body: ValidateBody, s: Caller_) -> ContextValidation:
    return s.client.validate_context(body.package)


@router.get("/entities/{name}")
def entity(
    name: str,
    s: Caller_,
    namespace: Annotated[list[str] | None, Query()] = None,
    at: Annotated[datetime | None, Query()] = None,
) -> EntityView:
    """What the memories the caller may read say of one entity (a person, place, order id,
    role such as `sister`): its names, the relations stated of it with their valid times
    and the memories behind them. Namespaces as for recall (default: the caller's own).
    Plain `def`: SQL, in the threadpool."""
    return s.client.entity(s.ref, name, namespace or [own_namespace(s)], at=at, token=s.token)


@router.get("/memories/{memory_id}/history")
def history(memory_id: str, s: Caller_) -> list[MemoryRecord]:
    return s.client.history(s.ref, memory_id)


@router.get("/audit")
def audit(
    s: Caller_,
    memory_id: Annotated[str | None, Query()] = None,
    workflow_id: Annotated[str | None, Query()] = None,
) -> list[dict[str, Any]]:
    if (memory_id is None) == (workflow_id is None):
        raise InvalidInput("name one of memory_id and workflow_id", field="ref")
    return s.client.audit(s.ref, memory_id=memory_id, workflow_id=workflow_id)
