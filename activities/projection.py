"""Activities that move the projection to the canonical state: a commit's own projection, the
outbox relay and the repair sweep."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities import heartbeat
from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.projections import (
    BeginRepairInput,
    BegunRepair,
    FinishRepairInput,
    ProjectInput,
    RepairCursor,
    RepairPagesInput,
    RepairPagesResult,
)
from governed_memory.memory.models import RelayRequest, RelayResult
from governed_memory.memory.models.sync import Watermarks

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.projections import ProjectionService


class ProjectionActivities:
    def __init__(self, projections: ProjectionService) -> None:
        self.projections = projections

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
        return self.projections.project(inp)

    @activity.defn(name="memory.relay_outbox")
    @typed_errors
    def relay_outbox(self, inp: RelayRequest) -> RelayResult:
        return self.projections.relay(inp, heartbeat)

    @activity.defn(name="memory.begin_repair")
    @typed_errors
    def begin_repair(self, inp: BeginRepairInput) -> BegunRepair:
        return self.projections.begin_repair(inp)

    @activity.defn(name="memory.repair_pages")
    @typed_errors
    def repair_pages(self, inp: RepairPagesInput) -> RepairPagesResult:
        # A retry after a crash resumes from the last cursor it heartbeated.
        done = activity.info().heartbeat_details if activity.in_activity() else ()
        if done:
            inp = inp.model_copy(update={"cursor": RepairCursor.model_validate(done[0])})
        return self.projections.repair_pages(inp, heartbeat)

    @activity.defn(name="memory.finish_repair")
    @typed_errors
    def finish_repair(self, inp: FinishRepairInput) -> Watermarks:
        return self.projections.finish_repair(inp)
