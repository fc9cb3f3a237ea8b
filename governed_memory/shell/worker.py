"""The worker: every workflow and activity of the service on one task queue.

Run it with `python worker.py` or `memctl worker` (configuration from MEMORY_* variables). More
workers on the same task queue scale it out; each opens the same stores.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
import sys
from collections.abc import Sequence

import structlog
from temporalio.client import Client
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig
from temporalio.service import RPCError
from temporalio.worker import Interceptor, Worker
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

from governed_memory.activities import all_activities
from governed_memory.activities.callers import ServiceCallersOnly
from governed_memory.activities.temporal_info import TemporalActivities
from governed_memory.memory import metrics
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.summary import Summarizer
from governed_memory.shell import heap, tracing
from governed_memory.shell.codec import requiring_encryption
from governed_memory.shell.logs import LogContext, configure_logging
from governed_memory.shell.temporal import SEARCH_ATTRIBUTES, connect
from governed_memory.workflows.registry import WORKFLOWS, name_of

log = structlog.get_logger("governed_memory.shell.worker")


#: The workflow sandbox, with the service's own package passed through: a run's first task
#: otherwise re-imports the workflow modules (10-12 ms a run here, where Python keeps no
#: bytecode). The sandbox's runtime restrictions (clock, randomness, I/O) still apply to passed
#: code; what is given up is a fresh copy of each module per run, which the workflow modules do
#: not need: they keep no state at module level (their runs keep it on the instance), and the
#: replay tests hold them deterministic.
WORKFLOW_RUNNER = SandboxedWorkflowRunner(
    restrictions=SandboxRestrictions.default.with_passthrough_modules("governed_memory")
)


def build_worker(
    client: Client,
    settings: Settings,
    stores: Stores,
    *,
    task_queue: str | None = None,
    summarizer: Summarizer | None = None,
    interceptors: Sequence[Interceptor] = (),
) -> Worker:
    """A worker of every workflow and activity, on `client`'s connection. Its converter is the
    client's, but refusing plaintext payloads once encryption is on: an input written without
    the codec key fails its run's admission."""
    config = client.config()
    strict = requiring_encryption(config["data_converter"])
    if strict is not config["data_converter"]:
        config["data_converter"] = strict
        client = Client(**config)
    queue = task_queue or settings.task_queue
    # only the service's own runs (its workflow types, on this queue) may have its regular
    # activities run (activities.callers)
    callers = ServiceCallersOnly(client, queue, [name_of(w) for w in WORKFLOWS])
    return Worker(
        client,
        task_queue=queue,
        workflows=list(WORKFLOWS),
        activities=[
            *all_activities(stores, settings, summarizer=summarizer, vouch=callers.vouch),
            *TemporalActivities(client, settle=settings.temporal_delete_settle).activities(),
        ],
        interceptors=[LogContext(), callers, *interceptors],
        workflow_runner=WORKFLOW_RUNNER,
        # Activities are synchronous (SQLAlchemy, SQLite, numpy): they run on this pool.
        activity_executor=concurrent.futures.ThreadPoolExecutor(max_workers=16),
        max_concurrent_activities=16,
        max_concurrent_local_activities=16,
    )


async def ensure_search_attributes(client: Client, namespace: str) -> None:
    """Register the operator search attributes where the server allows it (dev, self-hosted)."""
    from temporalio.api.enums.v1 import IndexedValueType
    from temporalio.api.operatorservice.v1 import (
        AddSearchAttributesRequest,
        ListSearchAttributesRequest,
    )

    try:
        existing = await client.operator_service.list_search_attributes(
            ListSearchAttributesRequest(namespace=namespace)
        )
        missing = {
            key.name: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
            for key in SEARCH_ATTRIBUTES
            if key.name not in existing.custom_attributes
        }
        if missing:
            await client.operator_service.add_search_attributes(
                AddSearchAttributesRequest(namespace=namespace, search_attributes=missing)
            )
            log.info("search attributes registered", names=sorted(missing))
    except RPCError as exc:
        log.warning("could not register search attributes", error=exc.message)


