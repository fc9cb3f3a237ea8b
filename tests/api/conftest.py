"""What the API tests share: `memctl serve` in its own process."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.metrics import free_port
from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from tests.cli.test_memctl import env_for


@pytest.fixture
async def served(
    client: MemoryClient, settings: Settings, temporal_env: WorkflowEnvironment, tmp_path: Path
) -> AsyncIterator[str]:
    """`memctl serve` in its own process, on the test's stores, Temporal and task queue (the
    worker polls in the test's process)."""
    port = free_port()
    env = {**env_for(settings, temporal_env), "MEMORY_API_PORT": str(port)}
    log = (tmp_path / "serve.log").open("wb")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "governed_memory.shell", "serve", env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as http:
            # it starts in seconds, but a loaded machine (parallel test workers) can take longer:
            # wait for it, and say so if it never answers rather than run tests against nothing
            deadline = time.monotonic() + 120
            while True:
                try:
                    if (await http.get(f"{url}/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.returncode is not None:
                    pytest.fail(f"memctl serve exited: {(tmp_path / 'serve.log').read_text()}")
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"memctl serve never answered: {(tmp_path / 'serve.log').read_text()}"
                    )
                await asyncio.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), timeout=20)
        log.close()
