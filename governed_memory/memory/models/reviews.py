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
#: (invalidated) or rejects it (restored).
ReviewKind = Literal["deferred", "conflict", "harmful"]
ReviewStatus = Literal["open", "approved", "rejected", "timed_out"]


class ReviewRecord(Model):
    review_id: str
    tenant_id: str
    namespace: str
    kind: ReviewKind
    status: ReviewStatus = "open"
    reason_code: str
    workflow_id: str
    write_workflow_id: str
    conflict_group: str | None = None
    #: The sides of a conflict, or the memory ids a deferred write would create.
    memory_ids: list[str] = Field(default_factory=list)
    opened_at: AwareDatetime
    closed_at: AwareDatetime | None = None
    decided_by: str | None = None
    decision: dict[str, Any] | None = None


class ReviewStart(Model):
    """Input of ReviewMemory: the review as its starter saw it, ids only. The run believes none
    of it: it reads the review by id and refuses a start whose review differs from the stored
    one; what settling needs (the write, the drafts it waits on) is kept with the review row."""

    review: ReviewRecord
    #: Memories the opening write added (a timed-out conflict loses these sides, and only those
    #: the stored review names).
    newcomers: list[str] = Field(default_factory=list)
    timeout: timedelta
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


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
    status: ReviewStatus
    #: Memories committed (approved deferred writes) or invalidated (losing conflict sides).
    committed: list[str] = Field(default_factory=list)
    invalidated: list[str] = Field(default_factory=list)
