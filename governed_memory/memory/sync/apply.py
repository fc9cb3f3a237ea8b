"""The only writer of a projection: make it equal to the current canonical state of memories,
then mark their outbox events processed.

`project` reads each memory's current head (never an event's payload) and writes, overwrites or
removes its row; what the projection already holds (same version and content hash) is not
written again, so applying an event twice — a retried activity, the relay after a crash —
changes nothing. `sync` is project-then-mark, the one way every path (the write's own projection,
the relay, expiry, deletion, a replayed decision) settles outbox events; a failure is counted
(`memory_projection_failures_total`) and marks nothing, so the relay retries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from governed_memory.memory import metrics
from governed_memory.memory.models import READABLE_STATUSES, MemoryRecord, utcnow
from governed_memory.memory.models.sync import HeadDigest
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.stores.projection import Projection


class _Head(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_to(self) -> datetime | None: ...
    @property
    def expires_at(self) -> datetime | None: ...


def projectable(record: MemoryRecord | HeadDigest | None, at: datetime | None = None) -> bool:
    """Whether the projection holds a row for this canonical state (else it must hold none).
    With `at`, a record already expired then is not held either (the repair sweep's clock)."""
    if record is None:
        return False
    has_content = record.has_content if isinstance(record, HeadDigest) else record.content != ""
    head: _Head = record
    return (
        head.status in READABLE_STATUSES
        and bool(has_content)
        and (head.valid_to is None or head.valid_from is None or head.valid_to > head.valid_from)
        and (at is None or head.expires_at is None or head.expires_at > at)
    )


@dataclass
class Projected:
    """What `project` did: rows written, rows removed, and memories already as they should be."""

    applied: int = 0
    removed: int = 0
    skipped: int = 0

    @property
    def changed(self) -> int:
        return self.applied + self.removed


def project(
    canonical: CanonicalStore,
    projection: Projection,
    memory_ids: Iterable[str],
    *,
    at: datetime | None = None,
) -> Projected:
    """Make the projection equal to the current canonical state of these memories. What it
    already holds (same version and content hash) is not written again, so applying an event
    twice — a retried activity, the relay after a crash — changes nothing."""
    ids = list(dict.fromkeys(memory_ids))
    # What the projection holds first, then the heads in full, once: a head that changes
    # meanwhile is written as it is now, or not at all if it may no longer be held (the
    # projection also refuses versions older than one it has held or removed, so a slower
    # writer cannot bring back erased content). Most memories synced here are to be written
    # (a commit's, the relay's): reading their digests first and their heads again cost a
    # tenth of a write's commit. The repair sweep, which mostly finds rows as they should be,
    # compares digests (`sync.repair`).
    held = projection.state(ids)
    heads = canonical.records.heads(ids)
    write: list[MemoryRecord] = []
    drop: list[str] = []
    for memory_id in ids:
        head = heads.get(memory_id)
        row = held.get(memory_id)
        if projectable(head, at):
            assert head is not None
            if (
                row is None
                or (row.version, row.content_hash) != (head.version, head.content_hash)
                or not row.graph
            ):
                write.append(head)
        elif row is not None:
            drop.append(memory_id)
    if write:
        projection.upsert(write)
    if drop:
        projection.remove(drop, [heads[m].version if m in heads else 0 for m in drop])
    return Projected(len(write), len(drop), len(ids) - len(write) - len(drop))


def sync(
    canonical: CanonicalStore,
    projection: Projection,
    memory_ids: Iterable[str | None],
    seqs: Sequence[int] = (),
    *,
    pending: bool = False,
) -> Projected:
    """Project these memories, then mark `seqs` processed — and, with `pending`, every event of
    theirs still unprocessed (read before the heads are, so an event committed meanwhile stays
    pending for its own writer or the relay)."""
    ids = [m for m in dict.fromkeys(memory_ids) if m]
    events = sorted({*seqs, *(canonical.outbox.unprocessed(ids) if pending and ids else ())})
    try:
        done = project(canonical, projection, ids)
    except Exception:
        metrics.PROJECTION_FAILURES.inc()
        raise
    canonical.outbox.mark_processed(events, utcnow())
    return done


def sync_pending(
    canonical: CanonicalStore, projection: Projection, memory_ids: Iterable[str | None]
) -> int:
    """Sync these memories if events of theirs are still pending; how many were. For a write
    found already decided: the run that committed it may have died before projecting."""
    ids = [m for m in dict.fromkeys(memory_ids) if m]
    waiting = canonical.outbox.unprocessed(ids) if ids else []
    if waiting:
        sync(canonical, projection, ids, waiting)
    return len(waiting)
