"""Rates at the door: each client address is limited before its token is verified (every
request, and harder, the tokens it had refused); refused tokens are counted by reason and the
audit keeps a bounded trace of them, not a row each."""

from __future__ import annotations

import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select

from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.stores.schema import audit_events
from governed_memory.shell.client import MemoryClient
from tests.api.door import BOB, app_client, assert_problem, metric, refusals
from tests.factories import USER
from tests.tokens import claims


async def test_a_flood_of_refused_tokens_is_limited_per_address_and_not_audited_row_by_row(
    client: MemoryClient,
) -> None:
    before = refusals(client)
    forged = jwt.encode(claims(BOB), Ed25519PrivateKey.generate(), algorithm="EdDSA")
    bad = ["garbage", forged, ""]
    limits = {"api_refused_burst": 5, "api_refused_rate_per_second": 0.2}
    async with app_client(client, "203.0.113.7", **limits) as flood:
        started = time.monotonic()
        codes = []
        for i in range(300):
            headers = {"Authorization": f"Bearer {bad[i % 3]}"} if bad[i % 3] else {}
            response = await flood.get("/v1/whoami", headers=headers)
            assert response.headers["content-type"].startswith("application/problem+json")
            codes.append(response.status_code)
        elapsed = time.monotonic() - started
        print(
            f"300 refused tokens in {elapsed:.1f} s: {codes.count(401)} × 401, "
            f"{codes.count(429)} × 429; audit rows added: {refusals(client) - before}"
        )
        assert codes[:5] == [401] * 5
        assert codes.count(429) >= 300 - 5 - int(elapsed * 0.2) - 1
        limited = await flood.get("/v1/whoami", headers={"Authorization": "Bearer garbage"})
        assert_problem(limited, 429, "rate_limited")
        assert int(limited.headers["retry-after"]) >= 1
        # the address is refused whatever it sends now, before its token is looked at
        valid = {"Authorization": f"Bearer {client.token_for(BOB)}"}
        assert_problem(await flood.get("/v1/whoami", headers=valid), 429, "rate_limited")
        metrics = (await flood.get("/metrics")).text
    # another address is not held back by this one's refusals
    async with app_client(client, "198.51.100.9") as other:
        assert (await other.get("/v1/whoami", headers=valid)).status_code == 200
    # the audit got a bounded trace: at most one row per reason (here three), not one a request
    assert 1 <= refusals(client) - before <= 3
    assert metric(metrics, "memory_auth_refusals_total", reason="malformed") >= 1
    assert metric(metrics, "memory_auth_refusals_total", reason="bad_signature") >= 1
    assert metric(metrics, "memory_api_rate_limited_total", bucket="refused") >= 290


async def test_refusals_at_the_gate_are_counted_and_traced_once_a_minute(
    client: MemoryClient,
) -> None:
    """Whatever reaches the gate (the API, a workflow's service, the client): a refusal is
    counted; the audit keeps one row per tenant, claimed principal, client and reason a
    minute."""
    from prometheus_client import REGISTRY

    def counted() -> float:
        return (
            REGISTRY.get_sample_value("memory_auth_refusals_total", {"reason": "malformed"}) or 0.0
        )

    before, counted_before = refusals(client), counted()
    for _ in range(200):
        with pytest.raises(Unauthenticated):
            client.access.caller("not-a-token", client="203.0.113.8")
    with pytest.raises(Unauthenticated):
        client.access.caller("not-a-token", client="203.0.113.9")
    assert counted() - counted_before == 201
    assert refusals(client) - before == 2  # one per client address
    with client.stores.canonical.engine.connect() as conn:
        row = conn.execute(
            select(audit_events.c.details)
            .where(audit_events.c.stage == "authenticate")
            .order_by(audit_events.c.seq.desc())
            .limit(1)
        ).scalar_one()
    details = row if isinstance(row, dict) else json.loads(row)
    assert details["reason"] == "malformed"
    assert details["client"] == "203.0.113.9"


async def test_each_address_has_a_rate_limit_before_its_tokens_are_verified(
    client: MemoryClient,
) -> None:
    async with app_client(
        client, "203.0.113.10", api_client_burst=3, api_client_rate_per_second=0.1
    ) as http:
        # three principals, one address: the address's bucket runs out, not theirs
        principals = [BOB, USER, "user:shop-a/777", "user:shop-a/778"]
        codes = [
            (
                await http.get(
                    "/v1/whoami", headers={"Authorization": f"Bearer {client.token_for(p)}"}
                )
            ).status_code
            for p in principals
        ]
        assert codes == [200, 200, 200, 429]
