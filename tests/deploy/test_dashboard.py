"""The Grafana dashboard in deploy/grafana/ charts only what the service exports: every metric its
queries name is on a real worker's `/metrics` (scraped from `memctl worker` in its own process)
and, for what reads record, on the HTTP API's."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.metrics import free_port
from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from tests.cli.test_memctl import env_for

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "governed-memory.json"
#: What a PromQL expression holds besides metric names.
PROMQL_WORDS = {
    "sum",
    "rate",
    "increase",
    "max",
    "min",
    "avg",
    "by",
    "without",
    "le",
    "histogram_quantile",
    "clamp_min",
    "rate_interval",
}
#: What reads record (in the process that serves them: the HTTP API, an agent's own client).
READ_METRICS = (
    "memory_recall_seconds",
    "memory_context_build_seconds",
    "memory_context_memory_token_share",
    "memory_recall_candidates",
    "memory_recall_returned",
    "memory_task_runs",
    "memory_feedback_events",
    "memory_correction_completion_seconds",
)


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return loaded


def expressions() -> list[str]:
    return [t["expr"] for p in dashboard()["panels"] for t in p.get("targets", [])]


def named(expr: str) -> set[str]:
    """The metric names in a PromQL expression (label matchers, ranges, strings and functions
    taken out)."""
    bare = re.sub(r'"[^"]*"', "", expr)
    bare = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\$__\w+", "", bare)
    bare = re.sub(r"\b\d[\d.]*(?:e[-+]?\d+)?", "", bare)  # numbers (0.95, 1e-9)
    bare = re.sub(r"\b(?:by|without)\s*\([^)]*\)", "", bare)  # grouping labels
    return set(re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", bare)) - PROMQL_WORDS


def exported(text: str) -> set[str]:
    """Every series name a scrape can hold: counters as `_total`, histograms as their parts."""
    names: set[str] = set()
    for family in text_string_to_metric_families(text):
        names.add(family.name)
        if family.type == "counter":
            names.add(f"{family.name}_total")
        if family.type in ("histogram", "summary"):
            names |= {f"{family.name}_{part}" for part in ("bucket", "sum", "count")}
        names |= {s.name for s in family.samples}
    return names


def test_the_dashboard_is_a_grafana_dashboard_over_a_prometheus_source() -> None:
    board = dashboard()
    assert board["uid"] == "governed-memory"
    assert isinstance(board["schemaVersion"], int)
    panels = board["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["query"] == "prometheus"
    charts = [p for p in panels if p["type"] != "row"]
    assert charts
    for panel in charts:
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"], panel["title"]
        assert {"x", "y", "w", "h"} <= set(panel["gridPos"]), panel["title"]
        for target in panel["targets"]:
            assert named(target["expr"]), (panel["title"], target["expr"])
    titles = " ".join(p["title"] for p in charts).lower()
    for seed_metric in (
        "write accepted / rejected / deferred rate",
        "context memory token share",
        "stale / conflict / unauthorized retrieval rate",
        "memory-caused task failure rate",
        "correction and deletion completion time",
    ):
        assert seed_metric in titles, seed_metric


def test_the_name_parser_finds_names_and_only_names() -> None:
    expr = (
        'sum(rate(memory_writes_total{decision=~"add|update"}[$__rate_interval])) / '
        "histogram_quantile(0.95, sum by (le, reason) (rate(memory_commit_seconds_bucket[5m]))) "
        "/ clamp_min(1e-9, 2)"
    )
    assert named(expr) == {"memory_writes_total", "memory_commit_seconds_bucket"}


async def test_every_metric_the_dashboard_names_is_exported(
    client: MemoryClient, settings: Settings, temporal_env: WorkflowEnvironment, tmp_path: Path
) -> None:
    wanted = set().union(*map(named, expressions()))
    assert all(name.startswith("memory_") for name in wanted), wanted
    port = free_port()
    env = {**env_for(settings, temporal_env), "MEMORY_METRICS_PORT": str(port)}
    log = (tmp_path / "worker.log").open("wb")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "governed_memory.shell", "worker", env=env, stdout=log, stderr=log
    )
    scraped = ""
    try:
        async with httpx.AsyncClient() as http:
            for _ in range(300):
                try:
                    response = await http.get(f"http://127.0.0.1:{port}/metrics")
                    if response.status_code == 200 and "memory_outbox_lag_seconds" in response.text:
                        scraped = response.text
                        break
                except httpx.TransportError:
                    pass
                if proc.returncode is not None:
                    pytest.fail(f"memctl worker exited: {(tmp_path / 'worker.log').read_text()}")
                await asyncio.sleep(0.1)
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), timeout=30)
        log.close()
    assert scraped, "the worker never served /metrics"
    missing = wanted - exported(scraped)
    assert not missing, f"the dashboard names metrics the worker does not export: {missing}"

    transport = httpx.ASGITransport(app=create_app(client))
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as api:
        served = exported((await api.get("/metrics")).text)
    reads = {n for n in wanted if n.startswith(READ_METRICS)}
    assert reads
    assert not reads - served, reads - served


def test_the_compose_observability_profile_scrapes_every_replica_and_loads_the_dashboard() -> None:
    import yaml  # type: ignore[import-untyped]

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["observability"], name
    scrape = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8"))
    targets = {
        sd["names"][0]: sd["port"]
        for job in scrape["scrape_configs"]
        for sd in job["dns_sd_configs"]
    }
    worker_port = int(services["worker"]["environment"]["MEMORY_METRICS_PORT"])
    api_port = int(services["api"]["environment"]["MEMORY_API_PORT"])
    assert targets == {"worker": worker_port, "api": api_port}
    mounts = {v.split(":")[0]: v.split(":")[1] for v in services["grafana"]["volumes"]}
    assert mounts["./deploy/grafana/governed-memory.json"].startswith(
        yaml.safe_load(
            (ROOT / "deploy/grafana/provisioning/dashboards/governed-memory.yml").read_text()
        )["providers"][0]["options"]["path"]
    )
    for source in mounts:
        if source.startswith("./"):
            assert (ROOT / source).exists(), source
