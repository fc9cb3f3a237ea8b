"""Faults planted in real components for the fault tests, and the worker process they kill.

`FaultyProjection` wraps the projection of a live `Stores`: upserts that raise (before or after
writing), removals silently lost. `WorkerProcess` runs the service's real worker
(`tests.fault_worker`) in its own process, so that a test can SIGKILL it — optionally from inside,
at the exact point between the canonical commit and the projection — and start another.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores

ROOT = Path(__file__).resolve().parent.parent


class ProjectionDown(RuntimeError):
    """The planted failure of a projection."""


class FaultyProjection:
    """A projection that fails on purpose.

    - `fail_upserts`: the first N upserts raise before writing anything (None: every one);
    - `fail_after_upserts`: the first N upserts write, then raise (a crash after the index
      write, before the outbox is marked);
    - `lose_removes`: the first N removals do nothing and report success (a lagging index).
    """

    def __init__(
        self,
        stores: Stores,
        *,
        fail_upserts: int | None = 0,
        fail_after_upserts: int = 0,
        lose_removes: int = 0,
    ) -> None:
        self.stores = stores
        self.inner = stores.projection
        self.fail_upserts = fail_upserts
        self.fail_after_upserts = fail_after_upserts
        self.lose_removes = lose_removes
        self.upserts = 0
        self.removes = 0
        stores.projection = self

    def heal(self) -> None:
        self.stores.projection = self.inner

    def upsert(self, *args: Any, **kwargs: Any) -> None:
        self.upserts += 1
        if self.fail_upserts is None or self.upserts <= self.fail_upserts:
            raise ProjectionDown(f"planted: upsert {self.upserts} refused")
        self.inner.upsert(*args, **kwargs)
        if self.upserts <= (self.fail_upserts or 0) + self.fail_after_upserts:
            raise ProjectionDown(f"planted: upsert {self.upserts} written, then failed")

    def remove(self, memory_ids: Sequence[str], versions: Sequence[int] | None = None) -> None:
        self.removes += 1
        if self.removes <= self.lose_removes:
            return
        self.inner.remove(memory_ids, versions)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def worker_env(settings: Settings, temporal_address: str, **extra: str) -> dict[str, str]:
    """The environment of a worker process that shares this test's stores and task queue (none
    of the developer's own MEMORY_* settings)."""
    from governed_memory.shell.worker import worker_environment

    return worker_environment(
        settings, temporal_address, os.environ["MEMORY_CODEC_KEYS"], inherit=False, **extra
    )


class WorkerProcess:
    """The real worker in a process of its own (`python -m tests.fault_worker`)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        out = self.log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.fault_worker"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush — what a crashed host looks like to Temporal."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def wait_dead(self, timeout: float) -> int:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the worker did not die within {timeout}s: {self.tail()}")
            time.sleep(0.05)
        return self.process.returncode

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
