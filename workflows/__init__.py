"""Workflows: one module each, small and deterministic. They import only models and activity
references (passed through the sandbox) and keep all logic in the domain package."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError

with workflow.unsafe.imports_passed_through():
    from memory.errors import from_validation_error
    from memory.orchestration import OUTCOME, TENANT

#: Local activities on the hot path: quick retries for passing store faults; domain errors are
#: non-retryable and fail at once.
LOCAL_RETRY = RetryPolicy(
    initial_interval=timedelta(milliseconds=50),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=2),
    maximum_attempts=6,
)
LOCAL_TIMEOUT = timedelta(seconds=30)

#: Sweeps (relay, repair) retry with backoff for as long as their execution allows (a projection
#: that is down comes back) and heartbeat after each batch or page.
SWEEP_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
)
SWEEP_TIMEOUT = timedelta(minutes=10)
SWEEP_HEARTBEAT = timedelta(seconds=30)


#: What a failed activity raises in workflow code: an ActivityError wrapping the failure, or, for a
#: local activity that failed non-retryably, the ApplicationError itself.
ACTIVITY_FAILURES = (ActivityError, ApplicationError)


def error_type(exc: BaseException) -> str | None:
    """The ApplicationError type behind an activity failure, if any."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ApplicationError) and cause.type:
            return cause.type
        cause = cause.__cause__
    return None


def reraise_typed(exc: ActivityError | ApplicationError) -> ApplicationError:
    """The workflow fails with the same typed, non-retryable error its activity raised."""
    cause = exc if isinstance(exc, ApplicationError) else exc.cause
    if isinstance(cause, ApplicationError):
        return ApplicationError(cause.message, *cause.details, type=cause.type, non_retryable=True)
    return ApplicationError(str(exc), type="MemoryServiceError", non_retryable=True)


M = TypeVar("M", bound=BaseModel)


def parse_input(model: type[M], raw: M | dict[str, Any]) -> M:
    """Validate a workflow's input inside the workflow.

    Workflows declare `Model | dict` so that a malformed request (from any SDK) still decodes and
    then fails the workflow with a typed, non-retryable error, instead of failing its first task
    over and over.
    """
    if isinstance(raw, model):
        return raw
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
    would fail the workflow task. Versioned, so that runs recorded before it still replay."""
    if workflow.info().typed_search_attributes.get(TENANT) is None:
        return
    if workflow.patched("memory-outcome-search-attribute"):
        workflow.upsert_search_attributes([OUTCOME.value_set(outcome[:200])])


async def run_local(activity: Any, arg: Any, *, within: timedelta = LOCAL_TIMEOUT) -> Any:
    """A local activity whose domain errors fail this workflow with the same typed error."""
    try:
        return await workflow.execute_local_activity_method(
            activity, arg, start_to_close_timeout=within, retry_policy=LOCAL_RETRY
        )
    except ACTIVITY_FAILURES as exc:
        raise reraise_typed(exc) from exc


async def run_sweep(activity: Any, arg: Any) -> Any:
    """A sweep's activity: heartbeating, retried with backoff, typed errors as `run_local`."""
    try:
        return await workflow.execute_activity_method(
            activity,
            arg,
            start_to_close_timeout=SWEEP_TIMEOUT,
            heartbeat_timeout=SWEEP_HEARTBEAT,
            retry_policy=SWEEP_RETRY,
        )
    except ACTIVITY_FAILURES as exc:
        raise reraise_typed(exc) from exc
