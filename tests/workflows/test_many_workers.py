"""Many workers and API replicas share the work: two worker processes and two `memctl serve`
processes, each its own OS process on its own port, on ONE Postgres canonical store, one embedded
projection file (one host: the same MEMORY_DATA_DIR for all four) and one Temporal task queue.

Writes go concurrently through both APIs — several users, preference changes that supersede one
another, episodes, and some writes sent with the SAME idempotency key through both APIs at once.
Then:

- every idempotency key is decided once (one run, one stored outcome, the same answer through
  both APIs), no memory is stored twice, and each user has exactly one preference in force: the
  one stated last;
- once the outbox has settled, canonical and the projection compare equal and every projected
  version was written to the index exactly once (`applies == 1`);
- both worker processes did work: the Temporal history of the runs names each worker's identity
  (`pid@host`) on workflow tasks it completed;
- reads agree across replicas: the same recall through API 1 and API 2 returns the same memory
  ids; a deletion through one API is not readable through the other once its receipt passed (the
  other replica's recall cache was warmed with the deleted memory first).
"""

from __future__ import annotations

import asyncio
import random
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.metrics import free_port
from governed_memory.memory.models import RecallResult, RelayRequest, RelayResult, WriteResult
from governed_memory.memory.policy import DEFAULT_POLICY_FILE, load_policy
from governed_memory.memory.sameness import gist_of
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.sync.repair import compare
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.remote import RemoteClient
from tests.factories import episode
from tests.faults import ROOT, WorkerProcess, worker_env

pytestmark = pytest.mark.postgres

USERS = 6
PER_USER = 40
#: Writes i with i % PREF_EVERY == 0 change the user's notification preference (each to a channel
#: the user has not used before, so every change is a real change).
PREF_EVERY = 8
#: Writes i with i % TWICE_EVERY == TWICE_AT are sent through both APIs at once, same key.
TWICE_EVERY, TWICE_AT = 5, 2
CHANNELS = ("sms", "email", "phone", "wechat", "app_push")
KEY = "notification.preference"
TENANT = "shop-a"
#: Requests in flight at once, across both APIs (a 2-core machine runs all of it).
IN_FLIGHT = 24


class ApiProcess:
    """`memctl serve` in its own process, on its own port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.env = {**env, "MEMORY_API_PORT": str(self.port)}
        self.log = log
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ApiProcess:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "governed_memory.shell", "serve"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return self

    async def ready(self, within: float = 60) -> None:
        deadline = time.monotonic() + within
        async with httpx.AsyncClient() as http:
            while True:
                try:
                    if (await http.get(f"{self.url}/readyz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                assert self.process is not None
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"memctl serve is not ready: {self.tail()}")
                await asyncio.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""


def identity(worker: WorkerProcess) -> str:
    """The identity Temporal records for a worker process: the SDK's default, `pid@host`."""
    assert worker.process is not None
    return f"{worker.process.pid}@{socket.gethostname()}"


async def pollers(temporal: Client, task_queue: str) -> set[str]:
    """The identities polling this task queue for workflow tasks."""
    from temporalio.api.enums.v1 import TaskQueueType
    from temporalio.api.taskqueue.v1 import TaskQueue
    from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

    found = await temporal.workflow_service.describe_task_queue(
        DescribeTaskQueueRequest(
            namespace=temporal.namespace,
            task_queue=TaskQueue(name=task_queue),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        )
    )
    return {p.identity for p in found.pollers}


async def until(
    condition: Callable[[], Awaitable[bool]], within: float, what: Callable[[], str]
) -> None:
    """Wait for `condition`, checking it every tenth of a second, at most `within` seconds."""
    deadline = time.monotonic() + within
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within}s: {what()}")
        await asyncio.sleep(0.1)


async def completed_by(temporal: Client, workflow_ids: set[str]) -> Counter[str]:
    """How many workflow tasks (and activity tasks) each identity completed in these runs."""
    gate = asyncio.Semaphore(16)
    done: Counter[str] = Counter()

    async def one(workflow_id: str) -> None:
        async with gate:
            history = await temporal.get_workflow_handle(workflow_id).fetch_history()
        for event in history.events:
            if event.HasField("workflow_task_completed_event_attributes"):
                done[event.workflow_task_completed_event_attributes.identity] += 1
            elif event.HasField("activity_task_started_event_attributes"):
                done[event.activity_task_started_event_attributes.identity] += 1

    await asyncio.gather(*(one(w) for w in sorted(workflow_ids)))
    return done


