"""WriteMemory's and WriteBatch's inputs and outputs: a request (or a batch of them), and one
outcome per candidate."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import (
    AwareDatetime,
    Field,
    field_validator,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import Decision, Model, Relation, Stored
from governed_memory.memory.models.records import Candidate
from governed_memory.memory.models.reviews import ReviewStart
from governed_memory.memory.namespaces import parse_namespace


class Utterance(Model):
    """A raw message, for `observe`: kept in the conversation history, then extracted."""

    text: str = Field(min_length=1)
    thread: str | None = Field(default=None, min_length=1, max_length=128)

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise InvalidInput("text is empty", field="text")
        return v


class WriteRequest(Stored):
    """Input of the WriteMemory workflow (its JSON is the write API for any SDK).

    Exactly one of `candidate` (propose: a ready candidate from an agent's own extractor) and
    `utterance` (observe: a raw message, extracted by the service) is given.
    """

    principal: str
    namespace: str
    candidate: Candidate | None = None
    utterance: Utterance | None = None
    idempotency_key: str = Field(min_length=1, max_length=200)
    #: Clock override for evaluation and tests; refused unless the service enables it.
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants): signed by the door that proved the
    #: principal, for this workflow id and exactly this input. Never a bearer token.
    grant: str | None = Field(default=None, repr=False)

    @field_validator("namespace")
    @classmethod
    def _ns(cls, v: str) -> str:
        parse_namespace(v)
        return v

    @model_validator(mode="after")
    def _one_input(self) -> WriteRequest:
        if (self.candidate is None) == (self.utterance is None):
            raise InvalidInput("give exactly one of candidate and utterance", field="candidate")
        return self

    @property
    def tenant(self) -> str:
        return parse_namespace(self.namespace).tenant

    @property
    def operation(self) -> str:
        return "observe" if self.utterance is not None else "propose"


class CandidateOutcome(Model):
    decision: Decision
    """What became of the candidate: `add` (stored as a new memory), `update` (stored, replacing or
    refining the value in force), `invalidate` (a withdrawal: closed the value in force, stored
    nothing new), `delete` (removed what was kept), `no_op` (nothing to change: a duplicate, nothing
    worth remembering), `reject` (refused: see `reason`) or `defer` (waits for a reviewer: see
    `review_id`)."""
    relation: Relation | None = None
    """How it relates to what was kept under the same key or statement: `NEW`, `DUPLICATE`,
    `REFINEMENT`, `SUPERSEDES` or `CONFLICTS`; null when it was not compared (a refusal before
    that)."""
    reason: str | None = None
    """Why, as a reason code (`duplicate`, `conflict`, `not_memorable`, `secret`,
    `prompt_injection`, `low_confidence`, `source_not_allowed`, `consent_unknown`, `quota_exceeded`,
    …)."""
    key: str | None = None
    """The key the candidate fills; null for a memory without key."""
    value: dict[str, Any] | None = None
    """The structured value decided on; blank once a deletion erased it."""
    memory_id: str | None = None
    """The memory the write created, when it created one."""
    version: int | None = None
    """The version the write created (1 for a new memory), when it created one."""
    matched_memory_ids: list[str] = Field(default_factory=list)
    """The stored memories the candidate was resolved against (the duplicate, the memory superseded,
    the other side of a conflict)."""
    conflict_group: str | None = None
    """The conflict group the write opened or joined, when it contradicts a stored value: both sides
    stay active until a reviewer settles it."""
    review_id: str | None = None
    """The review a deferred or conflicting write waits on."""
    span: tuple[int, int] | None = None
    """Where the statement this outcome is about stands in the observed text: [start, end) character
    offsets (an observe's outcomes; none for a structured write, or when the outcome is about the
    whole text)."""


class StatementOutcome(Model):
    """What became of one sentence of an observed text: whether anything it said was kept
    and, when not, why. An observe answers with one per sentence, so a write that keeps
    nothing says so."""

    start: int
    """Where it starts in the text sent: the [start, end) character offsets' start."""
    end: int
    """Where it ends in the text sent: the [start, end) character offsets' end (exclusive)."""
    text: str | None = None
    """The sentence as sent; left out when it was refused as a secret (not repeated back)."""
    kept: bool
    """Whether anything it said was stored (added, updated, closed) or waits for a review."""
    reasons: list[str] = Field(default_factory=list)
    """Why not, as reason codes (`not_memorable`, `third_party`, `temporary`, `duplicate`, `secret`,
    `sensitive_category`, `prompt_injection`, …); empty when kept."""
    why: str | None = None
    """The same, in words a person reads."""
    outcomes: list[int] = Field(default_factory=list)
    """The indexes of the outcomes about it, in `outcomes`."""


def without_values(outcomes: list[CandidateOutcome]) -> list[CandidateOutcome]:
    """Outcomes as workflow history carries them: the value (what was said) left out; the
    caller reads it from the outcome kept by idempotency key (`write_outcomes`)."""
    return [o.model_copy(update={"value": None}) for o in outcomes]


class WriteResult(Model):
    workflow_id: str
    """The id of the write's workflow run: `GET /v1/audit` with this `workflow_id` reads its audit
    trail."""
    outcomes: list[CandidateOutcome]
    """One outcome per candidate: a proposed candidate has one; an observed message has one per
    candidate extracted from it."""
    statements: list[StatementOutcome] = Field(default_factory=list)
    """An observe's sentences, each with what became of it (`StatementOutcome`); empty for a
    structured write."""

    @property
    def outcome(self) -> CandidateOutcome:
        return self.outcomes[0]


#: The most writes one WriteBatch run takes.
MAX_BATCH = 500
#: The most bytes (as JSON) of one batch's writes: Temporal warns at 512 KB per payload, and the
#: batch input is one payload (twice: the workflow's and its activity's). `cut` keeps every batch
#: under this, well below the warning.
MAX_BATCH_BYTES = 192 * 1024


def request_size(request: WriteRequest) -> int:
    """Its size as the payload converter writes it."""
    return len(request.model_dump_json().encode())


def cut(
    requests: Sequence[WriteRequest], count: int = MAX_BATCH, size: int = MAX_BATCH_BYTES
) -> list[list[WriteRequest]]:
    """Requests in batches of at most `count` writes and `size` bytes, in order. A single write
    larger than `size` is a batch of its own (the write's own size limit bounds it)."""
    batches: list[list[WriteRequest]] = []
    current: list[WriteRequest] = []
    used = 0
    for request in requests:
        n = request_size(request)
        if current and (len(current) >= count or used + n > size):
            batches.append(current)
            current, used = [], 0
        current.append(request)
        used += n
    if current:
        batches.append(current)
    return batches


class BatchRequest(Model):
    """Input of WriteBatch: the writes of one tenant."""

    requests: list[WriteRequest] = Field(min_length=1, max_length=MAX_BATCH)
    #: What the service lets this run do (memory.grants): one grant for the whole batch.
    grant: str | None = Field(default=None, repr=False)

    @model_validator(mode="after")
    def _one_tenant(self) -> BatchRequest:
        if len({r.tenant for r in self.requests}) != 1:
            raise InvalidInput("a batch holds the writes of exactly one tenant", field="requests")
        return self

    @property
    def tenant(self) -> str:
        return self.requests[0].tenant


class BatchItem(Model):
    idempotency_key: str
    """The write's idempotency key (the one it was sent with, or the one drawn for it)."""
    outcomes: list[CandidateOutcome]
    """What became of each of its candidates, as for a single write."""


class BatchResult(Model):
    """Compact: per write its key and outcomes (decisions, reasons, ids)."""

    workflow_id: str
    """The id of the batch's workflow run."""
    items: list[BatchItem] = Field(default_factory=list)
    """One item per write, in the order they were sent."""
    lost: list[int] = Field(default_factory=list)
    """Writes (by index) that lost a race to another writer and were decided again; the service
    empties it before answering."""
    starts: dict[int, list[ReviewStart]] = Field(default_factory=dict)
    """The reviews the batch opened, by index of the write (ids only, each with its grant), for the
    service to start; the service empties it before answering."""

    def counts(self) -> dict[str, int]:
        return dict(Counter(o.decision for item in self.items for o in item.outcomes))
