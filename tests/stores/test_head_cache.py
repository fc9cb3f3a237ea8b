"""Heads decoded once (`Records.heads` over `HeadCache`): a cached head is answered only at the
version the store holds now, what a transaction read before it committed is never kept, and a
memory given a new version here (an erasure's tombstone) leaves the cache at once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from governed_memory.memory.plans import CommitPlan, RecordChange, SlotCheck
from governed_memory.memory.stores import Stores
from tests.factories import NS, T0, record

SLOT = "key:notification.preference"


def plan(commit_id: str, expected: int, **over) -> CommitPlan:
    return CommitPlan(
        commit_id=commit_id,
        tenant_id="shop-a",
        namespace=NS,
        slots=[SlotCheck(slot=SLOT, expected_version=expected)],
        at=over.pop("at", T0),
        **over,
    )


def supersede(memory_id: str, version: int, at) -> RecordChange:
    return RecordChange(
        memory_id=memory_id,
        expected_version=version,
        status="superseded",
        valid_to=at,
        conflict_group=None,
        change="superseded_by:test",
    )


def test_a_cached_head_is_answered_only_at_the_stores_version(stores: Stores) -> None:
    records = stores.canonical.records
    r = record()
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    first = records.heads([r.memory_id])[r.memory_id]
    assert records.cache.get(r.memory_id, 1) is first  # kept, decoded once
    assert records.heads([r.memory_id])[r.memory_id] is first

    later = T0 + timedelta(days=1)
    stores.canonical.commits.apply(
        plan("c2", 1, at=later, changes=[supersede(r.memory_id, 1, later)])
    )
    now = records.heads([r.memory_id])[r.memory_id]
    assert (now.version, now.status, now.valid_to) == (2, "superseded", later)
    assert records.heads([r.memory_id, "mem_absent"]) == {r.memory_id: now}


def test_a_head_another_process_moved_is_read_again(stores: Stores) -> None:
    """The cache is this process's: a version written behind its back (another worker, here
    a stale entry put in by hand) is never answered for the row the store holds."""
    records = stores.canonical.records
    r = record()
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    stale = r.model_copy(update={"content": "a value that was never stored", "version": 2})
    records.cache.put([stale])
    assert records.heads([r.memory_id])[r.memory_id].content == r.content


def test_what_a_transaction_read_before_it_rolled_back_is_not_kept(stores: Stores) -> None:
    records = stores.canonical.records
    r = record()
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    records.heads([r.memory_id])
    later = T0 + timedelta(days=1)

    class Rollback(Exception):
        pass

    seen: list[str] = []

    def write_then_fail() -> None:
        with stores.canonical.db.write() as conn:
            head = records.heads([r.memory_id], conn)[r.memory_id]
            row = head.model_dump(exclude={"schema_version"})
            records.append_versions(
                conn, [{**row, "version": 2, "content": "rolled back", "change": "test"}]
            )
            seen.append(records.heads([r.memory_id], conn)[r.memory_id].content)
            raise Rollback

    with pytest.raises(Rollback):
        write_then_fail()
    assert seen == ["rolled back"]
    assert records.cache.get(r.memory_id, 2) is None
    # the version number the rolled-back write took is taken by a committed one
    stores.canonical.commits.apply(
        plan("c2", 1, at=later, changes=[supersede(r.memory_id, 1, later)])
    )
    head = records.heads([r.memory_id])[r.memory_id]
    assert (head.version, head.content, head.status) == (2, r.content, "superseded")


def test_an_erased_memory_leaves_the_cache_with_its_content(stores: Stores) -> None:
    records = stores.canonical.records
    r = record(content="住在上海市静安区")
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    records.heads([r.memory_id])
    stores.canonical.erasure.erase("del_1", [r.memory_id], T0 + timedelta(days=1))
    assert records.cache.get(r.memory_id, 1) is None
    head = records.heads([r.memory_id])[r.memory_id]
    assert (head.version, head.status, head.content) == (2, "deleted", "")
    assert "静安区" not in repr(records.cache._heads)


def test_the_cache_keeps_at_most_its_size() -> None:
    from governed_memory.memory.stores.canonical.records import HeadCache

    cache = HeadCache(size=2)
    a, b, c = record(), record(), record()
    cache.put([a, b])
    assert cache.get(a.memory_id, 1) is a  # a is now the most recently used
    cache.put([c])
    assert cache.get(b.memory_id, 1) is None
    assert cache.get(a.memory_id, 1) is a
    assert cache.get(c.memory_id, 1) is c
