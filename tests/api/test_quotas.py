"""Per-principal quotas on memories kept (`[quotas] memories_per_namespace`): a writer that keeps
its quota of active memories in a namespace is refused at the door (`quota_exceeded`, 403 over
HTTP), before anything starts, and nothing changes; a batch counts as a whole; another writer
in the same namespace has its own count; a deletion makes room; 0 is no limit; concurrent
writes that all pass the door are held to it at commit (tests/stores/test_quota_commit.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from governed_memory.memory.errors import InvalidInput, QuotaExceeded
from governed_memory.memory.policy import Quotas, load_policy
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.api.test_http_api import assert_problem, auth
from tests.factories import BOT, NS, USER


def episode(n: int) -> dict[str, str]:
    return {"kind": "episodic", "content": f"asked where parcel A-{n}0{n}7 is"}


def quota(client: MemoryClient, n: int) -> None:
    client.stores.policy = client.stores.policy.model_copy(
        update={"quotas": Quotas(memories_per_namespace=n)}
    )


def kept(client: MemoryClient, writer: str) -> int:
    return client.stores.canonical.records.active_count(NS, writer)


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        yield http


def test_the_policy_says_how_many_and_zero_is_no_limit(tmp_path: Path) -> None:
    assert load_policy().quotas.memories_per_namespace == 100_000
    path = tmp_path / "policy.toml"
    path.write_text("[quotas]\nmemories_per_namespace = 0\n")
    assert load_policy(path).quotas.memories_per_namespace == 0
    path.write_text("[quotas]\nmemories_per_namespace = -1\n")
    with pytest.raises(InvalidInput) as refused:
        load_policy(path)
    assert refused.value.field == "quotas.memories_per_namespace"


async def test_a_write_over_the_quota_is_refused_over_http_and_changes_nothing(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    quota(client, 2)
    me = auth(client, USER)
    for n in (1, 2):
        written = await api.post(
            "/v1/memories", json={"namespace": NS, "candidate": episode(n)}, headers=me
        )
        assert written.status_code == 200, written.text
        assert written.json()["outcomes"][0]["decision"] == "add"
    assert kept(client, USER) == 2
    before = client.stores.canonical.records.namespace_heads(NS)
    refused = await api.post(
        "/v1/memories", json={"namespace": NS, "candidate": episode(3)}, headers=me
    )
    body = assert_problem(refused, 403, "quota_exceeded")
    assert body["field"] == "namespace"
    assert "2" in body["detail"]
    for path, json in (
        ("/v1/observe", {"namespace": NS, "text": "my parcel A-303 never came"}),
        ("/v1/memories/batch", {"requests": [{"namespace": NS, "candidate": episode(4)}]}),
        ("/v1/grants", {"workflow": "WriteMemory", "namespace": NS, "candidate": episode(5)}),
        ("/v1/me/corrections", {"key": "notification.preference", "content": "sms please"}),
    ):
        again = await api.post(path, json=json, headers=me)
        assert_problem(again, 403, "quota_exceeded")
    assert client.stores.canonical.records.namespace_heads(NS) == before
    # another writer in the same namespace keeps its own count
    client.register_principal(BOT)
    theirs = await api.post(
        "/v1/memories",
        json={"namespace": NS, "candidate": episode(6)},
        headers=auth(client, BOT.ref),
    )
    assert theirs.status_code == 200, theirs.text
    assert kept(client, BOT.ref) == 1
    # a batch counts as a whole: one more fits, two do not
    quota(client, 3)
    two = {"requests": [{"namespace": NS, "candidate": episode(n)} for n in (7, 8)]}
    assert_problem(
        await api.post("/v1/memories/batch", json=two, headers=me), 403, "quota_exceeded"
    )
    granted = await api.post("/v1/grants", json={"workflow": "WriteBatch", **two}, headers=me)
    assert_problem(granted, 403, "quota_exceeded")
    assert kept(client, USER) == 2
    one = {"requests": [{"namespace": NS, "candidate": episode(7)}]}
    batch = await api.post("/v1/memories/batch", json=one, headers=me)
    assert batch.status_code == 200, batch.text
    assert kept(client, USER) == 3
    # no limit
    quota(client, 0)
    free = await api.post(
        "/v1/memories", json={"namespace": NS, "candidate": episode(9)}, headers=me
    )
    assert free.status_code == 200, free.text
    assert kept(client, USER) == 4


async def test_a_deletion_makes_room_in_process(client: MemoryClient) -> None:
    quota(client, 1)
    first = await client.write(USER, NS, episode(1))
    memory_id = first.outcomes[0].memory_id
    assert memory_id is not None
    with pytest.raises(QuotaExceeded) as refused:
        await client.write(USER, NS, episode(2))
    assert refused.value.code == "quota_exceeded"
    with pytest.raises(QuotaExceeded):
        await client.observe(USER, NS, "my parcel A-202 never came")
    with pytest.raises(QuotaExceeded):
        await client.write_batch([client.write_request(USER, NS, episode(3))])
    assert [m.memory_id for m in client.stores.canonical.records.namespace_heads(NS)] == [memory_id]
    receipt = await client.forget(USER, {"namespace": NS, "memory_id": memory_id})
    assert receipt.canonical_records == 1
    assert kept(client, USER) == 0
    again = await client.write(USER, NS, episode(2))
    assert again.outcomes[0].decision == "add"


async def test_concurrent_writes_never_take_a_writer_past_its_quota(client: MemoryClient) -> None:
    """Six writes at once all pass the door's count (nothing kept yet); the commits hold the
    quota, so two are kept and the others come back as `quota_exceeded`, never a generic
    failure."""
    quota(client, 2)
    results = await asyncio.gather(
        *(client.write(USER, NS, episode(n)) for n in range(6)), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, QuotaExceeded) for r in refused), refused
    assert len(results) - len(refused) == 2
    assert kept(client, USER) == 2
