"""The bodies the API reads and answers with (beyond the domain's own models), and the
candidate a person's correction writes (the API's `/v1/me/corrections` and the page's form)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from governed_memory.memory.contracts.feedback import RunOutcome
from governed_memory.memory.errors import Forbidden, InvalidInput
from governed_memory.memory.models import MAX_BATCH, Candidate, DeletionScope, Model
from governed_memory.memory.models.context import ContextBudget, ContextPackage
from governed_memory.shell.http.deps import Session, own_namespace


class WriteBody(Model):
    namespace: str
    candidate: Candidate | dict[str, Any]
    idempotency_key: str | None = None
    at: datetime | None = None


class ObserveBody(Model):
    namespace: str
    text: str
    thread: str | None = None
    idempotency_key: str | None = None
    at: datetime | None = None


class BatchEntry(Model):
    namespace: str
    candidate: Candidate | dict[str, Any] | None = None
    text: str | None = None
    thread: str | None = None
    idempotency_key: str | None = None
    at: datetime | None = None


class BatchBody(Model):
    requests: list[BatchEntry] = Field(min_length=1, max_length=MAX_BATCH)


class GrantBody(Model):
    """What an agent wants to start from its own Temporal client, as the caller (the token's
    principal): a write (`namespace` with `candidate` or `text`), a batch (`requests`), a
    deletion (`scope`) or a summary (`thread`)."""

    workflow: Literal["WriteMemory", "WriteBatch", "DeleteSubject", "SummarizeThread"]
    namespace: str | None = None
    candidate: Candidate | dict[str, Any] | None = None
    text: str | None = None
    thread: str | None = None
    idempotency_key: str | None = None
    requests: list[BatchEntry] | None = Field(default=None, max_length=MAX_BATCH)
    scope: DeletionScope | None = None
    range: tuple[int, int] | None = None
    at: datetime | None = None


class ContextBody(Model):
    namespaces: list[str] = Field(min_length=1, max_length=64)
    task: str
    budget: ContextBudget
    instructions: str | None = None
    k: int | None = None
    at: datetime | None = None


class ContextAnswer(Model):
    package: ContextPackage
    #: The package as a model reads it: sections with their trust labels, untrusted items fenced.
    text: str


class ValidateBody(Model):
    package: ContextPackage


class ForgetBody(Model):
    scope: DeletionScope
    at: datetime | None = None


class ConsentBody(Model):
    """A consent a subject gave, for one purpose; its id is what a candidate's `consent_ref`
    names."""

    subject: str = Field(
        min_length=1,
        max_length=256,
        description="whose consent: `user:<tenant>/<id>`, or a namespace's subject",
    )
    purpose: str = Field(min_length=1, max_length=500, description="what it was given for")
    at: datetime | None = None


class ReviewBody(Model):
    decision: str
    memory_id: str | None = None
    at: datetime | None = None


class CorrectionBody(Model):
    """A person's correction of what is kept about them: a user assertion through the whole
    write pipeline (the memory it replaces is named by its key or its id)."""

    memory_id: str | None = None
    key: str | None = None
    structured_value: dict[str, Any] | None = None
    content: str | None = None


class FeedbackBody(Model):
    """Feedback on a memory (memory/feedback.py); the caller is the token's."""

    memory_id: str
    feedback_type: str
    source: str | None = None
    run_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    memory_version: int | None = None
    #: `corrected` only: the right value (candidate fields, or {"text": ...}).
    correction: dict[str, Any] | None = None
    occurred_at: datetime | None = None
    #: The caller's id for the event: sent again, recorded once.
    event_id: str | None = None


class RunBody(Model):
    """An agent's run: the memories it had in context (the package it was given, and/or ids),
    used, and found harmful, and how the run ended."""

    package: ContextPackage | None = None
    shown: list[str] = Field(default_factory=list)
    used: list[str] = Field(default_factory=list)
    harmful: list[str] = Field(default_factory=list)
    outcome: RunOutcome | None = None


class Whoami(Model):
    principal: str
    tenant: str
    roles: list[str]
    read: list[str]
    write: list[str]
    own_namespace: str | None


class Health(Model):
    status: str
    checks: dict[str, str] = Field(default_factory=dict)


def correction(s: Session, body: CorrectionBody) -> dict[str, Any]:
    """The candidate a person's correction writes: the same key (and kind) as the memory it
    corrects, as the person's own assertion."""
    kind = "profile"
    key = body.key
    if body.memory_id is not None:
        versions = s.client.history(s.ref, body.memory_id)
        head = versions[-1]
        if head.namespace != own_namespace(s):
            raise Forbidden("a correction is of one's own memories", field="memory_id")
        key = key or head.key
        kind = head.kind
    if body.structured_value is None and not body.content:
        raise InvalidInput("give the corrected value or text", field="structured_value")
    candidate: dict[str, Any] = {
        "kind": kind if key else "semantic",
        "source_type": "user_assertion",
        "content": body.content or "",
        "confidence": 1.0,
    }
    if key is not None:
        candidate["key"] = key
    if body.structured_value is not None:
        candidate["structured_value"] = body.structured_value
    return candidate
