"""Reviews: the open ones the caller may answer, and answering one (its workflow's Update)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from governed_memory.memory.models import ReviewOutcome, ReviewRecord
from governed_memory.shell.http.bodies import ReviewBody
from governed_memory.shell.http.deps import Caller_

router = APIRouter(prefix="/v1", tags=["reviews"])


@router.get("/reviews")
def reviews(s: Caller_) -> list[ReviewRecord]:
    """The open reviews the caller may answer."""
    return s.client.open_reviews(s.ref)


@router.post("/reviews/{review_id}")
async def answer(review_id: str, body: ReviewBody, s: Caller_) -> ReviewOutcome:
    """Answer an open review: `approve` or `reject` (for a conflict, naming the side in
    `memory_id`). Only a reviewer whose approve grants reach the review's namespace may answer
    it, once. Returns what the answer did: the memories committed and those invalidated."""
    await run_in_threadpool(s.client.access.review, s.token, review_id)
    return await s.client.review(
        s.ref, review_id, body.decision, memory_id=body.memory_id, at=body.at
    )
