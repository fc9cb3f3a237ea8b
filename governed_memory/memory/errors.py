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
    │   │   ├── CrossOriginRequest   the memory page: a change that does not come from the page
    │   │   └── CsrfTokenInvalid     the memory page: a change without its session's CSRF token
    │   ├── FencedByDeletion         a write decided before a deletion tried to undo it
    │   ├── RequestMismatch          a workflow input that says what the canonical store does not
    │   ├── RunConflict              a run under the id is not the one this request would start
    │   └── QuotaExceeded            a writer keeps its quota of active memories in a namespace
    ├── NotFound                     unknown principal, receipt, thread, ...
    ├── VersionConflict              lost an optimistic-concurrency race (the pipeline re-resolves)
    ├── RateLimited                  too many requests from this client or principal (HTTP 429)
    └── ServiceUnavailable           Temporal or a store cannot be reached
        ├── ProjectionHostConflict   the embedded projection is another host's (not retryable)
        ├── SchemaNotMigrated        the canonical schema is not this release's (not retryable)
        ├── ProjectionWriteFailed    Weaviate refused part of a write (the relay retries it)
        └── ProjectionUnavailable    the Weaviate cluster cannot be reached or set up

Every class lives here: `ERROR_TYPES` (what a workflow's `ApplicationError.type` and the HTTP
API's `code` are turned back into) is built from this tree, so a class added to it is known at
every door (`tests/unit/test_errors.py` holds it).
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


class CrossOriginRequest(Forbidden):
    """A request to change something that does not come from the memory page itself."""

    code = "cross_origin_request"


class CsrfTokenInvalid(Forbidden):
    """A signed-in request to change something without its session's CSRF token."""

    code = "csrf_token_invalid"


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


class QuotaExceeded(PolicyRefusal):
    """A write refused because its writer already keeps as many active memories in the
    namespace as the policy allows (`[quotas] memories_per_namespace`): at the door (nothing
    started), or at commit when the writer's concurrent writes reached it first (the run fails
    with it; in a batch, that item is rejected): nothing changed. Not retryable as is: the
    writer deletes some (or lets them expire) first.
    HTTP 403, as every policy refusal."""

    code = "quota_exceeded"


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


class RateLimited(MemoryServiceError):
    """Too many requests from one client or principal: retry after `retry_after` seconds."""

    code = "rate_limited"

    def __init__(
        self, message: str | None = None, *, field: str | None = None, retry_after: float = 1.0
    ) -> None:
        super().__init__(message or f"too many requests; retry in {retry_after:.1f} s", field=field)
        self.retry_after = retry_after


class SchemaNotMigrated(ServiceUnavailable):
    """The canonical store's schema is not the one this release needs, and this process does not
    migrate on connect (Postgres by default): the operator runs `memctl db upgrade` once (a
    deployment's migration job), then starts the service. A retry does not cure it."""

    code = "schema_not_migrated"
    retryable = False


class ProjectionWriteFailed(ServiceUnavailable):
    """Weaviate refused part of a write (its batch API reports failures per object and does not
    raise): the projection is not what was asked, so the relay retries it."""

    code = "projection_write_failed"


class ProjectionUnavailable(ServiceUnavailable):
    """The Weaviate cluster cannot be reached or set up."""

    code = "projection_unavailable"


class ExtraMissing(ServiceUnavailable):
    """This installation lacks the optional part (a `governed-memory[...]` extra) a feature
    needs: `pip install 'governed-memory[<extra>]'`. A retry does not cure it."""

    code = "extra_missing"
    retryable = False

    @classmethod
    def of(cls, extra: str, feature: str, missing: tuple[str, ...] = ()) -> ExtraMissing:
        what = f" (missing: {', '.join(missing)})" if missing else ""
        return cls(
            f"{feature} needs the {extra!r} extra: pip install 'governed-memory[{extra}]'{what}"
        )


def _tree(root: type[MemoryServiceError]) -> list[type[MemoryServiceError]]:
    """`root` and every class below it that this module defines."""
    found = [root]
    for sub in root.__subclasses__():
        if sub.__module__ == __name__:
            found += _tree(sub)
    return found


#: Every error class of the service by name (a workflow failure's `ApplicationError.type`).
ERROR_TYPES: dict[str, type[MemoryServiceError]] = {
    cls.__name__: cls for cls in _tree(MemoryServiceError)
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
