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
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from governed_memory.memory.settings import Settings
from governed_memory.shell.bench.deletion import bench_delete
from governed_memory.shell.bench.http import bench_http
from governed_memory.shell.bench.projection import bench_projection
from governed_memory.shell.bench.recall import bench_recall
from governed_memory.shell.bench.report import console, print_report
from governed_memory.shell.bench.writes import bench_background, bench_write
from governed_memory.shell.eval.detectors import DEFAULT_CORPORA as DETECTOR_CORPORA
from governed_memory.shell.eval.detectors import run_detectors_bench
from governed_memory.shell.eval.duplicates import DEFAULT_CORPORA
from governed_memory.shell.eval.duplicates import measure as measure_duplicates
from governed_memory.shell.eval.extraction import BASELINE as BASELINE_EXTRACTOR


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
    locomo: Path | None = None,
    baseline: str | None = None,
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
    if what in ("http", "all"):
        console.print(f"· http: {queries} recalls and writes through the API beside in-process")
        report["http"] = await bench_http(queries)
    if what in ("projection", "all"):
        console.print(f"· projection: relay and compare at {', '.join(map(str, projection_sizes))}")
        report["projection"] = bench_projection(projection_sizes)
    if what in ("delete", "all"):
        console.print(f"· delete: subjects of {', '.join(map(str, delete_sizes))} memories")
        report["delete"] = await bench_delete(delete_sizes)
    if what in ("duplicates", "all"):
        console.print("· duplicates: corpus pairs and a 600-event load through the write pipeline")
        report["duplicates"] = measure_duplicates(list(corpora or DEFAULT_CORPORA))
    if what in ("detectors", "all"):
        console.print("· detectors: labelled attacks and benign carriers through the detection")
        chosen = list(corpora) if what == "detectors" and corpora else list(DETECTOR_CORPORA)
        report["detectors"] = run_detectors_bench(chosen)
    if what in ("extraction", "all"):
        from governed_memory.shell.eval.extraction import EXTRACTION_CORPORA, run_extraction_bench

        console.print("· extraction: labelled utterances through the extractor, and the previous")
        chosen = list(corpora) if what == "extraction" and corpora else list(EXTRACTION_CORPORA)
        from governed_memory.memory.write.extraction.model import model_extractor

        report["extraction"] = run_extraction_bench(
            chosen, baseline or BASELINE_EXTRACTOR, model_extractor(settings)
        )
    if what == "retrieval" or (what == "all" and locomo is not None):
        from governed_memory.shell.eval.locomo import run_retrieval_bench

        assert locomo is not None
        console.print(
            f"· retrieval: every turn written, every question recalled ({locomo}, and the"
            " Chinese set)"
        )
        report["retrieval"] = await run_retrieval_bench(locomo)
    print_report(report)
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
