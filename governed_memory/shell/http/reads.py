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
    """Governed recall: the memories of the asked namespaces the caller may read (the others are
    reported in `refused_namespaces`, never searched) that best fit the task and query, each
    re-checked against the stored record and returned with its score, the reasons it was chosen
    and its provenance, best first; and a verdict per key asked for or implied by the task
    (`confirmed`, `none_confirmed`, `conflicting`, `low_confidence_only`,
    `needs_reconfirmation`). `at` and `valid_at` ask about the past."""
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
    """A context package for an agent's next model call, filled in order within the budget:
    the policy instructions (the service's, then the caller's), the goal, the verified tool
    facts among the memories recalled, what is known about the entities the task names, and the
    other memories recalled from the namespaces the caller may read; each item labelled
    `instruction`, `verified` or `untrusted`, and cut or left out when its section is full.
    Returns the package (with the memory versions it pins, for `POST /v1/context/validate`) and
    its `text`, as a model should read it (untrusted items fenced)."""
    extra = body.model_dump(exclude={"namespaces", "task", "budget"}, exclude_none=True)
    package = await s.client.build_context(s.ref, body.namespaces, body.task, body.budget, **extra)
    return ContextAnswer(package=package, text=package.text())


@router.post("/context/validate")
def validate(body: ValidateBody, s: Caller_) -> ContextValidation:
    """Whether a context package still holds: which memory versions it pins were since deleted,
    superseded, invalidated, quarantined or expired, and which messages it quotes were erased
    or redacted. Only the package's own principal, or an operator, auditor or admin of its
    tenant, may ask; anything the caller may not read is reported as `missing`."""
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
    """Every version of a memory, oldest first and the current one last (erased versions are
    blank). For a principal that may read the memory's namespace, or an operator, auditor or
    admin of its tenant."""
    return s.client.history(s.ref, memory_id)


@router.get("/audit")
def audit(
    s: Caller_,
    memory_id: Annotated[str | None, Query()] = None,
    workflow_id: Annotated[str | None, Query()] = None,
) -> list[dict[str, Any]]:
    """The audit trail of a memory (`memory_id`, with every run that touched it) or of a run
    (`workflow_id`): name exactly one. Each event is a stage of a run (a write's extraction,
    checks, decision, commit; a deletion; feedback) with its outcome and reason code, never the
    text. The caller sees the events of the namespaces it may read (an operator, auditor or
    admin: its tenant's); 403 when it may see none of them."""
    if (memory_id is None) == (workflow_id is None):
        raise InvalidInput("name one of memory_id and workflow_id", field="ref")
    return s.client.audit(s.ref, memory_id=memory_id, workflow_id=workflow_id)
