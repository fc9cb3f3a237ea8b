"""Soak: mixed writes and deletions while worker processes are SIGKILLed at random.

At the end: every workflow completed, canonical and projection compare exactly, no version was
written to the index twice, no write was lost or decided twice, at most one value of a key is
in force, and every deletion's receipt says verified.

Two worker processes share the task queue, the canonical store and the projection file, and it
runs twice: on SQLite and on Postgres (the `database_url` fixture; the Postgres run is marked
`postgres`, so it fails rather than skips under CI=true). Two API processes beside two workers
are `test_many_workers.py`.

    MEMORY_SOAK_WRITES=20000 MEMORY_SOAK_MAX_KILLS=200 uv run pytest tests/workflows/test_soak.py

(defaults: 2,000 writes, a kill every 2–5 s, at most 15 kills; MEMORY_SOAK_KILL_EVERY sets the
mean interval).
"""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.models import WriteRequest
from governed_memory.memory.settings import Settings
from governed_memory.memory.sync.repair import compare
from governed_memory.shell.client import MemoryClient
from tests.factories import T0, episode
from tests.faults import WorkerProcess, worker_env

WRITES = int(os.environ.get("MEMORY_SOAK_WRITES", "2000"))
KILL_EVERY = float(os.environ.get("MEMORY_SOAK_KILL_EVERY", "3.5"))
#: Each kill stalls the runs the victim held for a workflow task timeout (10 s): bounded, so
#: that the suite's time does not depend on how slow the machine is today.
MAX_KILLS = int(os.environ.get("MEMORY_SOAK_MAX_KILLS", "15"))
PER_USER = 20
CHANNELS = ("sms", "email", "phone", "wechat", "app_push")
END = T0 + timedelta(days=1)


def user_requests(client: MemoryClient, u: int, run: str) -> list[WriteRequest]:
    """Twenty writes of one user: preference changes (each supersedes the last) and episodes."""
    principal, namespace = f"user:shop-a/s{u}", f"tenant/shop-a/user/s{u}"
    requests = []
    for i in range(PER_USER):
        at = T0 + timedelta(minutes=i)
        if i % 4 == 0:
            channel = CHANNELS[(u + i) % len(CHANNELS)]
            candidate = {
                "kind": "profile",
                "key": "notification.preference",
                "structured_value": {"channel": channel},
                "content": f"用户希望通过{channel}接收通知（第{i}次设置）",
            }
        else:
            candidate = episode(u * PER_USER + i)
        requests.append(
            client.write_request(
                principal, namespace, candidate, idempotency_key=f"s{u}-{i}-{run}", at=at
            )
        )
    return requests


@pytest.mark.slow  # minutes of writes, deletions and killed workers: CI runs it after the rest
async def test_soak_writes_and_deletions_with_random_worker_kills(
    temporal_env: WorkflowEnvironment, settings: Settings, tmp_path: Path
) -> None:
    from governed_memory.memory.stores import open_stores

    stores = open_stores(settings)
    client = MemoryClient(temporal_env.client, settings, stores)
    address = temporal_env.client.service_client.config.target_host
    env = worker_env(settings, address)
    workers = [WorkerProcess(env, tmp_path / f"worker-{n}.log").start() for n in range(2)]
    rng = random.Random(20261130)
    # idempotency keys (and so workflow ids) of their own: the dev server is shared by the tests
    run = uuid.uuid4().hex[:8]
    kills = 0
    stop = asyncio.Event()

    async def killer() -> None:
        nonlocal kills
        while not stop.is_set() and kills < MAX_KILLS:
            try:
                await asyncio.wait_for(stop.wait(), timeout=rng.uniform(0.6, 1.4) * KILL_EVERY)
            except TimeoutError:
                victim = rng.randrange(len(workers))
                workers[victim].kill()
                kills += 1
                workers[victim] = WorkerProcess(env, tmp_path / f"worker-{victim}.log").start()

    users = max(1, WRITES // PER_USER)
    deleted: dict[int, str] = {}
    receipts = []
    gate = asyncio.Semaphore(8)

    async def one_user(u: int) -> None:
        async with gate:
            result = await client.write_batch(user_requests(client, u, run))
            assert len(result.items) == PER_USER
            if u % 3 == 0:
                scope = {"namespace": f"tenant/shop-a/user/s{u}", "key": "notification.preference"}
            elif u % 3 == 1:
                scope = {"namespace": f"tenant/shop-a/user/s{u}"}
            else:
                return
            receipts.append(await client.forget(f"user:shop-a/s{u}", scope, at=END))
            deleted[u] = "key" if u % 3 == 0 else "namespace"

    chaos = asyncio.create_task(killer())
    try:
        await asyncio.wait_for(asyncio.gather(*(one_user(u) for u in range(users))), 900)
    finally:
        stop.set()
        await chaos
        for worker in workers:
            worker.kill()

    # nothing lost, nothing decided twice
    for u in range(users):
        for i in range(PER_USER):
            written = client.write_outcome("shop-a", f"s{u}-{i}-{run}", f"user:shop-a/s{u}")
            assert written is not None, (u, i)
    # every deletion verified
    assert len(receipts) == len(deleted)
    assert all(r.verification_status == "passed" for r in receipts), Counter(
        (r.verification_status, r.canonical_records, len(r.probes)) for r in receipts
    )
    # the index equals canonical; the outbox is drained; every version indexed once
    assert compare(stores, END) == []
    assert stores.canonical.outbox.status().unprocessed == 0
    heads = stores.canonical.records.digests(None, 10 * WRITES)
    applies = stores.projection.applies([h.memory_id for h in heads])
    assert max(applies.values()) == 1, {k: v for k, v in applies.items() if v > 1}
    # at most one value of a key in force per user; none where it was deleted
    in_force = Counter(
        r.namespace
        for r in stores.canonical.records.key_records(
            [f"tenant/shop-a/user/s{u}" for u in range(users)],
            ["notification.preference"],
            ["active"],
        )
        if not r.conflict_group
    )
    assert max(in_force.values(), default=0) <= 1
    assert not any(f"tenant/shop-a/user/s{u}" in in_force for u in deleted)
    assert len(in_force) == users - len(deleted)
    active = sum(1 for h in heads if h.status == "active")
    print(
        f"\nsoak: {users * PER_USER} writes, {len(deleted)} deletions (all verified), "
        f"{kills} worker kills, {len(heads)} memories ({active} active, "
        f"{len(applies)} versions indexed once each), outbox drained, index equal to canonical"
    )
    assert kills >= 1
    stores.close()