def serve_metrics(settings: Settings, stores: Stores) -> Runtime | None:
    """Serve `/metrics` (ours and the SDK's, whose exporter listens on a private port)."""
    if not settings.metrics_port:
        return None
    sdk_port = metrics.free_port()
    try:
        metrics.serve(
            settings.metrics_port,
            stores.canonical,
            stores.projection.name,
            sdk_url=f"http://127.0.0.1:{sdk_port}/metrics",
        )
    except OSError as exc:
        # A second worker on the same host: it works without an endpoint of its own rather
        # than not at all (give each worker its own MEMORY_METRICS_PORT to scrape them all).
        log.warning("metrics not served", port=settings.metrics_port, error=str(exc))
        return None
    log.info("metrics served", port=settings.metrics_port, path="/metrics")
    return Runtime(
        telemetry=TelemetryConfig(metrics=PrometheusConfig(bind_address=f"127.0.0.1:{sdk_port}"))
    )


async def run_worker(
    settings: Settings,
    stop: asyncio.Event | None = None,
    stores: Stores | None = None,
    interceptors: Sequence[Interceptor] = (),
) -> None:
    """Run the worker until `stop` is set. Given `stores`, it works with them and leaves them
    open (they are the caller's: `memctl dev` shares its one set with the API); otherwise it
    opens its own and closes them."""
    opened = stores is None
    stores = stores or open_stores(settings)
    client = await connect(settings, serve_metrics(settings, stores))
    await ensure_search_attributes(client, settings.temporal_namespace)
    worker = build_worker(client, settings, stores, interceptors=interceptors)
    heap.started(settings)
    log.info(
        "worker started",
        task_queue=settings.task_queue,
        temporal=settings.temporal_address,
        canonical=settings.canonical_url.split("@")[-1],
        # WriteService builds the model extractor from these settings (batches only); the model's
        # name is said here, never its URL's credentials or its key.
        background_extraction=settings.extractor_model if settings.extractor_url else "rules",
    )
    try:
        async with worker:
            await (stop or asyncio.Event()).wait()
    finally:
        if opened:
            stores.close()
        log.info("worker stopped")


def worker_environment(
    settings: Settings,
    temporal_address: str,
    codec_keys: str,
    *,
    inherit: bool,
    **extra: str,
) -> dict[str, str]:
    """The environment of a worker process (`python worker.py`) on `settings`' stores and task
    queue: this process's environment, its MEMORY_* settings kept (`inherit`: an embedding
    model, a database URL) or left out, then these."""
    env = {k: v for k, v in os.environ.items() if inherit or not k.startswith("MEMORY_")}
    env.update(
        MEMORY_TEMPORAL_ADDRESS=temporal_address,
        MEMORY_TASK_QUEUE=settings.task_queue,
        MEMORY_DATA_DIR=str(settings.data_dir),
        MEMORY_DATABASE_URL=settings.canonical_url,
        MEMORY_ALLOW_CLOCK_OVERRIDE="true",
        MEMORY_METRICS_PORT="0",
        MEMORY_LOG_LEVEL="warning",
        MEMORY_CODEC_KEYS=codec_keys,
        MEMORY_GC_SETTLE=str(settings.gc_settle).lower(),
    )
    if settings.policy_file is not None:
        env["MEMORY_POLICY_FILE"] = str(settings.policy_file)
    env.update(extra)
    return env


def main() -> None:
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    stop = asyncio.Event()

    async def _run() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await run_worker(settings, stop)

    asyncio.run(_run())
    tracing.flush()  # MEMORY_TRACING: the last spans (os._exit skips the exporter's own flush)
    # As in memctl: skip interpreter teardown, which the Temporal client's Rust threads can
    # abort (temporalio/sdk-python#300); the worker has shut down and the stores are closed.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
