"""write and background: WriteMemory beside the no-activity floor; WriteBatch throughput."""

from __future__ import annotations

import time
import uuid
from typing import Any

from temporalio.client import Client

from governed_memory.memory.models import WriteRequest, cut
from governed_memory.shell import heap
from governed_memory.shell.bench.data import (
    _stats,
)
from governed_memory.shell.bench.service import service
from governed_memory.shell.temporal import search_attributes


async def bench_write(writes: int) -> dict[str, Any]:
    """WriteMemory through the client beside the floor (a workflow with no activity) and the
    floor with one local activity that does nothing, each write between them, on one server."""
    from governed_memory.shell.bench.floor import Floor, FloorLocal

    results: dict[str, Any] = {}
    # The floor workflows have their own queue, so the service's worker stays as in production.
    async with service("write") as (client, env), floor_worker(env.client, Floor, FloorLocal):
        heap.settle()  # started, as a worker process settles once it has (`shell.heap`)
        utterances = [
            "以后物流更新请优先短信通知",
            "Please email me from now on.",
            "有事打我电话就行",
            "好的，谢谢！",
        ]
        for eager, mode in ((True, "propose"), (True, "observe"), (False, "propose")):
            client.eager = eager
            floor: list[float] = []
            local: list[float] = []
            write: list[float] = []
            for i in range(writes + 20):
                ns = f"tenant/bench/user/{mode}{i % 50}"
                channel = ("sms", "email", "phone")[i % 3]
                if mode == "observe":
                    request = client.write_request(
                        f"user:bench/{mode}{i % 50}", ns, text=utterances[i % 4], thread="t"
                    )
                else:
                    request = client.write_request(
                        f"user:bench/{mode}{i % 50}",
                        ns,
                        {
                            "kind": "profile",
                            "key": "notification.preference",
                            "structured_value": {"channel": channel},
                            "content": f"prefers {channel} notifications",
                        },
                    )
                t0 = time.perf_counter()
                await _floor(env.client, Floor.run, request, eager)
                t1 = time.perf_counter()
                await client.run_write(request)
                t2 = time.perf_counter()
                await _floor(env.client, FloorLocal.run, request, eager)
                t3 = time.perf_counter()
                if i >= 20:  # warm-up excluded
                    floor.append((t1 - t0) * 1000.0)
                    write.append((t2 - t1) * 1000.0)
                    local.append((t3 - t2) * 1000.0)
            name = f"{mode}, {'eager' if eager else 'not eager'}"
            fs, ls, ws = _stats(floor), _stats(local), _stats(write)
            results[name] = {
                "floor": fs,
                "floor_local_activity": ls,
                "write": ws,
                "ratio_p50": round(ws["p50_ms"] / fs["p50_ms"], 2),
                "ratio_p95": round(ws["p95_ms"] / fs["p95_ms"], 2),
                "local_activity_ratio_p50": round(ls["p50_ms"] / fs["p50_ms"], 2),
            }
    return results


async def _floor(client: Client, run: Any, request: WriteRequest, eager: bool) -> None:
    """One run of a floor workflow, started exactly like a write (search attributes included)."""
    await client.execute_workflow(
        run,
        request,
        id=f"floor/{uuid.uuid4().hex}",
        task_queue="bench-floor",
        request_eager_start=eager,
        search_attributes=search_attributes(request.tenant, "write"),
    )


def floor_worker(client: Client, *floors: type[Any]) -> Any:
    import concurrent.futures

    from temporalio.worker import Worker
    from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

    from governed_memory.shell.bench.floor import nothing

    # The floor's module sits in the bench package, whose other modules (the stores, the
    # reports) a workflow sandbox must not import afresh: they come from this process.
    restrictions = SandboxRestrictions.default.with_passthrough_modules("governed_memory")
    return Worker(
        client,
        task_queue="bench-floor",
        workflows=list(floors),
        activities=[nothing],
        workflow_runner=SandboxedWorkflowRunner(restrictions=restrictions),
        activity_executor=concurrent.futures.ThreadPoolExecutor(max_workers=2),
    )


# ------------------------------------------------------------------------------ background


