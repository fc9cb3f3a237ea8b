"""The HTTP API's app: `create_app` puts together the exception handlers, the middlewares
(shell/http/guards.py), one router per resource (writes, reads, exports, deletions, consents,
feedback, reviews, me, registry, operations) and the memory page (shell/http/page.py); `serve`
runs it (`memctl serve`). Who calls is shell/http/deps.py, problem details
shell/http/problems.py, the bodies shell/http/bodies.py. What the API promises its callers is
`DESCRIPTION`, the OpenAPI document's description.
"""

from __future__ import annotations

import asyncio
import threading
from http import HTTPStatus
from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from governed_memory.memory.errors import MemoryServiceError, RateLimited
from governed_memory.shell import heap, tracing
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http import (
    consents,
    deletions,
    exports,
    feedback,
    me,
    operations,
    reads,
    registry,
    reviews,
    writes,
)
from governed_memory.shell.http.guards import BodyGuard, Limits, Observed
from governed_memory.shell.http.page import page_router
from governed_memory.shell.http.problems import (
    ERROR_RESPONSES,
    HTTP_CODES,
    PROBLEM,
    problem,
    status_of,
)

log = structlog.get_logger("governed_memory.shell.http")

DESCRIPTION = """`memctl serve`: the HTTP API agents and people reach the service through.

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
  the page's alone (shell/http/page.py), so no other site can make a browser call the API.
- `/healthz` (the process answers), `/readyz` (the canonical store and Temporal answer),
  `/metrics` (requests and latency by route, Prometheus).
- This document is served at `/openapi.json`, and read at `/docs` (Swagger UI, its scripts
  served by the API itself: it works offline; authorize with a token to try an operation).
"""

#: The API's routers, in the order the OpenAPI document lists them.
ROUTERS = (
    operations.router,
    writes.router,
    reads.router,
    exports.router,
    deletions.router,
    consents.router,
    feedback.router,
    reviews.router,
    me.router,
    registry.router,
)


def create_app(client: MemoryClient, *, page: bool = True) -> FastAPI:
    settings = client.settings
    # The documentation pages' scripts and styles come from the fastapi-offline wheel, served
    # here: /docs works with no network (it was blank offline, loading them from a CDN).
    # (No ReDoc: its page fetches a logo from a CDN.)
    app = FastAPIOffline(
        redoc_url=None,
        title="governed-memory",
        version="1",
        summary="Governed long-term memory for AI agents, on Temporal durable execution.",
        description=DESCRIPTION,
        telemetry=tracing.FASTAPI_TELEMETRY,  # traced only as MEMORY_TRACING says
    )
    # The app acts only for the caller each request's token proves: it mints nothing.
    app.state.client = client.serving()
    app.state.limits = Limits(settings)
    # exports take turns at the CPU (shell/http/streams.py)
    app.state.export_turns = threading.BoundedSemaphore(settings.api_export_concurrency)

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

    for router in ROUTERS:
        app.include_router(router, responses=None if router is operations.router else ERRORS)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    if page:
        app.include_router(page_router())
    app.add_middleware(
        BodyGuard, limit=settings.api_max_body_bytes, max_depth=settings.api_max_json_depth
    )
    app.add_middleware(Observed)
    tracing.instrument_app(app, settings)  # MEMORY_TRACING: a server span per request
    return app


#: Every operation that takes a token documents the problems it may answer with.
ERRORS: dict[int | str, dict[str, Any]] = dict(ERROR_RESPONSES)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The document, built once: error responses say `application/problem+json`, the media
    type they are sent with (FastAPI files every declared model under `application/json`)."""
    if app.openapi_schema is None:
        doc = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        for operation in (op for ops in doc["paths"].values() for op in ops.values()):
            for status, response in operation.get("responses", {}).items():
                content = response.get("content", {})
                schema = content.get("application/json", {}).get("schema", {})
                if status[0] in "45" and schema.get("$ref", "").endswith("/Problem"):
                    content[PROBLEM] = content.pop("application/json")
        app.openapi_schema = doc
    return app.openapi_schema


async def serve(client: MemoryClient, stop: asyncio.Event | None = None) -> None:
    """Serve the API (uvicorn, in this event loop) until `stop` is set or the process is
    interrupted."""
    import uvicorn

    settings = client.settings
    app = create_app(client)
    heap.started(settings)
    config = uvicorn.Config(
        app,
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
