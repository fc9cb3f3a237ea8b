"""Activities of ReviewMemory: plan what an answer (or the timeout) changes and stage it; the
commit is the shared `memory.commit_staged` (`memory.commit` in runs recorded before)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.failures import typed_errors
from memory.models import ReviewOutcome
from memory.services.reviews import (
    ReviewPlan,
    Reviews,
    ReviewStaged,
    SettleInput,
    StageReviewInput,
)


class ReviewActivities:
    def __init__(self, reviews: Reviews) -> None:
        self.reviews = reviews

    def activities(self) -> list[Callable[..., Any]]:
        return [self.plan_review, self.settle_review, self.stage_review]

    @activity.defn(name="memory.plan_review")
    @typed_errors
    def plan_review(self, inp: SettleInput) -> ReviewPlan:
        return self.reviews.plan(inp)

    @activity.defn(name="memory.stage_review")
    @typed_errors
    def stage_review(self, inp: StageReviewInput) -> ReviewStaged:
        return self.reviews.stage(inp)

    @activity.defn(name="memory.settle_review")
    @typed_errors
    def settle_review(self, inp: SettleInput) -> ReviewOutcome:
        """Plan and commit at once: for ReviewMemory runs recorded before the two were split."""
        return self.reviews.settle(inp)
