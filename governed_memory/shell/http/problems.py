"""Errors as RFC 9457 problem details (`application/problem+json`): the status of each of the
service's error classes, and the body every refusal of the API and the page carries."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

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


class Problem(BaseModel):
    """An error, as RFC 9457 problem details (`application/problem+json`): every refusal of
    the API has this body, whatever its status."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="A URI naming the kind of error: `…/errors/{code}`.")
    title: str = Field(description="A short, human-readable summary of the kind of error.")
    status: int = Field(description="The HTTP status code, repeated.")
    detail: str = Field(description="What went wrong with this request, for a person to read.")
    code: str = Field(
        description="The service's error code (`invalid_input`, `unauthenticated`, `forbidden`,"
        " `not_found`, `version_conflict`, `rate_limited`, …): the same code the Python"
        " clients' exceptions carry. Branch on this, not on the text."
    )
    instance: str = Field(description="The path of the request that failed.")
    request_id: str | None = Field(
        description="The request's id (its `X-Request-Id` header): quote it when asking for help."
    )
    field: str | None = Field(
        default=None, description="The input field at fault, when one is (`candidate.key`)."
    )


#: What each status means across the API (documented on every operation a caller sends a token
#: to; the body is always a `Problem`).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem, "description": meaning}
    for status, meaning in {
        400: "The body is not well-formed UTF-8 JSON, or is nested too deep.",
        401: "No token, or a token that proves no one (expired, not signed by a trusted key).",
        403: "The token's principal may not do this (another namespace, a role it lacks, a"
        " policy refusal such as a quota).",
        404: "What the path names does not exist, or is not the caller's to see.",
        409: "A concurrent change won (a version conflict): read again and retry.",
        413: "The body is larger than the service accepts.",
        422: "The input is invalid; `field` names where.",
        429: "Too many requests: wait for `Retry-After` seconds.",
        500: "The service failed; the request may be retried.",
        503: "A store or Temporal is unavailable; retry later.",
    }.items()
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
