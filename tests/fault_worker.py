"""The service's worker, for the fault tests, with an optional self-kill at a chosen point.

    MEMORY_...=... FAULT_KILL=before-projection|after-projection|after-activity:<type> \\
        FAULT_MARKER=/path python -m tests.fault_worker

Configured like `worker.py` (MEMORY_* variables). With FAULT_KILL the process SIGKILLs itself
once (the marker file records that it did, so the restarted worker runs clean):

- `before-projection` / `after-projection`: at the first projection write after a canonical
  commit — before the rows reach the index, or after they did but before the outbox is marked;
- `after-activity:<activity type>`: when an activity of that type has done its work and
  returned, before Temporal hears of it (its effects are in the stores; the run does not know).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.logs import configure_logging
from governed_memory.shell.worker import run_worker


def die_once(marker: Path) -> None:
    if marker.exists():
        return
    marker.write_text(str(os.getpid()))
    os.kill(os.getpid(), signal.SIGKILL)


class KillAfterActivity(Interceptor):
    def __init__(self, activity_type: str, marker: Path) -> None:
        self.activity_type = activity_type
        self.marker = marker

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Killing(next, self)


class _Killing(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, plan: KillAfterActivity) -> None:
        super().__init__(next)
        self.plan = plan

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        from temporalio import activity

        result = await super().execute_activity(input)
        if activity.info().activity_type == self.plan.activity_type:
            die_once(self.plan.marker)
        return result


class KillingProjection:
    def __init__(self, inner: Any, when: str, marker: Path) -> None:
        self.inner = inner
        self.when = when
        self.marker = marker

    def _die(self) -> None:
        die_once(self.marker)

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
    when = os.environ.get("FAULT_KILL", "")
    interceptors: list[Interceptor] = []
    if when:
        marker = Path(os.environ["FAULT_MARKER"])
        if when.startswith("after-activity:"):
            interceptors.append(KillAfterActivity(when.partition(":")[2], marker))
        else:
            stores.projection = KillingProjection(stores.projection, when, marker)
    asyncio.run(run_worker(settings, stores=stores, interceptors=interceptors))


if __name__ == "__main__":
    main()
