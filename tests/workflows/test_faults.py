"""Faults between the canonical store and the projection, on the real worker, Temporal dev
server and stores: whatever fails, the index converges to canonical, nothing is lost and no
version is applied twice.

"Applied" is counted by the projection itself (`applies`: writes per memory version), so a
retried activity or a relayed event that wrote the same version again would show as 2.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import uuid
from collections.abc import Collection
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import graph_of
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.sync.repair import compare
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.worker import build_worker
from tests.factories import DRAFTER, NS, T0, USER, episode, sms
from tests.faults import FaultyProjection, WorkerProcess, worker_env


def all_ids(stores: Stores) -> list[str]:
    return [d.memory_id for d in stores.canonical.records.digests(None, 1_000_000)]


#: The clock of the comparisons: the writes are at T0, and episodic memories expire.
SOON = T0 + timedelta(days=1)


def assert_converged(stores: Stores, at: datetime = SOON, *, lost: Collection[str] = ()) -> None:
    """Index equal to canonical, outbox drained, no version written to the index twice — but
    the rows a test made the index lose, which repair wrote once more."""
    assert compare(stores, at) == []
    assert stores.canonical.outbox.status().unprocessed == 0
    applies = stores.projection.applies(all_ids(stores))
    assert applies
    twice = {k: v for k, v in applies.items() if v != (2 if k[0] in lost else 1)}
    assert not twice, twice
    # the graph is written with each row (compare finds a row whose graph is missing or older
    # `stale`): none left of a row that is gone
    graph = graph_of(stores.projection)
    if graph is not None:
        assert graph.graph_leftovers() == 0


# ------------------------------------------------------------------ retries and the relay


@pytest.mark.parametrize("fail_after", [False, True], ids=["fails-before", "fails-after-write"])
async def test_a_projection_that_fails_then_succeeds_is_retried_and_applied_once(
    client: MemoryClient, fail_after: bool
) -> None:
    faulty = (
        FaultyProjection(client.stores, fail_after_upserts=3)
        if fail_after
        else FaultyProjection(client.stores, fail_upserts=3)
    )
    result = await client.write(USER, NS, sms(), at=T0)
    faulty.heal()
    # Refused: the commit's own try, then the activity's retries until one succeeds. Written
    # then failed: the retry finds the version already indexed and does not write it again.
    assert faulty.upserts == (1 if fail_after else 4)
    (memory_id,) = [o.memory_id for o in result.outcomes]
    assert memory_id is not None
    assert client.stores.projection.applies([memory_id]) == {(memory_id, 1): 1}
    assert_converged(client.stores)


async def test_a_projection_down_for_good_leaves_the_commit_and_the_relay_applies_it(
    client: MemoryClient,
) -> None:
    faulty = FaultyProjection(client.stores, fail_upserts=None)
    results = [await client.write(USER, NS, episode(i), at=T0) for i in range(3)]
    ids = [o.memory_id for r in results for o in r.outcomes]
    # committed, not indexed: the outbox keeps the events, recall still finds nothing wrong
    assert {m for m, reason in compare(client.stores, SOON) if reason == "missing"} == set(ids)
    assert client.stores.canonical.outbox.status().unprocessed >= 3
    # the relay retries with backoff while the index is down, and applies once it is back
    relay = asyncio.create_task(client.relay())
    await asyncio.sleep(1.5)
    assert not relay.done()
    faulty.heal()
    relayed = await relay
    assert relayed.applied == 3
    assert relayed.watermarks is not None
    assert relayed.watermarks.last_index_updated == relayed.watermarks.last_event_committed
    assert_converged(client.stores)
    again = await client.relay()
    assert (again.events, again.applied) == (0, 0)


async def test_repair_converges_after_a_permanent_projection_failure(
    client: MemoryClient,
) -> None:
    await client.write(USER, NS, sms(), at=T0)
    faulty = FaultyProjection(client.stores, fail_upserts=None)
    for i in range(4):
        await client.write(USER, NS, episode(i), at=T0)
    faulty.heal()
    report = await client.repair(at=SOON)
    assert report.relayed_events >= 4
    assert_converged(client.stores)
    marks = client.stores.canonical.sweeps.watermarks(client.stores.projection.name)
    assert marks.last_index_updated == marks.last_event_committed == report.last_event_committed
    assert marks.last_repair_at is not None


# ------------------------------------------------------------------ what only repair finds


class _RolledBack(Exception):
    pass


def index_in_a_transaction_that_rolls_back(stores: Stores, records: list[MemoryRecord]) -> None:
    """A dual-writing writer: it indexes inside its canonical transaction, which then fails."""
    try:
        with stores.canonical.engine.begin():
            stores.projection.upsert(records)
            raise _RolledBack
    except _RolledBack:
        pass


async def test_repair_removes_rows_of_transactions_that_rolled_back_and_orphans(
    client: MemoryClient,
) -> None:
    stores = client.stores
    kept = await client.write(USER, NS, sms(), at=T0)
    await client.repair(at=SOON)
    memory_id = kept.outcomes[0].memory_id
    assert memory_id is not None
    head = stores.canonical.records.heads([memory_id])[memory_id]
    # A writer indexed version 2 and a new memory inside a transaction that then rolled back:
    # canonical never held either.
    index_in_a_transaction_that_rolls_back(
        stores,
        [
            head.model_copy(update={"version": head.version + 1, "content": "改为电话通知"}),
            head.model_copy(update={"memory_id": f"mem_{uuid.uuid4().hex}", "content": "幽灵记忆"}),
        ],
    )
    found = dict(compare(stores, SOON))
    assert sorted(found.values()) == ["orphan", "rolled_back"]
    report = await client.repair(at=SOON)  # incremental: the rows were added since the last repair
    assert report.mismatches == {"orphan": 1, "rolled_back": 1}
    assert compare(stores, SOON) == []
    assert stores.projection.state([memory_id])[memory_id].version == head.version
    hits = await client.recall(USER, [NS], query="幽灵记忆 电话通知", at=T0 + timedelta(days=1))
    assert all("幽灵" not in m.content and "电话" not in m.content for m in hits.memories)
    repairs = stores.canonical.sweeps.repairs(report.repair_id)
    assert {(r["reason"], r["result"]) for r in repairs} == {
        ("orphan", "repaired"),
        ("rolled_back", "repaired"),
    }


async def test_repair_removes_tombstoned_and_expired_rows(
    client: MemoryClient, settings: Settings
) -> None:
    stores = client.stores
    first = await client.write(USER, NS, sms(), at=T0)
    soon = dict(episode(1), expires_at=(T0 + timedelta(days=2)).isoformat())
    short = await client.write(USER, NS, soon, at=T0)
    first_id, short_id = first.outcomes[0].memory_id, short.outcomes[0].memory_id
    assert first_id
    assert short_id
    await client.repair(at=T0 + timedelta(days=1))
    # The index is restored from a snapshot taken before the deletion (SQLite's online backup,
    # safe beside the worker's open connections).
    snapshot = sqlite3.connect(":memory:")
    with closing(sqlite3.connect(settings.projection_file)) as live:
        live.backup(snapshot)
    await client.forget(USER, {"namespace": NS, "key": "notification.preference"}, at=T0)
    assert stores.projection.state([first_id]) == {}
    with closing(sqlite3.connect(settings.projection_file)) as live:
        snapshot.backup(live)
    assert first_id in stores.projection.state([first_id])
    report = await client.repair(full=True, at=T0 + timedelta(days=3))
    assert report.mismatches == {"tombstoned": 1, "expired": 1}
    assert stores.projection.state([first_id, short_id]) == {}
    assert compare(stores, T0 + timedelta(days=3)) == []


async def test_an_incremental_repair_sees_changes_and_a_full_one_sees_everything(
    client: MemoryClient,
) -> None:
    stores = client.stores
    results = [await client.write(USER, NS, episode(i), at=T0) for i in range(5)]
    first = await client.repair(at=SOON)
    assert first.full  # never repaired before: the first repair compares everything
    lost = results[0].outcomes[0].memory_id
    assert lost is not None
    # The index silently loses a row (no outbox event, no new index row): only a full compare
    # can find it, which is why the schedule's incremental repair is not the only one.
    stores.projection.remove([lost])
    incremental = await client.repair(at=SOON)
    assert not incremental.full
    assert incremental.mismatches == {}
    full = await client.repair(full=True, at=SOON)
    assert full.mismatches == {"missing": 1}
    assert full.compared >= 5
    assert_converged(stores, lost={lost})


async def test_a_new_index_is_rebuilt_in_full_by_the_next_repair(
    client: MemoryClient, settings: Settings
) -> None:
    stores = client.stores
    for i in range(6):
        await client.write(USER, NS, episode(i), at=T0)
    await client.repair(at=SOON)
    old_epoch = stores.projection.epoch
    # The index is lost (a new volume, a dropped collection): a fresh one has a new epoch.
    stores.projection.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{settings.projection_file}{suffix}").unlink(missing_ok=True)
    stores.projection = EmbeddedProjection(settings.projection_file, stores.embedder)
    assert stores.projection.epoch != old_epoch
    report = await client.repair(at=SOON)  # asked incremental, done in full
    assert report.full
    assert report.mismatches == {"missing": 6}
    assert_converged(stores)


async def test_a_large_repair_pages_heartbeats_and_continues_as_new(
    client: MemoryClient,
) -> None:
    stores = client.stores
    batch = await client.write_batch(
        [client.write_request(USER, NS, episode(i), at=T0) for i in range(45)]
    )
    assert len(batch.items) == 45
    ids = all_ids(stores)
    stores.projection.remove(ids[::3])
    from governed_memory.memory.models import RepairReport, RepairRequest

    start = client.start_for(RepairRequest(full=True, at=SOON, page_size=2, budget_pages=1))
    handle = await client.temporal.start_workflow(
        start.workflow,
        start.input,
        id=start.workflow_id,
        task_queue=start.task_queue,
        result_type=RepairReport,
    )
    report = await handle.result()
    assert report.mismatches == {"missing": len(ids[::3])}
    assert report.compared == len(ids)
    runs = [r async for r in client.temporal.list_workflows(f'WorkflowId="{handle.id}"')]
    assert len(runs) >= 2  # 23 pages of 2, 20 calls per run
    assert_converged(stores, lost=set(ids[::3]))


# ------------------------------------------------------------------ a worker killed mid-write


@pytest.fixture
def bare_client(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> MemoryClient:
    """A client with no worker in this process: the workflows run where the test puts them."""
    return MemoryClient(temporal_env.client, settings, stores)


@pytest.mark.slow  # a worker process SIGKILLed per case: CI runs them after the rest
@pytest.mark.parametrize("when", ["before-projection", "after-projection"])
async def test_a_worker_killed_between_commit_and_projection(
    bare_client: MemoryClient,
    temporal_env: WorkflowEnvironment,
    settings: Settings,
    tmp_path: Path,
    when: str,
) -> None:
    stores = bare_client.stores
    address = temporal_env.client.service_client.config.target_host
    marker = tmp_path / "killed"
    doomed = WorkerProcess(
        worker_env(settings, address, FAULT_KILL=when, FAULT_MARKER=str(marker)),
        tmp_path / "worker.log",
    ).start()
    try:
        handle = await bare_client.start_write(
            bare_client.write_request(
                USER, NS, sms(), idempotency_key=f"killed-{uuid.uuid4().hex}", at=T0
            )
        )
        assert await asyncio.to_thread(doomed.wait_dead, 120) == -9, doomed.tail()
    finally:
        doomed.kill()
    assert marker.exists()
    # The commit is durable; the index holds it or not, depending on where the worker died.
    (memory_id,) = all_ids(stores)
    held = stores.projection.state([memory_id])
    assert bool(held) == (when == "after-projection")
    assert stores.canonical.outbox.status().unprocessed >= 1
    # Another worker takes the run over: the commit is not made twice (same commit id), the
    # projection is applied once.
    async with build_worker(temporal_env.client, settings, stores):
        result = await handle.result()
    assert [o.memory_id for o in result.outcomes] == [memory_id]
    assert stores.canonical.records.heads([memory_id])[memory_id].version == 1
    assert_converged(stores)


@pytest.mark.slow  # a worker process SIGKILLed: CI runs it after the rest
async def test_a_worker_killed_after_a_deferred_write_committed_still_starts_its_review(
    bare_client: MemoryClient,
    temporal_env: WorkflowEnvironment,
    settings: Settings,
    tmp_path: Path,
) -> None:
    """The write's one local activity committed (its review row with it) and the worker died
    before Temporal heard: the run's retry finds the idempotency key decided and answers the
    stored outcome — and still starts the review, or it would wait forever with no run to
    answer or time out."""
    client, stores = bare_client, bare_client.stores
    client.register_principal(DRAFTER)
    address = temporal_env.client.service_client.config.target_host
    marker = tmp_path / "killed"
    doomed = WorkerProcess(
        worker_env(
            settings, address, FAULT_KILL="after-activity:memory.write", FAULT_MARKER=str(marker)
        ),
        tmp_path / "worker.log",
    ).start()
    try:
        handle = await client.start_write(
            client.write_request(
                DRAFTER.ref, NS, sms(), idempotency_key=f"deferred-{uuid.uuid4().hex}", at=T0
            )
        )
        assert await asyncio.to_thread(doomed.wait_dead, 120) == -9, doomed.tail()
    finally:
        doomed.kill()
    assert marker.exists()
    (review,) = stores.canonical.reviews.find("shop-a", status="open")
    async with build_worker(temporal_env.client, settings, stores):
        result = await handle.result()
        assert [(o.decision, o.review_id) for o in result.outcomes] == [("defer", review.review_id)]
        runs = [
            r async for r in client.temporal.list_workflows(f'WorkflowId="{review.workflow_id}"')
        ]
        assert len(runs) == 1
        assert runs[0].status is not None
        assert runs[0].status.name == "RUNNING"
    # the commit was not made twice: one review
    assert len(stores.canonical.reviews.find("shop-a", status=None)) == 1


# ------------------------------------------------------------------ the server restarted


async def test_every_workflow_completes_across_a_dev_server_restart(
    settings: Settings, stores: Stores, tmp_path: Path
) -> None:
    from temporalio.client import Client

    from governed_memory.memory.metrics import free_port
    from governed_memory.shell.devserver import DevServer
    from tests.codec_keys import CONVERTER

    server = DevServer(tmp_path / "temporal.db", port=free_port(), headless=True)
    server.start()
    try:
        temporal = await Client.connect(server.address, data_converter=CONVERTER)
        client = MemoryClient(temporal, settings, stores)
        client.eager = False
        tag = uuid.uuid4().hex[:8]
        async with build_worker(temporal, settings, stores):
            handles = [
                await client.start_write(
                    client.write_request(
                        USER, NS, episode(i), idempotency_key=f"restart-{i}-{tag}", at=T0
                    )
                )
                for i in range(40)
            ]
            # mid-load: the writes are started, few (if any) have finished
            crashed = server.process
            assert crashed is not None
            crashed.kill()  # SIGKILL: the server's SQLite file is all that survives
            crashed.wait()
            server.process = None
            await asyncio.sleep(1.0)
            server.start()
            results = await asyncio.wait_for(
                asyncio.gather(*(h.result() for h in handles)), timeout=180
            )
        assert len(results) == 40
        committed = {o.memory_id for r in results for o in r.outcomes}
        assert len(committed) == 40
        assert None not in committed
        assert set(all_ids(stores)) == committed
        assert_converged(stores)
    finally:
        server.stop()


def _lose_processed_mark(settings: Settings, seq: int) -> None:
    """An event whose projection was lost: its processed mark cleared, as if never applied."""
    from sqlalchemy import create_engine, text

    engine = create_engine(settings.canonical_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE memory_outbox SET processed_at = NULL WHERE seq = :s"), {"s": seq}
        )
    engine.dispose()


def scrape(port: int) -> dict[str, float]:
    """`/metrics` as {'name{label="v",...}': value}."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        body = response.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


