"""Prometheus metrics of the service, served by the worker and the HTTP API on `/metrics`.

The seed's metrics — `memory_outbox_lag_seconds`, `memory_projection_version_lag`,
`memory_index_repair_total{reason,status}`, `memory_canonical_index_mismatch_total` — plus
write decisions, commit, recall and context latency, relay throughput and deletion completion
time; and the seed's run metrics: write accepted/rejected/deferred rate (`memory_writes_total`
by decision), context memory token share, stale/conflict/unauthorized retrieval rate (recall's
canonical re-check by verdict, returned memories in a conflict), memory-caused task failure
rate (runs agents report), correction and deletion completion time. The Grafana dashboard in
`deploy/grafana/` charts them. The outbox gauges are read from the canonical store when
scraped, so every worker reports the same truth. The Temporal SDK's own metrics (its
Prometheus exporter on a private port) are served on the same endpoint. Labels carry reasons
and decisions, never tenants' data.
"""

from __future__ import annotations

import socket
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prometheus_client import REGISTRY, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from governed_memory.memory.models import utcnow

if TYPE_CHECKING:
    from governed_memory.memory.stores.canonical import CanonicalStore

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

WRITES = Counter(
    "memory_writes",
    "Write decisions committed, by decision (add, update, no_op, reject, defer).",
    ["decision"],
)
COMMIT_SECONDS = Histogram(
    "memory_commit_seconds", "Canonical commit latency (one transaction).", buckets=_LATENCY
)
RECALL_SECONDS = Histogram(
    "memory_recall_seconds", "Governed recall latency, end to end.", buckets=_LATENCY
)
CONTEXT_SECONDS = Histogram(
    "memory_context_build_seconds", "Context package build latency.", buckets=_LATENCY
)
DELETION_SECONDS = Histogram(
    "memory_deletion_completion_seconds",
    "Deletion request to durable receipt.",
    buckets=(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
ADMISSIONS_REFUSED = Counter(
    "memory_admissions_refused",
    "Workflow runs and Updates a worker refused to admit (no grant, or one that does not fit).",
    ["workflow"],
)
PROJECTION_FAILURES = Counter(
    "memory_projection_failures",
    "Projections that failed after a commit (left to the retry and the outbox relay).",
)
RELAYED = Counter(
    "memory_outbox_events_relayed",
    "Outbox events the relay handled, by result (applied, removed, skipped).",
    ["result"],
)
REPAIRS = Counter(
    "memory_index_repair",
    "Projection rows repaired, by reason and status.",
    ["reason", "status"],
)
FEEDBACK = Counter(
    "memory_feedback_events",
    "Feedback on memories recorded, by type, source and the effect it had.",
    ["type", "source", "effect"],
)
CONTEXT_MEMORY_SHARE = Histogram(
    "memory_context_memory_token_share",
    "Share of a context package's tokens that are recalled memory.",
    buckets=(0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0),
)
RECALL_CANDIDATES = Counter(
    "memory_recall_candidates",
    "Recall candidates re-checked against canonical, by verdict: admitted; stale (superseded, "
    "expired, invalidated, quarantined or deleted at the time asked); unauthorized (outside "
    "the reader's namespaces or above its sensitivity ceiling); other (a kind not asked for).",
    ["verdict"],
)
RECALL_RETURNED = Counter(
    "memory_recall_returned",
    "Memories recall returned, by whether they stand in an open conflict (conflicting).",
    ["conflicting"],
)
TASK_RUNS = Counter(
    "memory_task_runs",
    "Agent runs reported with their outcome, and whether a memory caused the failure.",
    ["outcome", "memory_caused"],
)
CORRECTION_SECONDS = Histogram(
    "memory_correction_completion_seconds",
    "A correction (feedback `corrected`) to the corrected value's write decided.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
MISMATCHES = Counter(
    "memory_canonical_index_mismatch",
    "Differences found between the canonical store and the projection.",
)


def count_decisions(outcomes: Sequence[Any]) -> None:
    """Count the decisions of one write (anything with a `decision`), once it committed."""
    for outcome in outcomes:
        WRITES.labels(outcome.decision).inc()


def recall_checked(admitted: int, refused: Mapping[str, int]) -> None:
    """Count one recall's canonical re-check."""
    if admitted:
        RECALL_CANDIDATES.labels("admitted").inc(admitted)
    for verdict, n in refused.items():
        RECALL_CANDIDATES.labels(verdict).inc(n)


def recall_returned(memories: Sequence[Any]) -> None:
    """Count what one recall returned (anything with a `conflict_group`)."""
    conflicting = sum(1 for m in memories if m.conflict_group)
    if conflicting:
        RECALL_RETURNED.labels("true").inc(conflicting)
    if len(memories) > conflicting:
        RECALL_RETURNED.labels("false").inc(len(memories) - conflicting)


class OutboxCollector(Collector):
    """Outbox lag, read from the canonical store at scrape time."""

    def __init__(self, canonical: CanonicalStore, projection: str) -> None:
        self.canonical = canonical
        self.projection = projection

    def collect(self) -> Iterator[Metric]:
        status = self.canonical.outbox.status()
        lag = GaugeMetricFamily(
            "memory_outbox_lag_seconds",
            "Age of the oldest unprocessed outbox event (0 when drained).",
        )
        oldest = status.oldest_unprocessed_at
        lag.add_metric([], max(0.0, (utcnow() - oldest).total_seconds()) if oldest else 0.0)
        yield lag
        applied = (
            status.oldest_unprocessed_seq - 1
            if status.oldest_unprocessed_seq is not None
            else status.last_seq
        )
        version_lag = GaugeMetricFamily(
            "memory_projection_version_lag",
            "Outbox events committed but not yet applied to the projection.",
            labels=["projection"],
        )
        version_lag.add_metric([self.projection], float(status.last_seq - applied))
        yield version_lag
        pending = GaugeMetricFamily(
            "memory_outbox_unprocessed", "Unprocessed outbox events.", labels=["projection"]
        )
        pending.add_metric([self.projection], float(status.unprocessed))
        yield pending


class SdkCollector(Collector):
    """The Temporal SDK's metrics, fetched from its exporter and served alongside ours."""

    def __init__(self, url: str) -> None:
        self.url = url

    def collect(self) -> Iterator[Metric]:
        try:
            with urllib.request.urlopen(self.url, timeout=2) as response:
                text = response.read().decode()
        except OSError:
            return
        yield from text_string_to_metric_families(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    port: int,
    canonical: CanonicalStore,
    projection: str,
    *,
    sdk_url: str | None = None,
    addr: str = "0.0.0.0",
) -> None:
    """Serve `/metrics` on `port` from a background thread (OSError if the port is taken)."""
    start_http_server(port, addr=addr)
    REGISTRY.register(OutboxCollector(canonical, projection))
    if sdk_url is not None:
        REGISTRY.register(SdkCollector(sdk_url))
