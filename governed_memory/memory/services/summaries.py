"""Summaries: plan a thread's summary (load, summarise, verify, fall back) and stage it; commits
go through `WriteService.commit_staged` like every other staged plan."""

from __future__ import annotations

from governed_memory.memory.contracts.summaries import PlanSummaryInput, StagedSummary
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.summary import (
    ExtractiveSummarizer,
    Summarizer,
    SummaryPlan,
    plan_summary,
)
from governed_memory.memory.write.stages import effective_time


class SummaryService:
    """The run asking was admitted already (`workflows.admit`)."""

    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        keys: ServiceKeys,
        summarizer: Summarizer | None = None,
    ) -> None:
        self.stores = stores
        self.settings = settings
        self.keys = keys
        self.summarizer = summarizer or ExtractiveSummarizer()

    def plan(self, inp: PlanSummaryInput) -> SummaryPlan:
        at = effective_time(inp.request.at, inp.now, self.settings.allow_clock_override)
        return plan_summary(
            self.stores,
            inp.request,
            self.summarizer,
            workflow_id=inp.workflow_id,
            memory_id="mem_" + self.keys.derive("summary-id", inp.seed),
            at=at,
            commit_id=inp.commit_id,
        )

    def stage(self, inp: PlanSummaryInput) -> StagedSummary:
        """Plan, and stage the plan in the canonical store: the workflow gets its id."""
        planned = self.plan(inp)
        commit = (
            None
            if planned.plan is None
            else self.stores.canonical.staged.put(planned.plan, planned.plan.at)
        )
        return StagedSummary(
            commit=commit,
            memory_id=planned.memory_id,
            summary_version=planned.summary_version,
            source_range=planned.source_range,
            fallback_reason=planned.fallback_reason,
            unchanged=planned.unchanged,
        )
