"""Recall's cache: recent results, valid while the generations of the namespaces they read are
unchanged (the canonical store bumps them with every write, deletion and expiry)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from governed_memory.memory.models import RecallResult


@dataclass
class _Entry:
    generations: dict[str, tuple[int, datetime | None]]
    result: RecallResult
    created: float


class RecallCache:
    """Recent results, keyed on the query and valid only while the generations of its namespaces
    (kept in the canonical store, bumped by every write, deletion and expiry) are unchanged —
    whichever process holds the cache and whichever wrote. Entries for "now" also end after a
    short TTL and as soon as a returned memory's validity or retention ends."""

    def __init__(self, entries: int, ttl_seconds: float) -> None:
        self.entries = entries
        self.ttl = ttl_seconds
        self._data: OrderedDict[tuple[object, ...], _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(
        self,
        key: tuple[object, ...],
        generations: dict[str, tuple[int, datetime | None]],
        now: datetime | None,
    ) -> RecallResult | None:
        with self._lock:
            entry = self._data.get(key)
            if entry is None or entry.generations != generations:
                self.misses += 1
                return None
            if now is not None:  # a question about "now": time itself can make it stale
                fresh = time.monotonic() - entry.created <= self.ttl
                if not fresh or any(
                    (m.valid_to is not None and m.valid_to <= now) for m in entry.result.memories
                ):
                    self.misses += 1
                    return None
            self._data.move_to_end(key)
            self.hits += 1
            return entry.result.model_copy(update={"cached": True})

    def put(
        self,
        key: tuple[object, ...],
        generations: dict[str, tuple[int, datetime | None]],
        result: RecallResult,
    ) -> None:
        if self.entries <= 0:
            return
        with self._lock:
            self._data[key] = _Entry(generations, result, time.monotonic())
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)
