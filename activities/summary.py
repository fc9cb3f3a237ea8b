"""Activities of SummarizeThread: plan and stage the summary; the commit is the shared
`memory.commit_staged`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.summaries import PlanSummaryInput, StagedSummary

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.summaries import SummaryService


class SummaryActivities:
    def __init__(self, summaries: SummaryService) -> None:
        self.summaries = summaries

    def activities(self) -> list[Callable[..., Any]]:
        return [self.stage_summary]

    @activity.defn(name="memory.stage_summary")
    @typed_errors
    def stage_summary(self, inp: PlanSummaryInput) -> StagedSummary:
        return self.summaries.stage(inp)
