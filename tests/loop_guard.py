"""No blocking work of the service on an event loop. SQL (SQLAlchemy's, and the embedded
projection's sqlite3) run from a coroutine of the service's own code (the HTTP API's async
routes and dependencies, the façade's async methods, the MCP tools, async activities and
interceptors) stalls every other request on that loop; the suite's autouse fixture
(`tests/conftest.py`) fails the test during which it happened.

The innermost coroutine on the stack decides: a test's own coroutine reading the store is the
test's business; `asyncio.to_thread` and Starlette's threadpool run on threads with no loop."""

from __future__ import annotations

import asyncio
import inspect
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from governed_memory.memory.stores.projection.embedded import EmbeddedProjection

ROOT = Path(__file__).resolve().parents[1]
SERVICE = tuple(str(ROOT / part) for part in ("governed_memory", "activities", "workflows"))
#: memctl's evaluation and benchmark harnesses own their process's loop: nothing else is
#: served on it, so their reads of the store wait for nobody.
TOOLS = tuple(str(ROOT / "governed_memory" / "shell" / part) for part in ("eval", "bench"))
ASYNC = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
violations: list[str] = []


def check(what: str) -> None:
    if asyncio._get_running_loop() is None:
        return
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_flags & ASYNC:
            if code.co_filename.startswith(SERVICE) and not code.co_filename.startswith(TOOLS):
                where = Path(code.co_filename).relative_to(ROOT)
                violations.append(
                    f"{what} on the event loop, in {code.co_qualname} ({where}:{frame.f_lineno})"
                )
            return
        frame = frame.f_back


def install() -> None:
    def before(*_: Any) -> None:
        check("SQL")

    event.listen(Engine, "before_cursor_execute", before)
    opened = EmbeddedProjection._conn

    def conn(self: EmbeddedProjection) -> Any:
        check("the embedded projection's SQLite")
        return opened(self)

    EmbeddedProjection._conn = conn  # type: ignore[method-assign]
