"""projection: relay throughput beside a bare index write; compare and repair."""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from governed_memory.memory.graph import extract
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.sync.relay import relay
from governed_memory.memory.sync.repair import begin, run_pages
from governed_memory.shell.bench.data import (
    synthetic_records,
)
from governed_memory.shell.bench.report import console


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
            # graph: dropped, then derived again from canonical by a full repair — beside the
            # extraction alone over the same texts (what any graph build must spend)
            embedded = stores.projection
            if not isinstance(embedded, EmbeddedProjection):
                raise RuntimeError("the projection bench runs on the embedded projection")
            embedded.drop_graph()
            t = time.perf_counter()
            _, totals = run_pages(
                stores, "bench/graph", begin(stores, full=True), at, page_size=2000
            )
            graph_s = time.perf_counter() - t
            if totals.mismatches != {"stale": len(records)}:
                raise RuntimeError(f"the graph rebuild found {totals}")
            counts = embedded.graph_counts()
            t = time.perf_counter()
            for r in records:
                extract(r.content)
            extract_s = time.perf_counter() - t
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
                "graph": {
                    "memories": len(records),
                    "entities": counts["entities"],
                    "mentions": counts["graph_mentions"],
                    "aliases": counts["graph_aliases"],
                    "relations": counts["graph_relations"],
                    "seconds": round(graph_s, 2),
                    "memories_per_second": round(len(records) / graph_s),
                    "nodes_and_edges_per_second": round(
                        (counts["graph_mentions"] + counts["graph_relations"]) / graph_s
                    ),
                    "extract_only_seconds": round(extract_s, 2),
                    "ratio": round(graph_s / extract_s, 2),
                },
            }
            console.print(
                f"· projection at {size}: relay {results[str(size)]['relay']['events_per_second']}"
                f" events/s, full compare {round(compare_s, 2)} s,"
                f" graph rebuild {results[str(size)]['graph']['memories_per_second']} memories/s"
            )
        finally:
            bare.close()
            stores.close()
            shutil.rmtree(data, ignore_errors=True)
    return results


# ------------------------------------------------------------------------------ report
