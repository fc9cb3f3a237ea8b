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
    """The namespace to write in (`tenant/{tenant}/user/{id}`, …): one the caller may write (a user
    writes its own)."""
    candidate: Candidate | dict[str, Any]
    """The memory to propose, ready: its fields as `Candidate` describes them."""
    idempotency_key: str | None = None
    """Your key for this write (1 to 200 characters): sent again, the write is decided once and
    answers with that first decision (`GET /v1/outcomes/{tenant}/{key}` reads it too). Keys are the
    writer's own. Default: a new key, so each request is a new write."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class ObserveBody(Model):
    namespace: str
    """The namespace to write in (`tenant/{tenant}/user/{id}`, …): one the caller may write (a user
    writes its own)."""
    text: str
    """A message as said (not empty; at most the policy's `max_content_bytes`, 16 KiB by default),
    for the service to keep in the conversation history and extract memories from; a secret in it is
    redacted before anything is kept."""
    thread: str | None = None
    """The conversation thread the message belongs to (1 to 128 characters): its messages are
    numbered, and a memory extracted from one cites it as `msg://{thread}/{position}`. Default: no
    thread."""
    idempotency_key: str | None = None
    """Your key for this write (1 to 200 characters): sent again, the write is decided once and
    answers with that first decision (`GET /v1/outcomes/{tenant}/{key}` reads it too). Keys are the
    writer's own. Default: a new key, so each request is a new write."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class BatchEntry(Model):
    namespace: str
    """The namespace to write in (`tenant/{tenant}/user/{id}`, …): one the caller may write (a user
    writes its own)."""
    candidate: Candidate | dict[str, Any] | None = None
    """A ready candidate to propose (as in `POST /v1/memories`); give it or `text`."""
    text: str | None = None
    """A message to observe (as in `POST /v1/observe`); give it or `candidate`."""
    thread: str | None = None
    """With `text`: the conversation thread the message belongs to (1 to 128 characters)."""
    idempotency_key: str | None = None
    """Your key for this write (1 to 200 characters): a key decided before, alone or in a batch, is
    not decided again and answers with its first decision. Default: a new key."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class BatchBody(Model):
    requests: list[BatchEntry] = Field(min_length=1, max_length=MAX_BATCH)
    """The writes, 1 to 500, all in one tenant; each is decided on its own, with its own audit and
    idempotency key."""


class GrantBody(Model):
    """What an agent wants to start from its own Temporal client, as the caller (the token's
    principal): a write (`namespace` with `candidate` or `text`), a batch (`requests`), a
    deletion (`scope`) or a summary (`thread`)."""

    workflow: Literal["WriteMemory", "WriteBatch", "DeleteSubject", "SummarizeThread"]
    """What to start: `WriteMemory` (a write: `namespace` with `candidate` or `text`), `WriteBatch`
    (`requests`), `DeleteSubject` (`scope`) or `SummarizeThread` (`thread` of the caller's own
    namespace)."""
    namespace: str | None = None
    """For `WriteMemory`: the namespace to write in (required)."""
    candidate: Candidate | dict[str, Any] | None = None
    """For `WriteMemory`: a ready candidate to propose; give it or `text`."""
    text: str | None = None
    """For `WriteMemory`: a message to observe; give it or `candidate`."""
    thread: str | None = None
    """For `WriteMemory` with `text`: the message's conversation thread. For `SummarizeThread`: the
    thread to summarise (required)."""
    idempotency_key: str | None = None
    """For `WriteMemory`: your key for the write (1 to 200 characters); default: a new key."""
    requests: list[BatchEntry] | None = Field(default=None, max_length=MAX_BATCH)
    """For `WriteBatch`: the writes (1 to 500), each as in `POST /v1/memories/batch`."""
    scope: DeletionScope | None = None
    """For `DeleteSubject`: what to forget (required)."""
    range: tuple[int, int] | None = None
    """For `SummarizeThread`: the first and last message positions to summarise (1-based); default:
    everything since the last summary."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class PromoteBody(Model):
    target_namespace: str
    """The shared namespace to copy the memory into (`tenant/{tenant}/team/{id}`,
    `tenant/{tenant}/project/{id}`, …): one the caller may write, and one the policy's
    `[promotion]` rules allow from the memory's namespace."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class ContextBody(Model):
    namespaces: list[str] = Field(min_length=1, max_length=64)
    """The namespaces to draw memories from (1 to 64); those the caller may not read are left
    out."""
    task: str
    """What the agent is about to do, in words (not empty): the package's goal, and what recall
    searches with; what is known about the entities it names is added."""
    budget: ContextBudget
    """The tokens the package may take, in all and by section."""
    instructions: str | None = None
    """Instructions of the caller's own, added after the service's policy instruction: never cut,
    and counted against `budget.instructions_tokens`."""
    k: int | None = None
    """The most memories to recall into it, from 1 to 50 (default 8)."""
    at: datetime | None = None
    """Build the package as of this time (with a time zone) instead of now: memories as recorded by
    then."""


class ContextAnswer(Model):
    package: ContextPackage
    """The package: its items with their trust labels, sources and token estimates, the memory
    versions it pins and the verdicts on the keys the task implies."""
    text: str
    """The package as a model reads it: each section under its label and trust, every item that is
    not an instruction fenced between marks of the package's own, each of its lines starting with
    `│`."""


class ValidateBody(Model):
    package: ContextPackage
    """A package as `POST /v1/context` returned it (its `package`), unchanged."""


class ForgetBody(Model):
    scope: DeletionScope
    """What to forget."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


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
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class ReviewBody(Model):
    decision: str
    """`approve` or `reject`."""
    memory_id: str | None = None
    """For a conflict: the side approved (the others are invalidated) or rejected."""
    at: datetime | None = None
    """A clock override for evaluation and tests: act as of this time (with a time zone) instead of
    now. Refused unless the service allows it (`MEMORY_ALLOW_CLOCK_OVERRIDE`)."""


class CorrectionBody(Model):
    """A person's correction of what is kept about them: a user assertion through the whole
    write pipeline (the memory it replaces is named by its key or its id)."""

    memory_id: str | None = None
    """The memory corrected, one of the caller's own: the correction takes its key and kind."""
    key: str | None = None
    """The key of the value corrected (`notification.preference`); default: the key of `memory_id`.
    With neither, the correction is kept as a statement without key."""
    structured_value: dict[str, Any] | None = None
    """The right value in structured form (`{"channel": "email"}`). Give it, `content`, or both."""
    content: str | None = None
    """The right value in words."""


class FeedbackBody(Model):
    """Feedback on a memory (memory/feedback.py); the caller is the token's."""

    memory_id: str
    """The memory the feedback is about."""
    feedback_type: str
    """`used` or `ignored` (with `run_id`), `confirmed`, `corrected` (with `correction`), `harmful`
    or `deleted`: the operation says what each does."""
    source: str | None = None
    """Whom it comes from: `user`, `human_reviewer`, `verifier` or `system_metric`; it must be one
    the caller may give. Default: the caller's own."""
    run_id: str | None = None
    """The agent's run it concerns (an id: letters, digits and `. _ : / -`, at most 200 characters).
    Required for `used` and `ignored`, which count once per run."""
    evidence_refs: list[str] = Field(default_factory=list)
    """References to what shows it (`scheme://id`: ids, not words), at most 20."""
    memory_version: int | None = None
    """The version the feedback is about; default: the current one."""
    correction: dict[str, Any] | None = None
    """`corrected` only: the right value, as a candidate's fields (`content`, `key`,
    `structured_value`, …) or `{"text": "…"}` to be extracted like a message."""
    occurred_at: datetime | None = None
    """When what it reports happened (with a time zone); default: when it is received."""
    event_id: str | None = None
    """The caller's id for the event (8 to 40 letters, digits and `- _ . :`): sent again, recorded
    once, and answered with the first answer."""


class RunBody(Model):
    """An agent's run: the memories it had in context (the package it was given, and/or ids),
    used, and found harmful, and how the run ended."""

    package: ContextPackage | None = None
    """The context package the agent was given: each memory item in it that `used` and `harmful` do
    not name is recorded as `ignored`."""
    shown: list[str] = Field(default_factory=list)
    """Other memories the agent had in context (ids): recorded as `ignored` unless `used` or
    `harmful` names them."""
    used: list[str] = Field(default_factory=list)
    """Memories the run used (ids): recorded as `used`."""
    harmful: list[str] = Field(default_factory=list)
    """Memories that misled or hurt the run (ids): quarantined at once, and a review opens."""
    outcome: RunOutcome | None = None
    """How the run ended: `success` or `failure`."""


class Whoami(Model):
    principal: str
    """The principal the token proves (`user:shop-a/123`)."""
    tenant: str
    """Its tenant."""
    roles: list[str]
    """Its roles, from the registry and the token (`admin`, `operator`, `auditor`)."""
    read: list[str]
    """The namespace patterns it may read (a user also reads its own namespace)."""
    write: list[str]
    """The namespace patterns it may write (a user also writes its own namespace)."""
    own_namespace: str | None
    """A user's own namespace (`tenant/{tenant}/user/{id}`); null for any other principal."""


class Health(Model):
    status: str
    """`ok` for liveness (the process answers); `ready` or `unavailable` for readiness."""
    checks: dict[str, str] = Field(default_factory=dict)
    """For readiness: each dependency (`canonical`, the canonical store; `temporal`) with `ok` or
    `unavailable: <error type>`. Empty for liveness."""


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
