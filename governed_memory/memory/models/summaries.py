"""SummarizeThread's input and output."""

from __future__ import annotations

from pydantic import AwareDatetime, Field, field_validator

from governed_memory.memory.models.base import Model, Stored
from governed_memory.memory.namespaces import parse_namespace


class SummarizeRequest(Stored):
    """Input of the SummarizeThread workflow: a thread of a namespace (thread ids are a
    namespace's: thread `t` of another namespace is another conversation)."""

    principal: str
    tenant: str
    namespace: str
    thread: str = Field(min_length=1, max_length=128)
    #: [first, last] message positions (1-based); default: everything since the last summary.
    range: tuple[int, int] | None = None
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)

    @field_validator("namespace")
    @classmethod
    def _namespace(cls, v: str) -> str:
        parse_namespace(v)
        return v


class SummaryResult(Model):
    workflow_id: str
    memory_id: str | None
    summary_version: int | None
    source_range: tuple[int, int] | None
    content: str | None = None
    fallback_reason: str | None = None
    unchanged: bool = False
