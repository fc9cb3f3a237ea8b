"""Activities of ReviewMemory: plan what an answer (or the timeout) changes; the commit is the
shared `memory.commit`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.failures import typed_errors
from memory.models import ReviewOutcome
from memory.services.reviews import ReviewPlan, Reviews, SettleInput


class ReviewActivities:
    def __init__(self, reviews: Reviews) -> None:
        self.reviews = reviews

    def activities(self) -> list[Callable[..., Any]]:
        return [self.plan_review, self.settle_review]

    @activity.defn(name="memory.plan_review")
    @typed_errors
    def plan_review(self, inp: SettleInput) -> ReviewPlan:
        return self.reviews.plan(inp)

    @activity.defn(name="memory.settle_review")
    @typed_errors
    def settle_review(self, inp: SettleInput) -> ReviewOutcome:
        """Plan and commit at once: for ReviewMemory runs recorded before the two were split."""
        return self.reviews.settle(inp)
