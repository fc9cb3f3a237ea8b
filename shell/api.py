"""`memctl serve`: the HTTP API agents and people reach the service through.

Every request but health, readiness, metrics and the OpenAPI document carries a principal token
(`Authorization: Bearer …`, from `memctl token issue` or an identity provider). The principal is
the token's: no body names one. Writes and deletions start the same workflows the Python client
starts, carrying the caller's own token, and reads run here through the service's gate and ACL
(`memory.services.access`), so the API can do for a caller only what its token allows.

- Errors are RFC 9457 problem details (`application/problem+json`) with the service's error
  `code` (the same as the client's exceptions) and the `field` at fault.
- Each response carries `X-Request-Id` (the caller's, when it sent a sane one), and the logs of
  the request are bound to it.
- Bodies are bounded (`MEMORY_API_MAX_BODY_BYTES`, `413` whether the size is declared or only
  streamed), and a JSON body must be UTF-8, well-formed and nested at most
  `MEMORY_API_MAX_JSON_DEPTH` deep (`400` otherwise), before any of it reaches a model.
- Requests are rate-limited per client address before their token is looked at (every request,
  `MEMORY_API_CLIENT_RATE_PER_SECOND`/`_BURST`; refused tokens, `MEMORY_API_REFUSED_RATE_PER_
  SECOND`/`_BURST`), then per principal (`MEMORY_API_RATE_PER_SECOND`, `MEMORY_API_BURST`):
  `429` with `Retry-After`. Refused tokens are counted (`memory_auth_refusals_total{reason}`),
  and audited at most once a minute per client and reason (`memory.services.gate`).
- Only the `Authorization` header authenticates the API: the memory page's session cookie is
  the page's alone (shell/page.py), so no other site can make a browser call the API.
- `/healthz` (the process answers), `/readyz` (the canonical store and Temporal answer),
  `/metrics` (requests and latency by route, Prometheus).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import uuid
from datetime import datetime
from http import HTTPStatus
from typing import Annotated, Any, Literal

import structlog
from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from pydantic import BaseModel, Field
from sqlalchemy import text
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory.consents import Consent, ConsentRevocation
from memory.errors import (
    ContentTooLarge,
    Forbidden,
    InvalidInput,
    MemoryServiceError,
    NotFound,
    PolicyRefusal,
    RateLimited,
    ServiceUnavailable,
    Unauthenticated,
    VersionConflict,
)
from memory.feedback import MemoryFeedbackEvent
from memory.models import (
    MAX_BATCH,
    BatchRequest,
    BatchResult,
    Candidate,
    CandidateOutcome,
    DeletionReceipt,
    DeletionScope,
    EntityView,
    MemoryRecord,
    Model,
    Principal,
    RecallAsk,
    RecallResult,
    ReviewOutcome,
    ReviewRecord,
    WriteRequest,
    WriteResult,
)
from memory.models.context import ContextBudget, ContextPackage, ContextValidation
from memory.services.access import Caller, MemoryExport
from memory.services.feedback import FeedbackOutcome, RunOutcome, RunReport
from memory.settings import Settings
from shell.client import GrantedStart, MemoryClient

log = structlog.get_logger("shell.api")

REQUESTS = Counter("memory_api_requests_total", "HTTP API requests", ["method", "route", "status"])
LATENCY = Histogram(
    "memory_api_request_seconds",
    "HTTP API request latency",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)

#: HTTP status of each error code (the class's nearest listed ancestor wins).
STATUS: dict[type[MemoryServiceError], int] = {
    ContentTooLarge: 413,
    InvalidInput: 422,
    Unauthenticated: 401,
    Forbidden: 403,
    PolicyRefusal: 403,
    NotFound: 404,
    VersionConflict: 409,
    ServiceUnavailable: 503,
}
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
PROBLEM = "application/problem+json"


def status_of(exc: MemoryServiceError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


def problem_body(
    status: int,
    code: str,
    title: str,
    detail: str,
    instance: str,
    request_id: str | None,
    field: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": f"https://governed-memory.dev/errors/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        "instance": instance,
        "request_id": request_id,
    }
    if field is not None:
        body["field"] = field
    return body


def problem(
    status: int, code: str, title: str, detail: str, request: Request, field: str | None = None
) -> JSONResponse:
    request_id = getattr(request.state, "request_id", None)
    body = problem_body(status, code, title, detail, request.url.path, request_id, field)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=headers)


#: The code of a refusal Starlette or FastAPI makes itself (no route, wrong method, …).
HTTP_CODES = {
    400: "malformed_body",
    404: "not_found",
    405: "method_not_allowed",
    413: "content_too_large",
    415: "unsupported_media_type",
}


# ------------------------------------------------------------------------------ limits


class BodyRefused(Exception):
    """A request body refused before the app sees it: its status, code and why."""

    def __init__(self, status: int, code: str, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail


#: A `\uXXXX` escape of a surrogate: only then can a strictly decoded body hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _is_json(headers: dict[bytes, bytes], body: bytes) -> bool:
    """Whether FastAPI would read this body as JSON: a JSON media type, or none at all."""
    if not body:  # no body: the route's own model says whether it needs one
        return False
    kind = headers.get(b"content-type")
    if kind is None:
        return True
    media = kind.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (
        media.startswith(b"application/") and media.endswith(b"+json")
    )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _nesting(value: Any, limit: int) -> int:
    """How deep arrays and objects nest in `value` (without recursion; stops past `limit`)."""
    if not isinstance(value, dict | list):
        return 0
    deepest = 0
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while stack and deepest <= limit:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest


def check_json(body: bytes, max_depth: int) -> None:
    """Refuses (`BodyRefused`) a JSON body that is not UTF-8, not JSON (NaN and Infinity are
    not, nor is a lone surrogate), or nested deeper than `max_depth`."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyRefused(
            400, "malformed_body", "MalformedBody", f"the body is not UTF-8 (byte {exc.start})"
        ) from None
    too_deep = BodyRefused(
        400,
        "json_too_deep",
        "JsonTooDeep",
        f"the body nests arrays and objects more than {max_depth} deep",
    )
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # deeper than the parser goes: deeper than any limit allowed
        raise too_deep from None
    except ValueError as exc:
        raise BodyRefused(
            400, "malformed_body", "MalformedBody", f"the body is not JSON: {exc}"
        ) from None
    if _nesting(value, max_depth) > max_depth:
        raise too_deep
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BodyRefused(
                400, "malformed_body", "MalformedBody", "the body holds a lone surrogate"
            ) from None


