"""The audit trail's events."""

from __future__ import annotations

from typing import Any

from pydantic import (
    Field,
)

from governed_memory.memory.models.base import Model
from governed_memory.memory.models.records import ExtractorInfo


class AuditEvent(Model):
    stage: str
    outcome: str
    reason_code: str | None = None
    decision: str | None = None
    relation: str | None = None
    memory_id: str | None = None
    memory_version: int | None = None
    principal: str | None = None
    extractor: ExtractorInfo | None = None
    details: dict[str, Any] = Field(default_factory=dict)
