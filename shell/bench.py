"""`memctl bench`: latency figures printed beside the baseline measured in the same run.

- write: WriteMemory through the client, beside `Floor` (a workflow with no activity) on the same
  server and worker, both with and without eager workflow start;
- recall: governed recall (principal, namespace filter, key lookup, hybrid search, canonical
  re-check, rerank) at several sizes, beside an exact numpy scan of the same vectors.

The machine is shared and noisy: figures are medians and p95 over many runs, series are
interleaved, and targets are compared in ratios to the floor measured alongside.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from temporalio.client import Client
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from memory.models import DIRECT_EXTRACTOR, MemoryRecord, RecallQuery, WriteRequest, content_hash
from memory.retrieval import Reader
from memory.sameness import gist_of
from memory.settings import Settings
from memory.stores import Stores, open_stores
from memory.stores.projection import EmbeddedProjection
from memory.sync.relay import relay
from memory.sync.repair import begin, run_pages
from shell.client import MemoryClient
from shell.devserver import temporal_binary
from shell.eval.duplicates import DEFAULT_CORPORA
from shell.eval.duplicates import measure as measure_duplicates
from shell.temporal import SEARCH_ATTRIBUTES, search_attributes

console = Console(highlight=False)

_SUBJECTS_ZH = ["用户", "客户", "买家", "会员"]
_TOPICS_ZH = ["退款", "物流", "发票", "换货", "优惠券", "积分", "地址", "配送", "售后", "评价"]
_DETAILS_ZH = [
    "延误三天",
    "已经签收",
    "需要加急",
    "希望周末送达",
    "申请部分退款",
    "咨询保修",
    "更换颜色",
    "修改收货人",
    "重复扣款",
    "包裹破损",
]
_TOPICS_EN = [
    "refund",
    "delivery",
    "invoice",
    "exchange",
    "coupon",
    "loyalty points",
    "address",
    "shipping",
    "warranty",
    "review",
]
_DETAILS_EN = [
    "was delayed three days",
    "arrived damaged",
    "needs express handling",
    "should arrive on the weekend",
    "was charged twice",
    "asked about the warranty",
    "wants another colour",
    "changed the recipient",
    "lost the receipt",
    "prefers pickup",
]


def synthetic_text(rng: random.Random, i: int) -> str:
    if rng.random() < 0.6:
        return (
            f"{rng.choice(_SUBJECTS_ZH)}关于{rng.choice(_TOPICS_ZH)}的记录：订单 ORD-{i:08d} "
            f"{rng.choice(_DETAILS_ZH)}，{rng.choice(_TOPICS_ZH)}{rng.choice(_DETAILS_ZH)}"
        )
    return (
        f"The customer's {rng.choice(_TOPICS_EN)} for order ORD-{i:08d} "
        f"{rng.choice(_DETAILS_EN)}; also {rng.choice(_TOPICS_EN)} {rng.choice(_DETAILS_EN)}"
    )


def synthetic_queries(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        if rng.random() < 0.6:
            out.append(f"{rng.choice(_TOPICS_ZH)} {rng.choice(_DETAILS_ZH)}")
        else:
            out.append(f"{rng.choice(_TOPICS_EN)} {rng.choice(_DETAILS_EN)}")
    return out


def _stats(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
    }


# ------------------------------------------------------------------------------ write


async def bench_write(writes: int) -> dict[str, Any]:
    from shell.worker import build_worker
    from workflows.floor import Floor

    data = Path(tempfile.mkdtemp(prefix="memory-bench-write-"))
    settings = Settings(data_dir=data, task_queue="bench-write")
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=str(temporal_binary()),
        data_converter=pydantic_data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
    )
    stores = open_stores(settings)
    results: dict[str, Any] = {}
    try:
        worker = build_worker(env.client, settings, stores)
        # The floor workflow has its own queue, so the service's worker stays as in production.
        worker_floor = _floor_worker(env.client, Floor)
        async with worker, worker_floor:
            client = MemoryClient(env.client, settings, stores)
            utterances = [
                "以后物流更新请优先短信通知",
                "Please email me from now on.",
                "有事打我电话就行",
                "好的，谢谢！",
            ]
            for eager, mode in ((True, "propose"), (True, "observe"), (False, "propose")):
                client.eager = eager
                floor: list[float] = []
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
                    await env.client.execute_workflow(
                        Floor.run,
                        request,
                        id=f"floor/{uuid.uuid4().hex}",
                        task_queue="bench-floor",
                        request_eager_start=eager,
                        # started exactly like a write, search attributes included
                        search_attributes=search_attributes(request.tenant, "write"),
                    )
                    t1 = time.perf_counter()
                    await client.run_write(request)
                    t2 = time.perf_counter()
                    f_ms, w_ms = (t1 - t0) * 1000.0, (t2 - t1) * 1000.0
                    if i >= 20:  # warm-up excluded
                        floor.append(f_ms)
                        write.append(w_ms)
                name = f"{mode}, {'eager' if eager else 'not eager'}"
                fs, ws = _stats(floor), _stats(write)
                results[name] = {
                    "floor": fs,
                    "write": ws,
                    "ratio_p50": round(ws["p50_ms"] / fs["p50_ms"], 2),
                    "ratio_p95": round(ws["p95_ms"] / fs["p95_ms"], 2),
                }
    finally:
        stores.close()
        await env.shutdown()
    return results


def _floor_worker(client: Client, floor: type[Any]) -> Any:
    import concurrent.futures

    from temporalio.worker import Worker

    return Worker(
        client,
        task_queue="bench-floor",
        workflows=[floor],
        activity_executor=concurrent.futures.ThreadPoolExecutor(max_workers=2),
    )


# ------------------------------------------------------------------------------ background


async def bench_background(
    writes: int, batch_size: int = 100, in_flight: int = 4
) -> dict[str, Any]:
    """Committed writes per second across many subjects: one workflow per write (started, not
    awaited one by one) beside WriteBatch runs of `batch_size`; then counts what was stored."""
    import asyncio

    from shell.worker import build_worker

    data = Path(tempfile.mkdtemp(prefix="memory-bench-bg-"))
    settings = Settings(data_dir=data, task_queue="bench-bg")
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=str(temporal_binary()),
        data_converter=pydantic_data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
    )
    stores = open_stores(settings)
    results: dict[str, Any] = {}
    try:
        async with build_worker(env.client, settings, stores):
            client = MemoryClient(env.client, settings, stores)
            client.eager = False  # background: the submitting process hosts no worker

            def requests(series: str, n: int) -> list[WriteRequest]:
                return [
                    client.write_request(
                        f"user:bench/{series}{i}",
                        f"tenant/bench/user/{series}{i}",
                        {
                            "kind": "profile",
                            "key": "notification.preference",
                            "structured_value": {"channel": ("sms", "email", "phone")[i % 3]},
                            "content": f"prefers channel {i % 3}",
                        },
                    )
                    for i in range(n)
                ]

            single = requests("s", max(writes // 4, 100))
            gate = asyncio.Semaphore(64)

            async def one(request: WriteRequest) -> Any:
                async with gate:
                    handle = await client.start_write(request)
                    return await handle.result()

            t0 = time.perf_counter()
            done = await asyncio.gather(*(one(r) for r in single))
            single_s = time.perf_counter() - t0
            committed = sum(1 for r in done if r.outcome.decision in ("add", "update"))

            batched = requests("b", writes)
            chunks = [batched[i : i + batch_size] for i in range(0, len(batched), batch_size)]
            lanes = asyncio.Semaphore(in_flight)

            async def run_chunk(chunk: list[WriteRequest]) -> Any:
                async with lanes:
                    return await client.write_batch(chunk)

            t0 = time.perf_counter()
            outs = await asyncio.gather(*(run_chunk(c) for c in chunks))
            batch_s = time.perf_counter() - t0
            batch_committed = sum(
                1
                for out in outs
                for item in out.items
                for o in item.outcomes
                if o.decision in ("add", "update")
            )
            stored = sum(
                1
                for r in batched
                if stores.canonical.records.key_records(
                    [r.namespace], ["notification.preference"], ["active"]
                )
            )
            results = {
                "one_workflow_per_write": {
                    "writes": len(single),
                    "committed": committed,
                    "seconds": round(single_s, 2),
                    "per_second": round(committed / single_s, 1),
                },
                "write_batch": {
                    "writes": len(batched),
                    "batch_size": batch_size,
                    "batches_in_flight": in_flight,
                    "committed": batch_committed,
                    "stored_and_active": stored,
                    "seconds": round(batch_s, 2),
                    "per_second": round(batch_committed / batch_s, 1),
                },
            }
    finally:
        stores.close()
        await env.shutdown()
    return results


# ------------------------------------------------------------------------------ delete


@asynccontextmanager
async def _service(name: str) -> AsyncIterator[tuple[MemoryClient, WorkflowEnvironment]]:
    """A dev server, fresh stores and the service's worker, as in production."""
    from shell.worker import build_worker

    data = Path(tempfile.mkdtemp(prefix=f"memory-bench-{name}-"))
    settings = Settings(data_dir=data, task_queue=f"bench-{name}", allow_clock_override=True)
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=str(temporal_binary()),
        data_converter=pydantic_data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
    )
    stores = open_stores(settings)
    try:
        async with build_worker(env.client, settings, stores):
            yield MemoryClient(env.client, settings, stores), env
    finally:
        stores.close()
        await env.shutdown()


