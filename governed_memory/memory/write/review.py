"""Settling a review: what a reviewer's answer (or the timeout) changes."""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.models import MemoryRecord, ReviewDecision, ReviewRecord, ReviewStatus
from governed_memory.memory.plans import RecordChange


def review_status(decision: ReviewDecision | None) -> ReviewStatus:
    if decision is None:
        return "timed_out"
    return "approved" if decision.decision == "approve" else "rejected"


def conflict_changes(
    review: ReviewRecord,
    decision: ReviewDecision | None,
    heads: dict[str, MemoryRecord],
    newcomers: list[str],
) -> tuple[list[RecordChange], list[str]]:
    """Changes that settle a conflict group, and the memories they invalidate.

    Approving a side invalidates the others; rejecting a side invalidates it; a timeout
    invalidates the sides the conflicting write brought. A side that left the group meanwhile
    (superseded, deleted) is left alone. The last side standing leaves the group.
    """
    sides = [
        heads[m]
        for m in review.memory_ids
        if m in heads
        and heads[m].status == "active"
        and heads[m].conflict_group == review.conflict_group
    ]
    if decision is None:
        losers = {m for m in newcomers if any(s.memory_id == m for s in sides)}
    elif decision.decision == "approve":
        losers = {s.memory_id for s in sides if s.memory_id != decision.memory_id}
    else:
        losers = {decision.memory_id} if decision.memory_id else {s.memory_id for s in sides}
    changes = [
        RecordChange(
            memory_id=s.memory_id,
            expected_version=s.version,
            status="invalidated",
            valid_to=s.valid_to,
            conflict_group=None,
            change=f"review:{review.review_id}:{'lost' if s.memory_id in losers else 'kept'}",
        )
        for s in sides
        if s.memory_id in losers
    ]
    remaining = [s for s in sides if s.memory_id not in losers]
    if len(remaining) <= 1:
        changes += [
            RecordChange(
                memory_id=s.memory_id,
                expected_version=s.version,
                status=s.status,
                valid_to=s.valid_to,
                conflict_group=None,
                change=f"review:{review.review_id}:kept",
            )
            for s in remaining
        ]
    return changes, sorted(losers)


def closed(review: ReviewRecord, decision: ReviewDecision | None, at: datetime) -> ReviewRecord:
    return review.model_copy(
        update={
            "status": review_status(decision),
            "closed_at": at,
            "decided_by": decision.reviewer if decision else None,
            "decision": decision.model_dump(mode="json") if decision else {"timeout": True},
        }
    )
