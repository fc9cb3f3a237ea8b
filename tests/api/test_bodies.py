"""Every refused body is a problem detail with a code: nested too deep (`json_too_deep`), not
JSON, not UTF-8, a NaN or a lone surrogate (`malformed_body`), over the limit while streamed
without a Content-Length (`content_too_large`, 413, from the real server too), and Starlette's
own 404 and 405."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from governed_memory.shell.client import MemoryClient
from tests.api.door import BOB, BOB_NS, app_client, assert_problem


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(client) as http:
        yield http


def _nested(depth: int) -> bytes:
    return (
        b'{"namespaces": ["'
        + BOB_NS.encode()
        + b'"], "task": "x", "keys": '
        + (b"[" * depth + b"]" * depth)
        + b"}"
    )


async def test_every_refused_body_is_a_problem_detail(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    me = {"Authorization": f"Bearer {client.token_for(BOB)}"}
    as_json = {**me, "Content-Type": "application/json"}
    cases: list[tuple[bytes, dict[str, str], int, str]] = [
        (_nested(500), as_json, 400, "json_too_deep"),
        (_nested(100_000), as_json, 400, "json_too_deep"),
        (b'{"a":' * 70 + b"1" + b"}" * 70, as_json, 400, "json_too_deep"),
        (_nested(500), me, 400, "json_too_deep"),  # no Content-Type: read as JSON all the same
        (b"{not json", as_json, 400, "malformed_body"),
        (
            b'{"namespaces": ["' + BOB_NS.encode() + b'"], "task": "\xff\xfe"}',
            as_json,
            400,
            "malformed_body",
        ),
        (b'{"namespaces": ["\\ud800"], "task": "x"}', as_json, 400, "malformed_body"),
        (b'{"namespaces": [], "task": NaN}', as_json, 400, "malformed_body"),
        (b"", {**as_json}, 422, "invalid_input"),
    ]
    for body, headers, status, code in cases:
        response = await api.post("/v1/recall", content=body, headers=headers)
        assert_problem(response, status, code)
    # a memory whose value nests 500 deep (a 500 once: the model recursed through it)
    value = b'{"v":' * 500 + b"1" + b"}" * 500
    deep_value = await api.post(
        "/v1/memories",
        content=b'{"namespace": "%s", "candidate": {"kind": "semantic", "content": "x", '
        b'"structured_value": %s}}' % (BOB_NS.encode(), value),
        headers=as_json,
    )
    assert_problem(deep_value, 400, "json_too_deep")
    # a body streamed without a Content-Length, over the limit
    limit = client.settings.api_max_body_bytes

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"namespace": "'
        for _ in range(limit // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    streamed = await api.post("/v1/observe", content=chunks(), headers=as_json)
    assert_problem(streamed, 413, "content_too_large")
    # refusals Starlette makes itself
    assert_problem(await api.get("/v1/nowhere", headers=me), 404, "not_found")
    assert_problem(await api.delete("/v1/recall", headers=me), 405, "method_not_allowed")
    # a body nested within the bound is read
    fine = await api.post("/v1/recall", content=_nested(8), headers=as_json)
    assert_problem(fine, 422, "invalid_input")  # read, and refused by the model: keys are text
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []


async def test_a_streamed_body_over_the_limit_is_413_from_the_server(
    served: str, client: MemoryClient
) -> None:
    limit = client.settings.api_max_body_bytes

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"namespace": "'
        for _ in range(limit // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    async with httpx.AsyncClient(base_url=served, timeout=30) as http:
        response = await http.post(
            "/v1/observe",
            content=chunks(),
            headers={
                "Authorization": f"Bearer {client.token_for(BOB)}",
                "Content-Type": "application/json",
            },
        )
        assert "content-length" not in response.request.headers
        body = assert_problem(response, 413, "content_too_large")
        assert body["instance"] == "/v1/observe"
        deep = await http.post(
            "/v1/recall", content=_nested(500), headers={"Content-Type": "application/json"}
        )
        assert_problem(deep, 400, "json_too_deep")
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []
