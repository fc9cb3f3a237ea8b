"""The HTTP API over a real worker and Temporal dev server: bearer tokens prove the caller, the
principal is the token's, every ACL holds through HTTP, errors are RFC 9457 problem details with
the client's error codes, bodies and request rates are bounded."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from governed_memory.memory.errors import Unauthenticated
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.factories import BOT, NS, USER, sms
from tests.tokens import bad_tokens

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(client)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        yield http


def auth(client: MemoryClient, principal: str, roles: tuple[str, ...] = ()) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.token_for(principal, roles)}"}


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(f"/errors/{code}")
    return body


async def test_health_readiness_metrics_and_schema(api: httpx.AsyncClient) -> None:
    assert (await api.get("/healthz")).json() == {"status": "ok", "checks": {}}
    ready = await api.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"canonical": "ok", "temporal": "ok"}
    schema = (await api.get("/openapi.json")).json()
    assert {"/v1/recall", "/v1/memories", "/v1/forget", "/v1/me/memories"} <= set(schema["paths"])
    metrics = await api.get("/metrics")
    assert "memory_api_requests_total" in metrics.text


async def test_a_request_must_carry_a_token_that_proves_someone(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    for kind, token in bad_tokens(client, BOB).items():
        if kind == "someone_else":
            continue  # valid: it proves someone else, and acts as that one
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await api.post(
            "/v1/memories", json={"namespace": BOB_NS, "candidate": sms()}, headers=headers
        )
        body = assert_problem(response, 401, "unauthenticated")
        assert response.headers["www-authenticate"] == "Bearer"
        assert body["request_id"] == response.headers["x-request-id"]
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []


async def test_the_apps_client_mints_no_token(client: MemoryClient) -> None:
    """The process holds the embedded signing key, yet the client the app holds acts for no one
    until a request's token binds it: a route that forgot to bind is refused, not served as
    whoever it names."""
    served: MemoryClient = create_app(client).state.client
    with pytest.raises(Unauthenticated):
        served.token_for(BOB)
    with pytest.raises(Unauthenticated):
        await served.recall(BOB, [BOB_NS], task="parcel")
    with pytest.raises(Unauthenticated):
        await served.write(BOB, BOB_NS, sms())
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []
    token = client.token_for(BOB)  # what a request presents
    assert (await served.bound(token).recall(BOB, [BOB_NS], task="parcel")).memories == []


async def test_the_principal_is_the_tokens_and_reads_follow_its_grants(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    client.register_principal(BOT)
    written = await api.post(
        "/v1/memories",
        json={"namespace": BOB_NS, "candidate": sms()},
        headers={**auth(client, BOB), "X-Request-Id": "req-123"},
    )
    assert written.status_code == 200, written.text
    assert written.headers["x-request-id"] == "req-123"
    assert written.json()["outcomes"][0]["decision"] == "add"
    head = client.stores.canonical.records.namespace_heads(BOB_NS)[0]
    assert head.written_by == BOB
    # the agent with a read grant finds it; another user's namespace is refused
    found = await api.post(
        "/v1/recall",
        json={"namespaces": [BOB_NS], "task": "how to notify", "keys": ["notification.preference"]},
        headers=auth(client, BOT.ref),
    )
    assert [m["structured_value"] for m in found.json()["memories"]] == [{"channel": "sms"}]
    other = await api.post(
        "/v1/recall", json={"namespaces": [BOB_NS], "task": "x"}, headers=auth(client, USER)
    )
    assert other.json()["memories"] == []
    assert other.json()["refused_namespaces"] == [BOB_NS]
    # a user cannot write into someone else's namespace
    refused = await api.post(
        "/v1/memories", json={"namespace": NS, "candidate": sms()}, headers=auth(client, BOB)
    )
    assert_problem(refused, 403, "unauthorized_namespace")
    ctx = await api.post(
        "/v1/context",
        json={"namespaces": [BOB_NS], "task": "notify", "budget": {"total_tokens": 4000}},
        headers=auth(client, BOT.ref),
    )
    assert ctx.status_code == 200, ctx.text
    assert "trust=" in ctx.json()["text"]
    checked = await api.post(
        "/v1/context/validate",
        json={"package": ctx.json()["package"]},
        headers=auth(client, BOT.ref),
    )
    assert checked.json()["valid"] is True
    who = await api.get("/v1/whoami", headers=auth(client, BOT.ref))
    assert who.json()["principal"] == BOT.ref


async def test_every_acl_holds_through_http(api: httpx.AsyncClient, client: MemoryClient) -> None:
    client.register_principal(BOT)
    key = uuid.uuid4().hex
    await api.post(
        "/v1/memories",
        json={"namespace": BOB_NS, "candidate": sms(), "idempotency_key": key},
        headers=auth(client, BOB),
    )
    memory_id = client.stores.canonical.records.namespace_heads(BOB_NS)[0].memory_id
    forgot = await api.post(
        "/v1/forget",
        json={"scope": {"namespace": BOB_NS, "key": "notification.preference"}},
        headers=auth(client, BOB),
    )
    receipt = forgot.json()
    assert receipt["verification_status"] == "passed", receipt
    rid = receipt["deletion_id"]
    assert (await api.get(f"/v1/receipts/{rid}", headers=auth(client, BOB))).status_code == 200
    assert_problem(
        await api.get(f"/v1/receipts/{rid}", headers=auth(client, USER)), 403, "forbidden"
    )
    operator = auth(client, "service:shop-a/operator", ("operator",))
    assert (await api.get(f"/v1/receipts/{rid}", headers=operator)).status_code == 200
    # outcomes by their writer only
    mine = await api.get(f"/v1/outcomes/shop-a/{key}", headers=auth(client, BOB))
    assert mine.json()[0]["decision"] == "add"
    assert_problem(
        await api.get(f"/v1/outcomes/shop-a/{key}", headers=auth(client, USER)), 404, "not_found"
    )
    # audit, history, export by namespace
    for path in (
        f"/v1/audit?memory_id={memory_id}",
        f"/v1/memories/{memory_id}/history",
        f"/v1/export?namespace={BOB_NS}",
    ):
        assert (await api.get(path, headers=auth(client, BOB))).status_code == 200, path
        assert_problem(await api.get(path, headers=auth(client, USER)), 403, "forbidden")
    # the registry: an admin of the tenant only
    greedy = BOT.model_copy(update={"read": ["tenant/shop-a/**"]}).model_dump(mode="json")
    assert_problem(
        await api.put("/v1/principals", json=greedy, headers=auth(client, BOT.ref)),
        403,
        "forbidden",
    )
    admin = auth(client, "service:shop-a/admin", ("admin",))
    assert (await api.put("/v1/principals", json=greedy, headers=admin)).status_code == 200
    shown = await api.get(f"/v1/principals/{BOT.ref}", headers=auth(client, BOT.ref))
    assert shown.json()["read"] == ["tenant/shop-a/**"]


async def test_a_person_lists_corrects_exports_and_deletes_their_own(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    me = auth(client, BOB)
    await api.post("/v1/memories", json={"namespace": BOB_NS, "candidate": sms()}, headers=me)
    await api.post(
        "/v1/observe",
        json={"namespace": BOB_NS, "text": "Please deliver my parcels after 6pm", "thread": "t1"},
        headers=me,
    )
    listed = (await api.get("/v1/me/memories", headers=me)).json()
    pref = next(m for m in listed if m["key"] == "notification.preference")
    corrected = await api.post(
        "/v1/me/corrections",
        json={
            "memory_id": pref["memory_id"],
            "structured_value": {"channel": "email"},
            "content": "Email me instead",
        },
        headers=me,
    )
    assert corrected.status_code == 200, corrected.text
    assert corrected.json()["outcomes"][0]["decision"] in ("add", "update")
    now = [
        m for m in (await api.get("/v1/me/memories", headers=me)).json() if m["status"] == "active"
    ]
    assert {"channel": "email"} in [m["structured_value"] for m in now]
    assert {"channel": "sms"} not in [m["structured_value"] for m in now]
    exported = (await api.get("/v1/export", headers=me)).json()
    assert exported["namespace"] == BOB_NS
    assert exported["memories"]
    one = next(m for m in now if m["structured_value"] == {"channel": "email"})
    gone = await api.delete(f"/v1/me/memories/{one['memory_id']}", headers=me)
    assert gone.json()["verification_status"] == "passed", gone.text
    assert all(
        m["memory_id"] != one["memory_id"]
        for m in (await api.get("/v1/me/memories", headers=me)).json()
    )
    everything = await api.delete("/v1/me/memories", headers=me)
    assert everything.json()["verification_status"] == "passed"
    assert (await api.get("/v1/me/memories", headers=me)).json() == []
    # an agent has no memories of its own
    client.register_principal(BOT)
    assert_problem(
        await api.get("/v1/me/memories", headers=auth(client, BOT.ref)), 422, "invalid_input"
    )


async def test_bad_input_is_a_problem_and_changes_nothing(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    me = auth(client, BOB)
    malformed = await api.post(
        "/v1/memories", content=b"{not json", headers={**me, "Content-Type": "application/json"}
    )
    assert_problem(malformed, 400, "malformed_body")
    missing = await api.post("/v1/recall", json={"task": "x"}, headers=me)
    assert assert_problem(missing, 422, "invalid_input")["field"] == "namespaces"
    bad_ns = await api.post("/v1/recall", json={"namespaces": ["tenant/shop-a/usr/1"]}, headers=me)
    assert_problem(bad_ns, 422, "invalid_namespace")
    huge = await api.post(
        "/v1/observe",
        content=b'{"namespace": "' + b"x" * (client.settings.api_max_body_bytes + 1) + b'"}',
        headers={**me, "Content-Type": "application/json"},
    )
    assert_problem(huge, 413, "content_too_large")
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []


async def test_each_principal_has_a_rate_limit(client: MemoryClient) -> None:
    client.settings = client.settings.model_copy(
        update={"api_rate_per_second": 0.5, "api_burst": 3}
    )
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        codes = [
            (await http.get("/v1/whoami", headers=auth(client, BOB))).status_code for _ in range(5)
        ]
        assert codes == [200, 200, 200, 429, 429]
        limited = await http.get("/v1/whoami", headers=auth(client, BOB))
        assert_problem(limited, 429, "rate_limited")
        assert int(limited.headers["retry-after"]) >= 1
        # another principal has its own bucket
        assert (await http.get("/v1/whoami", headers=auth(client, USER))).status_code == 200


async def test_feedback_through_http(api: httpx.AsyncClient, client: MemoryClient) -> None:
    client.register_principal(BOT)
    me, bot = auth(client, BOB), auth(client, BOT.ref)
    written = await api.post(
        "/v1/memories", json={"namespace": BOB_NS, "candidate": sms(confidence=0.9)}, headers=me
    )
    memory_id = written.json()["outcomes"][0]["memory_id"]
    confirmed = await api.post(
        "/v1/feedback", json={"memory_id": memory_id, "feedback_type": "confirmed"}, headers=me
    )
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["event"]["source"] == "user"
    assert confirmed.json()["event"]["effect"] == "confidence_raised"
    # the source is the token's: an agent cannot speak for the user
    as_user = await api.post(
        "/v1/feedback",
        json={"memory_id": memory_id, "feedback_type": "confirmed", "source": "user"},
        headers=bot,
    )
    assert_problem(as_user, 403, "forbidden")
    report = await api.post(
        "/v1/runs/run-http/report",
        json={"shown": [memory_id], "used": [memory_id], "outcome": "success"},
        headers=bot,
    )
    assert report.status_code == 200, report.text
    assert [e["event"]["feedback_type"] for e in report.json()["events"]] == ["used"]
    kept = (await api.get(f"/v1/memories/{memory_id}/feedback", headers=me)).json()
    assert [e["feedback_type"] for e in kept] == ["confirmed", "used"]
    in_run = (await api.get("/v1/runs/run-http/feedback", headers=bot)).json()
    assert [e["memory_id"] for e in in_run] == [memory_id]
    assert_problem(
        await api.post(
            "/v1/feedback", json={"memory_id": memory_id, "feedback_type": "great"}, headers=me
        ),
        422,
        "invalid_input",
    )
    stranger = auth(client, "user:shop-b/456")
    assert_problem(
        await api.post(
            "/v1/feedback",
            json={"memory_id": memory_id, "feedback_type": "harmful"},
            headers=stranger,
        ),
        404,
        "not_found",
    )
    assert_problem(
        await api.get(f"/v1/memories/{memory_id}/feedback", headers=stranger), 404, "not_found"
    )
    assert len(client.feedback_on(BOB, memory_id)) == 2  # refusals changed nothing
    metrics = (await api.get("/metrics")).text
    assert (
        'memory_feedback_events_total{effect="confidence_raised",source="user",type="confirmed"}'
        in metrics
    )


async def test_an_agent_gets_a_grant_and_starts_from_its_own_temporal_client(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    """`POST /v1/grants`: the door proves the caller, screens the text and signs the start; the
    agent's own Temporal client starts exactly that, and nothing else is admitted."""
    from temporalio.client import WorkflowFailureError

    client.register_principal(BOT)
    password = f"Qz{uuid.uuid4().hex[:6]}Pw!7"
    response = await api.post(
        "/v1/grants",
        headers=auth(client, BOT.ref),
        json={"workflow": "WriteMemory", "namespace": NS, "candidate": sms()},
    )
    assert response.status_code == 200, response.text
    start = response.json()
    assert start["workflow"] == "WriteMemory"
    assert start["input"]["principal"] == BOT.ref
    assert start["input"]["grant"]
    result = await client.temporal.execute_workflow(
        start["workflow"], start["input"], id=start["workflow_id"], task_queue=start["task_queue"]
    )
    assert result["outcomes"][0]["decision"] == "add"
    # a secret is redacted at the door: the input the agent gets (and starts) holds none
    observed = await api.post(
        "/v1/grants",
        headers=auth(client, USER),
        json={"workflow": "WriteMemory", "namespace": NS, "text": f"my password is {password}"},
    )
    assert observed.status_code == 200, observed.text
    assert password not in observed.text
    # the grant is for that input only: the agent cannot change what it starts
    forged = observed.json()
    forged["input"]["namespace"] = "tenant/shop-a/user/999"
    with pytest.raises(WorkflowFailureError):
        await client.temporal.execute_workflow(
            forged["workflow"],
            forged["input"],
            id=forged["workflow_id"],
            task_queue=forged["task_queue"],
        )
    # a caller gets grants for its own requests only, and for no sweep
    for body in (
        {"workflow": "WriteMemory", "namespace": "tenant/shop-a/user/999", "candidate": sms()},
        {"workflow": "RelayOutbox"},
    ):
        refused = await api.post("/v1/grants", headers=auth(client, USER), json=body)
        assert refused.status_code in (403, 422), refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")


