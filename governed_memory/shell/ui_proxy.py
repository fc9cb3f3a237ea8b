"""The Temporal UI of the embedded stack, behind a pass-through proxy that lets it decode.

The UI asks the codec server (`memctl codec-server`) to decode payloads, and an operator proves
itself there with the session cookie its sign-in form set. A browser sends that cookie to
another origin only when the UI asks it to: the UI's codec setting `IncludeCredentials`. The dev
server's UI cannot be told so (`temporal server start-dev` has `--ui-codec-endpoint` and nothing
for credentials), so each operator had to find and tick "include cross-origin credentials" in
the UI by hand before anything decoded.

`memctl dev` and the demo therefore run the UI on a private port and serve it here, on the UI's
own port: every request and response passes through unchanged, but the UI's settings
(`GET /api/v1/settings`), whose codec part says to include credentials whenever a codec
endpoint is set. The proxy holds no key and sees only what the browser and the UI exchange
(payloads encrypted, as in Temporal); it listens on 127.0.0.1, as the UI does.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

SETTINGS = "/api/v1/settings"
#: Headers that describe one connection, never passed on (RFC 9110 7.6.1), and the host.
_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
    }
)
_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def with_credentials(settings: dict[str, Any]) -> dict[str, Any]:
    """The UI's settings, its codec told to send the browser's credentials (the codec server's
    session cookie) whenever it has an endpoint."""
    codec = settings.get("Codec")
    if isinstance(codec, dict) and codec.get("Endpoint"):
        codec["IncludeCredentials"] = True
    return settings


def ui_proxy(upstream: str) -> Starlette:
    """The proxy in front of the UI at `upstream` (`http://127.0.0.1:PORT`)."""
    client = httpx.AsyncClient(base_url=upstream, timeout=httpx.Timeout(60.0, read=None))

    async def forward(request: Request) -> Response:
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in _HOP]
        sent = client.build_request(
            request.method,
            request.url.path,
            params=request.url.query or None,
            headers=headers,
            content=_body(request),
        )
        answer = await client.send(sent, stream=True)
        back = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP}
        if request.url.path == SETTINGS and answer.status_code == 200:
            try:
                settings = json.loads(await answer.aread())
            finally:
                await answer.aclose()
            body = json.dumps(with_credentials(settings)).encode()
            back.pop("content-encoding", None)
            back["content-length"] = str(len(body))
            return Response(body, status_code=200, headers=back)
        return StreamingResponse(
            answer.aiter_raw(),
            status_code=answer.status_code,
            headers=back,
            background=BackgroundTask(answer.aclose),
        )

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await client.aclose()

    return Starlette(routes=[Route("/{path:path}", forward, methods=_METHODS)], lifespan=lifespan)


async def _body(request: Request) -> AsyncIterator[bytes]:
    async for chunk in request.stream():
        yield chunk


@asynccontextmanager
async def proxied_ui(ui_port: int, port: int) -> AsyncIterator[None]:
    """The UI listening on 127.0.0.1:`ui_port`, served on 127.0.0.1:`port` while this lasts."""
    import uvicorn

    config = uvicorn.Config(
        ui_proxy(f"http://127.0.0.1:{ui_port}"),
        host="127.0.0.1",
        port=port,
        log_config=None,
        access_log=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started and not task.done():  # noqa: ASYNC110 (uvicorn has no event)
            await asyncio.sleep(0.02)
        if task.done():
            task.result()  # it could not listen: say why
        yield
    finally:
        server.should_exit = True
        await task
