"""Writes one at a time or many at once: the same pipeline, the same guarantees.

`decide_request` runs the pipeline for one request (or replays the outcome already stored for
its idempotency key). `process_batch` decides many requests and commits them together: one
transaction for every request whose slots no other request of the batch touches, then one by one
(deciding again after a lost race) for the rest. Each write keeps its own decision, audit and
idempotency key; a batch only shares transactions and the projection step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import structlog
from pydantic import Field, model_validator

from memory import metrics
from memory.errors import InvalidInput, MemoryServiceError, PolicyRefusal, VersionConflict
from memory.models import (
    AuditEvent,
    CandidateOutcome,
    Model,
    Principal,
    ReviewStart,
    WriteRequest,
    without_values,
)
from memory.stores import Stores
from memory.sync.apply import sync, sync_pending
from memory.write.extraction import Extractor
from memory.write.pipeline import WriteDecision, decide
from memory.write.screening import screen
from memory.write.stages import IdSource, check_write_allowed, effective_time
from memory.write.state import StoreView

log = structlog.get_logger("memory.write.batch")


def authorize_write(
    stores: Stores, request: WriteRequest, workflow_id: str, at: datetime
) -> Principal:
    """The writing principal, or UnauthorizedNamespace (audited: it reached the service)."""
    principal = stores.canonical.principals.get(request.principal)
    try:
        check_write_allowed(principal, request.namespace)
    except PolicyRefusal as refusal:
        stores.canonical.commits.record_audit(
            principal.tenant,
            request.namespace,
            workflow_id,
            [
                AuditEvent(
                    stage="authorize",
                    outcome="refused",
                    decision="reject",
                    reason_code=refusal.code,
                    principal=principal.ref,
                    details={"message": refusal.message},
                )
            ],
            at,
        )
        raise
    return principal


def decide_request(
    stores: Stores,
    request: WriteRequest,
    extractor: Extractor,
    *,
    workflow_id: str,
    seed: str,
    now: datetime,
    allow_override: bool,
    message_id: str | None = None,
) -> WriteDecision:
    at = effective_time(request.at, now, allow_override)
    principal = authorize_write(stores, request, workflow_id, at)
    stored = stores.canonical.outcomes.get(principal.tenant, principal.ref, request.idempotency_key)
    if stored is not None:
        # Decided before — by this run, if its worker died after the commit: what it committed
        # reaches the index now rather than at the next relay.
        try:
            sync_pending(
                stores.canonical, stores.projection, [o.memory_id for o in stored.outcomes]
            )
        except Exception as exc:  # the index is down: the relay settles them later
            log.warning("projection of a replayed write failed", error=repr(exc))
        return WriteDecision(
            workflow_id=stored.workflow_id,
            tenant_id=principal.tenant,
            namespace=request.namespace,
            principal=principal.ref,
            at=at,
            idempotency_key=request.idempotency_key,
            review_timeout=stores.policy.review.timeout,
            replayed=stored.outcomes,
        )
    message = None
    if request.utterance is not None and message_id is not None:
        # Screened before it is kept: a secret said in a message is never stored, whatever the
        # pipeline then decides about the memories in it.
        screened = screen(request.utterance.text)
        message = stores.canonical.messages.append(
            message_id=message_id,
            tenant_id=principal.tenant,
            namespace=request.namespace,
            thread=request.utterance.thread,
            speaker=principal.ref,
            speaker_type=principal.type,
            text=screened.text,
            sensitivity=screened.sensitivity,
            at=at,
            workflow_id=workflow_id,
        )
    return decide(
        request,
        principal,
        stores.policy,
        StoreView(stores),
        extractor,
        workflow_id=workflow_id,
        at=at,
        ids=IdSource(seed=seed),
        message=message,
    )


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
    outcomes: list[CandidateOutcome]


class BatchResult(Model):
    """Compact: per write its key and outcomes (decisions, reasons, ids)."""

    workflow_id: str
    items: list[BatchItem] = Field(default_factory=list)
    #: Writes (by index) that lost a race to another writer: decided again by the workflow.
    lost: list[int] = Field(default_factory=list)
    #: What the reviews opened start from (by index of the write): ids only, each with its
    #: grant; what settling needs was committed with the review rows.
    starts: dict[int, list[ReviewStart]] = Field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return dict(Counter(o.decision for item in self.items for o in item.outcomes))


def batch_seed(seed: str, index: int) -> str:
    """The seed of the `index`-th write of a batch (its ids), and of its message id."""
    return f"{seed}/{index}"


def batch_message_id(seed: str, index: int) -> str:
    return f"msg_{seed}_{index}"


def process_batch(
    stores: Stores,
    requests: list[WriteRequest],
    extractor: Extractor,
    *,
    workflow_id: str,
    seed: str,
    now: datetime,
    allow_override: bool,
    progress: Callable[[Any], None] = lambda _: None,
) -> BatchResult:
    """Decide every request, then commit: those whose slots no other request of the batch
    touches in one transaction, the others one by one, each decided again just before its commit
    (so it sees the batch's earlier commits). A write that still loses its race to another writer
    is left for the workflow to decide again (`BatchResult.lost`)."""
    canonical = stores.canonical

    def decide(i: int) -> WriteDecision:
        return decide_request(
            stores,
            requests[i],
            extractor,
            workflow_id=workflow_id,
            seed=batch_seed(seed, i),
            now=now,
            allow_override=allow_override,
            message_id=batch_message_id(seed, i),
        )

    items: list[BatchItem] = []
    decided: list[tuple[int, WriteDecision]] = []
    for i, request in enumerate(requests):
        try:
            decision = decide(i)
        except MemoryServiceError as exc:  # one bad request does not sink the batch
            items.append(
                BatchItem(
                    idempotency_key=request.idempotency_key,
                    outcomes=[CandidateOutcome(decision="reject", reason=exc.code)],
                )
            )
            continue
        items.append(
            BatchItem(
                idempotency_key=request.idempotency_key, outcomes=without_values(decision.outcomes)
            )
        )
        if decision.replayed is None:
            decided.append((i, decision))
        if i % 50 == 49:
            progress({"decided": i + 1})

    # Requests whose slots no other request of the batch touches commit in one transaction.
    slot_use = Counter(
        (d.namespace, c.slot.slot) for _, d in decided for c in d.candidates if c.slot is not None
    )
    alone = [
        (i, d)
        for i, d in decided
        if all(slot_use[(d.namespace, c.slot.slot)] == 1 for c in d.candidates if c.slot)
    ]
    alone_ids = {i for i, _ in alone}
    rest = [i for i, _ in decided if i not in alone_ids]
    written: list[str] = []
    seqs: list[int] = []
    starts: dict[int, list[ReviewStart]] = {}
    try:
        results = canonical.commits.apply_all(
            [d.plan(f"{workflow_id}/{i}#0", requests[i]) for i, d in alone]
        )
        for (i, d), result in zip(alone, results, strict=True):
            if opens_review(d):
                starts[i] = d.review_starts()
            written += result.memory_ids
            seqs += result.outbox_seqs
            if not result.replayed:
                metrics.count_decisions(d.outcomes)
    except VersionConflict:
        rest = [i for i, _ in decided]  # someone else moved a slot meanwhile: one by one

    lost: list[int] = []
    for n, i in enumerate(rest):
        decision = decide(i)
        items[i] = BatchItem(
            idempotency_key=requests[i].idempotency_key, outcomes=without_values(decision.outcomes)
        )
        starts.pop(i, None)
        if decision.replayed is not None:
            continue
        try:
            result = canonical.commits.apply(decision.plan(f"{workflow_id}/{i}#1", requests[i]))
        except VersionConflict:
            lost.append(i)
            items[i] = BatchItem(idempotency_key=requests[i].idempotency_key, outcomes=[])
            continue
        written += result.memory_ids
        seqs += result.outbox_seqs
        if not result.replayed:
            metrics.count_decisions(decision.outcomes)
        if opens_review(decision):
            starts[i] = decision.review_starts()
        if n % 50 == 49:
            progress({"committed": n + 1})

    if written:
        try:
            sync(canonical, stores.projection, written, seqs)
        except Exception as exc:  # committed; the outbox relay projects it
            log.warning("projection after batch commit failed", batch=workflow_id, error=repr(exc))
    return BatchResult(workflow_id=workflow_id, items=items, lost=lost, starts=starts)


def opens_review(decision: WriteDecision) -> bool:
    return decision.replayed is None and any(c.review is not None for c in decision.candidates)
