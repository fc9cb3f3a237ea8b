"""Summaries: plan a thread's summary (load, summarise, verify, fall back); commits go through
`Writes.commit` like every other plan."""

from __future__ import annotations

from datetime import datetime

from memory.models import Model
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


class Summaries:
    def __init__(
        self, stores: Stores, settings: Settings, summarizer: Summarizer | None = None
    ) -> None:
        self.stores = stores
        self.settings = settings
        self.summarizer = summarizer or ExtractiveSummarizer()

    def plan(self, inp: PlanSummaryInput) -> SummaryPlan:
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
