"""Many writes at once: the same pipeline, the same guarantees as one at a time.

`process_batch` decides many requests (each by `memory.write.decide.decide_request`) and
commits them together: one transaction for every request whose slots no other request of the
batch touches, then one by one (deciding again after a lost race) for the rest. Each write
keeps its own decision, audit and idempotency key; a batch only shares transactions and the
projection step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

import structlog

from governed_memory.memory import metrics
from governed_memory.memory.errors import MemoryServiceError, QuotaExceeded, VersionConflict
from governed_memory.memory.models import (
    BatchItem,
    BatchResult,
    CandidateOutcome,
    Principal,
    ReviewStart,
    WriteRequest,
    without_values,
)
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync
from governed_memory.memory.vocabulary import TIMEZONE
from governed_memory.memory.write.decide import decide_request, keep_messages
from governed_memory.memory.write.decision import WriteDecision
from governed_memory.memory.write.extraction import Extractor
from governed_memory.memory.write.state import Known, StoreView

log = structlog.get_logger("governed_memory.memory.write.batch")

#: The keys every decision consults (the writer's timezone), read for a whole batch at once.
BATCH_VALUE_KEYS = (TIMEZONE,)


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
    # What every decision would read one query at a time (writers, decided keys, timezones,
    # named slots) is read at once; the registry is asked once per writer.
    with canonical.db.reading():
        known = Known.read(stores, requests, BATCH_VALUE_KEYS)
    registry = cache(canonical.principals.get)

    def principal_of(ref: str) -> Principal:
        return known.principal(ref, registry)

    # The batch's messages are kept together, in one transaction, before any decision.
    kept = keep_messages(
        stores,
        requests,
        [batch_message_id(seed, i) for i in range(len(requests))],
        known,
        workflow_id=workflow_id,
        now=now,
        allow_override=allow_override,
    )
    ahead = StoreView(stores, known)

    def decide(i: int, *, afresh: bool = False) -> WriteDecision:
        """The i-th write decided: as of the batch's first reading, or `afresh` (just before
        its own commit, after the batch's earlier ones)."""
        request = requests[i]
        return decide_request(
            stores,
            request,
            extractor,
            workflow_id=workflow_id,
            seed=batch_seed(seed, i),
            now=now,
            allow_override=allow_override,
            message_id=batch_message_id(seed, i),
            message=kept.get(i),
            principal_of=registry if afresh else principal_of,
            view=None if afresh else ahead,
            undecided=not afresh and known.undecided(request),
        )

    items: list[BatchItem] = []
    decided: list[tuple[int, WriteDecision]] = []
    # Each memory without a key is compared with its neighbours by embedding: a model embeds
    # the batch's together, ahead of the decisions (and the projection finds them embedded).
    stores.embedder.prepare(
        [
            r.candidate.content
            for r in requests
            if r.candidate is not None and r.candidate.key is None
        ]
    )
    with canonical.db.reading():  # every decision reads the store as it was before the commits
        _decide_all(requests, decide, items, decided, progress)

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
    except (VersionConflict, QuotaExceeded):
        # Someone else moved a slot meanwhile, or the writer's other writes reached its quota:
        # one by one.
        rest = [i for i, _ in decided]

    lost: list[int] = []
    for n, i in enumerate(rest):
        decision = decide(i, afresh=True)
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
        except QuotaExceeded as exc:
            items[i] = BatchItem(
                idempotency_key=requests[i].idempotency_key,
                outcomes=[CandidateOutcome(decision="reject", reason=exc.code)],
            )
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


def _decide_all(
    requests: list[WriteRequest],
    decide: Callable[[int], WriteDecision],
    items: list[BatchItem],
    decided: list[tuple[int, WriteDecision]],
    progress: Callable[[Any], None],
) -> None:
    """Decide each request (a bad one is rejected alone), noting what it decided."""
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
