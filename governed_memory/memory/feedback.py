"""Feedback on memories: what happened when an agent, a user, a reviewer or a verifier met one,
and what that may change.

A `MemoryFeedbackEvent` (the seed's shape) names one memory version, the run it concerns, its
type and its source. Its effect is decided here, by rules that know nothing of storage:

    used        the memory helped a run: its ignored streak ends
    ignored     an agent had it in its context and did not use it: from the
                `feedback.ignored_after`-th such run in a row its rank is lowered a step at a
                time (never below `feedback.ignored_floor`); a `used` restores it
    confirmed   a user, reviewer or verifier vouches for it: confidence rises by
                `feedback.confirm_step`, never past the ceiling of its source type
    corrected   the value is wrong and the right one is given: a write of the corrected value
                starts with the caller's own authority (through the whole write pipeline)
    harmful     it hurt a run: quarantined (out of every read path at once) and a review opens
    deleted     it must go: a deletion of that memory starts

Who may say what (the identity rules of every other request): the source is the proven caller's,
never the payload's: a user for a memory of its own namespace, a reviewer whose approve grants
reach the namespace, a service that is a tool or may write there (a verifier), a service or an
agent (a metric). A candidate-only principal's confirmations and reports change nothing.
Feedback never changes a memory's source type, and a confirmation never lifts confidence beyond
what that source type may carry, so no feedback turns a model's guess into a user's statement.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Literal, get_args

from pydantic import AwareDatetime, Field, field_validator

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import (
    CandidateOutcome,
    DeleteRequest,
    DeletionReceipt,
    MemoryRecord,
    Model,
    Principal,
    ReviewStart,
    Stored,
    WriteRequest,
    parse_principal_ref,
)
from governed_memory.memory.policy import FeedbackPolicy as FeedbackPolicy

FeedbackType = Literal["used", "ignored", "corrected", "confirmed", "harmful", "deleted"]
FeedbackSource = Literal["user", "human_reviewer", "verifier", "system_metric"]
#: What a piece of feedback did.
EffectKind = Literal[
    "recorded",
    "rank_lowered",
    "rank_restored",
    "confidence_raised",
    "confidence_at_ceiling",
    "correction_started",
    "quarantined",
    "already_quarantined",
    "deletion_started",
    "version_moved",
]
FEEDBACK_TYPES: tuple[str, ...] = get_args(FeedbackType)
#: The feedback whose effect goes beyond one commit (a review, a write, a deletion): it runs as
#: a RecordFeedback workflow, so that every effect it starts is durable. The others (used,
#: ignored, confirmed) are one transaction, recorded where they are received.
STARTING: frozenset[str] = frozenset({"harmful", "corrected", "deleted"})
FEEDBACK_SOURCES: tuple[str, ...] = get_args(FeedbackSource)
#: Evidence references one event may carry.
MAX_EVIDENCE = 20
#: What an id may hold (a run id, an event id, an evidence reference's tail): ids, never words.
_ID = re.compile(r"[A-Za-z0-9._:/-]{1,200}")
_REF = re.compile(r"[a-z][a-z0-9+.-]{0,31}://[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]{1,480}")
#: The statuses of a memory in force: what a harmful report can take out of the read paths.
IN_FORCE = ("active", "superseded")


class MemoryFeedbackEvent(Model):
    """One piece of feedback on one memory version, as kept (ids, types and times: no words)."""

    event_id: str
    """The event's id: the caller's own, or one the service drew (`fb_…`, `run_…`, `fbh_…`)."""
    memory_id: str
    """The memory it is about."""
    memory_version: int = Field(ge=1)
    """The version of the memory it is about."""
    run_id: str | None = None
    """The agent's run it concerns; null for feedback outside a run."""
    feedback_type: FeedbackType
    """`used`, `ignored`, `corrected`, `confirmed`, `harmful` or `deleted`."""
    source: FeedbackSource
    """Whom it comes from, as the service proved it: `user` (the memory's own user),
    `human_reviewer`, `verifier` (a tool, or a service that may write there) or `system_metric` (an
    agent's or a service's measurement)."""
    evidence_refs: list[str] = Field(default_factory=list)
    """References to what shows it (`scheme://id`), at most 20."""
    occurred_at: AwareDatetime
    """When what it reports happened."""
    tenant_id: str
    """The memory's tenant."""
    namespace: str
    """The memory's namespace."""
    given_by: str
    """The proven principal that gave it."""
    recorded_at: AwareDatetime
    """When the service recorded it."""
    effect: EffectKind = "recorded"
    """What it did: `recorded` (nothing more), `rank_lowered`, `rank_restored`, `confidence_raised`,
    `confidence_at_ceiling`, `correction_started`, `quarantined`, `already_quarantined`,
    `deletion_started` or `version_moved` (a confirmation of a version no longer current)."""
    effect_ref: str | None = None
    """What the effect started: a review id, a write's workflow id, a deletion's workflow id."""


