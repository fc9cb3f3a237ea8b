"""Feedback on memories, with its effect, and agents' run reports; the feedback kept."""

from __future__ import annotations

from fastapi import APIRouter

from governed_memory.memory.feedback import MemoryFeedbackEvent
from governed_memory.memory.services.feedback import FeedbackOutcome, RunReport
from governed_memory.shell.http.bodies import FeedbackBody, RunBody
from governed_memory.shell.http.deps import Caller_

router = APIRouter(prefix="/v1", tags=["feedback"])


@router.post("/feedback")
async def feedback(body: FeedbackBody, s: Caller_) -> FeedbackOutcome:
    """Feedback on a memory, recorded with its effect: `confirmed` raises confidence within
    its source's ceiling, `corrected` writes the right value as the caller, `harmful`
    quarantines it and opens a review, `deleted` deletes it, repeated `ignored` lowers its
    rank, `used` restores it."""
    return await s.client.feedback(s.ref, **body.model_dump())


@router.post("/runs/{run_id}/report")
async def report_run(run_id: str, body: RunBody, s: Caller_) -> RunReport:
    """An agent reports a run: each memory it had in context is marked used or ignored
    (harmful ones quarantined); reporting it again records nothing twice."""
    return await s.client.report_run(
        s.ref,
        run_id,
        package=body.package,
        shown=body.shown,
        used=body.used,
        harmful=body.harmful,
        outcome=body.outcome,
    )


@router.get("/memories/{memory_id}/feedback")
def memory_feedback(memory_id: str, s: Caller_) -> list[MemoryFeedbackEvent]:
    """The feedback kept on a memory (ids, types, sources, times and effects; no words). For
    whoever may give feedback on it or read its namespace; a memory the caller may not see is
    404, like one that does not exist."""
    return s.client.feedback_on(s.ref, memory_id)


@router.get("/runs/{run_id}/feedback")
def run_feedback(run_id: str, s: Caller_) -> list[MemoryFeedbackEvent]:
    """The feedback of one agent run in the caller's tenant, limited to the memories of
    namespaces the caller may read or review (empty when there is none)."""
    return s.client.run_feedback(s.ref, run_id)
