"""recall: governed recall at several sizes beside an exact numpy scan; context building."""

from __future__ import annotations

import gc
import random
import shutil
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from governed_memory.memory.models import RecallQuery
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.shell import heap
from governed_memory.shell.bench.data import (
    _stats,
    load,
    synthetic_queries,
    synthetic_records,
)
from governed_memory.shell.bench.report import console


def _measure_recall(
    stores: Stores, namespace: str, texts: list[str], at: datetime, k: int = 5
) -> tuple[list[float], list[float], list[float]]:
    """Recall of `k` memories, the numpy scan for its top `k`, and recall again with no graph
    walk, per query."""
    reader = Reader(stores)
    walking = stores.policy
    plain = walking.model_copy(
        update={"retrieval": walking.retrieval.model_copy(update={"graph_hops": 0})}
    )
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
    plain_ms: list[float] = []
    for i, text in enumerate(texts):
        q = RecallQuery(principal="user:bench/u1", namespaces=[namespace], query=text, k=k, at=at)
        t0 = time.perf_counter()
        result = reader.recall(q, use_cache=False)
        t1 = time.perf_counter()
        vector = stores.embedder.embed([text])[0]
        scores = matrix @ vector
        top = np.argpartition(-scores, k)[:k]
        _ = top[np.argsort(-scores[top])]
        t2 = time.perf_counter()
        stores.policy = plain
        try:
            reader.recall(q, use_cache=False)
        finally:
            stores.policy = walking
        t3 = time.perf_counter()
        if i >= 20:
            recall_ms.append((t1 - t0) * 1000)
            scan_ms.append((t2 - t1) * 1000)
            plain_ms.append((t3 - t2) * 1000)
        assert result.memories, "recall returned nothing on a loaded namespace"
        assert all(m.namespace == namespace for m in result.memories)
    return recall_ms, scan_ms, plain_ms


def _measure_context(stores: Stores, namespace: str, texts: list[str], at: datetime) -> list[float]:
    from governed_memory.memory.context import ContextBuilder
    from governed_memory.memory.models.context import ContextBudget, ContextRequest

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
    holding the same texts: the nearest neighbours of every query live in other tenants).
    The collector is settled as the service's processes settle it (`shell.heap`); the loaded
    series runs again under CPython's default collector, its baseline."""
    results: dict[str, Any] = {}
    at = datetime(2026, 8, 1, tzinfo=UTC)
    for size in sizes:
        data = Path(tempfile.mkdtemp(prefix=f"memory-bench-recall-{size}-"))
        stores = open_stores(Settings(data_dir=data))
        try:
            rng = random.Random(size)
            namespace = "tenant/bench/user/u1"
            t = time.perf_counter()
            load(stores, synthetic_records("bench", namespace, size, rng))
            load_s = time.perf_counter() - t
            texts = synthetic_queries(rng, queries + 20)
            # As the service's processes do once started; what was loaded is not held here (a
            # service holds no such list): no collector walks it, settled or not.
            heap.settle()
            alone = _measure_recall(stores, namespace, texts, at)
            entry: dict[str, Any] = {"load_seconds": round(load_s, 1)}
            entry["alone"] = _series(*alone)
            if size <= 10_000:
                entry["context_build"] = _stats(_measure_context(stores, namespace, texts, at))
                # a long list: 200 memories (the first 20 queries warm up, as above)
                entry["alone_k200"] = _series(
                    *_measure_recall(stores, namespace, texts[: 20 + queries // 4], at, k=200)
                )
            noise_size = min(size, 10_000)
            t = time.perf_counter()
            # the same records again (the same seed), for the other tenants to hold
            template = synthetic_records("bench", namespace, size, random.Random(size))[:noise_size]
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
            del template, vectors, others
            heap.settle()
            entry["isolated"] = _series(*_measure_recall(stores, namespace, texts, at))
            with heap.unsettled():  # the baseline: CPython's collector as it starts
                entry["isolated_default_gc"] = _series(
                    *_measure_recall(stores, namespace, texts, at)
                )
            results[str(size)] = entry
            console.print(
                f"· recall at {size}: alone p95 {entry['alone']['recall']['p95_ms']} ms, with "
                f"{tenants} other tenants p95 {entry['isolated']['recall']['p95_ms']} ms"
                f" ({entry['isolated']['recall_without_graph']['p95_ms']} ms without the graph"
                f" walk; {entry['isolated_default_gc']['recall']['p95_ms']} ms with CPython's"
                " default garbage collector)"
            )
        finally:
            stores.close()
            shutil.rmtree(data, ignore_errors=True)  # gigabytes with the other tenants
            gc.unfreeze()  # what this size settled may be collected once it is closed
    return results


def _series(recall_ms: list[float], scan_ms: list[float], plain_ms: list[float]) -> dict[str, Any]:
    rs, ss, ps = _stats(recall_ms), _stats(scan_ms), _stats(plain_ms)
    return {
        "recall": rs,
        "numpy_scan": ss,
        "ratio_p50": round(rs["p50_ms"] / ss["p50_ms"], 2),
        "ratio_p95": round(rs["p95_ms"] / ss["p95_ms"], 2),
        # the same queries with no graph walk: what the walk costs
        "recall_without_graph": ps,
        "graph_ratio_p95": round(rs["p95_ms"] / ps["p95_ms"], 2) if ps["p95_ms"] else None,
    }


# ------------------------------------------------------------------------------ projection
