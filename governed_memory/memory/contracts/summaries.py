"""summaries"""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.models import Model, SummarizeRequest
from governed_memory.memory.plans import CommitRef


class PlanSummaryInput(Model):
    request: SummarizeRequest
    workflow_id: str
    #: The run's seed: a new summary's memory id is a keyed hash of it.
    seed: str
    commit_id: str
    now: datetime


class StagedSummary(Model):
    """A summary planned and staged: ids and ranges only (the plan, with the summary's text,
    waits in the canonical store under `commit.commit_id`)."""

    commit: CommitRef | None
    memory_id: str | None
    summary_version: int | None
    source_range: tuple[int, int] | None
    fallback_reason: str | None = None
    unchanged: bool = False
