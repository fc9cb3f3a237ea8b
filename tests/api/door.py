"""What the tests of the API's door share: the app in process at a client address of the
test's choosing, problem details, Bob's memories, the page's sign-in, the audit's refusals."""

from __future__ import annotations

import re
from typing import Any

import httpx
from sqlalchemy import func, select

from governed_memory.memory.stores.schema import audit_events
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
STRANGER = "user:shop-b/789"
#: The origin the in-process app is reached at.
SITE = "http://api"


def app_client(
    client: MemoryClient, address: str = "127.0.0.1", **settings: Any
) -> httpx.AsyncClient:
    """The app (with `settings` changed) as reached from `address`."""
    if settings:
        client.settings = client.settings.model_copy(update=settings)
    transport = httpx.ASGITransport(app=create_app(client), client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=SITE)


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code, body
    assert body["type"].endswith(f"/errors/{code}")
    return body


def active(client: MemoryClient) -> int:
    heads = client.stores.canonical.records.namespace_heads(BOB_NS)
    return sum(1 for h in heads if h.status == "active")


async def remember(client: MemoryClient, n: int) -> list[str]:
    ids = []
    for i in range(n):
        written = await client.write(
            BOB, BOB_NS, {"kind": "episodic", "content": f"Asked for parcel {i} at the back door"}
        )
        assert written.outcome.memory_id is not None
        ids.append(written.outcome.memory_id)
    return ids


async def sign_in(http: httpx.AsyncClient, token: str) -> str:
    """Signs in through the page's form; returns the session's CSRF token (from the page)."""
    signed = await http.post("/page/login", data={"token": token}, headers={"Origin": SITE})
    assert signed.status_code == 303, signed.text
    assert signed.headers["location"] == "/page"
    home = await http.get("/page")
    found = re.search(r'name=csrf value="([0-9a-f]+)"', home.text)
    assert found, home.text
    return found.group(1)


def refusals(client: MemoryClient) -> int:
    with client.stores.canonical.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(audit_events)
                .where(audit_events.c.stage == "authenticate", audit_events.c.outcome == "refused")
            ).scalar_one()
        )


def metric(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith(f"{name}{{{wanted}}} "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0
