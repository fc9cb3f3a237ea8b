"""A fresh service for one benchmark: a dev server, fresh stores and the service's worker."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.codec import Keyring, data_converter
from governed_memory.shell.devserver import start_local


@asynccontextmanager
async def service(
    name: str,
    policy_file: Path | None = None,
    *,
    worker_process: bool = False,
    worker_processes: int = 1,
    gc_settle: bool = True,
) -> AsyncIterator[tuple[MemoryClient, WorkflowEnvironment]]:
    """A dev server, fresh stores and the service's worker, as in production (under the given
    policy file, by default the packaged one). The worker runs in this process, or, with
    `worker_process`, in a process of its own (`python worker.py`, as deployed: the caller's
    door — token checks, quotas, request building — then no longer shares the worker's
    interpreter), or in `worker_processes` such processes on the one task queue; `gc_settle`
    false runs them with CPython's default garbage collector (`shell.heap`)."""
    from governed_memory.shell.worker import build_worker

    data = Path(tempfile.mkdtemp(prefix=f"memory-bench-{name}-"))
    settings = Settings(
        data_dir=data,
        task_queue=f"bench-{name}",
        allow_clock_override=True,
        policy_file=policy_file,
        gc_settle=gc_settle,
    )
    keys = Keyring.new()
    env = await start_local(data_converter(keys))
    stores = None
    try:  # a store that cannot open (say, unmigrated) stops the dev server too
        stores = open_stores(settings)
        client = MemoryClient(env.client, settings, stores)
        if worker_process:
            address = env.client.service_client.config.target_host
            with _worker_process(settings, address, keys, worker_processes):
                yield client, env
        else:
            async with build_worker(env.client, settings, stores):
                yield client, env
    finally:
        if stores is not None:
            stores.close()
        await env.shutdown()
        shutil.rmtree(data, ignore_errors=True)  # a bench's stores are gigabytes at 100k


@contextmanager
def _worker_process(
    settings: Settings, address: str, keys: Keyring, count: int = 1
) -> Iterator[None]:
    """The service's worker as deployed (`governed_memory.shell.worker`, what `worker.py` runs),
    `count` processes of it on these stores and this task queue; stopped as a deployment stops
    it (SIGTERM)."""
    from governed_memory.shell.worker import worker_environment

    # MEMORY_* settings of this run (an embedding model, say) carry over
    env = worker_environment(settings, address, keys.spec(), inherit=True)
    processes = [
        subprocess.Popen([sys.executable, "-m", "governed_memory.shell.worker"], env=env)
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