def distinct_episodes(count: int, start: int) -> list[dict[str, Any]]:
    """`count` episodes that say different things (different gists), so that none of them is
    rightly decided a DUPLICATE of another."""
    out: list[dict[str, Any]] = []
    seen: set[str | None] = set()
    i = start
    while len(out) < count:
        candidate = episode(i)
        gist = gist_of(str(candidate["content"]), None)
        if gist not in seen:
            seen.add(gist)
            out.append(candidate)
        i += 1
    return out


class Plan:
    """The writes of the test: who, where, what, when, through which API."""

    def __init__(self, run: str, base: datetime) -> None:
        rng = random.Random(20261202)
        self.run = run
        #: (user, i) -> (idempotency key, candidate, at, the API indexes it is sent through)
        self.writes: dict[tuple[int, int], tuple[str, dict[str, Any], datetime, tuple[int, ...]]]
        self.writes = {}
        #: user -> the channel of the user's last preference change (by valid time)
        self.last_channel: dict[int, str] = {}
        for u in range(USERS):
            channels = list(CHANNELS[u % len(CHANNELS) :] + CHANNELS[: u % len(CHANNELS)])
            episodes = iter(distinct_episodes(PER_USER, 1000 * u))
            for i in range(PER_USER):
                at = base + timedelta(seconds=30 * i)
                if i % PREF_EVERY == 0:
                    channel = channels[i // PREF_EVERY]
                    candidate = {
                        "kind": "profile",
                        "key": KEY,
                        "structured_value": {"channel": channel},
                        "content": f"用户希望通过{channel}接收通知（第{i}次设置）",
                    }
                    self.last_channel[u] = channel
                else:
                    candidate = next(episodes)
                apis = (0, 1) if i % TWICE_EVERY == TWICE_AT else (rng.randrange(2),)
                self.writes[u, i] = (self.key(u, i), candidate, at, apis)

    def key(self, u: int, i: int) -> str:
        return f"mw-{u}-{i}-{self.run}"

    def principal(self, u: int) -> str:
        return f"user:{TENANT}/mw{u}-{self.run}"

    def namespace(self, u: int) -> str:
        return f"tenant/{TENANT}/user/mw{u}-{self.run}"


def outcome_ids(result: WriteResult) -> list[tuple[str, str | None, int | None]]:
    return [(o.decision, o.memory_id, o.version) for o in result.outcomes]


def ids(found: RecallResult) -> list[str]:
    return [m.memory_id for m in found.memories]


def projected(stores: Stores) -> dict[tuple[str, int], int]:
    """How many times each version of every canonical memory was written to the index."""
    heads = stores.canonical.records.digests(None, 1_000_000)
    applies = stores.projection.applies([h.memory_id for h in heads])
    assert applies
    return applies


@pytest.mark.slow  # four service processes: CI runs it after the rest (pytest -m slow)
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_two_workers_and_two_apis_share_one_postgres_store(
    temporal_env: WorkflowEnvironment, settings: Settings, tmp_path: Path
) -> None:
    started = time.monotonic()
    assert settings.canonical_url.startswith("postgresql")
    stores = open_stores(settings)
    # The test's own client: tokens (its signing key, in the shared data folder, is made here,
    # before any process starts), the relay, and Temporal histories. It runs no worker.
    client = MemoryClient(temporal_env.client, settings, stores)
    address = temporal_env.client.service_client.config.target_host
    # Recall results stay cached for ten minutes, not five seconds: what keeps a replica from
    # serving a deleted memory is then only the namespace generations in the shared store.
    policy = tmp_path / "policy.toml"
    policy.write_text(
        DEFAULT_POLICY_FILE.read_text().replace("cache_ttl_seconds = 5", "cache_ttl_seconds = 600")
    )
    assert load_policy(policy).retrieval.cache_ttl_seconds == 600
    env = worker_env(settings, address, MEMORY_POLICY_FILE=str(policy))
    assert env["MEMORY_DATA_DIR"] == str(settings.data_dir)  # one projection file for all four
    workers = [WorkerProcess(env, tmp_path / f"worker-{n}.log").start() for n in range(2)]
    apis = [ApiProcess(env, tmp_path / f"api-{n}.log").start() for n in range(2)]
    try:
        names = {identity(w) for w in workers}
        await until(
            lambda: pollers_include(temporal_env.client, settings.task_queue, names),
            60,
            lambda: f"workers not polling: {[w.tail() for w in workers]}",
        )
        await asyncio.gather(*(api.ready() for api in apis))
        await run_the_story(client, stores, apis, workers, started)
    finally:
        for api in apis:
            api.stop()
        for worker in workers:
            worker.kill()
        stores.close()


async def pollers_include(temporal: Client, task_queue: str, names: set[str]) -> bool:
    return names <= await pollers(temporal, task_queue)


async def run_the_story(
    client: MemoryClient,
    stores: Stores,
    apis: list[ApiProcess],
    workers: list[WorkerProcess],
    started: float,
) -> None:
    run = uuid.uuid4().hex[:8]  # keys and principals of their own: the dev server is shared
    now = datetime.now(UTC).replace(microsecond=0)
    plan = Plan(run, now - timedelta(hours=1))
    remotes = {
        (u, a): RemoteClient(apis[a].url, client.token_for(plan.principal(u)))
        for u in range(USERS)
        for a in range(len(apis))
    }
    try:
        # ---------------------------------------------------------------- concurrent writes
        gate = asyncio.Semaphore(IN_FLIGHT)
        answers: dict[tuple[int, int], list[WriteResult]] = {w: [] for w in plan.writes}

        async def send(u: int, i: int, a: int) -> None:
            key, candidate, at, _ = plan.writes[u, i]
            async with gate:
                result = await remotes[u, a].write(
                    plan.namespace(u), candidate, idempotency_key=key, at=at
                )
            answers[u, i].append(result)

        sends = [(u, i, a) for (u, i), (*_, through) in plan.writes.items() for a in through]
        random.Random(7).shuffle(sends)
        # Beside the writes, the outbox relay runs over and over, as the `memory-relay`
        # schedule would, on whichever worker takes it: it and the writes' own projections
        # meet on the same memories.
        relays: list[str] = []
        relayed = 0
        loading = True

        async def relay() -> None:
            nonlocal relayed
            start = client.start_for(RelayRequest())
            handle = await client.temporal.start_workflow(
                start.workflow,
                start.input,
                id=start.workflow_id,
                task_queue=start.task_queue,
                result_type=RelayResult,
            )
            relays.append(handle.id)
            relayed += (await handle.result()).events

        async def relaying() -> None:
            while loading:
                await relay()

        load = time.monotonic()
        relayer = asyncio.create_task(relaying())
        try:
            await asyncio.wait_for(asyncio.gather(*(send(*s) for s in sends)), 300)
        finally:
            loading = False
            await relayer
        load_seconds = time.monotonic() - load

        # ---------------------------------------------------------------- decided once
        both = [w for w, (*_, through) in plan.writes.items() if len(through) == 2]
        for w in both:
            first, second = answers[w]
            assert first.workflow_id == second.workflow_id, w
            assert outcome_ids(first) == outcome_ids(second), w
        # Every write said something new, so each adds a memory of its own (version 1): an
        # episode as `add`; a preference change as `add` or, when it supersedes the value in
        # force at its commit, `update` — which of the two depends on the order the workers
        # committed them in. No memory is stored twice.
        decided: dict[str, str] = {}  # memory id -> the key that made it
        decisions: Counter[str] = Counter()
        for (u, i), results in answers.items():
            key = plan.writes[u, i][0]
            (result,) = {r.workflow_id: r for r in results}.values()
            stored = client.write_outcome(TENANT, key, plan.principal(u))
            assert stored is not None, key
            assert [(o.decision, o.memory_id, o.version) for o in stored] == outcome_ids(result)
            (o,) = result.outcomes
            decisions[o.decision] += 1
            assert o.decision in (("add", "update") if i % PREF_EVERY == 0 else ("add",)), (key, o)
            assert o.memory_id is not None
            assert o.version == 1, (key, o)
            assert o.memory_id not in decided, (key, decided.get(o.memory_id))
            decided[o.memory_id] = key
        namespaces = {plan.namespace(u) for u in range(USERS)}
        heads = [
            d
            for d in stores.canonical.records.digests(None, 1_000_000)
            if d.namespace in namespaces
        ]
        assert sorted(d.memory_id for d in heads) == sorted(decided)
        # one preference in force per user: the one stated last (by valid time), whatever order
        # the two workers committed them in
        in_force = [
            r
            for r in stores.canonical.records.key_records(sorted(namespaces), [KEY], ["active"])
            if not r.conflict_group
        ]
        assert Counter(r.namespace for r in in_force) == dict.fromkeys(namespaces, 1)
        in_force_id: dict[int, str] = {}
        for u in range(USERS):
            (mine,) = [r for r in in_force if r.namespace == plan.namespace(u)]
            assert mine.structured_value == {"channel": plan.last_channel[u]}, u
            in_force_id[u] = mine.memory_id

        # ---------------------------------------------------------------- exactly-once index
        # Settled: whatever is still unprocessed, the relay applies (polled, with a deadline).
        deadline = time.monotonic() + 60
        while stores.canonical.outbox.status().unprocessed or compare(stores, now):
            assert time.monotonic() < deadline, (
                stores.canonical.outbox.status(),
                compare(stores, now),
            )
            await relay()
        assert compare(stores, now) == []
        assert stores.canonical.outbox.status().unprocessed == 0
        applies = projected(stores)
        # (a version written twice is reported at the end, once everything else is checked)
        twice = {k: v for k, v in applies.items() if v != 1}

        # ---------------------------------------------------------------- both workers worked
        runs = {r.workflow_id for results in answers.values() for r in results} | set(relays)
        done = await completed_by(client.temporal, runs)
        per_worker = {identity(w): done[identity(w)] for w in workers}
        assert all(per_worker.values()), (per_worker, done)

        # ---------------------------------------------------------------- the same reads
        async def recall(u: int, a: int) -> RecallResult:
            _, candidate, *_ = plan.writes[u, 1]
            return await remotes[u, a].recall(
                [plan.namespace(u)], query=str(candidate["content"]), keys=[KEY], k=10
            )

        for u in range(USERS):
            one, two = await recall(u, 0), await recall(u, 1)
            assert ids(one), u
            assert ids(one) == ids(two), (u, ids(one), ids(two))
            (pref,) = [m for m in one.memories if m.key == KEY]  # the one in force, no other
            assert pref.memory_id == in_force_id[u]
            assert pref.structured_value == {"channel": plan.last_channel[u]}

        # ---------------------------------------------------------------- deleted everywhere
        # user 0: the preference forgotten through API 1, read through API 2 (its cache warm)
        warm = await recall(0, 1)
        assert warm.cached
        pref_id = next(m.memory_id for m in warm.memories if m.key == KEY)
        receipt = await remotes[0, 0].forget({"namespace": plan.namespace(0), "key": KEY})
        assert receipt.verification_status == "passed"
        after = await recall(0, 1)
        assert pref_id not in ids(after)
        assert not any(m.key == KEY for m in after.memories)
        assert ids(after) == ids(await recall(0, 0))
        seen = await remotes[0, 1].receipt(receipt.deletion_id)
        assert seen.verification_status == "passed"
        # user 1: everything forgotten through API 2, read through API 1 (its cache warm)
        warm = await recall(1, 0)
        assert warm.cached
        assert ids(warm)
        everything = await remotes[1, 1].forget({"namespace": plan.namespace(1)})
        assert everything.verification_status == "passed"
        assert ids(await recall(1, 0)) == []
        assert await remotes[1, 0].my_memories() == []
        assert ids(await recall(1, 1)) == []
        # the deletions reached the index too: it still equals canonical
        assert compare(stores, now) == []
        assert stores.canonical.outbox.status().unprocessed == 0
        twice |= {k: v for k, v in projected(stores).items() if v != 1}
    finally:
        await asyncio.gather(*(r.close() for r in remotes.values()))
    print(
        f"\nmany workers: {len(plan.writes)} writes ({len(sends)} requests, {len(both)} keys "
        f"through both APIs) in {load_seconds:.1f}s, {len(relays)} relay runs beside them and "
        f"after ({relayed} events); {len(applies)} versions indexed; workflow and activity "
        f"tasks per worker {per_worker}; {time.monotonic() - started:.1f}s in all"
    )
    assert not twice, (
        f"{len(twice)} of {len(applies)} versions were written to the index more than once "
        f"(projection `applies`): {twice}"
    )
