"""What Temporal itself keeps, read from and removed on the server.

- `namespace_retention`: the namespace's retention of closed runs and its archival settings. A
  deletion receipt states them, and its backup deadline covers the retention.
- `erase_histories`: delete the runs whose histories carried a deletion's scope
  (DeleteWorkflowExecution). The server deletes asynchronously, so this waits, heartbeating,
  until none of them can be described or listed any more (bounded). A run still open (a write in
  flight) is waited for and then deleted; a review still waiting on erased content is deleted at
  once (that terminates it: what it would decide is gone).
- `probe_histories`: the `temporal_history` probe: no run of those ids is readable, through
  DescribeWorkflowExecution or visibility.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import structlog
from temporalio import activity
from temporalio.api.common.v1 import WorkflowExecution
from temporalio.api.enums.v1 import ArchivalState
from temporalio.api.workflowservice.v1 import (
    DeleteWorkflowExecutionRequest,
    DescribeNamespaceRequest,
)
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from governed_memory.activities import heartbeat
from governed_memory.memory.models import (
    ErasedHistories,
    HistoryErasure,
    ProbeResult,
    TemporalRetention,
)

log = structlog.get_logger("governed_memory.activities.temporal_info")

#: Runs that wait on the content itself and may be ended by its deletion.
ENDED_BY_DELETION = ("ReviewMemory",)
_POLL_FIRST, _POLL_MAX = 0.25, 2.0


class _CannotDelete(Exception):
    """The server does not implement DeleteWorkflowExecution."""


@dataclass(frozen=True, slots=True)
class _Run:
    run_id: str
    open: bool
    workflow_type: str
    close_time: datetime | None


def _query(workflow_id: str) -> str:
    escaped = workflow_id.replace("\\", "\\\\").replace('"', '\\"')
    return f'WorkflowId = "{escaped}"'


class TemporalActivities:
    def __init__(self, client: Client, *, settle: float = 1.0) -> None:
        self.client = client
        #: Seconds a run has been closed before its deletion is asked for (see Settings).
        self.settle = settle

    def activities(self) -> list[Callable[..., Any]]:
        return [self.namespace_retention, self.erase_histories, self.probe_histories]

    @activity.defn(name="memory.namespace_retention")
    async def namespace_retention(self, namespace: str) -> TemporalRetention:
        found = await self.client.workflow_service.describe_namespace(
            DescribeNamespaceRequest(namespace=namespace)
        )
        config = found.config
        ttl = config.workflow_execution_retention_ttl
        return TemporalRetention(
            namespace=namespace,
            retention_seconds=ttl.seconds
            if config.HasField("workflow_execution_retention_ttl")
            else None,
            history_archival=ArchivalState.Name(config.history_archival_state),
            visibility_archival=ArchivalState.Name(config.visibility_archival_state),
        )

    @activity.defn(name="memory.erase_histories")
    async def erase_histories(self, inp: HistoryErasure) -> ErasedHistories:
        deadline = time.monotonic() + inp.within.total_seconds()
        deleted: set[tuple[str, str]] = set()
        pending = list(dict.fromkeys(inp.workflow_ids))
        pause = _POLL_FIRST
        while True:
            remaining: list[str] = []
            try:
                for workflow_id in pending:
                    heartbeat({"deleted": len(deleted), "checking": workflow_id})
                    if await self._delete_closed(inp.namespace, workflow_id, deleted):
                        remaining.append(workflow_id)
            except _CannotDelete:
                # A server that cannot delete (the time-skipping test server): the runs stay
                # readable, and the probe says so.
                log.warning("the server cannot delete workflow executions")
                return ErasedHistories(runs_deleted=len(deleted), remaining=pending)
            pending = remaining
            if not pending or time.monotonic() >= deadline:
                return ErasedHistories(runs_deleted=len(deleted), remaining=pending)
            await asyncio.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)

    @activity.defn(name="memory.probe_histories")
    async def probe_histories(self, inp: HistoryErasure) -> ProbeResult:
        readable = [w for w in inp.workflow_ids if await self._readable_runs(w)]
        return ProbeResult(
            probe="temporal_history",
            passed=not readable,
            returned=len(readable),
            detail=f"{len(inp.workflow_ids)} workflow ids that carried the scope; "
            f"{len(readable)} with a run still readable",
        )

    async def _delete_closed(
        self, namespace: str, workflow_id: str, deleted: set[tuple[str, str]]
    ) -> bool:
        """Ask the server to delete every closed run of the id (and a review still waiting on
        the erased content); True while any run of it is still readable."""
        runs = await self._readable_runs(workflow_id)
        for run in runs:
            if (workflow_id, run.run_id) in deleted:
                continue  # asked already; the server has not carried it out yet
            if run.open and run.workflow_type not in ENDED_BY_DELETION:
                continue  # in flight: deleted once it closes
            if run.close_time is not None:
                closed_for = (datetime.now(UTC) - run.close_time).total_seconds()
                if closed_for < self.settle:
                    await asyncio.sleep(self.settle - closed_for)
            try:
                await self.client.workflow_service.delete_workflow_execution(
                    DeleteWorkflowExecutionRequest(
                        namespace=namespace,
                        workflow_execution=WorkflowExecution(
                            workflow_id=workflow_id, run_id=run.run_id
                        ),
                    )
                )
            except RPCError as exc:
                if exc.status == RPCStatusCode.UNIMPLEMENTED:
                    raise _CannotDelete from None
                if exc.status != RPCStatusCode.NOT_FOUND:
                    raise
            deleted.add((workflow_id, run.run_id))
        return bool(runs)

    async def _readable_runs(self, workflow_id: str) -> list[_Run]:
        """Every run of the id whose history the server still serves: the runs visibility
        lists and the latest one (visibility can lag), each confirmed by describing it."""
        try:
            run_ids: list[str | None] = [
                found.run_id async for found in self.client.list_workflows(_query(workflow_id))
            ]
        except RPCError as exc:
            if exc.status != RPCStatusCode.UNIMPLEMENTED:
                raise
            run_ids = []  # no visibility (the time-skipping test server): the latest run only
        readable: dict[str, _Run] = {}
        for run_id in [*run_ids, None]:
            try:
                found = await self.client.get_workflow_handle(workflow_id, run_id=run_id).describe()
            except RPCError as exc:
                if exc.status != RPCStatusCode.NOT_FOUND:
                    raise
                continue
            readable[found.run_id] = _Run(
                run_id=found.run_id,
                open=found.status == WorkflowExecutionStatus.RUNNING,
                workflow_type=found.workflow_type,
                close_time=found.close_time,
            )
        return list(readable.values())
