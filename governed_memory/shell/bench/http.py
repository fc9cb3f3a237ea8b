"""http: recall and write through the HTTP API beside the same calls in the service's process,
interleaved in one run (the API served by uvicorn on loopback, a keep-alive httpx client); and
the export of 10,000 memories, streamed (its first byte, its whole) beside the whole document
built in memory as the route did before it streamed."""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from typing import Any

import httpx

from governed_memory.memory.metrics import free_port
from governed_memory.memory.models import Principal
from governed_memory.shell.bench.data import _stats, load, synthetic_records
from governed_memory.shell.bench.service import service

BOT = Principal(
    type="agent",
    tenant="bench",
    id="bot",
    read=["tenant/bench/user/*"],
    write=["tenant/bench/user/*"],
)


async def bench_http(n: int) -> dict[str, Any]:
    from governed_memory.shell.http.app import serve

    async with service("http") as (client, _env):
        client.register_principal(BOT)
        client.settings = client.settings.model_copy(
            update={"api_port": free_port(), "api_rate_per_second": 1e9, "api_burst": 10**9}
        )
        for u in range(50):
            ns = f"tenant/bench/user/u{u}"
            await client.write(
                f"user:bench/u{u}",
                ns,
                {
                    "kind": "profile",
                    "key": "notification.preference",
                    "structured_value": {"channel": "sms"},
                    "content": "prefers sms",
                },
            )
        stop = asyncio.Event()
        server = asyncio.create_task(serve(client, stop))
        url = client.settings.api_url
        token = client.token_for(BOT.ref)
        async with httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        ) as http:
            for _ in range(100):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
            local: list[float] = []
            remote: list[float] = []
            for i in range(n + 20):
                ns = f"tenant/bench/user/u{i % 50}"
                t0 = time.perf_counter()
                await client.recall(BOT.ref, [ns], task="how to notify", k=5)
                t1 = time.perf_counter()
                r = await http.post(
                    "/v1/recall", json={"namespaces": [ns], "task": "how to notify"}
                )
                t2 = time.perf_counter()
                assert r.status_code == 200, r.text
                if i >= 20:
                    local.append((t1 - t0) * 1000)
                    remote.append((t2 - t1) * 1000)
            w_local: list[float] = []
            w_remote: list[float] = []
            for i in range(max(n // 4, 20) + 5):
                ns = f"tenant/bench/user/w{i}"
                candidate = {"kind": "episodic", "content": f"asked about order {i}"}
                t0 = time.perf_counter()
                await client.write(BOT.ref, ns, candidate)
                t1 = time.perf_counter()
                r = await http.post(
                    "/v1/memories", json={"namespace": ns + "x", "candidate": candidate}
                )
                t2 = time.perf_counter()
                assert r.status_code == 200, r.text
                if i >= 5:
                    w_local.append((t1 - t0) * 1000)
                    w_remote.append((t2 - t1) * 1000)
            exported = await _export(client, http)
            exported["recall_during_exports"] = await _recall_during_exports(client, http, url)
        stop.set()
        await server
    rl, rr, wl, wr = _stats(local), _stats(remote), _stats(w_local), _stats(w_remote)
    return {
        "export": exported,
        "recall": {
            "in_process": rl,
            "http": rr,
            "ratio_p50": round(rr["p50_ms"] / rl["p50_ms"], 2),
        },
        "write": {"in_process": wl, "http": wr, "ratio_p50": round(wr["p50_ms"] / wl["p50_ms"], 2)},
    }


#: Memories in the namespace the export figures are taken on.
EXPORTED = 10_000


async def _export(client: Any, http: httpx.AsyncClient, runs: int = 3) -> dict[str, Any]:
    """`GET /v1/export` of EXPORTED memories, streamed: the first byte and the whole, beside the
    whole document built in memory (what the route answered with before it streamed)."""
    ns = "tenant/bench/user/export"
    load(client.stores, synthetic_records("bench", ns, EXPORTED, random.Random(3)))
    first: list[float] = []
    whole: list[float] = []
    built: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        async with http.stream("GET", "/v1/export", params={"namespace": ns}) as response:
            assert response.status_code == 200
            size = 0
            async for chunk in response.aiter_raw():
                if not size:
                    first.append((time.perf_counter() - t0) * 1000)
                size += len(chunk)
        whole.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        await asyncio.to_thread(lambda: client.export(BOT.ref, ns).model_dump_json())
        built.append((time.perf_counter() - t0) * 1000)
    return {
        "memories": EXPORTED,
        "bytes": size,
        "streamed_first_byte_ms": round(statistics.median(first), 1),
        "streamed_whole_ms": round(statistics.median(whole), 1),
        "built_in_memory_ms": round(statistics.median(built), 1),
    }


#: Exports in flight while another caller's recall is measured.
CONCURRENT_EXPORTS = 10
#: The exporting clients (argv: url, token, namespace, how many): prints "started" once each
#: stream sent its first byte, then, once all ended, the wall-clock time each one ended at.
EXPORTERS = """
import asyncio, sys, time, httpx
url, token, ns, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
async def main():
    started = asyncio.Barrier(n + 1)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": "Bearer " + token},
                                 timeout=600) as http:
        async def export():
            size = 0
            async with http.stream("GET", "/v1/export", params={"namespace": ns}) as got:
                assert got.status_code == 200, got.status_code
                async for chunk in got.aiter_raw():
                    if size == 0:
                        await started.wait()
                    size += len(chunk)
            assert size > 0
            return time.time()
        running = [asyncio.create_task(export()) for _ in range(n)]
        await started.wait()
        print("started", flush=True)
        print(*await asyncio.gather(*running), flush=True)
asyncio.run(main())
"""


async def _recall_during_exports(
    client: Any, http: httpx.AsyncClient, url: str, samples: int = 60
) -> dict[str, Any]:
    """Another caller's recall over HTTP (p50/p95) with nothing else running, and while
    CONCURRENT_EXPORTS streamed exports of the EXPORTED memories are in flight (the issue's
    load: ten exports once held another user's recall for their whole length)."""
    ns = "tenant/bench/user/export"
    owner = client.token_for("user:bench/export")

    async def recalls() -> list[float]:
        took = []
        for i in range(samples):
            t0 = time.perf_counter()
            r = await http.post(
                "/v1/recall",
                json={"namespaces": [f"tenant/bench/user/u{i % 50}"], "task": "how to notify"},
            )
            took.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
        return took

    alone = await recalls()
    # The exporters are other machines' clients: their own process, so that reading ten
    # streams is not the measured server's work.
    exporters = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        EXPORTERS,
        url,
        owner,
        ns,
        str(CONCURRENT_EXPORTS),
        stdout=asyncio.subprocess.PIPE,
    )
    assert exporters.stdout is not None
    await exporters.stdout.readline()  # "started": every export has its first byte
    during = await recalls()
    last_recall = time.time()
    out, _ = await exporters.communicate()
    ended = [float(t) for t in out.split()]
    assert exporters.returncode == 0, out
    assert len(ended) == CONCURRENT_EXPORTS, out
    still_running = sum(t > last_recall for t in ended)
    return {
        "exports": CONCURRENT_EXPORTS,
        "alone": _stats(alone),
        "during": _stats(during),
        "exports_still_running_at_the_end": still_running,
    }
