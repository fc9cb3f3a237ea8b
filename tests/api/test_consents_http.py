"""Consents over HTTP: a user records, lists and revokes their own; a revocation invalidates
what cited the consent; another user's consents are neither shown nor revocable."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.api.test_http_api import assert_problem, auth
from tests.factories import NS, USER, sms

BOB = "user:shop-a/456"


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        yield http


async def test_a_user_gives_lists_and_revokes_a_consent(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    given = await api.post(
        "/v1/consents",
        json={"subject": USER, "purpose": "  delivery   notices "},
        headers=auth(client, USER),
    )
    assert given.status_code == 201, given.text
    consent = given.json()
    assert consent["subject_ref"] == "user:123"  # stored within its tenant
    assert consent["purpose"] == "delivery notices"
    assert consent["revoked_at"] is None
    # a memory citing it is kept, and read back
    cited = await client.write(USER, NS, sms(consent_ref=consent["consent_id"]))
    assert cited.outcome.memory_id is not None
    listed = await api.get("/v1/consents", headers=auth(client, USER))
    assert [c["consent_id"] for c in listed.json()] == [consent["consent_id"]]
    # another user sees none of them and cannot revoke it (answered as for no such consent)
    assert (await api.get(f"/v1/consents?subject={USER}", headers=auth(client, BOB))).json() == []
    theirs = await api.post(
        f"/v1/consents/{consent['consent_id']}/revoke", headers=auth(client, BOB)
    )
    assert theirs.status_code in (403, 404), theirs.text
    kept = client.stores.canonical.consents.get(consent["consent_id"])
    assert kept is not None
    assert kept.revoked_at is None
    # revoked by its subject: what cited it is invalidated
    revoked = await api.post(
        f"/v1/consents/{consent['consent_id']}/revoke", headers=auth(client, USER)
    )
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["invalidated"] == [cited.outcome.memory_id]
    head = client.stores.canonical.records.head(cited.outcome.memory_id)
    assert head is not None
    assert head.status != "active"
    listed = (await api.get("/v1/consents", headers=auth(client, USER))).json()
    assert listed[0]["revoked_at"] is not None


async def test_bad_consent_requests_get_problems_and_change_nothing(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    empty = await api.post(
        "/v1/consents", json={"subject": USER, "purpose": "   "}, headers=auth(client, USER)
    )
    assert_problem(empty, 422, "invalid_input")
    other = await api.post(
        "/v1/consents", json={"subject": BOB, "purpose": "marketing"}, headers=auth(client, USER)
    )
    assert other.status_code == 403, other.text
    unknown = await api.post("/v1/consents/cns_nope/revoke", headers=auth(client, USER))
    assert_problem(unknown, 404, "not_found")
    no_token = await api.get("/v1/consents")
    assert no_token.status_code == 401
    assert (await api.get("/v1/consents", headers=auth(client, USER))).json() == []