async def _subject_with_history(client: MemoryClient, user: str, n: int) -> str:
    """A user with `n` memories across kinds: episodes from their messages (threads of 100,
    each summarised), profile facts and semantic notes citing the same messages."""
    from shell.importer import ImportMessage, as_episodes, as_history

    rng = random.Random(n)
    namespace = f"tenant/bench/user/{user}"
    at = datetime(2026, 7, 1, tzinfo=UTC)
    messages = [
        ImportMessage(
            thread=f"{user}-t{i // 100}",
            position=i % 100 + 1,
            speaker="user" if i % 2 == 0 else "assistant",
            time=at + timedelta(minutes=i),
            text=synthetic_text(rng, i),
            namespace=namespace,
        )
        for i in range(2 * n)  # the assistant's half says nothing to remember
    ]
    client.stores.canonical.messages.import_many(as_history(messages))
    requests = as_episodes(messages, client.write_request, keep_days=None, now=at)
    episodes = n - n // 5
    requests = requests[:episodes]
    for i in range(n - episodes):  # a fifth: profile facts and semantic notes
        source = requests[i].candidate
        assert source is not None
        requests.append(
            client.write_request(
                f"user:bench/{user}",
                namespace,
                {
                    "kind": "profile" if i % 2 else "semantic",
                    "key": f"bench.fact_{i}" if i % 2 else None,
                    "structured_value": {"value": i} if i % 2 else None,
                    "content": f"{source.content}（事实 {i}）",
                    "source_type": "user_assertion",
                    "source_refs": source.source_refs,
                },
                idempotency_key=f"fact:{user}:{i}",
            )
        )
    for i in range(0, len(requests), 500):
        await client.write_batch(requests[i : i + 500])
    threads = sorted({m.thread for m in messages})
    for thread in threads:
        await client.summarize("agent:bench/summarizer", thread, at=at + timedelta(days=1))
    return f"user:{user}"


