"""The one exception tree of the service.

Every error a user can cause is a `MemoryServiceError` with a stable `code`: the client raises it
before any workflow starts, a workflow turns it into a non-retryable `ApplicationError` whose
`type` is the class name, and the client turns that back into the same class. `memctl` prints
`code: message` for these and never a stack trace.

    MemoryServiceError
    ├── InvalidInput                 malformed request (field names the culprit)
    │   ├── InvalidNamespace
    │   ├── ContentTooLarge
    │   └── ClockOverrideRefused     an `at` given while the clock override is off
    ├── Unauthenticated              no token, or one that does not prove the principal it names
    ├── PolicyRefusal                a well-formed request the policy refuses (code = reason code)
    │   ├── UnauthorizedNamespace
    │   ├── Forbidden                a proven principal reading or changing what is not its own
    │   ├── FencedByDeletion         a write decided before a deletion tried to undo it
    │   ├── RequestMismatch          a workflow input that says what the canonical store does not
    │   └── RunConflict              a run under the id is not the one this request would start
    ├── NotFound                     unknown principal, receipt, thread, ...
    ├── VersionConflict              lost an optimistic-concurrency race (the pipeline re-resolves)
    └── ServiceUnavailable           Temporal or a store cannot be reached
        └── ProjectionHostConflict   the embedded projection is another host's (not retryable)
"""

from __future__ import annotations


class MemoryServiceError(Exception):
    """Base of every error the service raises on purpose."""

    code: str = "error"
    #: True only for passing faults an activity retry can cure; bad input and refusals never are.
    retryable: bool = False

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        where = f" (field {self.field})" if self.field else ""
        return f"{self.message}{where}"


class InvalidInput(MemoryServiceError, ValueError):
    """Also a ValueError, so that pydantic validators raising it yield a located ValidationError."""

    code = "invalid_input"


class InvalidNamespace(InvalidInput):
    code = "invalid_namespace"


class ContentTooLarge(InvalidInput):
    code = "content_too_large"


class ClockOverrideRefused(InvalidInput):
    code = "clock_override_refused"


class Unauthenticated(MemoryServiceError):
    """A request whose principal is not proven: no token, a forged, expired or foreign one, or
    one issued to another principal."""

    code = "unauthenticated"


class PolicyRefusal(MemoryServiceError):
    code = "policy_refusal"


class UnauthorizedNamespace(PolicyRefusal):
    code = "unauthorized_namespace"


class Forbidden(PolicyRefusal):
    """A proven principal asking for what it may not see or change: another principal's
    receipt, outcome or audit, a registry change without the admin role."""

    code = "forbidden"


class FencedByDeletion(PolicyRefusal):
    """A write decided before a deletion committed tried to write what the deletion erased."""

    code = "fenced_by_deletion"


class RequestMismatch(PolicyRefusal):
    """A workflow input (or a plan) stating what the canonical store does not hold: a review
    that differs from the stored one, a change to a memory of another tenant or namespace, a
    receipt closed before its deadline. A workflow input is a request, never a fact."""

    code = "request_mismatch"


class RunConflict(PolicyRefusal):
    """The workflow id a request maps to is held by a run that is not the one the request would
    start (another workflow type, or another input under the same idempotency key)."""

    code = "run_conflict"


class NotFound(MemoryServiceError):
    code = "not_found"


class VersionConflict(MemoryServiceError):
    """Lost an optimistic-concurrency race. Not retried as is: the pipeline re-resolves."""

    code = "version_conflict"


class ServiceUnavailable(MemoryServiceError):
    code = "service_unavailable"
    retryable = True


class ProjectionHostConflict(ServiceUnavailable):
    """The embedded projection of this canonical store is served from another host: a second
    host cannot keep a file of its own in step (the outbox's processed flags are global). Not
    retryable: use the Weaviate projection for several hosts, or release the claim after moving
    the service."""

    code = "projection_host_conflict"
    retryable = False


ERROR_TYPES: dict[str, type[MemoryServiceError]] = {
    cls.__name__: cls
    for cls in (
        MemoryServiceError,
        InvalidInput,
        InvalidNamespace,
        ContentTooLarge,
        ClockOverrideRefused,
        Unauthenticated,
        PolicyRefusal,
        UnauthorizedNamespace,
        Forbidden,
        FencedByDeletion,
        RequestMismatch,
        RunConflict,
        NotFound,
        VersionConflict,
        ServiceUnavailable,
        ProjectionHostConflict,
    )
}


def from_validation_error(exc: Exception, what: str = "input") -> InvalidInput:
    """A pydantic ValidationError as the service's typed InvalidInput (first error, located)."""
    errors = getattr(exc, "errors", None)
    if errors is None:
        return InvalidInput(f"invalid {what}: {exc}")
    first = errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or None
    original = (first.get("ctx") or {}).get("error")
    if isinstance(original, InvalidInput):
        # Keep the precise class (InvalidNamespace, ...) a validator raised.
        return type(original)(original.message, field=where or original.field)
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    return InvalidInput(f"invalid {what}: {message}", field=where)