class FeedbackRequest(Stored):
    """Feedback as a caller sends it. The corrected value (for `corrected`) goes to the write
    it starts, never into the feedback record."""

    principal: str
    memory_id: str = Field(min_length=1, max_length=128)
    feedback_type: FeedbackType
    #: The version the feedback is about (default: the current one).
    memory_version: int | None = Field(default=None, ge=1)
    #: Must be one the caller may give (default: the caller's own).
    source: FeedbackSource | None = None
    run_id: str | None = Field(default=None, min_length=1, max_length=200)
    evidence_refs: list[str] = Field(default_factory=list, max_length=MAX_EVIDENCE)
    occurred_at: AwareDatetime | None = None
    #: The caller's id for this event: the same id again returns the first answer.
    event_id: str | None = Field(default=None, min_length=8, max_length=40)
    #: `corrected` only: the right value, as a candidate's fields (`content`, `key`,
    #: `structured_value`, ...) or `{"text": "..."}` to be extracted like an utterance.
    correction: dict[str, object] | None = None

    @field_validator("evidence_refs")
    @classmethod
    def _refs(cls, v: list[str]) -> list[str]:
        for ref in v:
            if not _REF.fullmatch(ref) or not ref.partition("://")[2].strip("/"):
                raise InvalidInput(
                    f"{ref[:80]!r} is not an evidence reference (scheme://id, an id not words)",
                    field="evidence_refs",
                )
        return v

    @field_validator("run_id")
    @classmethod
    def _run_id(cls, v: str | None) -> str | None:
        if v is not None and not _ID.fullmatch(v):
            raise InvalidInput(
                "run_id holds letters, digits and . _ : / - only (an id, not words)",
                field="run_id",
            )
        return v

    @field_validator("event_id")
    @classmethod
    def _event_id(cls, v: str | None) -> str | None:
        if v is not None and not all(c.isalnum() or c in "-_.:" for c in v):
            raise InvalidInput("event_id holds letters, digits and - _ . : only", field="event_id")
        return v


class FeedbackStart(Stored):
    """Input of the RecordFeedback workflow: feedback the door proved and checked, the write of
    a corrected value or the deletion it starts (each built and screened by the door), and the
    grant the door signed for exactly this. The run believes none of it beyond the grant: it
    reads the memory by id, checks again who may say this, and refuses a write or a deletion
    that is not the one this feedback implies (`RequestMismatch`)."""

    #: The feedback, with its event id (its `correction` travels as `write`, never twice).
    feedback: FeedbackRequest
    #: The roles the door proved for the caller (its registry entry's and its token's).
    roles: list[str] = Field(default_factory=list, max_length=16)
    write: WriteRequest | None = None
    deletion: DeleteRequest | None = None
    grant: str | None = Field(default=None, repr=False)

    @property
    def tenant(self) -> str:
        return parse_principal_ref(self.feedback.principal)[1]

    @property
    def principals(self) -> list[str]:
        """Whom the input names: each must be the grant's."""
        named = [self.feedback.principal]
        named += [r.principal for r in (self.write, self.deletion) if r is not None]
        return named


