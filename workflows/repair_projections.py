"""RepairProjections: admit → relay the unprocessed outbox → compare canonical and projection by
version and content hash (what changed since the last repair, or everything with `full`) → rebuild
missing and stale rows, remove orphans, tombstoned and expired rows → move the cache generations
of what was repaired → record every repair with its reason and result → update the watermarks.

Run by a Schedule (`memory-repair`, every ten minutes) and by `memctl repair [--full]`. The scan
is paged: each activity call heartbeats its cursor (a retry resumes there) and after a number of
calls the workflow continues as new with the cursor, so a scan of any size keeps a short history.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.memory.contracts.projections import (
        BeginRepairInput,
        BegunRepair,
        FinishRepairInput,
        RepairCursor,
        RepairPagesInput,
        RepairPagesResult,
        RepairTotals,
    )
    from governed_memory.memory.models import RelayRequest, RelayResult, RepairReport, RepairRequest
    from governed_memory.memory.models.sync import Watermarks
    from governed_memory.workflows import admit, continued, parse_input, run_task

#: Activity calls (each up to `budget_pages` pages) per run before continuing as new.
CALLS_PER_RUN = 20


@workflow.defn(name="RepairProjections")
class RepairProjections:
    def __init__(self) -> None:
        self._cursor: RepairCursor | None = None

    @workflow.query(name="cursor")
    def cursor(self) -> RepairCursor | None:
        return self._cursor

    @workflow.run
    async def run(self, raw: RepairRequest | dict[str, Any] | None = None) -> RepairReport:
        request = parse_input(RepairRequest, raw or {})
        await admit(request)
        totals = RepairTotals.model_validate(request.totals or {})
        relayed = request.relayed_events
        if request.cursor is None:
            relay: RelayResult = await run_task(ProjectionActivities.relay_outbox, RelayRequest())
            relayed = relay.events
            begun: BegunRepair = await run_task(
                ProjectionActivities.begin_repair,
                BeginRepairInput(full=request.full, at=request.at, now=workflow.now()),
            )
            cursor, at = begun.cursor, begun.at
            repair_id = f"repair/{workflow.info().workflow_id}/{workflow.uuid4().hex[:12]}"
        else:
            cursor = RepairCursor.model_validate(request.cursor)
            at = request.at or workflow.now()
            repair_id = request.repair_id or workflow.info().workflow_id
        for _ in range(CALLS_PER_RUN):
            self._cursor = cursor
            if cursor.phase == "done":
                break
            pages: RepairPagesResult = await run_task(
                ProjectionActivities.repair_pages,
                RepairPagesInput(
                    repair_id=repair_id,
                    cursor=cursor,
                    at=at,
                    page_size=request.page_size,
                    budget_pages=request.budget_pages,
                ),
            )
            cursor, totals = pages.cursor, totals.add(pages.totals)
        if cursor.phase != "done":
            workflow.continue_as_new(
                await continued(
                    RepairRequest(
                        full=cursor.full,
                        at=at,
                        page_size=request.page_size,
                        budget_pages=request.budget_pages,
                        repair_id=repair_id,
                        cursor=cursor.model_dump(mode="json"),
                        totals=totals.model_dump(mode="json"),
                        relayed_events=relayed,
                    )
                )
            )
        marks: Watermarks = await run_task(
            ProjectionActivities.finish_repair, FinishRepairInput(cursor=cursor, at=at)
        )
        return RepairReport(
            repair_id=repair_id,
            full=cursor.full,
            relayed_events=relayed,
            compared=totals.compared,
            mismatches=totals.mismatches,
            repaired=totals.repaired,
            namespaces_refreshed=len(totals.namespaces),
            last_event_committed=marks.last_event_committed,
            last_index_updated=marks.last_index_updated,
        )