class BodyGuard:
    """Reads a request's whole body before the app does and refuses, as a problem detail, one
    larger than `limit` bytes (413: by its Content-Length, or as it streams in without one,
    read no further than the limit), and a JSON body that `check_json` refuses (400). The app
    then reads the same bytes. Plain ASGI: it answers before FastAPI's body parsing, which
    would turn any error of the read into a bare 400."""

    def __init__(self, app: ASGIApp, limit: int, max_depth: int = 64) -> None:
        self.app = app
        self.limit = limit
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        try:
            chunks, last = await self._read(headers, receive)
            body = b"".join(chunks)
            if _is_json(headers, body):
                check_json(body, self.max_depth)
        except BodyRefused as refused:
            await self._refuse(scope, send, refused)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                if last is not None:
                    return last
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(
        self, headers: dict[bytes, bytes], receive: Receive
    ) -> tuple[list[bytes], Message | None]:
        """The body's chunks; or, when the client went away first, the message that says so."""
        too_large = BodyRefused(
            413,
            "content_too_large",
            "ContentTooLarge",
            f"the body is larger than {self.limit} bytes",
        )
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            raise too_large
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return chunks, message
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks, None

    @staticmethod
    async def _refuse(scope: Scope, send: Send, refused: BodyRefused) -> None:
        request_id = (scope.get("state") or {}).get("request_id")
        body = problem_body(
            refused.status,
            refused.code,
            refused.title,
            refused.detail,
            scope.get("path", ""),
            request_id,
            "body",
        )
        await send(
            {
                "type": "http.response.start",
                "status": refused.status,
                "headers": [(b"content-type", PROBLEM.encode()), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})


class Observed:
    """Each request's id (the caller's `X-Request-Id` when sane, else a new one) on the request,
    the response and every log line of it; its count and latency by route (Prometheus); one
    log line per request. Plain ASGI: no per-request task as `BaseHTTPMiddleware` makes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = getattr(scope.get("route"), "path", "unmatched")
            elapsed = time.perf_counter() - started
            method = scope.get("method", "")
            REQUESTS.labels(method, route, str(status)).inc()
            LATENCY.labels(method, route).observe(elapsed)
            log.info(
                "request", method=method, route=route, status=status, ms=round(elapsed * 1000, 2)
            )


RATE_LIMITED = Counter(
    "memory_api_rate_limited",
    "HTTP API requests refused with 429, by bucket (client, refused, principal).",
    ["bucket"],
)


#: Keys a bucket set keeps before it forgets the idle ones.
_KEPT = 100_000


class Buckets:
    """A token bucket per key (a client address, a principal): `rate` a second sustained,
    `burst` at once."""

    def __init__(self, rate: float, burst: int, name: str = "principal") -> None:
        self.rate = rate
        self.burst = burst
        self.name = name
        self._buckets: dict[str, tuple[float, float]] = {}
        self._sweep_at = _KEPT
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.rate)

    def _limited(self, tokens: float) -> RateLimited:
        RATE_LIMITED.labels(self.name).inc()
        return RateLimited(retry_after=(1 - tokens) / self.rate)

    def take(self, key: str) -> None:
        """One token of `key`'s bucket, or `RateLimited` when it is empty."""
        now = time.monotonic()
        with self._lock:
            tokens = self._level(key, now)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                raise self._limited(tokens)
            self._buckets[key] = (tokens - 1, now)
            self._forget_idle(now)

    def check(self, key: str) -> None:
        """`RateLimited` when `key`'s bucket is empty; takes nothing."""
        now = time.monotonic()
        with self._lock:
            tokens = self._level(key, now)
            if tokens < 1:
                raise self._limited(tokens)

    def spend(self, key: str) -> None:
        """One token of `key`'s bucket, down to empty, never refused (what `check` then sees)."""
        now = time.monotonic()
        with self._lock:
            self._buckets[key] = (max(0.0, self._level(key, now) - 1), now)
            self._forget_idle(now)

    def _forget_idle(self, now: float) -> None:
        """Past `_KEPT` keys, forgets those full again (as good as new); the next look is when
        the keys have doubled, so that many busy keys do not make every request a sweep."""
        if len(self._buckets) <= self._sweep_at:
            return
        self._buckets = {
            k: (t, last)
            for k, (t, last) in self._buckets.items()
            if t + (now - last) * self.rate < self.burst
        }
        if len(self._buckets) > 8 * _KEPT:  # a flood of addresses: start again, bounded
            self._buckets.clear()
        self._sweep_at = max(_KEPT, 2 * len(self._buckets))


class Limits:
    """The request rates of the API: each client address's, taken before its token is looked
    at (every request, and the tokens it had refused), then each principal's."""

    def __init__(self, settings: Settings) -> None:
        self.clients = Buckets(
            settings.api_client_rate_per_second, settings.api_client_burst, "client"
        )
        self.refused = Buckets(
            settings.api_refused_rate_per_second, settings.api_refused_burst, "refused"
        )
        self.principals = Buckets(settings.api_rate_per_second, settings.api_burst, "principal")

    def before_token(self, address: str) -> None:
        """An address whose refused tokens emptied its bucket is refused whatever it sends
        now (its token is not even verified); every request takes one of its client bucket."""
        self.refused.check(address)
        self.clients.take(address)


# ------------------------------------------------------------------------------ bodies


class WriteBody(Model):
    namespace: str
    candidate: Candidate | dict[str, Any]
    idempotency_key: str | None = None
    at: datetime | None = None


class ObserveBody(Model):
    namespace: str
    text: str
    thread: str | None = None
    idempotency_key: str | None = None
    at: datetime | None = None


class BatchEntry(Model):
    namespace: str
    candidate: Candidate | dict[str, Any] | None = None
    text: str | None = None
    thread: str | None = None
    idempotency_key: str | None = None
    at: datetime | None = None


class BatchBody(Model):
    requests: list[BatchEntry] = Field(min_length=1, max_length=MAX_BATCH)


class GrantBody(Model):
    """What an agent wants to start from its own Temporal client, as the caller (the token's
    principal): a write (`namespace` with `candidate` or `text`), a batch (`requests`), a
    deletion (`scope`) or a summary (`thread`)."""

    workflow: Literal["WriteMemory", "WriteBatch", "DeleteSubject", "SummarizeThread"]
    namespace: str | None = None
    candidate: Candidate | dict[str, Any] | None = None
    text: str | None = None
    thread: str | None = None
    idempotency_key: str | None = None
    requests: list[BatchEntry] | None = Field(default=None, max_length=MAX_BATCH)
    scope: DeletionScope | None = None
    range: tuple[int, int] | None = None
    at: datetime | None = None


class ContextBody(Model):
    namespaces: list[str] = Field(min_length=1, max_length=64)
    task: str
    budget: ContextBudget
    instructions: str | None = None
    k: int | None = None
    at: datetime | None = None


class ContextAnswer(Model):
    package: ContextPackage
    #: The package as a model reads it: sections with their trust labels, untrusted items fenced.
    text: str


class ValidateBody(Model):
    package: ContextPackage


class ForgetBody(Model):
    scope: DeletionScope
    at: datetime | None = None


class ConsentBody(Model):
    """A consent a subject gave, for one purpose; its id is what a candidate's `consent_ref`
    names."""

    subject: str = Field(
        min_length=1,
        max_length=256,
        description="whose consent: `user:<tenant>/<id>`, or a namespace's subject",
    )
    purpose: str = Field(min_length=1, max_length=500, description="what it was given for")
    at: datetime | None = None


class ReviewBody(Model):
    decision: str
    memory_id: str | None = None
    at: datetime | None = None


class CorrectionBody(Model):
    """A person's correction of what is kept about them: a user assertion through the whole
    write pipeline (the memory it replaces is named by its key or its id)."""

    memory_id: str | None = None
    key: str | None = None
    structured_value: dict[str, Any] | None = None
    content: str | None = None


class FeedbackBody(Model):
    """Feedback on a memory (memory/feedback.py); the caller is the token's."""

    memory_id: str
    feedback_type: str
    source: str | None = None
    run_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    memory_version: int | None = None
    #: `corrected` only: the right value (candidate fields, or {"text": ...}).
    correction: dict[str, Any] | None = None
    occurred_at: datetime | None = None
    #: The caller's id for the event: sent again, recorded once.
    event_id: str | None = None


class RunBody(Model):
    """An agent's run: the memories it had in context (the package it was given, and/or ids),
    used, and found harmful, and how the run ended."""

    package: ContextPackage | None = None
    shown: list[str] = Field(default_factory=list)
    used: list[str] = Field(default_factory=list)
    harmful: list[str] = Field(default_factory=list)
    outcome: RunOutcome | None = None


class Whoami(Model):
    principal: str
    tenant: str
    roles: list[str]
    read: list[str]
    write: list[str]
    own_namespace: str | None


class Health(Model):
    status: str
    checks: dict[str, str] = Field(default_factory=dict)


# ------------------------------------------------------------------------------ the app


def _bearer(request: Request) -> str | None:
    """The request's bearer token: the `Authorization` header only (never a cookie)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


#: The memory page's session (shell/page.py): the token itself, in an HttpOnly, SameSite=Strict
#: cookie that only the page's own paths read.
SESSION_COOKIE = "memory_session"


class Session:
    """One request's caller: who the token proves, and a client that acts only for it."""

    def __init__(self, caller: Caller, client: MemoryClient, token: str) -> None:
        self.caller = caller
        self.client = client
        self.token = token

    @property
    def ref(self) -> str:
        return self.caller.ref


def client_address(request: Request) -> str:
    """Where a request comes from: the peer's address (uvicorn puts a trusted proxy's
    `X-Forwarded-For` there: `FORWARDED_ALLOW_IPS`)."""
    return request.client.host if request.client else "-"


def authenticate(request: Request, token: str | None) -> Session:
    """The caller `token` proves: the client address's rate taken first (an address whose
    refused tokens emptied its bucket is refused before its token is even verified), then the
    token verified (a refusal is counted against the address), then the principal's rate."""
    client: MemoryClient = request.app.state.client
    limits: Limits = request.app.state.limits
    address = client_address(request)
    limits.before_token(address)
    try:
        caller = client.access.caller(token, client=address)
    except Unauthenticated:
        limits.refused.spend(address)
        raise
    limits.principals.take(caller.ref)
    request.state.principal = caller.ref
    structlog.contextvars.bind_contextvars(principal=caller.ref)
    assert token is not None
    return Session(caller, client.bound(token), token)


def session(request: Request) -> Session:
    """The caller of an API request: its bearer token verified, its rates taken, and a client
    that acts only for it."""
    return authenticate(request, _bearer(request))


Caller_ = Annotated[Session, Depends(session)]


def create_app(client: MemoryClient, *, page: bool = True) -> FastAPI:
    settings = client.settings
    app = FastAPI(
        title="governed-memory",
        version="1",
        summary="Governed long-term memory for AI agents, on Temporal durable execution.",
        description=__doc__,
    )
    app.state.client = client
    app.state.limits = Limits(settings)

    @app.exception_handler(MemoryServiceError)
    async def service_error(request: Request, exc: MemoryServiceError) -> JSONResponse:
        if isinstance(exc, RateLimited):
            response = problem(429, exc.code, "Too many requests", exc.message, request)
            response.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
            return response
        status = status_of(exc)
        title = type(exc).__name__
        return problem(status, exc.code, title, exc.message, request, exc.field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "http_error")
        try:
            title = HTTPStatus(exc.status_code).phrase
        except ValueError:
            title = "Error"
        response = problem(exc.status_code, code, title, str(exc.detail), request)
        for name, value in (exc.headers or {}).items():
            response.headers.setdefault(name, value)
        return response

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", error=type(exc).__name__, exc_info=exc)
        return problem(
            500, "internal_error", "Internal Server Error", "the request failed", request
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
        raised = (first.get("ctx") or {}).get("error")
        if isinstance(raised, MemoryServiceError):  # a validator's own typed error keeps its code
            return problem(
                status_of(raised),
                raised.code,
                type(raised).__name__,
                raised.message,
                request,
                raised.field or where,
            )
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg", "invalid"))
        return problem(422, "invalid_input", "InvalidInput", detail, request, where)

    # -------------------------------------------------------------------- operations

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> Health:
        return Health(status="ok")

    @app.get("/readyz", tags=["operations"], responses={503: {"model": Health}})
    async def readyz() -> Response:
        checks: dict[str, str] = {}
        try:
            with client.stores.canonical.engine.connect() as conn:
                conn.execute(text("select 1"))
            checks["canonical"] = "ok"
        except Exception as exc:
            checks["canonical"] = f"unavailable: {type(exc).__name__}"
        try:
            await client.temporal.service_client.check_health(timeout=_seconds(2))
            checks["temporal"] = "ok"
        except Exception as exc:
            checks["temporal"] = f"unavailable: {type(exc).__name__}"
        ready = all(v == "ok" for v in checks.values())
        body = Health(status="ready" if ready else "unavailable", checks=checks)
        return JSONResponse(body.model_dump(), status_code=200 if ready else 503)

    @app.get("/metrics", tags=["operations"], include_in_schema=False)
    def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    v1 = APIRouter(prefix="/v1")

    @v1.get("/whoami", tags=["identity"])
    def whoami(s: Caller_) -> Whoami:
        p = s.caller.principal
        return Whoami(
            principal=p.ref,
            tenant=p.tenant,
            roles=sorted(s.caller.roles),
            read=p.read,
            write=p.write,
            own_namespace=p.own_namespace,
        )

    # -------------------------------------------------------------------- writes

    @v1.post("/memories", tags=["writes"])
    async def write(body: WriteBody, s: Caller_) -> WriteResult:
        """Propose a ready candidate (the whole write pipeline from normalisation on)."""
        return await s.client.write(
            s.ref, body.namespace, body.candidate, idempotency_key=body.idempotency_key, at=body.at
        )

    @v1.post("/observe", tags=["writes"])
    async def observe_text(body: ObserveBody, s: Caller_) -> WriteResult:
        """A raw utterance: the whole write pipeline, extraction included."""
        return await s.client.observe(
            s.ref,
            body.namespace,
            body.text,
            thread=body.thread,
            idempotency_key=body.idempotency_key,
            at=body.at,
        )

    @v1.post("/memories/batch", tags=["writes"])
    async def batch(body: BatchBody, s: Caller_) -> BatchResult:
        """Many writes of the caller in one WriteBatch run (an import)."""
        requests = _entries(s, body.requests)
        return await s.client.write_batch(requests)

    @v1.post("/grants", tags=["writes"])
    def grant(body: GrantBody, s: Caller_) -> GrantedStart:
        """What to start from your own Temporal client, and the grant it runs by: the
        workflow, its id and task queue, and the input (screened: a secret is redacted) with
        a grant signed for that run alone. Start exactly that; the worker refuses anything
        else (and any input not encrypted with the service's codec key)."""
        return s.client.start_for(_granted_request(s, body))

    @v1.get("/outcomes/{tenant}/{idempotency_key}", tags=["writes"])
    def outcome(tenant: str, idempotency_key: str, s: Caller_) -> list[CandidateOutcome]:
        """The decision of the caller's own write by its idempotency key."""
        found = s.client.write_outcome(tenant, idempotency_key, s.ref)
        if found is None:
            raise NotFound(f"no decided write with key {idempotency_key!r}", field="key")
        return found

    # -------------------------------------------------------------------- reads

    @v1.post("/recall", tags=["reads"])
    async def recall(body: RecallAsk, s: Caller_) -> RecallResult:
        return await s.client.recall(
            s.ref,
            body.namespaces,
            task=body.task,
            query=body.query,
            keys=body.keys,
            kinds=body.kinds,
            k=body.k,
            at=body.at,
            valid_at=body.valid_at,
        )

    @v1.post("/context", tags=["reads"])
    async def context(body: ContextBody, s: Caller_) -> ContextAnswer:
        extra = body.model_dump(exclude={"namespaces", "task", "budget"}, exclude_none=True)
        package = await s.client.build_context(
            s.ref, body.namespaces, body.task, body.budget, **extra
        )
        return ContextAnswer(package=package, text=package.text())

    @v1.post("/context/validate", tags=["reads"])
    def validate(body: ValidateBody, s: Caller_) -> ContextValidation:
        return s.client.validate_context(body.package)

    @v1.get("/entities/{name}", tags=["reads"])
    def entity(
        name: str,
        s: Caller_,
        namespace: Annotated[list[str] | None, Query()] = None,
        at: Annotated[datetime | None, Query()] = None,
    ) -> EntityView:
        """What the memories the caller may read say of one entity (a person, place, order id,
        role such as `sister`): its names, the relations stated of it with their valid times
        and the memories behind them. Namespaces as for recall (default: the caller's own).
        Plain `def`: SQL, in the threadpool."""
        return s.client.entity(s.ref, name, namespace or [_own(s)], at=at, token=s.token)

    @v1.get("/memories/{memory_id}/history", tags=["reads"])
    def history(memory_id: str, s: Caller_) -> list[MemoryRecord]:
        return s.client.history(s.ref, memory_id)

    @v1.get("/export", tags=["reads"])
    def export(s: Caller_, namespace: Annotated[str | None, Query()] = None) -> MemoryExport:
        """Everything kept about a namespace as JSON (default: the caller's own)."""
        return s.client.export(s.ref, namespace or _own(s))

    @v1.get("/audit", tags=["reads"])
    def audit(
        s: Caller_,
        memory_id: Annotated[str | None, Query()] = None,
        workflow_id: Annotated[str | None, Query()] = None,
    ) -> list[dict[str, Any]]:
        if (memory_id is None) == (workflow_id is None):
            raise InvalidInput("name one of memory_id and workflow_id", field="ref")
        return s.client.audit(s.ref, memory_id=memory_id, workflow_id=workflow_id)

    # -------------------------------------------------------------------- deletion

    @v1.post("/forget", tags=["deletion"])
    async def forget(body: ForgetBody, s: Caller_) -> DeletionReceipt:
        """Run DeleteSubject to the end: the durable receipt (200 whatever its status; read
        `verification_status`)."""
        return await s.client.forget(s.ref, body.scope, at=body.at)

    @v1.get("/receipts/{deletion_id}", tags=["deletion"])
    def receipt(deletion_id: str, s: Caller_) -> DeletionReceipt:
        return s.client.receipt(deletion_id, s.ref)

    # -------------------------------------------------------------------- consents
    # Plain `def`: each is a short SQL transaction, run in the threadpool.

    @v1.post("/consents", tags=["consents"], status_code=201)
    def give_consent(body: ConsentBody, s: Caller_) -> Consent:
        """Record a consent (the subject themself, or a principal that may write its
        namespace)."""
        return s.client.give_consent(s.ref, body.subject, body.purpose, at=body.at)

    @v1.get("/consents", tags=["consents"])
    def consents(s: Caller_, subject: Annotated[str | None, Query()] = None) -> list[Consent]:
        """A subject's consents, revoked ones too (default: the caller's own); a subject the
        caller may not see has none to show."""
        return s.client.consents(s.ref, subject)

    @v1.post("/consents/{consent_id}/revoke", tags=["consents"])
    def revoke_consent(
        consent_id: str, s: Caller_, at: Annotated[datetime | None, Query()] = None
    ) -> ConsentRevocation:
        """Revoke a consent: every memory that cited it is invalidated, out of every read
        path, in the same transaction."""
        return s.client.revoke_consent(s.ref, consent_id, at=at)

    # -------------------------------------------------------------------- feedback

    @v1.post("/feedback", tags=["feedback"])
    async def feedback(body: FeedbackBody, s: Caller_) -> FeedbackOutcome:
        """Feedback on a memory, recorded with its effect: `confirmed` raises confidence within
        its source's ceiling, `corrected` writes the right value as the caller, `harmful`
        quarantines it and opens a review, `deleted` deletes it, repeated `ignored` lowers its
        rank, `used` restores it."""
        return await s.client.feedback(s.ref, **body.model_dump())

    @v1.post("/runs/{run_id}/report", tags=["feedback"])
    async def report_run(run_id: str, body: RunBody, s: Caller_) -> RunReport:
        """An agent reports a run: each memory it had in context is marked used or ignored
        (harmful ones quarantined); reporting it again records nothing twice."""
        return await s.client.report_run(
            s.ref,
            run_id,
            package=body.package,
            shown=body.shown,
            used=body.used,
            harmful=body.harmful,
            outcome=body.outcome,
        )

    @v1.get("/memories/{memory_id}/feedback", tags=["feedback"])
    def memory_feedback(memory_id: str, s: Caller_) -> list[MemoryFeedbackEvent]:
        return s.client.feedback_on(s.ref, memory_id)

    @v1.get("/runs/{run_id}/feedback", tags=["feedback"])
    def run_feedback(run_id: str, s: Caller_) -> list[MemoryFeedbackEvent]:
        return s.client.run_feedback(s.ref, run_id)

    # -------------------------------------------------------------------- reviews

    @v1.get("/reviews", tags=["reviews"])
    def reviews(s: Caller_) -> list[ReviewRecord]:
        """The open reviews the caller may answer."""
        return s.client.open_reviews(s.ref)

    @v1.post("/reviews/{review_id}", tags=["reviews"])
    async def answer(review_id: str, body: ReviewBody, s: Caller_) -> ReviewOutcome:
        s.client.access.review(s.token, review_id)
        return await s.client.review(
            s.ref, review_id, body.decision, memory_id=body.memory_id, at=body.at
        )

    # -------------------------------------------------------------------- a person's own

    @v1.get("/me/memories", tags=["me"])
    def my_memories(s: Caller_) -> list[MemoryRecord]:
        """What is kept about the caller (a user): every memory of their own namespace that is
        not deleted, newest first."""
        kept = s.client.export(s.ref, _own(s)).memories
        return sorted(
            (m for m in kept if m.status != "deleted"), key=lambda m: m.recorded_at, reverse=True
        )

    @v1.post("/me/corrections", tags=["me"])
    async def correct(body: CorrectionBody, s: Caller_) -> WriteResult:
        return await s.client.write(s.ref, _own(s), correction(s, body))

    @v1.delete("/me/memories/{memory_id}", tags=["me"])
    async def forget_one(memory_id: str, s: Caller_) -> DeletionReceipt:
        return await s.client.forget(s.ref, {"namespace": _own(s), "memory_id": memory_id})

    @v1.delete("/me/memories", tags=["me"])
    async def forget_all(s: Caller_) -> DeletionReceipt:
        return await s.client.forget(s.ref, {"namespace": _own(s)})

    # -------------------------------------------------------------------- registry

    @v1.put("/principals", tags=["registry"])
    def put_principal(body: Principal, s: Caller_) -> Principal:
        """Create or replace a principal: an admin of its tenant only."""
        return s.client.register_principal(body, token=s.token)

    @v1.get("/principals/{ref:path}", tags=["registry"])
    def get_principal(ref: str, s: Caller_) -> Principal:
        return s.client.access.principal(s.token, ref)

    app.include_router(v1)
    if page:
        from shell.page import page_router

        app.include_router(page_router())
    app.add_middleware(
        BodyGuard, limit=settings.api_max_body_bytes, max_depth=settings.api_max_json_depth
    )
    app.add_middleware(Observed)
    return app


def _entries(s: Session, entries: list[BatchEntry]) -> list[WriteRequest]:
    """A batch's entries as the caller's write requests (validated and screened at the door)."""
    return [
        s.client.write_request(
            s.ref,
            e.namespace,
            e.candidate,
            text=e.text,
            thread=e.thread,
            idempotency_key=e.idempotency_key,
            at=e.at,
        )
        for e in entries
    ]


def _granted_request(s: Session, body: GrantBody) -> BaseModel:
    """The request `body` asks a grant for, built through the door as the caller's own."""
    client = s.client
    if body.workflow == "WriteMemory":
        if body.namespace is None:
            raise InvalidInput("a write names its namespace", field="namespace")
        return client.write_request(
            s.ref,
            body.namespace,
            body.candidate,
            text=body.text,
            thread=body.thread,
            idempotency_key=body.idempotency_key,
            at=body.at,
        )
    if body.workflow == "WriteBatch":
        if not body.requests:
            raise InvalidInput("a batch lists its requests", field="requests")
        return BatchRequest(requests=_entries(s, body.requests))
    if body.workflow == "DeleteSubject":
        if body.scope is None:
            raise InvalidInput("a deletion names its scope", field="scope")
        return client.delete_request(s.ref, body.scope, at=body.at)
    if body.thread is None:
        raise InvalidInput("a summary names its thread", field="thread")
    return client.summarize_request(s.ref, body.thread, range=body.range, at=body.at)


def _own(s: Session) -> str:
    own = s.caller.principal.own_namespace
    if own is None:
        raise InvalidInput(
            "only a user has memories of their own; name a namespace", field="namespace"
        )
    return own


def correction(s: Session, body: CorrectionBody) -> dict[str, Any]:
    """The candidate a person's correction writes: the same key (and kind) as the memory it
    corrects, as the person's own assertion."""
    kind = "profile"
    key = body.key
    if body.memory_id is not None:
        versions = s.client.history(s.ref, body.memory_id)
        head = versions[-1]
        if head.namespace != _own(s):
            raise Forbidden("a correction is of one's own memories", field="memory_id")
        key = key or head.key
        kind = head.kind
    if body.structured_value is None and not body.content:
        raise InvalidInput("give the corrected value or text", field="structured_value")
    candidate: dict[str, Any] = {
        "kind": kind if key else "semantic",
        "source_type": "user_assertion",
        "content": body.content or "",
        "confidence": 1.0,
    }
    if key is not None:
        candidate["key"] = key
    if body.structured_value is not None:
        candidate["structured_value"] = body.structured_value
    return candidate


def _seconds(n: float) -> Any:
    from datetime import timedelta

    return timedelta(seconds=n)


async def serve(client: MemoryClient, stop: asyncio.Event | None = None) -> None:
    """Serve the API (uvicorn, in this event loop) until `stop` is set or the process is
    interrupted."""
    import uvicorn

    settings = client.settings
    config = uvicorn.Config(
        create_app(client),
        host=settings.api_host,
        port=settings.api_port,
        log_config=None,
        access_log=False,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    if stop is None:
        await server.serve()
        return
    task = asyncio.create_task(server.serve())
    await stop.wait()
    server.should_exit = True
    await task
