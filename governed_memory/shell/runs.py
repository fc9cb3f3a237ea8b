"""The thin Temporal client: start the run a request maps to (by typed reference, with the
grant the service signs for that run alone), attach to a run already under its id only if it is
the one this request would have started, and wait for its result with the service's typed
errors. It knows requests and runs, not memories: the door that builds requests and the reads
live in `shell.client`."""

from __future__ import annotations

import asyncio
from datetime import UTC, timedelta
from typing import Any, TypeVar

import structlog
from pydantic import BaseModel
from temporalio.client import Client, WorkflowFailureError, WorkflowHandle
from temporalio.common import TypedSearchAttributes, WorkflowIDConflictPolicy
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from governed_memory.activities.failures import client_error
from governed_memory.memory.contracts.admission import digest_of
from governed_memory.memory.errors import RunConflict, ServiceUnavailable
from governed_memory.memory.grants import Grants
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.shell.temporal import route, search_attributes
from governed_memory.workflows.attributes import ALL_TENANTS
from governed_memory.workflows.registry import RUNS

log = structlog.get_logger("governed_memory.shell.runs")

#: A run's result model.
S = TypeVar("S")


class _Squatter(Exception):
    """A run holds a request's workflow id that the service never granted."""

    def __init__(self, run_id: str | None) -> None:
        super().__init__(run_id)
        self.run_id = run_id