class FeedbackReceipt(Model):
    """What a piece of feedback did: the event as kept (ids, types and times), the review it
    opened (with the grant of its run), and what it changed."""

    event: MemoryFeedbackEvent
    """The event as kept (ids, types and times: no words)."""
    replayed: bool = False
    """Whether the same event id was recorded before: this is that first answer."""
    review: ReviewStart | None = None
    """The review a `harmful` report opened; null otherwise."""
    confidence: float | None = None
    """The memory's confidence after a confirmation raised it; null otherwise."""
    rank_weight: float | None = None
    """The memory's rank weight after this feedback (1 is full rank; lowered by repeated `ignored`,
    restored by `used`); null on a replayed answer."""


class FeedbackRecorded(Model):
    """What recording a RecordFeedback run's event gave the workflow: the receipt (ids only),
    and the grants of the runs its effect starts (a review, a corrected write, a deletion), each
    under an id derived from the feedback run's own."""

    receipt: FeedbackReceipt
    write_workflow_id: str | None = None
    write_grant: str | None = Field(default=None, repr=False)
    deletion_workflow_id: str | None = None
    deletion_grant: str | None = Field(default=None, repr=False)


class FeedbackResult(Model):
    """What a RecordFeedback run did: its receipt, the corrected write's decisions (without
    their values: the client reads them from the store) and the deletion's receipt."""

    receipt: FeedbackReceipt
    correction: list[CandidateOutcome] = Field(default_factory=list)
    deletion: DeletionReceipt | None = None
    deletion_workflow_id: str | None = None


def correction_key(event_id: str) -> str:
    """The idempotency key of the write a `corrected` event starts."""
    return f"feedback-{event_id}"


class Signals(Model):
    """What feedback has taught recall about one memory (kept beside it, erased with it)."""

    ignored_streak: int = 0
    rank_weight: float = 1.0


class Effect(Model):
    kind: EffectKind
    signals: Signals
    #: The new confidence (`confidence_raised`).
    confidence: float | None = None


def allowed_sources(caller: Principal, roles: frozenset[str], namespace: str) -> list[str]:
    """The sources a proven caller may give feedback as, about a memory in `namespace`."""
    found: list[str] = []
    overseer = bool(roles & {"operator", "admin"})
    if caller.own_namespace == namespace:
        found.append("user")
    if caller.can_approve(namespace) or overseer:
        found.append("human_reviewer")
    if caller.type == "service" and (caller.tools or caller.can_write(namespace)):
        found.append("verifier")  # a tool, or a service that may write there
    if caller.type in ("service", "agent") or overseer:
        found.append("system_metric")
    return found


def effect_of(
    feedback_type: str,
    source: str,
    version: int,
    head: MemoryRecord,
    signals: Signals,
    policy: FeedbackPolicy,
    *,
    limited: bool = False,
) -> Effect:
    """What feedback of this type and source, about `version`, does to the memory `head` (the
    current version) with what feedback taught before (`signals`). A `limited` caller (a
    candidate-only principal) confirms and quarantines nothing: its feedback is recorded."""
    same = Signals(ignored_streak=signals.ignored_streak, rank_weight=signals.rank_weight)
    if feedback_type == "used":
        restored = signals.rank_weight < 1.0
        return Effect(kind="rank_restored" if restored else "recorded", signals=Signals())
    if feedback_type == "ignored":
        streak = signals.ignored_streak + 1
        over = streak - policy.ignored_after + 1
        if over <= 0:
            return Effect(kind="recorded", signals=Signals(ignored_streak=streak))
        weight = max(policy.ignored_floor, 1.0 - policy.ignored_step * over)
        return Effect(
            kind="rank_lowered",
            signals=Signals(ignored_streak=streak, rank_weight=round(weight, 6)),
        )
    if feedback_type == "confirmed":
        if source == "system_metric" or limited:
            return Effect(kind="recorded", signals=same)  # a metric vouches for nothing
        if version != head.version:
            return Effect(kind="version_moved", signals=same)
        ceiling = policy.confidence_ceiling.get(head.source_type, 1.0)
        raised = round(min(ceiling, head.confidence + policy.confirm_step), 6)
        if raised <= head.confidence:
            return Effect(kind="confidence_at_ceiling", signals=same)
        return Effect(kind="confidence_raised", signals=same, confidence=raised)
    if feedback_type == "harmful":
        if limited:  # a candidate-only principal's word waits for review, like its writes
            return Effect(kind="recorded", signals=same)
        if head.status == "quarantined":
            return Effect(kind="already_quarantined", signals=same)
        if head.status not in IN_FORCE:  # invalidated: out of the read paths already
            return Effect(kind="recorded", signals=same)
        return Effect(kind="quarantined", signals=same)
    if feedback_type == "corrected":
        return Effect(kind="correction_started", signals=same)
    return Effect(kind="deletion_started", signals=same)


