"""One process, one set of stores: `memctl dev` and the embedded stack (`memctl demo`) run the
worker and the API over the same stores, each SQLite file opened once in the process."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.canonical import _db
from governed_memory.memory.stores.projection import embedded as projection
from governed_memory.shell import cli
from governed_memory.shell.client import MemoryClient


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Counter[Path]:
    """How often each SQLite file is opened as a store (every store makes its file private
    first)."""
    seen: Counter[Path] = Counter()
    for module in (_db, projection):
        original = module.private_database

        def counting(path: Path, original: Any = original) -> Path:
            seen[Path(path).resolve()] += 1
            result: Path = original(path)
            return result

        monkeypatch.setattr(module, "private_database", counting)
    return seen


def dev_settings(tmp_path: Path, temporal: WorkflowEnvironment) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=None,
        projection="embedded",
        projection_path=None,
        temporal_address=temporal.client.service_client.config.target_host,
        task_queue=f"once-{uuid.uuid4().hex[:8]}",
        metrics_port=0,
    )


def test_memctl_dev_opens_its_stores_once(
    tmp_path: Path,
    temporal_env: WorkflowEnvironment,
    opened: Counter[Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from governed_memory.shell import devserver, logs
    from governed_memory.shell.http import app as http_app

    cfg = dev_settings(tmp_path, temporal_env)
    served: list[MemoryClient] = []

    class NoServer:  # the session's Temporal dev server stands in for the one dev starts
        def __init__(self, *_: Any, **__: Any) -> None:
            self.address = cfg.temporal_address

        def start(self) -> None:
            pass

        def stop(self) -> None:
            pass

    async def serve(client: MemoryClient, stop: asyncio.Event) -> None:
        served.append(client)
        await asyncio.sleep(1)  # the worker starts meanwhile
        stop.set()

    monkeypatch.setattr(cli, "settings", lambda: cfg)
    monkeypatch.setattr(devserver, "DevServer", NoServer)
    monkeypatch.setattr(http_app, "serve", serve)
    monkeypatch.setattr(logs, "configure_logging", lambda *_: None)
    cli.dev(api=True)
    assert served
    assert opened == {
        (tmp_path / "canonical.db").resolve(): 1,
        (tmp_path / "projection.db").resolve(): 1,
    }


async def test_the_embedded_stack_opens_its_stores_once(
    tmp_path: Path, temporal_env: WorkflowEnvironment, opened: Counter[Path]
) -> None:
    from governed_memory.shell.stack import embedded_stack

    cfg = dev_settings(tmp_path, temporal_env)
    async with embedded_stack(cfg, always_own_worker=True, log=False) as stack:
        assert stack.started_worker
        assert not stack.started_server
    assert opened == {
        (tmp_path / "canonical.db").resolve(): 1,
        (tmp_path / "projection.db").resolve(): 1,
    }