class Runs:
    def __init__(self, temporal: Client, settings: Settings, keys: ServiceKeys) -> None:
        self.temporal = temporal
        self.settings = settings
        #: The service's own keys: the grants it signs for the runs it starts, and the ids
        #: nobody else can compute.
        self.keys = keys
        self.grants = Grants(keys, start_seconds=settings.grant_start_seconds)
        #: Ask for eager workflow start: the first workflow task runs in this process when a
        #: worker of the same client lives here (one round trip less); ignored otherwise.
        self.eager = True
        #: Tag runs with the operator search attributes (MemoryTenant, MemoryOperation); off
        #: for a server where they are not registered (the time-skipping test server).
        self.search_attributes = True

    def subject_key(self, tenant: str, subject: str) -> str:
        """The `MemorySubject` search attribute of a deletion about `subject` (`user:123`)."""
        from governed_memory.shell.codec import Keyring

        return Keyring.for_settings(self.settings).subject_key(tenant, subject)

    def attributes(
        self, tenant: str, operation: str, subject: str | None = None
    ) -> TypedSearchAttributes | None:
        if not self.search_attributes:
            return None
        key = self.subject_key(tenant, subject) if subject is not None else None
        return search_attributes(tenant, operation, key)

    def grant(
        self,
        workflow: str,
        workflow_id: str,
        request: BaseModel,
        principal: str,
        tenant: str,
        *,
        scheduled: bool = False,
    ) -> str:
        """The grant a run of `workflow` under `workflow_id` with exactly `request` is admitted
        by (memory.grants): for `principal`, whom the caller of this method has proven."""
        return self.grants.issue(
            workflow, workflow_id, request, principal, tenant, scheduled=scheduled
        )

    async def start(
        self,
        request: BaseModel,
        result_type: type[S],
        *,
        eager: bool = True,
        subject: str | None = None,
    ) -> WorkflowHandle[Any, S]:
        """Start (or attach to) the run `request` maps to (`_launch`)."""
        handle, _ = await self.launch(request, result_type, eager=eager, subject=subject)
        return handle

    async def launch(
        self,
        request: BaseModel,
        result_type: type[S],
        *,
        eager: bool = True,
        subject: str | None = None,
        retry: bool = True,
    ) -> tuple[WorkflowHandle[Any, S], bool]:
        """Start the workflow `request` maps to (`shell.temporal.route`) with the grant the
        service signs for it. A request whose id is held by a run (running; or ended, where the
        id is not reused) attaches to that run only if it is the run this request would have
        started: the same workflow type and the same input (by digest); any other is refused
        (`RunConflict`). Also whether it attached (the run was there already)."""
        where = route(self.keys, request)
        granted = request.model_copy(
            update={
                "grant": self.grant(
                    where.workflow, where.workflow_id, request, where.principal, where.tenant
                )
            }
        )
        try:
            started = await self.temporal.start_workflow(
                RUNS[where.workflow],
                granted,
                id=where.workflow_id,
                task_queue=self.settings.task_queue,
                id_conflict_policy=WorkflowIDConflictPolicy.FAIL,
                id_reuse_policy=where.reuse,
                execution_timeout=where.runs_for,
                search_attributes=self.attributes(where.tenant, where.operation, subject),
                request_eager_start=self.eager and eager,
            )
            return started, False
        except WorkflowAlreadyStartedError as held:
            try:
                attached = await self._attach(
                    where.workflow, where.workflow_id, held.run_id, request, result_type
                )
                return attached, True
            except _Squatter as squatter:
                if not retry:
                    raise RunConflict(
                        f"{where.workflow_id} is held by a run the service did not start",
                        field="workflow_id",
                    ) from None
                await self._evict(where.workflow_id, squatter.run_id)
                return await self.launch(
                    request, result_type, eager=eager, subject=subject, retry=False
                )
        except RPCError as exc:
            raise client_error(exc) from None

    async def _evict(self, workflow_id: str, run_id: str | None) -> None:
        """End a run that holds one of the service's workflow ids without the service's grant
        (ids are keyed, but a run id listed in visibility can be reused once its run ended), so
        that the request it blocks goes through. Logged, by ids only."""
        log.warning("ending a run the service did not start", workflow_id=workflow_id)
        handle = self.temporal.get_workflow_handle(workflow_id, run_id=run_id)
        try:
            await handle.terminate(reason="holds a service workflow id without a grant")
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise client_error(exc) from None

    async def _attach(
        self,
        workflow: str,
        workflow_id: str,
        run_id: str | None,
        request: BaseModel,
        result_type: type[S],
    ) -> WorkflowHandle[Any, S]:
        """The run under `workflow_id`, if it is the one `request` would have started. A run
        the service granted for another request is refused (`RunConflict`); a run the service
        never granted (another type, no grant or a forged one: someone squatting the id) is
        `_Squatter`, which the caller ends."""
        handle = self.temporal.get_workflow_handle(
            workflow_id, run_id=run_id, result_type=result_type
        )
        try:
            async for event in handle.fetch_history_events():
                started = event.workflow_execution_started_event_attributes
                started_at = event.event_time.ToDatetime(UTC)
                break
            else:
                raise _Squatter(handle.run_id)
            if not self._as_started(workflow, started):
                raise _Squatter(handle.run_id)
            (found,) = await self.temporal.data_converter.decode(
                list(started.input.payloads), [dict]
            )
            theirs = type(request).model_validate(found)
            self.grants.verify(
                theirs.grant,  # type: ignore[attr-defined]
                operation=workflow,
                workflow_id=workflow_id,
                digest=digest_of(theirs),
                started_at=started_at,
            )
        except (_Squatter, RPCError) as exc:
            if isinstance(exc, RPCError):
                raise client_error(exc) from None
            raise
        except Exception:
            # an input this service cannot read, or one without the service's grant for this
            # id: not a run the service started
            raise _Squatter(handle.run_id) from None
        if digest_of(theirs) != digest_of(request):
            raise RunConflict(
                f"{workflow_id} is held by a run of another request (the same idempotency key "
                "with other content, or the same request with other options): use another "
                "key, or ask again once it has ended",
                field="workflow_id",
            )
        return handle

    def _as_started(self, workflow: str, started: Any) -> bool:
        """Whether a run was started the way this client starts runs: the workflow type, on
        the service's task queue, once (no cron schedule, no retry policy, no start delay) and
        from outside (no parent, not a continuation). A granted input started any other way
        (read from a history and started again) is not a run the service started."""
        return (
            started.workflow_type.name == workflow
            and started.task_queue.name == self.settings.task_queue
            and not started.cron_schedule
            and not started.HasField("retry_policy")
            and started.attempt <= 1
            and started.first_workflow_task_backoff.ToTimedelta() <= timedelta(0)
            and not started.HasField("parent_workflow_execution")
            and not started.continued_execution_run_id
        )

    async def result(self, handle: WorkflowHandle[Any, S]) -> S:
        try:
            return await self.waited(handle)
        except (WorkflowFailureError, RPCError) as exc:
            raise client_error(exc) from None

    async def waited(self, handle: WorkflowHandle[Any, S]) -> S:
        """The run's result, within `client_timeout_seconds`; past it, a clear
        `ServiceUnavailable`: no worker polls the task queue, or the run is still going."""
        try:
            return await asyncio.wait_for(
                handle.result(), timeout=self.settings.client_timeout_seconds
            )
        except TimeoutError:
            pass
        except (WorkflowFailureError, RPCError):
            raise
        except Exception as exc:  # a result this service's converter cannot read
            raise ServiceUnavailable(
                f"run {handle.id} answered with a result the service did not write "
                f"({type(exc).__name__}: not encrypted with its key, or not of its shape)"
            ) from None
        queue = self.settings.task_queue
        if not await self.workers_polling():
            raise ServiceUnavailable(
                f"no worker polls task queue {queue!r}: start one (`python worker.py` or "
                f"`memctl dev`); the run {handle.id} waits for it"
            ) from None
        raise ServiceUnavailable(
            f"run {handle.id} has not finished after {self.settings.client_timeout_seconds:g} s "
            "(a worker polls; see it in the Temporal UI); ask again with the same request"
        ) from None

    async def workers_polling(self) -> bool:
        """Whether any worker polls this client's task queue for workflow tasks now."""
        from temporalio.api.enums.v1 import TaskQueueType
        from temporalio.api.taskqueue.v1 import TaskQueue
        from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

        found = await self.temporal.workflow_service.describe_task_queue(
            DescribeTaskQueueRequest(
                namespace=self.temporal.namespace,
                task_queue=TaskQueue(name=self.settings.task_queue),
                task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
            )
        )
        return bool(found.pollers)

    async def sweep(self, granted: BaseModel, workflow_id: str, result_type: type[S]) -> S:
        """Run a sweep workflow to the end under the id of its own (`sweep/{name}/…`) its grant
        was signed for: `granted` is the request with that grant."""
        where = route(self.keys, granted)
        try:
            result: S = await self.temporal.execute_workflow(
                RUNS[where.workflow],
                granted,
                id=workflow_id,
                task_queue=self.settings.task_queue,
                execution_timeout=where.runs_for,
                search_attributes=self.attributes(ALL_TENANTS, where.operation),
            )
            return result
        except (WorkflowFailureError, RPCError) as exc:
            raise client_error(exc) from None
