"""Operations: liveness, readiness (the canonical store and Temporal answer), Prometheus
metrics, and who a token proves."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.bodies import Health, Whoami
from governed_memory.shell.http.deps import Caller_

router = APIRouter()


@router.get("/healthz", tags=["operations"])
async def healthz() -> Health:
    """Liveness: the process answers. Needs no token; always `{"status": "ok"}`."""
    return Health(status="ok")


def _select_one(client: MemoryClient) -> None:
    with client.stores.canonical.engine.connect() as conn:
        conn.execute(text("select 1"))


@router.get("/readyz", tags=["operations"], responses={503: {"model": Health}})
async def readyz(request: Request) -> Response:
    """Readiness: whether the canonical store and Temporal answer. Needs no token. 200 with
    `status` `ready` when both do; 503 with `status` `unavailable` otherwise, `checks` saying
    which one failed."""
    client: MemoryClient = request.app.state.client
    checks: dict[str, str] = {}
    try:
        await run_in_threadpool(_select_one, client)
        checks["canonical"] = "ok"
    except Exception as exc:
        checks["canonical"] = f"unavailable: {type(exc).__name__}"
    try:
        await client.temporal.service_client.check_health(timeout=timedelta(seconds=2))
        checks["temporal"] = "ok"
    except Exception as exc:
        checks["temporal"] = f"unavailable: {type(exc).__name__}"
    ready = all(v == "ok" for v in checks.values())
    body = Health(status="ready" if ready else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get("/metrics", tags=["operations"], include_in_schema=False)
def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


@router.get("/v1/whoami", tags=["identity"])
def whoami(s: Caller_) -> Whoami:
    """Who the token proves: the principal, its tenant and roles, the namespaces it may read and
    write, and a user's own namespace. Any valid token may ask."""
    p = s.caller.principal
    return Whoami(
        principal=p.ref,
        tenant=p.tenant,
        roles=sorted(s.caller.roles),
        read=p.read,
        write=p.write,
        own_namespace=p.own_namespace,
    )