async def bench_delete(sizes: Sequence[int], repeats: int = 3) -> dict[str, Any]:
    """Request → passed receipt for a subject with N memories (and their messages and
    summaries), beside the no-activity floor workflow measured on the same server."""
    from workflows.floor import Floor

    results: dict[str, Any] = {}
    async with _service("delete") as (client, env):
        client.register_principal(
            {
                "type": "agent",
                "tenant": "bench",
                "id": "summarizer",
                "read": ["tenant/bench/**"],
                "write": ["tenant/bench/**"],
            }
        )
        floor: list[float] = []
        async with _floor_worker(env.client, Floor):
            for i in range(25):
                request = client.write_request(
                    "user:bench/floor", "tenant/bench/user/floor", text="好的"
                )
                t0 = time.perf_counter()
                await env.client.execute_workflow(
                    Floor.run, request, id=f"floor/{uuid.uuid4().hex}", task_queue="bench-floor"
                )
                if i >= 5:
                    floor.append((time.perf_counter() - t0) * 1000.0)
        results["floor"] = _stats(floor)
        for n in sizes:
            runs: list[float] = []
            receipt = None
            for rep in range(repeats):
                user = f"d{n}r{rep}"
                subject = await _subject_with_history(client, user, n)
                t0 = time.perf_counter()
                receipt = await client.forget(
                    f"user:bench/{user}",
                    {"subject_ref": subject},
                    at=datetime(2026, 7, 10, tzinfo=UTC),
                )
                runs.append((time.perf_counter() - t0) * 1000.0)
                if receipt.verification_status != "passed":
                    raise RuntimeError(f"deletion of {n} did not pass: {receipt.probes}")
            assert receipt is not None
            results[str(n)] = {
                "runs_ms": [round(r, 1) for r in runs],
                "median_ms": round(statistics.median(runs), 1),
                "ratio_to_floor_p50": round(
                    statistics.median(runs) / results["floor"]["p50_ms"], 1
                ),
                "records": receipt.canonical_records,
                "versions": receipt.versions_erased,
                "messages": receipt.messages_erased,
                "summaries": receipt.derived_records_invalidated,
                "probes": len(receipt.probes),
            }
    return results


