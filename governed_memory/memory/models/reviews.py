"""Conversation history and reviews: messages and their places, reviews and their answers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    Field,
)

from governed_memory.memory.models.base import Model, PrincipalType, Sensitivity, Stored


class ConversationMessage(Model):
    message_id: str
    tenant_id: str
    namespace: str
    thread: str | None
    position: int
    speaker: str
    speaker_type: PrincipalType
    #: As stored: secrets already replaced by ``[REDACTED:<category>]`` (`memory.write.screening`).
    text: str
    at: AwareDatetime
    status: Literal["active", "erased"] = "active"
    sensitivity: Sensitivity = "internal"

    @property
    def ref(self) -> str:
        """How memories cite it: msg://{thread}/{position}, or msg://{message id} off-thread."""
        return f"msg://{self.thread}/{self.position}" if self.thread else f"msg://{self.message_id}"


#: Where a memory was said in a conversation: (namespace, thread, position).
Place = tuple[str, str, int]


def thread_position(ref: str) -> tuple[str, int] | None:
    """The thread and position a `msg://{thread}/{position}` reference cites (None for any other
    reference, `msg://{message id}` off-thread included)."""
    if not ref.startswith("msg://"):
        return None
    thread, _, position = ref.removeprefix("msg://").rpartition("/")
    if not thread or not position.isdigit():
        return None
    return thread, int(position)


def place_of(namespace: str, source_refs: Sequence[str]) -> Place | None:
    """Where a memory was said: the one conversation message it cites. A memory citing several
    (a thread summary) was not said at any one place and has none. Recall lends a memory part of
    its conversational neighbours' relevance (`memory.retrieval`)."""
    cited = {c for ref in source_refs if (c := thread_position(ref)) is not None}
    if len(cited) != 1:
        return None
    ((thread, position),) = cited
    return namespace, thread, position


#: `harmful`: a memory reported harmful, quarantined until a reviewer upholds the report
#: (invalidated) or rejects it (restored). `promotion`: a memory's copy into a shared namespace,
#: made only once a reviewer of that namespace approves it (`memory.promotion`).
ReviewKind = Literal["deferred", "conflict", "harmful", "promotion"]
ReviewStatus = Literal["open", "approved", "rejected", "timed_out"]


class ReviewRecord(Model):
    review_id: str
    """The review's id (`POST /v1/reviews/{review_id}` answers it)."""
    tenant_id: str
    """The tenant it is in."""
    namespace: str
    """The namespace of the memories it is about: a reviewer whose approve grants reach it may
    answer."""
    kind: ReviewKind
    """What waits for a decision: `deferred` (a write that waits for approval), `conflict` (a new
    value that contradicts a stored one: approving a side invalidates the others), `harmful` (a
    memory reported harmful and quarantined: approving upholds the report and keeps it out for good,
    rejecting restores it) or `promotion` (a memory to copy into this shared namespace: approving
    makes the copy, rejecting drops it)."""
    status: ReviewStatus = "open"
    """`open` until answered; then `approved`, `rejected` or `timed_out` (no answer within the
    policy's timeout, 72 hours by default: a deferred write is rejected, a conflict's new side
    invalidated, a harmful memory stays quarantined)."""
    reason_code: str
    """Why it was opened (`candidate_only`, `conflict`, `harmful_feedback`, `promotion`, …)."""
    workflow_id: str
    """The id of the review's own workflow run (`review/{tenant}/{review_id}`)."""
    write_workflow_id: str
    """The id of the run that opened it: the write, the feedback that reported a harmful memory,
    or the promotion."""
    conflict_group: str | None = None
    """For a conflict: the conflict group of its sides. Null otherwise."""
    memory_ids: list[str] = Field(default_factory=list)
    """The sides of a conflict, the memory ids a deferred write would create, the memory reported
    harmful, or the memory to promote."""
    opened_at: AwareDatetime
    """When it was opened."""
    closed_at: AwareDatetime | None = None
    """When it was answered or timed out; null while open."""
    decided_by: str | None = None
    """The reviewer that answered (`reviewer:shop-a/ana`); null while open or when it timed out."""
    decision: dict[str, Any] | None = None
    """The answer as recorded (`reviewer`, `decision`, `memory_id`, …), or `{"timeout": true}` when
    it timed out; null while open."""


class ReviewStart(Model):
    """Input of ReviewMemory: the review as its starter saw it, ids only. The run believes none
    of it: it reads the review by id and refuses a start whose review differs from the stored
    one; what settling needs (the write, the drafts it waits on) is kept with the review row."""

    review: ReviewRecord
    """The review, as its starter saw it."""
    newcomers: list[str] = Field(default_factory=list)
    """Memories the opening write added (a timed-out conflict loses these sides, and only those the
    stored review names)."""
    timeout: timedelta
    """How long the review waits for an answer, as an ISO 8601 duration (the policy's, 72 hours by
    default)."""
    grant: str | None = Field(default=None, repr=False)
    """The service's signed grant for the review's run; left out (null) in the API's answers."""


class ReviewDecision(Stored):
    """A reviewer's answer, sent as the `review` Update of a review workflow."""

    reviewer: str
    decision: Literal["approve", "reject"]
    #: For a conflict: the side approved (the others are invalidated) or rejected.
    memory_id: str | None = None
    at: AwareDatetime | None = None
    #: What the service lets this answer do (memory.grants): signed by the door that proved the
    #: reviewer, for this review's workflow and exactly this answer.
    grant: str | None = Field(default=None, repr=False)


class ReviewOutcome(Model):
    review_id: str
    """The review answered."""
    status: ReviewStatus
    """What the review became: `approved`, `rejected` or `timed_out`."""
    committed: list[str] = Field(default_factory=list)
    """Memories the answer put in force: an approved deferred write's, a harmful report's memory
    released."""
    invalidated: list[str] = Field(default_factory=list)
    """Memories the answer took out: the losing sides of a conflict, the memory of an upheld harmful
    report."""
