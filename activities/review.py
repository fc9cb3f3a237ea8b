"""Activities of ReviewMemory: open (admit the run against the stored review), then plan what an
answer (or the timeout) changes and stage it; the commit is the shared `memory.commit_staged`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.reviews import (
    OpenReviewInput,
    ReviewOpened,
    ReviewStaged,
    StageReviewInput,
)

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.reviews import ReviewService


class ReviewActivities:
    def __init__(self, reviews: ReviewService) -> None:
        self.reviews = reviews

    def activities(self) -> list[Callable[..., Any]]:
        return [self.open_review, self.stage_review]

    @activity.defn(name="memory.open_review")
    @typed_errors
    def open_review(self, inp: OpenReviewInput) -> ReviewOpened:
        return self.reviews.open(inp)

    @activity.defn(name="memory.stage_review")
    @typed_errors
    def stage_review(self, inp: StageReviewInput) -> ReviewStaged:
        return self.reviews.stage(inp)