def check_request(request: FeedbackRequest, source: str, *, write_given: bool = False) -> None:
    """What a feedback type needs from its caller, beyond the identity rules (`write_given`:
    the correction travels as the write the door built from it)."""
    kind = request.feedback_type
    if kind == "corrected":
        if not request.correction and not write_given:
            raise InvalidInput(
                "`corrected` feedback carries the right value (`correction`)", field="correction"
            )
        if source not in ("user", "human_reviewer"):
            raise InvalidInput(
                "only the user or a reviewer corrects a memory's value", field="source"
            )
    elif request.correction is not None:
        raise InvalidInput("only `corrected` feedback carries a correction", field="correction")
    if kind in ("used", "ignored") and request.run_id is None:
        raise InvalidInput(f"`{kind}` is said of a run: give its run_id", field="run_id")


def default_event_id(principal: str, request: FeedbackRequest, version: int) -> str | None:
    """The id of an event the caller gave none: a run's use or neglect of a memory is said once
    per run (by its principal), and a harmful report once per memory version (asked again, the
    first answer, and its review started again if it was not); None: a new id."""
    if request.feedback_type in ("used", "ignored") and request.run_id is not None:
        return run_event_id(principal, request.run_id, request.memory_id, request.feedback_type)
    if request.feedback_type == "harmful":
        seed = f"{principal}|{request.memory_id}|{version}|harmful"
        return f"fbh_{hashlib.sha256(seed.encode()).hexdigest()[:32]}"
    return None


def run_event_id(principal: str, run_id: str, memory_id: str, feedback_type: str) -> str:
    """The event id of a run's feedback on a memory, the principal's own."""
    seed = f"{principal}|{run_id}|{memory_id}|{feedback_type}"
    return f"run_{hashlib.sha256(seed.encode()).hexdigest()[:32]}"


def emitted(
    *,
    commit_id: str,
    memory_id: str,
    version: int,
    feedback_type: FeedbackType,
    source: FeedbackSource,
    given_by: str,
    tenant_id: str,
    namespace: str,
    at: datetime,
    run_id: str | None,
) -> MemoryFeedbackEvent:
    """Feedback the service records itself, where it knows (a user's correction through the
    write pipeline, a reviewer's answer): its change is the commit's own, so its effect is only
    to be recorded. Its id follows from the commit, so a commit retried records it once."""
    digest = hashlib.sha256(f"{commit_id}|{memory_id}|{feedback_type}".encode()).hexdigest()
    return MemoryFeedbackEvent(
        event_id=f"fb_{digest[:32]}",
        memory_id=memory_id,
        memory_version=version,
        run_id=run_id,
        feedback_type=feedback_type,
        source=source,
        occurred_at=at,
        tenant_id=tenant_id,
        namespace=namespace,
        given_by=given_by,
        recorded_at=at,
    )
