"""Who may have the service's activities run: only the service's own workflow runs.

Temporal lets any workflow schedule any activity type on any task queue, so a stranger's
workflow (run by the stranger's own worker on a queue of its own) could ask this worker to close
a receipt, expire memories or stage a write with inputs of its choosing. A local activity is
safe by construction (only the worker that ran the workflow task runs it: the workflow code was
this service's). A regular activity is run only for a calling run that this service's worker
runs: one of its workflow types, on its task queue (Temporal says so when the run is described;
the answer is kept per run). A run this worker admitted needs no such question: its admission is
a local activity of this service's own workflow code, so the run is ours (`vouch`), and its
activities skip a round trip to the server. Anything else fails at once, typed
(`Unauthenticated`), and nothing runs.

What this cannot stop is a stranger polling the service's own task queue: that is Temporal's to
refuse (an authorizer, mTLS, or namespace roles that let only the service's workers poll and
answer tasks; README, threat model).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import structlog
from temporalio import activity
from temporalio.client import Client
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from governed_memory.memory import metrics

log = structlog.get_logger("governed_memory.activities.callers")

#: Calling runs whose answer is kept.
_KEPT = 10_000


class ServiceCallersOnly(Interceptor):
    def __init__(self, client: Client, task_queue: str, workflow_types: Iterable[str]) -> None:
        self.client = client
        self.task_queue = task_queue
        self.workflow_types = frozenset(workflow_types)
        self._known: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()

    def vouch(self, run_id: str) -> None:
        """`run_id` was admitted here, by its own admission local activity: only this
        service's workflow code, run by this worker, runs that (`activities.admission`)."""
        self._remember(run_id, True)

    def _remember(self, run_id: str, ours: bool) -> None:
        with self._lock:
            self._known[run_id] = ours
            if len(self._known) > _KEPT:
                self._known.popitem(last=False)

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Checked(next, self)

    async def admits(self, workflow_id: str | None, run_id: str | None) -> bool:
        """Whether the run asking is one of this service's (described once, then remembered)."""
        if not workflow_id or not run_id:
            return False
        with self._lock:
            known = self._known.get(run_id)
        if known is not None:
            return known
        try:
            found = await self.client.get_workflow_handle(workflow_id, run_id=run_id).describe()
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise  # a passing fault: the activity is retried
            ours = False
        else:
            ours = found.task_queue == self.task_queue and found.workflow_type in (
                self.workflow_types
            )
        self._remember(run_id, ours)
        return ours


class _Checked(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, callers: ServiceCallersOnly) -> None:
        super().__init__(next)
        self.callers = callers

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        if not info.is_local and not await self.callers.admits(
            info.workflow_id, info.workflow_run_id
        ):
            metrics.ADMISSIONS_REFUSED.labels(info.activity_type).inc()
            log.warning("activity refused: not a run of this service", activity=info.activity_type)
            raise ApplicationError(
                f"{info.activity_type} runs only for this service's own workflow runs",
                {"code": "unauthenticated", "field": "workflow"},
                type="Unauthenticated",
                non_retryable=True,
            )
        return await super().execute_activity(input)