async def test_metrics_on_the_worker_move_during_a_load(
    bare_client: MemoryClient,
    temporal_env: WorkflowEnvironment,
    settings: Settings,
    tmp_path: Path,
) -> None:
    from governed_memory.memory.metrics import free_port

    client, stores = bare_client, bare_client.stores
    port = free_port()
    address = temporal_env.client.service_client.config.target_host
    log = tmp_path / "worker.log"
    worker = WorkerProcess(
        worker_env(
            settings,
            address,
            MEMORY_METRICS_PORT=str(port),
            MEMORY_LOG_FORMAT="json",
            MEMORY_LOG_LEVEL="info",
        ),
        log,
    ).start()
    try:
        # a worker starts in seconds, but on a loaded machine (parallel test workers, the
        # embeddings extra's imports) it can take far longer: wait for it, within reason
        deadline = time.monotonic() + 120
        while True:
            try:
                before = await asyncio.to_thread(scrape, port)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"no /metrics on the worker: {worker.tail()}") from None
                await asyncio.sleep(0.2)
        results = [await client.write(USER, NS, episode(i), at=T0) for i in range(5)]
        loaded = await asyncio.to_thread(scrape, port)
        added = 'memory_writes_total{decision="add"}'
        assert loaded[added] - before.get(added, 0) == 5
        assert (
            loaded["memory_commit_seconds_count"] - before.get("memory_commit_seconds_count", 0)
            >= 5
        )
        assert loaded['memory_outbox_unprocessed{projection="embedded"}'] == 0
        assert any(name.startswith("temporal_") for name in loaded), "SDK metrics missing"

        # a projection lost after its commit: the lag shows it until the relay applies it
        last = stores.canonical.outbox.status().last_seq
        _lose_processed_mark(settings, last)
        lagging = await asyncio.to_thread(scrape, port)
        assert lagging['memory_outbox_unprocessed{projection="embedded"}'] == 1
        assert lagging['memory_projection_version_lag{projection="embedded"}'] >= 1
        assert lagging["memory_outbox_lag_seconds"] > 0
        # and a row the index lost without any event: a full repair finds and counts it
        lost = results[0].outcomes[0].memory_id
        assert lost is not None
        stores.projection.remove([lost])
        await client.repair(full=True, at=SOON)
        await client.forget(USER, {"namespace": NS}, at=T0)
        after = await asyncio.to_thread(scrape, port)
        assert after['memory_outbox_unprocessed{projection="embedded"}'] == 0
        assert after['memory_projection_version_lag{projection="embedded"}'] == 0
        assert after["memory_outbox_lag_seconds"] == 0
        repaired = 'memory_index_repair_total{reason="missing",status="repaired"}'
        assert after[repaired] - lagging.get(repaired, 0) == 1
        mismatch = "memory_canonical_index_mismatch_total"
        assert after[mismatch] - lagging.get(mismatch, 0) == 1
        done = "memory_deletion_completion_seconds_count"
        assert after[done] - lagging.get(done, 0) == 1
    finally:
        worker.kill()
    # the worker's logs: JSON, bound to the run and the tenant, never the memories' content
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    bound = [e for e in lines if "activity_type" in e]
    assert bound, lines[-5:]
    assert all(e.get("workflow_id") and e.get("run_id") and e.get("attempt") for e in bound)
    # a tenant's runs carry the tenant; the sweeps work across tenants and carry none
    tenants = {e["tenant"] for e in bound if not e["workflow_id"].startswith("sweep/")}
    assert tenants == {"shop-a"}
    texts = [str(episode(i)["content"]) for i in range(5)]
    assert not any(t in line for t in texts for line in log.read_text().splitlines())
