"""What every request passes before a route sees it: its body bounded and checked
(`BodyGuard`), its id, count, latency and log line (`Observed`), and the token buckets of each
client address and principal (`Buckets`, `Limits`; taken by `deps.authenticate`).

Both middlewares are plain ASGI: they answer before FastAPI's body parsing (which would turn any
error of the read into a bare 400) and make no task per request, as `BaseHTTPMiddleware` does.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from typing import Any

import structlog
from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from governed_memory.memory.errors import RateLimited
from governed_memory.memory.settings import Settings
from governed_memory.shell.http.problems import PROBLEM, problem_body

log = structlog.get_logger("governed_memory.shell.http")

REQUESTS = Counter("memory_api_requests_total", "HTTP API requests", ["method", "route", "status"])
LATENCY = Histogram(
    "memory_api_request_seconds",
    "HTTP API request latency",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


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
                await self._drain(receive, message)
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks, None

    async def _drain(self, receive: Receive, message: Message) -> None:
        """Read on (a bounded amount, discarded) so that a client still sending gets the 413
        rather than a connection reset: the server closes once the answer is sent."""
        budget = 4 * self.limit
        while message.get("more_body", False) and budget > 0:
            message = await receive()
            if message["type"] != "http.request":
                return
            budget -= len(message.get("body", b""))

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
