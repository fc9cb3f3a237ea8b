"""delete: request to passed receipt for subjects of growing size, beside the floor."""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from governed_memory.memory.models import cut
from governed_memory.shell.bench.data import (
    _stats,
    synthetic_text,
)
from governed_memory.shell.bench.service import service
from governed_memory.shell.bench.writes import floor_worker
from governed_memory.shell.client import MemoryClient


async def _subject_with_history(client: MemoryClient, user: str, n: int) -> str:
    """A user with `n` memories across kinds: episodes from their messages (threads of 100,
    each summarised), profile facts and semantic notes citing the same messages."""
    from governed_memory.shell.importer import ImportMessage, as_episodes, as_history

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
    for batch in cut(requests):
        await client.write_batch(batch)
    threads = sorted({(m.namespace, m.thread) for m in messages if m.thread})
    for ns, thread in threads:
        await client.summarize(
            "agent:bench/summarizer", thread, namespace=ns, at=at + timedelta(days=1)
        )
    return f"user:{user}"


async def bench_delete(sizes: Sequence[int], repeats: int = 3) -> dict[str, Any]:
    """Request → passed receipt for a subject with N memories (and their messages and
    summaries), beside the no-activity floor workflow measured on the same server."""
    from governed_memory.shell.bench.floor import Floor

    results: dict[str, Any] = {}
    async with service("delete") as (client, env):
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
        async with floor_worker(env.client, Floor):
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
