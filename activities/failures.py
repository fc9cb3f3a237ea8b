"""How the service's typed errors cross Temporal, in both directions — the one place for it.

An activity raising a `MemoryServiceError` fails with an `ApplicationError` whose `type` is the
error's class name (`typed_errors`), non-retryable unless the error is a passing fault; a
workflow fails with the same typed error (`workflow_failure`); the client turns any failure back
into the same class (`service_error`). `memctl` and the client show `code: message`, never a
stack trace, for these.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from temporalio.exceptions import ActivityError, ApplicationError

from governed_memory.memory.errors import ERROR_TYPES, MemoryServiceError, ServiceUnavailable

P = ParamSpec("P")
R = TypeVar("R")

#: What a failed activity raises in workflow code: an ActivityError wrapping the failure, or, for a
#: local activity that failed non-retryably, the ApplicationError itself.
ACTIVITY_FAILURES = (ActivityError, ApplicationError)


#: The failure type of a DeleteSubject run whose verification failed; its details carry the
#: receipt (ids and counts only), which the client returns as the run's result.
VERIFICATION_FAILED = "DeletionVerificationFailed"


def to_failure(exc: MemoryServiceError) -> ApplicationError:
    return ApplicationError(
        exc.message,
        {"code": exc.code, "field": exc.field},
        type=type(exc).__name__,
        non_retryable=not exc.retryable,
    )


def typed_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """An activity's `MemoryServiceError` leaves it as the matching `ApplicationError`."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except MemoryServiceError as exc:
            raise to_failure(exc) from exc

    return wrapper


def failure_type(exc: BaseException) -> str | None:
    """The `ApplicationError` type behind a failure, if any."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ApplicationError) and cause.type:
            return cause.type
        cause = cause.__cause__ or getattr(cause, "cause", None)
    return None


def failure_details(exc: BaseException) -> tuple[Any, ...]:
    """The details of the `ApplicationError` behind a failure (empty if none)."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ApplicationError):
            return tuple(cause.details)
        cause = cause.__cause__ or getattr(cause, "cause", None)
    return ()


def workflow_failure(exc: ActivityError | ApplicationError) -> ApplicationError:
    """The typed, non-retryable error a workflow fails with when its activity failed so."""
    cause = exc if isinstance(exc, ApplicationError) else exc.cause
    if isinstance(cause, ApplicationError):
        return ApplicationError(cause.message, *cause.details, type=cause.type, non_retryable=True)
    return ApplicationError(str(exc), type="MemoryServiceError", non_retryable=True)


def service_error(exc: BaseException) -> MemoryServiceError | None:
    """The typed service error behind a workflow, update or activity failure, if there is one."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ApplicationError) and cause.type in ERROR_TYPES:
            details = cause.details[0] if cause.details else {}
            field = details.get("field") if isinstance(details, dict) else None
            return ERROR_TYPES[cause.type](cause.message, field=field)
        cause = cause.__cause__ or getattr(cause, "cause", None)
    return None


def client_error(exc: BaseException) -> MemoryServiceError:
    """What a client call that failed reports: the typed error behind it, or, for Temporal
    refusing the call itself, `ServiceUnavailable`."""
    typed = service_error(exc)
    if typed is not None:
        return typed
    from temporalio.service import RPCError

    if isinstance(exc, RPCError):
        return ServiceUnavailable(f"Temporal refused the call: {exc.message}")
    return MemoryServiceError(f"workflow failed: {getattr(exc, 'cause', None) or exc}")
