"""reviews"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import Field

from governed_memory.memory.contracts.admission import AdmitInput
from governed_memory.memory.models import (
    Model,
    ReviewDecision,
    ReviewOutcome,
    ReviewRecord,
    ReviewStart,
)
from governed_memory.memory.plans import CommitRef


class OpenReviewInput(Model):
    """A review run's first step: its admission and the review its start states."""

    admission: AdmitInput
    start: ReviewStart


class ReviewOpened(Model):
    """The review as stored, what a timeout may invalidate, and how long the run waits."""

    review: ReviewRecord
    newcomers: list[str] = Field(default_factory=list)
    timeout: timedelta


class StageReviewInput(Model):
    review_id: str
    #: The run's own workflow id (the stored review's must be it) and run id.
    workflow_id: str
    run_id: str
    #: What a timeout may invalidate (as `open` found it).
    newcomers: list[str] = Field(default_factory=list)
    #: None when the review timed out.
    decision: ReviewDecision | None
    now: datetime
    commit_id: str


class ReviewStaged(Model):
    """The plan that settles a review, staged (by id), and what the reviewer is told."""

    commit: CommitRef
    outcome: ReviewOutcome
