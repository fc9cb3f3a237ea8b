"""Projections: the write path's own projection, the outbox relay and the repair sweep, with
their metrics and logs."""

from __future__ import annotations

import structlog

from governed_memory.memory import metrics
from governed_memory.memory.contracts.projections import (
    BeginRepairInput,
    BegunRepair,
    FinishRepairInput,
    ProjectInput,
    RepairPagesInput,
    RepairPagesResult,
)
from governed_memory.memory.models import RelayRequest, RelayResult
from governed_memory.memory.models.sync import Watermarks
from governed_memory.memory.services import Progress, no_progress
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync
from governed_memory.memory.sync.relay import relay
from governed_memory.memory.sync.repair import RepairPage, begin, finish, run_pages
from governed_memory.memory.write.stages import effective_time

log = structlog.get_logger("governed_memory.memory.services.projections")


class ProjectionService:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def project(self, inp: ProjectInput) -> int:
        """Project these memories and settle their events — and any an earlier attempt
        committed but never marked (its worker died). How many rows changed."""
        stores = self.stores
        return sync(
            stores.canonical, stores.projection, inp.memory_ids, inp.outbox_seqs, pending=True
        ).changed

    def relay(self, inp: RelayRequest, progress: Progress = no_progress) -> RelayResult:
        result = relay(
            self.stores,
            batch_size=inp.batch_size,
            max_batches=inp.max_batches,
            heartbeat=lambda r: progress(r.events),
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

    def begin_repair(self, inp: BeginRepairInput) -> BegunRepair:
        at = effective_time(inp.at, inp.now, self.settings.allow_clock_override)
        return BegunRepair(cursor=begin(self.stores, full=inp.full), at=at)

    def repair_pages(
        self, inp: RepairPagesInput, progress: Progress = no_progress
    ) -> RepairPagesResult:
        """Compare and repair page after page, reporting the cursor as progress (a retry resumes
        from the cursor it is given)."""

        def counted(page: RepairPage) -> None:
            for record in page.records:
                metrics.MISMATCHES.inc()
                metrics.REPAIRS.labels(record.reason, record.result).inc()

        try:
            cursor, totals = run_pages(
                self.stores,
                inp.repair_id,
                inp.cursor,
                inp.at,
                page_size=inp.page_size,
                budget_pages=inp.budget_pages,
                heartbeat=lambda c: progress(c.model_dump(mode="json")),
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

    def finish_repair(self, inp: FinishRepairInput) -> Watermarks:
        return finish(self.stores, inp.cursor, inp.at)
