"""The service's worker, for the fault tests, with an optional self-kill at a chosen point.

    MEMORY_...=... FAULT_KILL=before-projection|after-projection FAULT_MARKER=/path \\
        python -m tests.fault_worker

Configured like `worker.py` (MEMORY_* variables). With FAULT_KILL the process SIGKILLs itself
at the first projection write after a canonical commit — before the rows reach the index, or
after they did but before the outbox is marked — once (the marker file records that it did, so
the restarted worker runs clean).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from memory.settings import Settings
from memory.stores import open_stores
from shell.logs import configure_logging
from shell.worker import run_worker


class KillingProjection:
    def __init__(self, inner: Any, when: str, marker: Path) -> None:
        self.inner = inner
        self.when = when
        self.marker = marker

    def _die(self) -> None:
        if self.marker.exists():
            return
        self.marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)

    def upsert(self, *args: Any, **kwargs: Any) -> None:
        if self.when == "before-projection":
            self._die()
        self.inner.upsert(*args, **kwargs)
        if self.when == "after-projection":
            self._die()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def main() -> None:
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    stores = open_stores(settings)
    when = os.environ.get("FAULT_KILL")
    if when:
        marker = Path(os.environ["FAULT_MARKER"])
        stores.projection = KillingProjection(stores.projection, when, marker)
    asyncio.run(run_worker(settings, stores=stores))


if __name__ == "__main__":
    main()
