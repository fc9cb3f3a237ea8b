"""Who calls: the bearer token of an API request (or the page's session cookie) verified, the
client address's and principal's rates taken, and a client that acts only for that caller.
Shared by the API's routers and the memory page (shell/http/page.py); imports neither.
"""

from __future__ import annotations

from typing import Annotated

import structlog
from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from governed_memory.memory.errors import InvalidInput, Unauthenticated
from governed_memory.memory.services.access import Caller
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.guards import Limits


def _bearer(request: Request) -> str | None:
    """The request's bearer token: the `Authorization` header only (never a cookie)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


#: The memory page's session (shell/http/page.py): the token itself, in an HttpOnly, SameSite=Strict
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


#: The API's security scheme, as the OpenAPI document declares it (each operation that takes a
#: token names it). It only documents: `session` reads and verifies the header itself, and a
#: missing or refused token is a 401 problem, never FastAPI's own answer.
BEARER = HTTPBearer(
    scheme_name="bearer",
    bearerFormat="JWT",
    description="A principal token: `memctl token issue PRINCIPAL` on the service's host, or"
    " your identity provider's (MEMORY_TOKEN_JWKS_FILE). It says who calls; no body does.",
    auto_error=False,
)


def session(
    request: Request,
    _: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)] = None,
) -> Session:
    """The caller of an API request: its bearer token verified, its rates taken, and a client
    that acts only for it."""
    return authenticate(request, _bearer(request))


Caller_ = Annotated[Session, Depends(session)]


def own_namespace(s: Session) -> str:
    """The caller's own namespace (a user's); anyone else names one (`InvalidInput`)."""
    own = s.caller.principal.own_namespace
    if own is None:
        raise InvalidInput(
            "only a user has memories of their own; name a namespace", field="namespace"
        )
    return own
