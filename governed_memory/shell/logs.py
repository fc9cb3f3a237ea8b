"""structlog configuration: readable in a terminal, JSON in production.

Log events carry ids (workflow, activity, memory, tenant), never memory content or personal data.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog
from temporalio import activity
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)


def _renderers(fmt: str) -> list[structlog.typing.Processor]:
    """How an event is written. A traceback never shows local variables (they hold what people
    said: a refused password would be printed with the frame that refused it); in JSON it is a
    structured list of frames, not lost."""
    if fmt == "json":
        tracebacks = structlog.processors.ExceptionRenderer(
            structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
        )
        return [tracebacks, structlog.processors.JSONRenderer()]
    return [
        structlog.dev.ConsoleRenderer(
            colors=sys.stderr.isatty(),
            exception_formatter=structlog.dev.RichTracebackFormatter(show_locals=False),
        )
    ]


def configure_logging(fmt: str = "console", level: str = "INFO") -> None:
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        # The SDK's workflow and activity loggers pass their ids as `extra`.
        structlog.stdlib.ExtraAdder(),
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                *_renderers(fmt),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # The Temporal SDK logs through stdlib logging; keep its noise at warning.
    logging.getLogger("temporalio").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)


def tenant_of(workflow_id: str) -> str | None:
    """Workflow ids are `{operation}/{tenant}/...` (see shell.temporal)."""
    parts = workflow_id.split("/")
    return parts[1] if len(parts) > 2 and parts[0] in _TENANT_SCOPED else None


_TENANT_SCOPED = {"write", "batch", "review", "summarize", "delete", "backup-expiry"}


class LogContext(Interceptor):
    """Binds every log line of an activity to its ids and tenant (contextvars travel into the
    thread that runs a synchronous activity). Never content or personal data."""

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _BoundActivity(next)


class _BoundActivity(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        with structlog.contextvars.bound_contextvars(
            activity_type=info.activity_type,
            activity_id=info.activity_id,
            attempt=info.attempt,
            workflow_id=info.workflow_id,
            run_id=info.workflow_run_id,
            tenant=tenant_of(info.workflow_id or ""),
        ):
            return await super().execute_activity(input)
