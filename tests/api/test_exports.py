"""`GET /v1/export`: a namespace's export is written as it is read, page by page (the first
bytes go out before the last page is read), and parses as the same document as before; `after`
and `limit` page it, each memory on exactly one page; NDJSON on asking; the ACL refuses another's
namespace before any byte of it, as a problem detail. In process, `Access.export_pages` covers
a namespace exactly once, and refuses at the call, not on the first page."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from governed_memory.memory.errors import Forbidden, InvalidInput
from governed_memory.memory.services.access import EXPORT_PAGE, MemoryExport
from governed_memory.shell.bench.data import load, synthetic_records
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.api.test_http_api import assert_problem, auth
from tests.factories import USER

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
#: More than two pages of the streamed export.
KEPT = 2 * EXPORT_PAGE + 37


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        yield http


@pytest.fixture
def kept(client: MemoryClient) -> set[str]:
    """Bob's namespace holding KEPT memories; their ids."""
    records = synthetic_records("shop-a", BOB_NS, KEPT, random.Random(11))
    load(client.stores, records)
    return {r.memory_id for r in records}


async def _raw_get(app: Any, path: str, query: str, headers: dict[str, str]) -> list[Any]:
    """The ASGI messages the app sends for one GET (what a server would write, in order)."""
    sent: list[Any] = []
    asked = False
    done = asyncio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await done.wait()  # the client stays until the response is written
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"api")]
        + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 40000),
        "server": ("api", 80),
    }
    try:
        await app(scope, receive, send)
    finally:
        done.set()
    return sent


async def test_an_export_is_streamed_page_by_page_and_parses_as_before(
    client: MemoryClient, kept: set[str]
) -> None:
    app = create_app(client)
    sent = await _raw_get(app, "/v1/export", "", auth(client, BOB))
    start, *bodies = sent
    assert start["type"] == "http.response.start"
    assert start["status"] == 200
    assert dict(start["headers"])[b"content-type"].startswith(b"application/json")
    chunks = [m["body"] for m in bodies if m["type"] == "http.response.body"]
    # written as it was read: the first chunk (whose export it is) went out on its own, and
    # the memories followed a page at a time
    assert len(chunks) > KEPT // EXPORT_PAGE
    assert chunks[0].startswith(b'{"namespace": "tenant/shop-a/user/456"')
    assert b"mem_" not in chunks[0]
    exported = MemoryExport.model_validate_json(b"".join(chunks))
    assert exported.namespace == BOB_NS
    assert exported.exported_by == BOB
    assert exported.next is None
    ids = [m.memory_id for m in exported.memories]
    assert len(ids) == len(set(ids)) == KEPT
    assert set(ids) == kept
    assert ids == sorted(ids)
    assert set(exported.versions) == kept
    assert all(exported.versions[m.memory_id][-1] == m for m in exported.memories)
    # the same document the client gathers in process
    whole = client.export(BOB, BOB_NS)
    assert [m.memory_id for m in whole.memories] == ids
    assert whole.versions == exported.versions


async def test_pages_cover_the_namespace_exactly_once(
    api: httpx.AsyncClient, client: MemoryClient, kept: set[str]
) -> None:
    bob = auth(client, BOB)
    seen: list[str] = []
    after: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": 400}
        if after is not None:
            params["after"] = after
        response = await api.get("/v1/export", params=params, headers=bob)
        assert response.status_code == 200, response.text
        page = MemoryExport.model_validate_json(response.content)
        pages += 1
        assert len(page.memories) <= 400
        assert set(page.versions) == {m.memory_id for m in page.memories}
        assert all(m.memory_id > (after or "") for m in page.memories)
        seen += [m.memory_id for m in page.memories]
        if page.next is None:
            break
        assert page.next == page.memories[-1].memory_id
        after = page.next
    assert pages == -(-KEPT // 400)
    assert len(seen) == len(set(seen)) == KEPT
    assert set(seen) == kept
    # `after` alone pages with the default size; past the last memory, an empty last page
    rest = (await api.get("/v1/export", params={"after": seen[-2]}, headers=bob)).json()
    assert [m["memory_id"] for m in rest["memories"]] == [seen[-1]]
    assert rest["next"] is None
    empty = (await api.get("/v1/export", params={"after": seen[-1]}, headers=bob)).json()
    assert empty["memories"] == []
    assert empty["versions"] == {}
    assert empty["next"] is None
    for limit in (0, 1001, -1):
        refused = await api.get("/v1/export", params={"limit": limit}, headers=bob)
        assert_problem(refused, 422, "invalid_input")


async def test_ndjson_is_one_line_per_memory(
    api: httpx.AsyncClient, client: MemoryClient, kept: set[str]
) -> None:
    response = await api.get(
        "/v1/export", headers={**auth(client, BOB), "Accept": "application/x-ndjson"}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    first, *lines = response.text.splitlines()
    assert json.loads(first)["namespace"] == BOB_NS
    assert json.loads(first)["exported_by"] == BOB
    items = [json.loads(line) for line in lines]
    ids = [i["memory"]["memory_id"] for i in items]
    assert len(ids) == len(set(ids)) == KEPT
    assert set(ids) == kept
    assert all(i["versions"][-1] == i["memory"] for i in items)


async def test_another_users_namespace_is_refused_before_any_byte(
    api: httpx.AsyncClient, client: MemoryClient, kept: set[str]
) -> None:
    me = auth(client, USER)
    asked: tuple[tuple[dict[str, str | int], str], ...] = (
        ({"namespace": BOB_NS}, "application/json"),
        ({"namespace": BOB_NS}, "application/x-ndjson"),
        ({"namespace": BOB_NS, "limit": 10}, "application/json"),
        ({"namespace": BOB_NS, "after": sorted(kept)[0]}, "application/json"),
    )
    for params, accept in asked:
        refused = await api.get("/v1/export", params=params, headers={**me, "Accept": accept})
        body = assert_problem(refused, 403, "forbidden")
        assert body["field"] == "namespace"
        assert "mem_" not in refused.text
    no_token = await api.get("/v1/export", params={"namespace": BOB_NS})
    assert_problem(no_token, 401, "unauthenticated")


async def test_export_pages_in_process(client: MemoryClient, kept: set[str]) -> None:
    token = client.token_for(BOB)
    pages = list(client.access.export_pages(token, BOB_NS, limit=300))
    ids = [m.memory_id for p in pages for m in p.memories]
    assert len(ids) == len(set(ids)) == KEPT
    assert set(ids) == kept
    assert [p.next for p in pages[:-1]] == [p.memories[-1].memory_id for p in pages[:-1]]
    assert pages[-1].next is None
    bare = client.export_page(BOB, BOB_NS, None, 5, versions=False)
    assert len(bare.memories) == 5
    assert bare.versions == {}
    # refused by the call itself, before any page is read
    with pytest.raises(Forbidden):
        client.access.export_pages(client.token_for(USER), BOB_NS)
    with pytest.raises(InvalidInput):
        client.access.export_pages(token, BOB_NS, limit=0)
    with pytest.raises(InvalidInput):
        client.export_page(BOB, BOB_NS, "mem_\x00", 10)
