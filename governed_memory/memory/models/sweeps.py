"""The sweeps' inputs and outputs: repair and expiry."""

from __future__ import annotations

from typing import Any

from pydantic import (
    AwareDatetime,
    Field,
)

from governed_memory.memory.models.base import Model
from governed_memory.memory.models.sync import Watermarks


class RepairRequest(Model):
    """Input of RepairProjections (and of each of its continued runs)."""

    #: Compare every record and every index row (default: what changed since the last repair).
    full: bool = False
    #: Clock override for evaluation and tests (refused unless enabled); default: now.
    at: AwareDatetime | None = None
    page_size: int = Field(default=2000, gt=0, le=20_000)
    #: Pages per activity call (each call heartbeats after every page).
    budget_pages: int = Field(default=50, gt=0, le=1000)
    #: Carried across continue-as-new: the repair's id, cursor and what it did so far.
    repair_id: str | None = None
    cursor: dict[str, Any] | None = None
    totals: dict[str, Any] | None = None
    relayed_events: int = Field(default=0, ge=0)
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class RepairReport(Model):
    repair_id: str
    full: bool
    relayed_events: int
    compared: int
    mismatches: dict[str, int]
    repaired: int
    namespaces_refreshed: int
    last_event_committed: int
    last_index_updated: int


class ExpireRequest(Model):
    """Input of ExpireMemories."""

    #: Clock override for evaluation and tests (refused unless enabled); default: now.
    at: AwareDatetime | None = None
    batch_size: int = Field(default=500, gt=0, le=10_000)
    expired_so_far: int = 0
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class ExpireSummary(Model):
    expired: int
    namespaces: list[str]


class RelayRequest(Model):
    """Input of RelayOutbox."""

    batch_size: int = Field(default=1000, gt=0, le=10_000)
    max_batches: int | None = Field(default=None, gt=0)
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class RelayResult(Model):
    events: int = 0
    applied: int = 0
    removed: int = 0
    skipped: int = 0
    batches: int = 0
    watermarks: Watermarks | None = None

    def add(self, other: RelayResult) -> RelayResult:
        return RelayResult(
            events=self.events + other.events,
            applied=self.applied + other.applied,
            removed=self.removed + other.removed,
            skipped=self.skipped + other.skipped,
            batches=self.batches + other.batches,
            watermarks=other.watermarks or self.watermarks,
        )
