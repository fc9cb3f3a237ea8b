"""The feedback part of the canonical store: signals move only from what they were read as,
and feedback about a memory erased meanwhile is refused (it would outlive the memory)."""

from __future__ import annotations

import pytest

from governed_memory.memory.errors import VersionConflict
from governed_memory.memory.feedback import Signals, emitted
from governed_memory.memory.plans import CommitPlan
from governed_memory.memory.stores import Stores
from tests.factories import NS, T0, USER, record


def _event(memory_id: str, commit_id: str) -> CommitPlan:
    event = emitted(
        commit_id=commit_id,
        memory_id=memory_id,
        version=1,
        feedback_type="used",
        source="system_metric",
        given_by=USER,
        tenant_id="shop-a",
        namespace=NS,
        at=T0,
        run_id="run-1",
    )
    return CommitPlan(
        commit_id=commit_id, tenant_id="shop-a", namespace=NS, at=T0, feedback=[event]
    )


def test_signals_move_only_from_what_they_were_read_as(stores: Stores) -> None:
    feedback, db = stores.canonical.feedback, stores.canonical.db
    one, two = Signals(ignored_streak=1), Signals(ignored_streak=2)
    with db.write() as conn:
        feedback.swap_signals(conn, "shop-a", "mem_a", Signals(), one, T0)
    for stale, new in ((Signals(), two), (two, Signals(ignored_streak=3))):
        with pytest.raises(VersionConflict), db.write() as conn:  # a concurrent report won
            feedback.swap_signals(conn, "shop-a", "mem_a", stale, new, T0)
    assert feedback.signals("mem_a") == one
    with db.write() as conn:
        feedback.swap_signals(conn, "shop-a", "mem_a", one, Signals(), T0)
    assert feedback.signals("mem_a") == Signals()
    assert feedback.remaining(["mem_a"]) == 0


def test_feedback_about_an_erased_memory_is_refused(stores: Stores) -> None:
    kept = record()
    stores.canonical.commits.load([kept], T0)
    stores.canonical.commits.apply(_event(kept.memory_id, "c1"))
    stores.canonical.erasure.erase("del_1", [kept.memory_id], T0)
    assert stores.canonical.feedback.remaining([kept.memory_id]) == 0
    with pytest.raises(VersionConflict, match="erased"):
        stores.canonical.commits.apply(_event(kept.memory_id, "c2"))
    with pytest.raises(VersionConflict, match="erased"):
        stores.canonical.commits.apply(_event("mem_never", "c3"))
    assert stores.canonical.feedback.remaining([kept.memory_id]) == 0
