"""Commit a plan, then project what it changed at once: the one step every committing path
takes (writes, feedback, erasure, reviews)."""

from __future__ import annotations

import structlog

from governed_memory.memory import metrics
from governed_memory.memory.plans import CommitPlan, CommitResult
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync

log = structlog.get_logger("governed_memory.memory.sync.commit")


def commit_and_project(stores: Stores, plan: CommitPlan) -> CommitResult:
    """The commit is the durable part. If the projection fails, the result says so
    (`projected=False`) and the outbox keeps the events for the retry and the relay."""
    with metrics.COMMIT_SECONDS.time():
        result = stores.canonical.commits.apply(plan)
    if not result.replayed and plan.outcome is not None:
        metrics.count_decisions(plan.outcome.outcomes)
    try:
        sync(stores.canonical, stores.projection, result.memory_ids, result.outbox_seqs)
        result.projected = True
    except Exception as exc:
        log.warning("projection after commit failed", commit=plan.commit_id, error=repr(exc))
    return result
