"""The Weaviate projection's ledger (see `memory.stores.projection.weaviate`): an entry per
memory ever projected, and the removal marks; read and written here over their collections, with
the entry a row's write makes and the ledger's pages in write order."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, FilterReturn, Sort

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.stores.projection.weaviate_client import raise_on_failures
from governed_memory.memory.stores.projection.weaviate_queries import _PAGE, ids_filter
from governed_memory.memory.stores.projection.weaviate_rows import (
    NO_END,
    _seconds,
    object_id,
    tenant_name,
)

LEDGER_FIELDS = [
    "memory_id",
    "tenant",
    "tenant_id",
    "namespace",
    "version",
    "content_hash",
    "held",
    "written",
    "expires_at",
    "applied",
]
REMOVED_FIELDS = ["memory_id", "version"]


@dataclass
class IndexLedgerEntry:
    """What the ledger knows of one memory (see the module's docstring)."""

    memory_id: str
    tenant: str
    tenant_id: str
    namespace: str = ""
    version: int = 0
    content_hash: str = ""
    held: bool = False
    written: int = 0
    expires_at: float = NO_END
    #: How many times each version was written.
    applied: dict[int, int] = field(default_factory=dict)

    def properties(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "tenant": self.tenant,
            "tenant_id": self.tenant_id,
            "namespace": self.namespace,
            "version": self.version,
            "content_hash": self.content_hash,
            "held": self.held,
            "written": self.written,
            "expires_at": self.expires_at,
            "applied": json.dumps({str(v): n for v, n in sorted(self.applied.items())}),
        }

    @classmethod
    def from_properties(cls, props: Mapping[str, Any]) -> IndexLedgerEntry:
        expires = props.get("expires_at")
        return cls(
            memory_id=str(props["memory_id"]),
            tenant=str(props.get("tenant") or ""),
            tenant_id=str(props.get("tenant_id") or ""),
            namespace=str(props.get("namespace") or ""),
            version=int(props.get("version") or 0),
            content_hash=str(props.get("content_hash") or ""),
            held=bool(props.get("held")),
            written=int(props.get("written") or 0),
            expires_at=NO_END if expires is None else float(expires),
            applied={int(v): int(n) for v, n in json.loads(props.get("applied") or "{}").items()},
        )


def read_entries(ledger: Any, memory_ids: Sequence[str]) -> dict[str, IndexLedgerEntry]:
    """The ledger's entries of these memories (none for a memory never projected)."""
    out: dict[str, IndexLedgerEntry] = {}
    ids = list(dict.fromkeys(memory_ids))
    for i in range(0, len(ids), _PAGE):
        chunk = ids[i : i + _PAGE]
        found = ledger.query.fetch_objects(
            filters=ids_filter(chunk), limit=len(chunk), return_properties=LEDGER_FIELDS
        )
        for obj in found.objects:
            entry = IndexLedgerEntry.from_properties(obj.properties)
            out[entry.memory_id] = entry
    return out


def write_entries(ledger: Any, entries: Iterable[IndexLedgerEntry]) -> None:
    """These entries written to the ledger (an entry replaces the memory's former one)."""
    objects = [DataObject(properties=e.properties(), uuid=object_id(e.memory_id)) for e in entries]
    for i in range(0, len(objects), _PAGE):
        raise_on_failures(ledger.data.insert_many(objects[i : i + _PAGE]), "ledger entries")


def read_removed(removed: Any, memory_ids: Sequence[str]) -> dict[str, int]:
    """The canonical version at which each of these memories left the index (if it did)."""
    out: dict[str, int] = {}
    ids = list(dict.fromkeys(memory_ids))
    for i in range(0, len(ids), _PAGE):
        chunk = ids[i : i + _PAGE]
        found = removed.query.fetch_objects(
            filters=ids_filter(chunk), limit=len(chunk), return_properties=REMOVED_FIELDS
        )
        out.update(
            {str(o.properties["memory_id"]): int(o.properties["version"]) for o in found.objects}
        )
    return out


def read_page(
    ledger: Any, filters: FilterReturn, limit: int, *, sort: str | None = None
) -> list[IndexLedgerEntry]:
    """The entries these filters pass, at most `limit`, in `sort`'s order when given."""
    found = ledger.query.fetch_objects(
        filters=filters,
        sort=Sort.by_property(sort, ascending=True) if sort else None,
        limit=limit,
        return_properties=LEDGER_FIELDS,
    )
    return [IndexLedgerEntry.from_properties(o.properties) for o in found.objects]


def entry_written(
    record: MemoryRecord, old: IndexLedgerEntry | None, mark: int
) -> IndexLedgerEntry:
    """The entry of a row about to be written: held, at write mark `mark`, its version counted
    once more unless `old` (the entry so far) holds this very write already."""
    applied = dict(old.applied) if old is not None else {}
    # The same version and hash already entered as held: this completes (or repeats)
    # that write, which was counted then (a write interrupted between ledger and row).
    again = (
        old is not None
        and old.held
        and (old.version, old.content_hash) == (record.version, record.content_hash)
    )
    if not again:
        applied[record.version] = applied.get(record.version, 0) + 1
    return IndexLedgerEntry(
        memory_id=record.memory_id,
        tenant=tenant_name(record.tenant_id),
        tenant_id=record.tenant_id,
        namespace=record.namespace,
        version=record.version,
        content_hash=record.content_hash,
        held=True,
        written=mark,
        expires_at=_seconds(record.expires_at, NO_END),
        applied=applied,
    )


def written_after(
    page_of: Callable[..., list[IndexLedgerEntry]], written: int, limit: int, horizon: int
) -> list[tuple[int, str]]:
    """(write mark, memory id) of the entries written after mark `written` and up to `horizon`,
    in write order, read by `page_of` (filters, limit, sort): `rows_written_after`'s pages."""
    out: list[tuple[int, str]] = []
    cursor = written
    while len(out) < limit:
        size = min(_PAGE, limit - len(out))
        page = page_of(
            Filter.all_of(
                [
                    Filter.by_property("written").greater_than(cursor),
                    Filter.by_property("written").less_or_equal(horizon),
                ]
            ),
            size + 1,
            sort="written",
        )
        full = len(page) > size
        if full:
            after, page = page[size], page[:size]
            if page[-1].written == after.written:  # a tie straddles the page's end
                kept = [e for e in page if e.written != after.written]
                page = kept or page_of(Filter.by_property("written").equal(after.written), 10_000)
        out.extend((e.written, e.memory_id) for e in page)
        if not full:
            break
        cursor = page[-1].written
    return out