async def test_another_users_recall_is_answered_while_exports_run(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    """Ten exports of a large namespace in flight do not hold up another user's recall: the
    routes that do SQL (and the client's recall) run on worker threads, never on the event
    loop. Read by order, not by time: the recall, asked after the exports started, is answered
    before any of them (on a blocked loop, each export ran to its end first)."""
    import asyncio
    import random

    from governed_memory.shell.bench.data import load, synthetic_records

    load(client.stores, synthetic_records("shop-a", BOB_NS, 1500, random.Random(7)))
    await api.post(
        "/v1/memories", json={"namespace": NS, "candidate": sms()}, headers=auth(client, USER)
    )
    bob, me = auth(client, BOB), auth(client, USER)
    done: list[str] = []

    async def export() -> None:
        response = await api.get("/v1/export", headers=bob)
        assert response.status_code == 200, response.text
        done.append("export")

    async def recall() -> None:
        response = await api.post(
            "/v1/recall", json={"namespaces": [NS], "query": "how to notify me"}, headers=me
        )
        assert response.status_code == 200, response.text
        assert response.json()["memories"]
        done.append("recall")

    exports = [asyncio.create_task(export()) for _ in range(10)]
    await asyncio.sleep(0.05)  # the exports are under way
    await asyncio.gather(recall(), *exports)
    assert done[0] == "recall", done
