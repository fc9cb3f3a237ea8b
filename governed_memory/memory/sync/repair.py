"""Projection repair: compare the projection with the canonical store and make them equal.

The relay applies what the outbox says; repair finds what no event says — a row the index lost, a
row written for a transaction that then rolled back, a tombstoned or expired record still indexed,
a version or hash that differs — by comparing each row with the canonical head (version and
content hash). Each fix is recorded with its reason and result, and the namespaces touched get a
new cache generation.

Reasons: `missing` (canonical holds it, the index does not), `stale` (older version or another
hash), `rolled_back` (the index is ahead of canonical: its transaction never committed),
`tombstoned` (deleted, superseded or invalidated, still indexed), `expired` (past `expires_at` at
the repair's clock), `orphan` (no canonical record at all).

Two modes, both paged by a cursor (the workflow heartbeats it and continues as new):
- incremental (the schedule): memories with outbox events since the last repair, index rows
  written (added or overwritten) since the last repair, and rows expired by now;
- full (`memctl repair --full`, or when the index is new): every canonical head and every index
  row, merged in memory id order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime

from pydantic import Field

from governed_memory.memory.contracts.projections import Reason, RepairCursor, RepairTotals
from governed_memory.memory.models import Model
from governed_memory.memory.models.sync import HeadDigest, RepairRecord, Watermarks
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection import ProjectedState
from governed_memory.memory.sync.apply import projectable
from governed_memory.memory.sync.relay import update_watermarks


def begin(stores: Stores, *, full: bool) -> RepairCursor:
    """Where a repair starts. An index that is new since the last repair is compared in full.
    A full compare notes where the outbox and the index stood: what comes after is left to the
    next incremental repair."""
    marks = stores.canonical.sweeps.watermarks(stores.projection.name)
    if marks.epoch != stores.projection.epoch or marks.last_repair_at is None:
        full = True
    if full:
        return RepairCursor(
            phase="all",
            full=True,
            start_seq=stores.canonical.outbox.status().last_seq,
            start_written=stores.projection.last_written(),
        )
    return RepairCursor(
        phase="changed",
        full=False,
        seq=marks.repair_seq,
        written=marks.repair_written,
        start_seq=marks.repair_seq,
        start_written=marks.repair_written,
    )


def classify(digest: HeadDigest | None, row: ProjectedState | None, at: datetime) -> Reason | None:
    """Why this index row (or its absence) differs from the canonical head, if it does."""
    if digest is None:
        return "orphan" if row is not None else None
    if projectable(digest):
        if not projectable(digest, at):
            return "expired" if row is not None else None
        if row is None:
            return "missing"
        if row.version > digest.version:
            return "rolled_back"
        if (row.version, row.content_hash) != (digest.version, digest.content_hash):
            return "stale"
        if not row.graph:
            return "stale"  # the row is current, its graph is missing or another extractor's
        return None
    return "tombstoned" if row is not None else None


def fix(
    stores: Stores,
    digests: dict[str, HeadDigest],
    rows: dict[str, ProjectedState],
    ids: list[str],
    at: datetime,
) -> tuple[list[RepairRecord], int]:
    """Compare these memories and repair what differs; the records of what was done, and how
    many were compared."""
    projection, canonical = stores.projection, stores.canonical
    found: list[tuple[str, Reason]] = []
    for memory_id in ids:
        reason = classify(digests.get(memory_id), rows.get(memory_id), at)
        if reason is not None:
            found.append((memory_id, reason))
    if not found:
        return [], len(ids)
    rewrite = [m for m, r in found if r in ("missing", "stale", "rolled_back")]
    ahead = [m for m, r in found if r in ("rolled_back", "orphan")]
    gone = [m for m, r in found if r in ("tombstoned", "expired")]
    if ahead:
        # What no committed transaction wrote: removed without a mark (canonical may hold an
        # older version of it, written back just after).
        projection.remove(ahead)
    if gone:
        projection.remove(gone, [digests[m].version for m in gone])
    if rewrite:
        heads = canonical.records.heads(rewrite)
        projection.upsert([heads[m] for m in rewrite if projectable(heads.get(m), at)])
    records = [
        RepairRecord(
            memory_id=m,
            namespace=(digests[m].namespace if m in digests else rows[m].namespace),
            reason=r,
            result="repaired",
        )
        for m, r in found
    ]
    return records, len(ids)


def _full_page(
    stores: Stores, after: str | None, page_size: int
) -> tuple[dict[str, HeadDigest], dict[str, ProjectedState], str | None]:
    """Canonical heads and index rows after `after` in memory id order, up to the last id of
    the page (None: the end)."""
    heads = stores.canonical.records.digests(after, page_size)
    last = heads[-1].memory_id if len(heads) == page_size else None
    cap = 10 * page_size
    rows = stores.projection.rows_in_order(after, last, cap)
    if len(rows) == cap:
        # Far more index rows than heads in this range (orphans): stop the page there.
        last = max(rows) if last is None else min(last, max(rows))
    digests = {d.memory_id: d for d in heads if last is None or d.memory_id <= last}
    return digests, rows, last


def compare(stores: Stores, at: datetime, page_size: int = 5000) -> list[tuple[str, Reason]]:
    """Every difference between the projection and the canonical store, changing nothing: the
    check a repair would act on (tests and `memctl repair --check` use it)."""
    found: list[tuple[str, Reason]] = []
    after: str | None = None
    while True:
        digests, rows, last = _full_page(stores, after, page_size)
        for memory_id in sorted({*digests, *rows}):
            reason = classify(digests.get(memory_id), rows.get(memory_id), at)
            if reason is not None:
                found.append((memory_id, reason))
        if last is None:
            return found
        after = last


class RepairPage(Model):
    cursor: RepairCursor
    totals: RepairTotals
    records: list[RepairRecord] = Field(default_factory=list)


def step(stores: Stores, cursor: RepairCursor, at: datetime, page_size: int) -> RepairPage:
    """One page of the repair at `cursor`: compare, fix, and say where to go on."""
    canonical, projection = stores.canonical, stores.projection
    ids: list[str]
    if cursor.phase == "all":
        digests, rows, last = _full_page(stores, cursor.after, page_size)
        ids = sorted({*digests, *rows})
        next_cursor = (
            cursor.model_copy(update={"after": last})
            if last is not None
            else cursor.model_copy(update={"phase": "done"})
        )
    elif cursor.phase == "changed":
        ids, seq = canonical.outbox.changed_after(cursor.seq, page_size)
        digests, rows = canonical.records.digests_for(ids), projection.state(ids)
        next_cursor = cursor.model_copy(update={"seq": seq} if ids else {"phase": "written"})
    elif cursor.phase == "written":
        written = projection.rows_written_after(cursor.written, page_size)
        ids = [m for _, m in written]
        digests, rows = canonical.records.digests_for(ids), projection.state(ids)
        next_cursor = cursor.model_copy(
            update={"written": written[-1][0]} if written else {"phase": "expired"}
        )
    elif cursor.phase == "expired":
        ids = projection.expired_rows(at, page_size)
        digests, rows = canonical.records.digests_for(ids), projection.state(ids)
        # Every expired row found is removed, so the next page holds only newer ones.
        next_cursor = (
            cursor if len(ids) == page_size else cursor.model_copy(update={"phase": "done"})
        )
    else:
        return RepairPage(cursor=cursor, totals=RepairTotals())
    records, compared = fix(stores, digests, rows, ids, at)
    if cursor.phase == "expired" and len(ids) == page_size and not records:
        next_cursor = cursor.model_copy(update={"phase": "done"})  # nothing more to remove
    totals = RepairTotals(
        compared=compared,
        mismatches=dict(Counter(r.reason for r in records)),
        repaired=sum(1 for r in records if r.result == "repaired"),
        namespaces=sorted({r.namespace for r in records if r.namespace}),
        pages=1,
    )
    return RepairPage(cursor=next_cursor, totals=totals, records=records)


def run_pages(
    stores: Stores,
    repair_id: str,
    cursor: RepairCursor,
    at: datetime,
    *,
    page_size: int = 2000,
    budget_pages: int | None = None,
    heartbeat: Callable[[RepairCursor], None] | None = None,
    on_page: Callable[[RepairPage], None] | None = None,
) -> tuple[RepairCursor, RepairTotals]:
    """Pages until the repair is done (or `budget_pages`); each page's fixes are recorded."""
    totals = RepairTotals()
    while cursor.phase != "done" and (budget_pages is None or totals.pages < budget_pages):
        page = step(stores, cursor, at, page_size)
        stores.canonical.sweeps.record_repairs(repair_id, stores.projection.name, page.records, at)
        if page.totals.namespaces:
            stores.canonical.generations.bump(page.totals.namespaces, at)
        if on_page is not None:
            on_page(page)
        totals = totals.add(page.totals)
        cursor = page.cursor
        if heartbeat is not None:
            heartbeat(cursor)
    return cursor, totals


def finish(stores: Stores, cursor: RepairCursor, at: datetime) -> Watermarks:
    """Remember how far this repair compared, so the next incremental one starts there."""
    marks = update_watermarks(stores, at=at)
    marks.repair_seq = cursor.start_seq if cursor.full else max(cursor.seq, cursor.start_seq)
    marks.repair_written = (
        cursor.start_written if cursor.full else max(cursor.written, cursor.start_written)
    )
    marks.epoch = stores.projection.epoch
    marks.last_repair_at = at
    if cursor.full:
        marks.last_full_repair_at = at
    stores.canonical.sweeps.save_watermarks(marks, at)
    return marks
