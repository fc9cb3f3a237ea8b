"""Errors as RFC 9457 problem details (`application/problem+json`): the status of each of the
service's error classes, and the body every refusal of the API and the page carries."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from governed_memory.memory.errors import (
    ContentTooLarge,
    Forbidden,
    InvalidInput,
    MemoryServiceError,
    NotFound,
    PolicyRefusal,
    ServiceUnavailable,
    Unauthenticated,
    VersionConflict,
)

#: HTTP status of each error code (the class's nearest listed ancestor wins). `RateLimited` is
#: answered apart (429 with `Retry-After`); `QuotaExceeded` is a `PolicyRefusal`: 403.
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
PROBLEM = "application/problem+json"

#: The code of a refusal Starlette or FastAPI makes itself (no route, wrong method, …).
HTTP_CODES = {
    400: "malformed_body",
    404: "not_found",
    405: "method_not_allowed",
    413: "content_too_large",
    415: "unsupported_media_type",
}


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
