"""Activities of SummarizeThread: plan the summary (load, summarise, verify, fall back), commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from temporalio import activity

from activities import typed_errors
from memory.models import Model
from memory.plans import CommitPlan, CommitResult
from memory.settings import Settings
from memory.stores import Stores
from memory.summary import (
    ExtractiveSummarizer,
    Summarizer,
    SummarizeRequest,
    SummaryPlan,
    plan_summary,
)
from memory.write.stages import effective_time


class PlanSummaryInput(Model):
    request: SummarizeRequest
    workflow_id: str
    memory_id: str
    commit_id: str
    now: datetime


class SummaryActivities:
    def __init__(
        self, stores: Stores, settings: Settings, summarizer: Summarizer | None = None
    ) -> None:
        self.stores = stores
        self.settings = settings
        self.summarizer = summarizer or ExtractiveSummarizer()

    def activities(self) -> list[Callable[..., Any]]:
        return [self.plan_summary, self.commit_summary]

    @activity.defn(name="memory.plan_summary")
    @typed_errors
    def plan_summary(self, inp: PlanSummaryInput) -> SummaryPlan:
        at = effective_time(inp.request.at, inp.now, self.settings.allow_clock_override)
        return plan_summary(
            self.stores,
            inp.request,
            self.summarizer,
            workflow_id=inp.workflow_id,
            memory_id=inp.memory_id,
            at=at,
            commit_id=inp.commit_id,
        )

    @activity.defn(name="memory.commit_summary")
    @typed_errors
    def commit_summary(self, plan: CommitPlan) -> CommitResult:
        return self.stores.commit_and_project(plan)
