"""Workflows: one module each, small and deterministic. They import only models and activity
references (passed through the sandbox) and keep all logic in the domain.

How a workflow calls an activity, in one place:

- `admit`: the first step of every run: its input is a request, never a fact, and the run goes
  on only with a grant the service signed for this very run (memory.grants). WriteMemory, the
  hottest path, admits inside its one local activity instead (`WriteInput.admit`), before
  that activity reads or decides anything;
- `run_local`: the hot write path (decide, commit, project), local activities with quick retries;
- `run_task`: everything else, a regular activity that heartbeats and retries with backoff;
- `decide_and_commit`: decide, commit, and after a lost race (VersionConflict) decide again after
  a jittered pause, a bounded number of times — the one loop every committing workflow uses.

Each fails the workflow with the same typed error its activity raised.

Versioning: there is no deployment yet, so a workflow changes by changing it and recording fresh
histories (`python -m tests.replay.record`). After the first release, a change to what a
workflow commands goes `workflow.patched` → `workflow.deprecate_patch` (once no run from before
it is open) → deleted (once none is in the retention window either); the replay test holds each
step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.admission import AdmissionActivities
    from governed_memory.activities.failures import ACTIVITY_FAILURES, workflow_failure
    from governed_memory.memory.contracts.admission import (
        PLAINTEXT_REFUSED,
        AdmitInput,
        Admitted,
        ContinueInput,
        digest_of,
    )
    from governed_memory.memory.errors import from_validation_error
    from governed_memory.workflows.attributes import OUTCOME, TENANT

#: Local activities on the hot path: quick retries for passing store faults; domain errors are
#: non-retryable and fail at once.
LOCAL_RETRY = RetryPolicy(
    initial_interval=timedelta(milliseconds=50),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=2),
    maximum_attempts=6,
)
LOCAL_TIMEOUT = timedelta(seconds=30)

#: Regular activities: retried with backoff while a store or index is down, for as long as their
#: schedule-to-close allows; a worker that dies is noticed by the missing heartbeat.
TASK_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
)
TASK_TIMEOUT = timedelta(minutes=10)
TASK_HEARTBEAT = timedelta(seconds=30)

#: Decisions a write (or plan) may lose to other writers before it gives up, and the upper bound
#: of the jittered pause before deciding again, per attempt.
MAX_DECISIONS = 16
RACE_BACKOFF_MS = 25


M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")
C = TypeVar("C")


def parse_input(model: type[M], raw: M | dict[str, Any]) -> M:
    """Validate a workflow's input inside the workflow.

    Workflows declare `Model | dict` so that a malformed request (from any SDK) still decodes and
    then fails the workflow with a typed, non-retryable error, instead of failing its first task
    over and over.
    """
    if isinstance(raw, model):
        return raw
    if isinstance(raw, dict) and PLAINTEXT_REFUSED in raw:
        raise ApplicationError(
            "this worker accepts only inputs encrypted with the service's codec key",
            {"code": "unauthenticated", "field": "payload"},
            type="Unauthenticated",
            non_retryable=True,
        )
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = from_validation_error(exc, model.__name__)
        raise ApplicationError(
            err.message,
            {"code": err.code, "field": err.field},
            type="InvalidInput",
            non_retryable=True,
        ) from None


def record_outcome(outcome: str) -> None:
    """Set the `MemoryOutcome` search attribute (operators filter runs by it in the UI). Only
    for runs started with the service's search attributes: a server without them registered
    would fail the workflow task."""
    if workflow.info().typed_search_attributes.get(TENANT) is None:
        return
    workflow.upsert_search_attributes([OUTCOME.value_set(outcome[:200])])


def admission(
    request: BaseModel, *, principals: Sequence[str] = (), tenant: str | None = None
) -> AdmitInput:
    """What this run presents to be admitted: who it is and how it runs (Temporal's account,
    not its input's), the digest of its input and its grant."""
    info = workflow.info()
    return AdmitInput(
        operation=info.workflow_type,
        workflow_id=info.workflow_id,
        run_id=info.run_id,
        started_at=info.workflow_start_time,
        digest=digest_of(request),
        grant=getattr(request, "grant", None),
        principals=list(principals),
        tenant=tenant,
        attempt=info.attempt,
        cron_schedule=info.cron_schedule or None,
    )


async def admit(
    request: BaseModel, *, principals: Sequence[str] = (), tenant: str | None = None
) -> Admitted:
    """Admit this run: its grant must have been signed by the service for this workflow type,
    this workflow id and exactly this input, in time for the run's start; `principals` (whom the
    input names) must be the grant's. Refused, the run fails with `Unauthenticated` before it
    touches anything."""
    admitted: Admitted = await run_local(
        AdmissionActivities.admit, admission(request, principals=principals, tenant=tenant)
    )
    return admitted


async def continued(request: M) -> M:
    """`request` with the grant its continuation (continue-as-new) is admitted by: the service
    signs what this run's own code carries on, for this workflow type and id only."""
    info = workflow.info()
    grant: str = await run_local(
        AdmissionActivities.continuation,
        ContinueInput(
            operation=info.workflow_type,
            workflow_id=info.workflow_id,
            digest=digest_of(request),
        ),
    )
    return request.model_copy(update={"grant": grant})


async def run_local(activity: Any, arg: Any, *, within: timedelta = LOCAL_TIMEOUT) -> Any:
    """A local activity of the hot write path."""
    try:
        return await workflow.execute_local_activity_method(
            activity, arg, start_to_close_timeout=within, retry_policy=LOCAL_RETRY
        )
    except ACTIVITY_FAILURES as exc:
        raise workflow_failure(exc) from exc


async def run_task(
    activity: Any,
    arg: Any,
    *,
    within: timedelta = TASK_TIMEOUT,
    retry: RetryPolicy = TASK_RETRY,
) -> Any:
    """A regular activity: heartbeating, retried with backoff."""
    try:
        return await workflow.execute_activity_method(
            activity,
            arg,
            start_to_close_timeout=within,
            heartbeat_timeout=TASK_HEARTBEAT,
            retry_policy=retry,
        )
    except ACTIVITY_FAILURES as exc:
        raise workflow_failure(exc) from exc


async def decide_and_commit(
    decide: Callable[[int], Awaitable[D]],
    commit: Callable[[D, int], Awaitable[C]],
) -> tuple[D, C]:
    """Decide, then commit what was decided; a commit that lost a race (another writer moved a
    slot or a memory since the decision) decides again on the new state, after a pause jittered
    so that writers that lost together do not collide again together. Bounded."""
    for attempt in range(MAX_DECISIONS):
        try:
            # (a write decides and commits in one step: its race is lost in `decide`)
            decision = await decide(attempt)
            return decision, await commit(decision, attempt)
        except ApplicationError as exc:
            if exc.type != "VersionConflict":
                raise
            workflow.logger.info("lost a race since the decision; deciding again")
            pause = workflow.random().randint(1, RACE_BACKOFF_MS) * (attempt + 1)
            await workflow.sleep(timedelta(milliseconds=pause))
    raise ApplicationError(
        f"what this decided kept changing under it; gave up after {MAX_DECISIONS} decisions",
        type="VersionConflict",
        non_retryable=True,
    )
