"""projections"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Literal

from pydantic import Field

from governed_memory.memory.models import Model

Phase = Literal["changed", "written", "expired", "all", "done"]


Reason = Literal["missing", "stale", "rolled_back", "tombstoned", "expired", "orphan"]


#: Every reason, for metrics and reports.
REASONS: tuple[Reason, ...] = ("missing", "stale", "rolled_back", "tombstoned", "expired", "orphan")


class RepairCursor(Model):
    """Where a repair is: its phase and the position within it."""

    phase: Phase
    full: bool
    #: `all`: the last memory id compared.
    after: str | None = None
    #: `changed`: the last outbox seq read; `written`: the last index write mark read.
    seq: int = 0
    written: int = 0
    #: The marks when the repair started (incremental runs start after them).
    start_seq: int = 0
    start_written: int = 0


class RepairTotals(Model):
    compared: int = 0
    mismatches: dict[str, int] = Field(default_factory=dict)
    repaired: int = 0
    namespaces: list[str] = Field(default_factory=list)
    pages: int = 0

    def add(self, other: RepairTotals) -> RepairTotals:
        return RepairTotals(
            compared=self.compared + other.compared,
            mismatches=dict(Counter(self.mismatches) + Counter(other.mismatches)),
            repaired=self.repaired + other.repaired,
            namespaces=sorted({*self.namespaces, *other.namespaces}),
            pages=self.pages + other.pages,
        )


class ProjectInput(Model):
    memory_ids: list[str]
    #: Outbox events this projection settles; marked processed once the projection holds.
    outbox_seqs: list[int]


class BeginRepairInput(Model):
    full: bool = False
    #: Clock override (evaluation and tests only); `now` otherwise.
    at: datetime | None = None
    now: datetime


class BegunRepair(Model):
    cursor: RepairCursor
    at: datetime


class RepairPagesInput(Model):
    repair_id: str
    cursor: RepairCursor
    at: datetime
    page_size: int = 2000
    #: Pages per activity call; the workflow calls again (and continues as new) for the rest.
    budget_pages: int = 50


class RepairPagesResult(Model):
    cursor: RepairCursor
    totals: RepairTotals


class FinishRepairInput(Model):
    cursor: RepairCursor
    at: datetime
