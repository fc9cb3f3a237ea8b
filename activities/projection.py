"""Activities that move the projection to the canonical state: the write path's projection,
the outbox relay and the repair sweep."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import structlog
from temporalio import activity

from activities import typed_errors
from memory import metrics
from memory.models import Model
from memory.settings import Settings
from memory.stores import Stores
from memory.sync.apply import sync
from memory.sync.relay import RelayRequest, RelayResult, relay
from memory.sync.repair import RepairCursor, RepairPage, RepairTotals, begin, finish, run_pages
from memory.sync.state import Watermarks
from memory.write.stages import effective_time

log = structlog.get_logger("memory.activities.projection")


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


def _heartbeat(details: Any) -> None:
    if activity.in_activity():
        activity.heartbeat(details)


class ProjectionActivities:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def activities(self) -> list[Callable[..., Any]]:
        return [
            self.project_memories,
            self.relay_outbox,
            self.begin_repair,
            self.repair_pages,
            self.finish_repair,
        ]

    @activity.defn(name="memory.project")
    @typed_errors
    def project_memories(self, inp: ProjectInput) -> int:
        # Events of these memories that an earlier attempt committed but never marked (its
        # worker died) are settled too.
        stores = self.stores
        return sync(
            stores.canonical, stores.projection, inp.memory_ids, inp.outbox_seqs, pending=True
        ).changed

    @activity.defn(name="memory.relay_outbox")
    @typed_errors
    def relay_outbox(self, inp: RelayRequest) -> RelayResult:
        result = relay(
            self.stores,
            batch_size=inp.batch_size,
            max_batches=inp.max_batches,
            heartbeat=lambda r: _heartbeat(r.events),
        )
        metrics.RELAYED.labels("applied").inc(result.applied)
        metrics.RELAYED.labels("removed").inc(result.removed)
        metrics.RELAYED.labels("skipped").inc(result.skipped)
        marks = result.watermarks
        log.info(
            "outbox relayed",
            events=result.events,
            applied=result.applied,
            removed=result.removed,
            skipped=result.skipped,
            last_index_updated=marks.last_index_updated if marks else None,
            last_event_committed=marks.last_event_committed if marks else None,
        )
        return result

    @activity.defn(name="memory.begin_repair")
    @typed_errors
    def begin_repair(self, inp: BeginRepairInput) -> BegunRepair:
        at = effective_time(inp.at, inp.now, self.settings.allow_clock_override)
        return BegunRepair(cursor=begin(self.stores, full=inp.full), at=at)

    @activity.defn(name="memory.repair_pages")
    @typed_errors
    def repair_pages(self, inp: RepairPagesInput) -> RepairPagesResult:
        """Compare and repair page after page, heartbeating the cursor: a retry after a crash
        resumes from the last page done instead of starting over."""
        cursor = inp.cursor
        if activity.in_activity() and activity.info().heartbeat_details:
            cursor = RepairCursor.model_validate(activity.info().heartbeat_details[0])

        def counted(page: RepairPage) -> None:
            for record in page.records:
                metrics.MISMATCHES.inc()
                metrics.REPAIRS.labels(record.reason, record.result).inc()

        try:
            cursor, totals = run_pages(
                self.stores,
                inp.repair_id,
                cursor,
                inp.at,
                page_size=inp.page_size,
                budget_pages=inp.budget_pages,
                heartbeat=lambda c: _heartbeat(c.model_dump(mode="json")),
                on_page=counted,
            )
        except Exception:
            metrics.REPAIRS.labels("error", "failed").inc()
            raise
        log.info(
            "projection compared",
            repair_id=inp.repair_id,
            phase=cursor.phase,
            pages=totals.pages,
            compared=totals.compared,
            mismatches=totals.mismatches,
            repaired=totals.repaired,
        )
        return RepairPagesResult(cursor=cursor, totals=totals)

    @activity.defn(name="memory.finish_repair")
    @typed_errors
    def finish_repair(self, inp: FinishRepairInput) -> Watermarks:
        return finish(self.stores, inp.cursor, inp.at)