# ------------------------------------------------------------------------------ recall


def synthetic_records(
    tenant: str, namespace: str, n: int, rng: random.Random
) -> list[MemoryRecord]:
    at = datetime(2026, 7, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        text = synthetic_text(rng, i)
        out.append(
            MemoryRecord(
                memory_id=f"mem_{uuid.uuid4().hex}",
                tenant_id=tenant,
                namespace=namespace,
                subject_ref="user:bench",
                kind="episodic" if i % 4 else "semantic",
                key=None,
                content=text,
                structured_value=None,
                source_refs=[f"msg://bench/{i}"],
                source_type="user_assertion",
                confidence=0.9,
                sensitivity="internal",
                valid_from=at - timedelta(minutes=i),
                valid_to=None,
                recorded_at=at,
                expires_at=None,
                consent_ref=None,
                status="active",
                version=1,
                content_hash=content_hash(text),
                gist=gist_of(text),
                extractor=DIRECT_EXTRACTOR,
                written_by="service:bench/loader",
            )
        )
    return out


def load(stores: Stores, records: list[MemoryRecord], vectors: Any = None) -> None:
    """Bulk-load records into canonical (with their outbox events) and the projection."""
    at = datetime(2026, 7, 1, tzinfo=UTC)
    for i in range(0, len(records), 5000):
        batch = records[i : i + 5000]
        seqs = stores.canonical.commits.load(batch, at)
        stores.projection.upsert(batch, None if vectors is None else vectors[i : i + 5000])
        stores.canonical.outbox.mark_processed(seqs, at)


def _measure_recall(
    stores: Stores, namespace: str, texts: list[str], at: datetime
) -> tuple[list[float], list[float]]:
    reader = Reader(stores)
    matrix = np.frombuffer(
        b"".join(
            row[0]
            for row in stores.projection._conn().execute(  # type: ignore[attr-defined]
                "SELECT embedding FROM proj_memories WHERE namespace = ?", (namespace,)
            )
        ),
        dtype=np.float32,
    ).reshape(-1, stores.embedder.dim)
    recall_ms: list[float] = []
    scan_ms: list[float] = []
    for i, text in enumerate(texts):
        q = RecallQuery(principal="user:bench/u1", namespaces=[namespace], query=text, k=5, at=at)
        t0 = time.perf_counter()
        result = reader.recall(q, use_cache=False)
        t1 = time.perf_counter()
        vector = stores.embedder.embed([text])[0]
        scores = matrix @ vector
        top = np.argpartition(-scores, 5)[:5]
        _ = top[np.argsort(-scores[top])]
        t2 = time.perf_counter()
        if i >= 20:
            recall_ms.append((t1 - t0) * 1000)
            scan_ms.append((t2 - t1) * 1000)
        assert result.memories, "recall returned nothing on a loaded namespace"
        assert all(m.namespace == namespace for m in result.memories)
    return recall_ms, scan_ms


def _measure_context(stores: Stores, namespace: str, texts: list[str], at: datetime) -> list[float]:
    from memory.context import ContextBudget, ContextBuilder, ContextRequest

    builder = ContextBuilder(Reader(stores))
    samples = []
    for i, text in enumerate(texts):
        request = ContextRequest(
            principal="user:bench/u1",
            namespaces=[namespace],
            task=text,
            budget=ContextBudget(total_tokens=4000, reserved_output_tokens=800),
            instructions="你是客服助手。",
            agent_state={"order_id": "ORD-1", "intent": "refund"},
            at=at,
        )
        builder.reader.cache = type(builder.reader.cache)(0, 0)  # measure without the cache
        t0 = time.perf_counter()
        package = builder.build(request)
        if i >= 20:
            samples.append((time.perf_counter() - t0) * 1000)
        assert package.total_tokens <= 4000
    return samples


def bench_recall(sizes: list[int], queries: int, tenants: int = 100) -> dict[str, Any]:
    """Per size: recall and a numpy scan of the same vectors, alone, then with `tenants` other
    tenants loaded (each the same size, capped at 10k rows to keep the setup within minutes,
    holding the same texts: the nearest neighbours of every query live in other tenants)."""
    results: dict[str, Any] = {}
    at = datetime(2026, 8, 1, tzinfo=UTC)
    for size in sizes:
        data = Path(tempfile.mkdtemp(prefix=f"memory-bench-recall-{size}-"))
        stores = open_stores(Settings(data_dir=data))
        try:
            rng = random.Random(size)
            namespace = "tenant/bench/user/u1"
            t = time.perf_counter()
            mine = synthetic_records("bench", namespace, size, rng)
            load(stores, mine)
            load_s = time.perf_counter() - t
            texts = synthetic_queries(rng, queries + 20)
            alone = _measure_recall(stores, namespace, texts, at)
            entry: dict[str, Any] = {"load_seconds": round(load_s, 1)}
            entry["alone"] = _series(*alone)
            if size <= 10_000:
                entry["context_build"] = _stats(_measure_context(stores, namespace, texts, at))
            noise_size = min(size, 10_000)
            t = time.perf_counter()
            template = mine[:noise_size]
            vectors = stores.embedder.embed([r.content for r in template])
            for n in range(tenants):
                tenant = f"other{n:03d}"
                others = [
                    r.model_copy(
                        update={
                            "memory_id": f"mem_{uuid.uuid4().hex}",
                            "tenant_id": tenant,
                            "namespace": f"tenant/{tenant}/user/u1",
                        }
                    )
                    for r in template
                ]
                load(stores, others, vectors)
            entry["other_tenants"] = {
                "tenants": tenants,
                "rows_each": noise_size,
                "load_seconds": round(time.perf_counter() - t, 1),
            }
            entry["isolated"] = _series(*_measure_recall(stores, namespace, texts, at))
            results[str(size)] = entry
            console.print(
                f"· recall at {size}: alone p95 {entry['alone']['recall']['p95_ms']} ms, with "
                f"{tenants} other tenants p95 {entry['isolated']['recall']['p95_ms']} ms"
            )
        finally:
            stores.close()
    return results


def _series(recall_ms: list[float], scan_ms: list[float]) -> dict[str, Any]:
    rs, ss = _stats(recall_ms), _stats(scan_ms)
    return {
        "recall": rs,
        "numpy_scan": ss,
        "ratio_p50": round(rs["p50_ms"] / ss["p50_ms"], 2),
        "ratio_p95": round(rs["p95_ms"] / ss["p95_ms"], 2),
    }


# ------------------------------------------------------------------------------ projection


def bench_projection(sizes: Sequence[int]) -> dict[str, Any]:
    """Per size, on the embedded stack (the domain functions the sweep activities call):

    - relay: N committed memories whose outbox events are unprocessed, applied by the relay
      (read heads, embed, index, mark) — beside the bare index write of the same records into
      a second, empty projection (embed + upsert, nothing read or marked);
    - compare: a full repair of a store in which nothing differs — beside reading both sides
      (canonical head digests and index rows, paged the same way) without comparing;
    - repair: the same full repair after the index lost 1% of its rows.
    """
    results: dict[str, Any] = {}
    at = datetime(2026, 7, 2, tzinfo=UTC)
    for size in sizes:
        data = Path(tempfile.mkdtemp(prefix=f"memory-bench-projection-{size}-"))
        stores = open_stores(Settings(data_dir=data))
        bare = EmbeddedProjection(data / "bare-index.db", stores.embedder)
        try:
            rng = random.Random(size)
            records = [
                r
                for ns in range(10)
                for r in synthetic_records("bench", f"tenant/bench/user/u{ns}", size // 10, rng)
            ]
            for i in range(0, len(records), 5000):
                stores.canonical.commits.load(records[i : i + 5000], at)
            t = time.perf_counter()
            for i in range(0, len(records), 1000):
                bare.upsert(records[i : i + 1000])
            bare_s = time.perf_counter() - t
            t = time.perf_counter()
            relayed = relay(stores, batch_size=1000)
            relay_s = time.perf_counter() - t
            if relayed.applied != len(records):
                raise RuntimeError(f"the relay applied {relayed.applied} of {len(records)}")

            t = time.perf_counter()
            _, totals = run_pages(
                stores, "bench/compare", begin(stores, full=True), at, page_size=2000
            )
            compare_s = time.perf_counter() - t
            if totals.compared != len(records) or totals.mismatches:
                raise RuntimeError(f"the compare of an equal index found {totals}")
            t = time.perf_counter()
            after: str | None = None
            while True:
                heads = stores.canonical.records.digests(after, 2000)
                stores.projection.rows_in_order(
                    after, heads[-1].memory_id if len(heads) == 2000 else None, 20_000
                )
                if len(heads) < 2000:
                    break
                after = heads[-1].memory_id
            read_s = time.perf_counter() - t

            lost = [r.memory_id for r in records[::100]]
            stores.projection.remove(lost)
            t = time.perf_counter()
            _, totals = run_pages(
                stores, "bench/repair", begin(stores, full=True), at, page_size=2000
            )
            repair_s = time.perf_counter() - t
            if totals.mismatches != {"missing": len(lost)}:
                raise RuntimeError(f"the repair of {len(lost)} lost rows found {totals}")
            results[str(size)] = {
                "relay": {
                    "events": relayed.events,
                    "seconds": round(relay_s, 2),
                    "events_per_second": round(relayed.events / relay_s),
                    "bare_index_seconds": round(bare_s, 2),
                    "bare_per_second": round(len(records) / bare_s),
                    "ratio": round(relay_s / bare_s, 2),
                },
                "compare": {
                    "records": totals.compared,
                    "seconds": round(compare_s, 2),
                    "read_only_seconds": round(read_s, 2),
                    "ratio": round(compare_s / read_s, 2),
                },
                "repair": {"missing": len(lost), "seconds": round(repair_s, 2)},
            }
            console.print(
                f"· projection at {size}: relay {results[str(size)]['relay']['events_per_second']}"
                f" events/s, full compare {round(compare_s, 2)} s"
            )
        finally:
            bare.close()
            stores.close()
    return results


# ------------------------------------------------------------------------------ report


def _print_duplicates(r: dict[str, Any]) -> None:
    table = Table(
        title="duplicate decisions — the write pipeline beside the former rule (cosine ≥ 0.92)"
    )
    for col in ("corpus", "kind", "class", "pairs", "DUPLICATE now", "DUPLICATE before"):
        table.add_column(col, justify="right")
    for c in r["classes"]:
        table.add_row(
            c["corpus"],
            "true" if c["duplicate"] else "false",
            c["class"],
            str(c["pairs"]),
            str(c["product"]),
            str(c["baseline"]),
        )
    console.print(table)
    summary = Table(title="duplicates — summary (targets: 0 false, ≥ 95 % of true caught)")
    for col in (
        "corpus",
        "rule",
        "false dups",
        "true caught",
        "rate",
        "rate, same words",
    ):
        summary.add_column(col, justify="right")
    for corpus, rules in r["summary"].items():
        for who, x in rules.items():
            summary.add_row(
                corpus,
                "now" if who == "product" else "before",
                f"{x['false_duplicates']}/{x['false_pairs']}",
                f"{x['true_caught']}/{x['true_pairs']}",
                str(x["true_rate"]),
                str(x["true_rate_same_words"]),
            )
    console.print(summary)
    if r["refused_first"]:
        console.print(
            f"{len(r['refused_first'])} pairs left out: their first statement was refused by "
            "policy (" + ", ".join(sorted({x["first"] for x in r["refused_first"]})) + ")"
        )
    load = r["event_load"]
    console.print(
        f"600-event load: {load['memories']} memories kept; DUPLICATE now "
        f"{load['product_duplicates']}, before {load['baseline_duplicates']} "
        f"(write p50 {r['write_ms_p50']} ms, pipeline + commit + projection, no Temporal)"
    )


def _print(report: dict[str, Any]) -> None:
    if "duplicates" in report:
        _print_duplicates(report["duplicates"])
    if "write" in report:
        table = Table(title="write latency (ms) — WriteMemory beside the no-activity floor")
        for col in ("start", "floor p50", "floor p95", "write p50", "write p95", "×p50", "×p95"):
            table.add_column(col, justify="right")
        for name, r in report["write"].items():
            table.add_row(
                name,
                str(r["floor"]["p50_ms"]),
                str(r["floor"]["p95_ms"]),
                str(r["write"]["p50_ms"]),
                str(r["write"]["p95_ms"]),
                str(r["ratio_p50"]),
                str(r["ratio_p95"]),
            )
        console.print(table)
    if "background" in report:
        table = Table(title="background throughput — committed writes per second")
        for col in ("mode", "writes", "committed", "seconds", "writes/s"):
            table.add_column(col, justify="right")
        for mode, r in report["background"].items():
            table.add_row(
                mode, str(r["writes"]), str(r["committed"]), str(r["seconds"]), str(r["per_second"])
            )
        console.print(table)
    if "delete" in report:
        floor = report["delete"]["floor"]
        table = Table(
            title=f"deletion — request to passed receipt (ms); floor workflow p50 {floor['p50_ms']}"
        )
        for col in ("memories", "median", "runs", "×floor", "versions", "messages", "summaries"):
            table.add_column(col, justify="right")
        for size, r in report["delete"].items():
            if size == "floor":
                continue
            table.add_row(
                size,
                str(r["median_ms"]),
                " ".join(str(x) for x in r["runs_ms"]),
                str(r["ratio_to_floor_p50"]),
                str(r["versions"]),
                str(r["messages"]),
                str(r["summaries"]),
            )
        console.print(table)
    if "projection" in report:
        table = Table(title="projection sweeps — outbox relay and full compare (embedded stack)")
        for col in (
            "memories",
            "relay events/s",
            "bare index/s",
            "×bare",
            "compare s",
            "read-only s",
            "×read",
            "repair 1% s",
        ):
            table.add_column(col, justify="right")
        for size, r in report["projection"].items():
            table.add_row(
                size,
                str(r["relay"]["events_per_second"]),
                str(r["relay"]["bare_per_second"]),
                str(r["relay"]["ratio"]),
                str(r["compare"]["seconds"]),
                str(r["compare"]["read_only_seconds"]),
                str(r["compare"]["ratio"]),
                str(r["repair"]["seconds"]),
            )
        console.print(table)
    if "recall" in report:
        table = Table(title="recall latency (ms) — governed recall beside an exact numpy scan")
        for col in (
            "memories",
            "other tenants",
            "recall p50",
            "recall p95",
            "scan p50",
            "scan p95",
            "×p50",
            "×p95",
            "context p95",
        ):
            table.add_column(col, justify="right")
        for size, r in report["recall"].items():
            for series in ("alone", "isolated"):
                x = r[series]
                others = (
                    "0"
                    if series == "alone"
                    else (f"{r['other_tenants']['tenants']}×{r['other_tenants']['rows_each']}")
                )
                context = r.get("context_build", {}).get("p95_ms", "") if series == "alone" else ""
                table.add_row(
                    size,
                    others,
                    str(x["recall"]["p50_ms"]),
                    str(x["recall"]["p95_ms"]),
                    str(x["numpy_scan"]["p50_ms"]),
                    str(x["numpy_scan"]["p95_ms"]),
                    str(x["ratio_p50"]),
                    str(x["ratio_p95"]),
                    str(context),
                )
        console.print(table)


async def run_bench(
    settings: Settings,
    what: str,
    *,
    writes: int,
    sizes: list[int],
    queries: int,
    out: Path,
    delete_sizes: tuple[int, ...] = (10, 100, 1000),
    projection_sizes: tuple[int, ...] = (10_000, 100_000),
    corpora: Sequence[Path] = (),
) -> dict[str, Any]:
    report: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat(), "machine": _machine()}
    if what in ("write", "all"):
        console.print(f"· write: {writes} measured writes per series (after 20 warm-up)")
        report["write"] = await bench_write(writes)
    if what in ("background", "all"):
        console.print(f"· background: {writes * 10} writes in batches, beside one workflow each")
        report["background"] = await bench_background(writes * 10)
    if what in ("recall", "all"):
        report["recall"] = bench_recall(sizes, queries)
    if what in ("projection", "all"):
        console.print(f"· projection: relay and compare at {', '.join(map(str, projection_sizes))}")
        report["projection"] = bench_projection(projection_sizes)
    if what in ("delete", "all"):
        console.print(f"· delete: subjects of {', '.join(map(str, delete_sizes))} memories")
        report["delete"] = await bench_delete(delete_sizes)
    if what in ("duplicates", "all"):
        console.print("· duplicates: corpus pairs and a 600-event load through the write pipeline")
        report["duplicates"] = measure_duplicates(list(corpora or DEFAULT_CORPORA))
    _print(report)
    _write_report(out, report)
    console.print(f"report written to {out}")
    return report


def _machine() -> dict[str, Any]:
    import os
    import platform

    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "system": platform.platform(),
    }


def _write_report(out: Path, report: dict[str, Any]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
