"""The outbox relay: every committed change reaches the projection, once.

A commit writes its outbox events in the same transaction as the records, so nothing committed can
be missing from the outbox. The write and deletion workflows project their own commits right away;
the relay applies whatever is still unprocessed (a projection that failed, a worker killed between
commit and projection) by projecting the *current* canonical state of each memory — what the
projection already holds is skipped, so an event applied twice changes nothing — and then marks the
events processed. The watermarks say how far the projection has followed the outbox:

- `last_event_committed`: the highest event seq committed to the outbox;
- `last_event_seen`: the highest seq the relay has read;
- `last_index_updated`: the highest seq below which every event is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from governed_memory.memory.models import utcnow
from governed_memory.memory.models.sweeps import RelayResult
from governed_memory.memory.models.sync import Watermarks
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync


def relay(
    stores: Stores,
    *,
    batch_size: int = 1000,
    max_batches: int | None = None,
    heartbeat: Callable[[RelayResult], None] | None = None,
) -> RelayResult:
    """Apply unprocessed outbox events in seq order until none is left (or `max_batches`)."""
    canonical = stores.canonical
    result = RelayResult()
    seen = 0
    while max_batches is None or result.batches < max_batches:
        events = canonical.outbox.events(unprocessed_only=True, limit=batch_size)
        if not events:
            break
        done = sync(
            canonical, stores.projection, [e.memory_id for e in events], [e.seq for e in events]
        )
        seen = max(seen, events[-1].seq)
        result = result.add(
            RelayResult(
                events=len(events),
                applied=done.applied,
                removed=done.removed,
                skipped=done.skipped,
                batches=1,
            )
        )
        if heartbeat is not None:
            heartbeat(result)
    result.watermarks = update_watermarks(stores, seen=seen)
    return result


def update_watermarks(stores: Stores, *, seen: int = 0, at: datetime | None = None) -> Watermarks:
    canonical = stores.canonical
    marks = canonical.sweeps.watermarks(stores.projection.name)
    status = canonical.outbox.status()
    marks.last_event_seen = max(marks.last_event_seen, seen)
    marks.last_event_committed = status.last_seq
    marks.last_index_updated = (
        status.oldest_unprocessed_seq - 1
        if status.oldest_unprocessed_seq is not None
        else status.last_seq
    )
    canonical.sweeps.save_watermarks(marks, at or utcnow())
    return marks
