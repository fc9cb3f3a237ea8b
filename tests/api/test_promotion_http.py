"""Promotion over the HTTP API (a real worker and Temporal dev server): the caller is the
token's, a promotion that needs a review answers `pending_review` and lands once a reviewer of
the target answers through the reviews API, and a refusal is a typed problem that changes
nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest

from governed_memory.memory.models import Principal
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.api.test_http_api import assert_problem, auth
from tests.factories import NS, T0, USER, sms

TEAM = "tenant/shop-a/team/ops"
LATER = T0 + timedelta(days=1)


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        yield http


async def test_a_promotion_through_the_api(api: httpx.AsyncClient, client: MemoryClient) -> None:
    client.register_principal(Principal(type="user", tenant="shop-a", id="123", write=[TEAM]))
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=[TEAM])
    reader = Principal(type="agent", tenant="shop-a", id="ops-bot", read=[TEAM])
    for p in (lead, reader):
        client.register_principal(p)
    written = await client.write(USER, NS, sms(), at=T0)
    source = written.outcome.memory_id
    assert source is not None

    schema = (await api.get("/openapi.json")).json()
    operation = schema["paths"]["/v1/memories/{memory_id}/promote"]["post"]
    assert "403" in operation["responses"]

    asked = await api.post(
        f"/v1/memories/{source}/promote",
        json={"target_namespace": TEAM, "at": LATER.isoformat()},
        headers=auth(client, USER),
    )
    assert asked.status_code == 200, asked.text
    body = asked.json()
    assert (body["status"], body["source_id"], body["memory_id"]) == (
        "pending_review",
        source,
        None,
    )
    answered = await api.post(
        f"/v1/reviews/{body['review_id']}",
        json={"decision": "approve", "at": (LATER + timedelta(hours=1)).isoformat()},
        headers=auth(client, lead.ref),
    )
    assert answered.status_code == 200, answered.text
    [copy_id] = answered.json()["committed"]
    recalled = await api.post(
        "/v1/recall",
        json={"namespaces": [TEAM], "task": "how should we notify the user?"},
        headers=auth(client, reader.ref),
    )
    assert recalled.status_code == 200, recalled.text
    assert [m["memory_id"] for m in recalled.json()["memories"]] == [copy_id]

    # a reader of the team may not write there, nor may anyone reach another tenant
    refused = await api.post(
        f"/v1/memories/{source}/promote",
        json={"target_namespace": TEAM},
        headers=auth(client, reader.ref),
    )
    assert assert_problem(refused, 403, "unauthorized_namespace")["field"] == "target_namespace"
    elsewhere = await api.post(
        f"/v1/memories/{source}/promote",
        json={"target_namespace": "tenant/shop-b/team/ops"},
        headers=auth(client, USER),
    )
    assert_problem(elsewhere, 403, "unauthorized_namespace")
    missing = await api.post(
        "/v1/memories/mem_nothing/promote",
        json={"target_namespace": TEAM},
        headers=auth(client, USER),
    )
    assert_problem(missing, 404, "not_found")
    assert len(client.stores.canonical.records.namespace_heads(TEAM)) == 1
