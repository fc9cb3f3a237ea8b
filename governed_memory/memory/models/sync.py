"""The vocabulary of following the outbox: events, status, watermarks, head digests, repairs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import AwareDatetime

from governed_memory.memory.models.base import Model, Status


class OutboxEvent(Model):
    seq: int
    event_id: str
    memory_id: str
    memory_version: int
    tenant_id: str
    namespace: str
    operation: str
    payload: dict[str, Any]
    created_at: AwareDatetime
    processed_at: AwareDatetime | None


class OutboxStatus(Model):
    last_seq: int
    unprocessed: int
    #: The oldest unprocessed event (none: the outbox is drained).
    oldest_unprocessed_seq: int | None
    oldest_unprocessed_at: AwareDatetime | None


class Watermarks(Model):
    """How far a projection has followed the outbox (event seqs), and the repair marks."""

    projection: str
    last_event_seen: int = 0
    last_event_committed: int = 0
    last_index_updated: int = 0
    repair_seq: int = 0
    repair_written: int = 0
    epoch: str | None = None
    last_repair_at: AwareDatetime | None = None
    last_full_repair_at: AwareDatetime | None = None


@dataclass(frozen=True, slots=True)
class HeadDigest:
    """What a projection row is compared with: the head's version and hash, and whether it
    should be projected at all. A plain dataclass: a full compare builds one per memory."""

    memory_id: str
    tenant_id: str
    namespace: str
    version: int
    content_hash: str
    status: Status
    has_content: bool
    valid_from: datetime | None
    valid_to: datetime | None
    expires_at: datetime | None


class RepairRecord(Model):
    memory_id: str
    namespace: str | None
    reason: str
    result: str
