"""Activities of SummarizeThread: plan and stage the summary; the commit is the shared
`memory.commit_staged` (`memory.commit` in runs recorded before)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.failures import typed_errors
from memory.plans import CommitPlan, CommitResult
from memory.services.summaries import PlanSummaryInput, Summaries
from memory.services.writes import Writes
from memory.summary import StagedSummary, SummaryPlan


class SummaryActivities:
    def __init__(self, summaries: Summaries, writes: Writes) -> None:
        self.summaries = summaries
        self.writes = writes

    def activities(self) -> list[Callable[..., Any]]:
        return [self.plan_summary, self.commit_summary, self.stage_summary]

    @activity.defn(name="memory.plan_summary")
    @typed_errors
    def plan_summary(self, inp: PlanSummaryInput) -> SummaryPlan:
        return self.summaries.plan(inp)

    @activity.defn(name="memory.stage_summary")
    @typed_errors
    def stage_summary(self, inp: PlanSummaryInput) -> StagedSummary:
        return self.summaries.stage(inp)

    @activity.defn(name="memory.commit_summary")
    @typed_errors
    def commit_summary(self, plan: CommitPlan) -> CommitResult:
        """For SummarizeThread runs recorded before summaries committed through `memory.commit`."""
        return self.writes.commit(plan)