async def bench_background(
    writes: int, batch_size: int = 100, in_flight: int = 4
) -> dict[str, Any]:
    """Committed writes per second across many subjects: one workflow per write (started, not
    awaited one by one) beside WriteBatch runs of `batch_size`; then counts what was stored.
    The worker runs in a process of its own, as deployed: the submitting side (its door's token
    checks and quota counts) is not the worker's work. Then the same batches with two worker
    processes on the task queue (twice the batches in flight): how ingestion scales out; and
    the one-worker batches again with the worker on CPython's default garbage collector (the
    service settles it once started, `shell.heap`). Every write says something different, so an
    embedding model embeds each one (its recent-vector cache never answers for another)."""
    import asyncio

    run = uuid.uuid4().hex[:6]  # a store kept between runs (Postgres) holds no earlier run's
    async with service("bg", worker_process=True) as (client, _):
        client.eager = False  # background: the submitting process hosts no worker
        single = _profile_writes(client, f"s{run}", max(writes // 4, 100))
        gate = asyncio.Semaphore(64)

        async def one(request: WriteRequest) -> Any:
            async with gate:
                handle = await client.start_write(request)
                return await handle.result()

        t0 = time.perf_counter()
        done = await asyncio.gather(*(one(r) for r in single))
        single_s = time.perf_counter() - t0
        committed = sum(1 for r in done if r.outcome.decision in ("add", "update"))
        results: dict[str, Any] = {
            "one_workflow_per_write": {
                "worker": "own process",
                "embedder": client.stores.embedder.name,
                "writes": len(single),
                "committed": committed,
                "seconds": round(single_s, 2),
                "per_second": round(committed / single_s, 1),
            },
            "write_batch": await _batch_series(client, f"b{run}", writes, batch_size, in_flight),
        }
    async with service("bg2", worker_process=True, worker_processes=2) as (client, _):
        client.eager = False
        results["write_batch, 2 worker processes"] = await _batch_series(
            client, f"b2{run}", writes, batch_size, 2 * in_flight
        )
    async with service("bg3", worker_process=True, gc_settle=False) as (client, _):
        client.eager = False
        results["write_batch, CPython's default gc"] = await _batch_series(
            client, f"b3{run}", writes, batch_size, in_flight
        )
    return results


def _profile_writes(client: Any, series: str, n: int) -> list[WriteRequest]:
    """`n` writes of a contact preference, each by a subject of its own and worded apart."""
    return [
        client.write_request(
            f"user:bench/{series}{i}",
            f"tenant/bench/user/{series}{i}",
            {
                "kind": "profile",
                "key": "notification.preference",
                "structured_value": {"channel": ("sms", "email", "phone")[i % 3]},
                "content": f"prefers {('sms', 'email', 'phone')[i % 3]} for updates"
                f" ({series} import line {i})",
            },
        )
        for i in range(n)
    ]


async def _batch_series(
    client: Any, series: str, writes: int, batch_size: int, in_flight: int
) -> dict[str, Any]:
    """`writes` writes through WriteBatch runs of `batch_size`, `in_flight` at once: committed
    per second, and how many of them the canonical store then holds active. Each series writes
    as subjects of its own (`series`), so that on a canonical store the series share (Postgres)
    one series' writes are not the next one's duplicates."""
    import asyncio

    batched = _profile_writes(client, series, writes)
    lanes = asyncio.Semaphore(in_flight)

    async def run_chunk(chunk: list[WriteRequest]) -> Any:
        async with lanes:
            return await client.write_batch(chunk)

    t0 = time.perf_counter()
    outs = await asyncio.gather(*(run_chunk(c) for c in cut(batched, batch_size)))
    batch_s = time.perf_counter() - t0
    committed = sum(
        1
        for out in outs
        for item in out.items
        for o in item.outcomes
        if o.decision in ("add", "update")
    )
    records = client.stores.canonical.records
    stored = sum(
        1
        for r in batched
        if records.key_records([r.namespace], ["notification.preference"], ["active"])
    )
    return {
        "worker": "own process",
        "embedder": client.stores.embedder.name,
        "writes": len(batched),
        "batch_size": batch_size,
        "batches_in_flight": in_flight,
        "committed": committed,
        "stored_and_active": stored,
        "seconds": round(batch_s, 2),
        "per_second": round(committed / batch_s, 1),
    }


# ------------------------------------------------------------------------------ delete
