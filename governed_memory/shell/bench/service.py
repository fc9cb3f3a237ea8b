"""A fresh service for one benchmark: a dev server, fresh stores and the service's worker."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.codec import Keyring, data_converter
from governed_memory.shell.devserver import start_local


@asynccontextmanager
async def service(
    name: str, policy_file: Path | None = None
) -> AsyncIterator[tuple[MemoryClient, WorkflowEnvironment]]:
    """A dev server, fresh stores and the service's worker, as in production (under the given
    policy file, by default the packaged one)."""
    from governed_memory.shell.worker import build_worker

    data = Path(tempfile.mkdtemp(prefix=f"memory-bench-{name}-"))
    settings = Settings(
        data_dir=data,
        task_queue=f"bench-{name}",
        allow_clock_override=True,
        policy_file=policy_file,
    )
    env = await start_local(data_converter(Keyring.new()))
    stores = None
    try:  # a store that cannot open (say, unmigrated) stops the dev server too
        stores = open_stores(settings)
        async with build_worker(env.client, settings, stores):
            yield MemoryClient(env.client, settings, stores), env
    finally:
        if stores is not None:
            stores.close()
        await env.shutdown()
        shutil.rmtree(data, ignore_errors=True)  # a bench's stores are gigabytes at 100k
