"""The installation's optional parts (pyproject's extras) and the check a door makes before it
loads one: a missing part is an `ExtraMissing` naming the extra to install, never an
ImportError from deep inside.

The base install is the URL client (pydantic and httpx); `service` is the engine itself, and
the integrations sit on top of it."""

from __future__ import annotations

from importlib.util import find_spec

from governed_memory.memory.errors import ExtraMissing

#: Each extra and the import names that tell it is installed (`devserver` installs a binary,
#: not a module: `governed_memory.shell.devserver` looks for it).
EXTRAS: dict[str, tuple[str, ...]] = {
    "service": ("temporalio", "sqlalchemy", "alembic", "structlog", "numpy", "typer", "jwt"),
    "server": ("fastapi", "uvicorn", "multipart"),
    "mcp": ("mcp",),
    "weaviate": ("weaviate",),
    "embeddings": ("sentence_transformers",),
    "langgraph": ("langgraph", "langchain_core"),
    "otel": (
        "opentelemetry.sdk",
        "opentelemetry.exporter.otlp.proto.http",
        "opentelemetry.instrumentation.fastapi",
    ),
}


def missing(extra: str) -> tuple[str, ...]:
    """The import names of `extra` this installation lacks."""
    return tuple(name for name in EXTRAS[extra] if _absent(name))


def _absent(name: str) -> bool:
    try:
        return find_spec(name) is None
    except ModuleNotFoundError:  # a dotted name whose parent package is not there
        return True


def require(extra: str, feature: str) -> None:
    """Raise `ExtraMissing` unless `extra` is installed."""
    lacking = missing(extra)
    if lacking:
        raise ExtraMissing.of(extra, feature, lacking)
