"""The canonical store on SQLite and Postgres: same code, same guarantees."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from governed_memory.memory.errors import NotFound, VersionConflict
from governed_memory.memory.fingerprints import Fingerprints
from governed_memory.memory.models import AuditEvent, DeletionReceipt, DeletionScope, Principal
from governed_memory.memory.plans import CommitPlan, RecordChange, SlotCheck
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.schema import (
    audit_events,
    deletion_probes,
    key_slots,
    memory_outbox,
    memory_versions,
)
from tests.factories import NS, T0, record


def plan(commit_id: str, expected: int, **over) -> CommitPlan:
    return CommitPlan(
        commit_id=commit_id,
        tenant_id="shop-a",
        namespace=NS,
        slots=[SlotCheck(slot="key:notification.preference", expected_version=expected)],
        at=over.pop("at", T0),
        **over,
    )


def count(stores: Stores, table) -> int:
    with stores.canonical.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def test_commit_writes_record_outbox_audit_and_generation_together(stores: Stores) -> None:
    r = record()
    result = stores.canonical.commits.apply(
        plan(
            "c1", 0, new_records=[r], audit=[AuditEvent(stage="policy_decision", outcome="commit")]
        )
    )
    assert result.written == [(r.memory_id, 1)]
    assert stores.canonical.records.head(r.memory_id) == r
    events = stores.canonical.outbox.events()
    assert [(e.memory_id, e.memory_version) for e in events] == [(r.memory_id, 1)]
    assert count(stores, audit_events) == 1
    assert stores.canonical.generations.read([NS]) == {NS: (1, T0)}


def test_a_record_read_back_is_the_record_written(stores: Stores) -> None:
    """Reads build records from rows without validating (`models.built`): what comes back is
    the validated record that was written, field for field and in the same order, its
    copies and dumps alike."""
    from governed_memory.memory.models import GraphHints

    hints = GraphHints.model_validate({"entities": [{"name": "短信"}]})
    r = record(graph=hints, valid_to=T0 + timedelta(days=3))
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    back = stores.canonical.records.heads([r.memory_id])[r.memory_id]
    assert back == r
    assert back.model_dump_json() == r.model_dump_json()
    assert list(back.model_dump()) == list(r.model_dump())
    assert back.model_fields_set == set(type(r).model_fields)
    assert back.model_copy(update={"version": 2}).version == 2
    assert type(back).model_validate(back.model_dump()) == r
    (version,) = stores.canonical.records.versions(r.memory_id)
    assert version == r


def test_a_replayed_commit_returns_its_first_result_and_writes_nothing(stores: Stores) -> None:
    r = record()
    first = stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    again = stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    assert again.replayed
    assert again.written == first.written
    assert count(stores, memory_versions) == 1
    assert count(stores, memory_outbox) == 1


def test_stale_slot_version_is_a_conflict_and_changes_nothing(stores: Stores) -> None:
    stores.canonical.commits.apply(plan("c1", 0, new_records=[record()]))
    with pytest.raises(VersionConflict):
        stores.canonical.commits.apply(plan("c2", 0, new_records=[record()]))
    with pytest.raises(VersionConflict):
        stores.canonical.commits.apply(plan("c3", 7, new_records=[record()]))
    assert count(stores, memory_versions) == 1
    assert stores.canonical.records.slot_state(NS, "key:notification.preference").version == 1


def test_a_plan_checks_every_slot_it_writes(stores: Stores) -> None:
    stores.canonical.commits.apply(plan("c1", 0, new_records=[record()]))
    two = CommitPlan(
        commit_id="c2",
        tenant_id="shop-a",
        namespace=NS,
        at=T0,
        slots=[
            SlotCheck(slot="key:profile.language", expected_version=0),
            SlotCheck(slot="key:notification.preference", expected_version=0),  # stale
        ],
        new_records=[record(key="profile.language", structured_value={"value": "en"})],
    )
    with pytest.raises(VersionConflict):
        stores.canonical.commits.apply(two)
    assert stores.canonical.records.slot_state(NS, "key:profile.language").version == 0


def test_history_is_kept_when_a_value_is_superseded(stores: Stores) -> None:
    old = record(structured_value={"channel": "email"}, content="用户偏好邮件通知")
    stores.canonical.commits.apply(plan("c1", 0, new_records=[old]))
    later = T0 + timedelta(days=9)
    new = record(at=later)
    stores.canonical.commits.apply(
        plan(
            "c2",
            1,
            at=later,
            new_records=[new],
            changes=[
                RecordChange(
                    memory_id=old.memory_id,
                    expected_version=1,
                    status="superseded",
                    valid_to=later,
                    conflict_group=None,
                    change=f"superseded_by:{new.memory_id}",
                )
            ],
        )
    )
    versions = stores.canonical.records.versions(old.memory_id)
    assert [(v.version, v.status, v.valid_to) for v in versions] == [
        (1, "active", None),
        (2, "superseded", later),
    ]
    assert versions[0].content == versions[1].content == "用户偏好邮件通知"
    # As recorded before the change, the old value was still active.
    assert (
        stores.canonical.records.as_of([old.memory_id], T0 + timedelta(days=1))[
            old.memory_id
        ].status
        == "active"
    )
    assert new.memory_id not in stores.canonical.records.as_of(
        [new.memory_id], T0 + timedelta(days=1)
    )


def test_change_on_a_moved_record_is_a_conflict(stores: Stores) -> None:
    old = record()
    stores.canonical.commits.apply(plan("c1", 0, new_records=[old]))
    stale = RecordChange(
        memory_id=old.memory_id,
        expected_version=5,
        status="superseded",
        valid_to=T0,
        conflict_group=None,
        change="x",
    )
    with pytest.raises(VersionConflict):
        stores.canonical.commits.apply(plan("c2", 1, changes=[stale]))
    assert stores.canonical.records.head(old.memory_id).version == 1  # type: ignore[union-attr]


def test_concurrent_commits_to_one_slot_serialise(stores: Stores) -> None:
    """Eight threads race to add to an empty slot: exactly one wins, the rest conflict."""
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            stores.canonical.commits.apply(plan(f"race-{i}", 0, new_records=[record()]))
            outcomes.append("ok")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["ok"]
    assert count(stores, memory_versions) == 1


def test_erase_blanks_every_version_and_keeps_ids_and_times(stores: Stores) -> None:
    r = record()
    stores.canonical.commits.apply(plan("c1", 0, new_records=[r]))
    result = stores.canonical.erasure.erase("del_1", [r.memory_id], T0 + timedelta(days=1))
    assert result.memory_ids == [r.memory_id]
    versions = stores.canonical.records.versions(r.memory_id)
    assert [v.version for v in versions] == [1, 2]
    assert all(v.content == "" and v.structured_value is None for v in versions)
    assert versions[-1].status == "deleted"
    assert versions[0].recorded_at == T0
    # probe material (salted fingerprints, never the text) exists until verification drops it
    (probe,) = stores.canonical.erasure.probes("del_1")
    assert "content" not in probe
    assert "用户偏好短信通知" not in repr(probe)
    assert Fingerprints(probe["salt"], [probe["fingerprint"]]).found_in("摘要：用户偏好短信通知。")
    stores.canonical.erasure.drop_probes("del_1")
    assert stores.canonical.erasure.probes("del_1") == []
    # erasing again is a no-op
    assert stores.canonical.erasure.erase("del_2", [r.memory_id], T0).memory_ids == []


def test_principals_and_receipts_round_trip(stores: Stores) -> None:
    bot = Principal(type="agent", tenant="shop-a", id="bot", read=["tenant/shop-a/user/*"])
    stores.canonical.principals.put(bot, T0)
    stores.canonical.principals.put(bot.model_copy(update={"candidate_only": True}), T0)
    assert stores.canonical.principals.get(bot.ref).candidate_only
    assert stores.canonical.principals.get("user:shop-a/7").own_namespace == "tenant/shop-a/user/7"
    with pytest.raises(NotFound):
        stores.canonical.principals.get("agent:shop-a/nobody")

    receipt = DeletionReceipt(
        deletion_id="del_x",
        tenant_id="shop-a",
        subject_ref="user:123",
        scope=DeletionScope(subject_ref="user:123"),
        requested_by="user:shop-a/123",
        requested_at=T0,
    )
    stores.canonical.receipts.save(receipt, T0)
    receipt.verification_status = "passed"
    stores.canonical.receipts.save(receipt, T0)
    assert stores.canonical.receipts.get("del_x").verification_status == "passed"
    with pytest.raises(NotFound):
        stores.canonical.receipts.get("del_missing")


def test_only_a_lost_race_is_a_version_conflict(stores: Stores) -> None:
    """A unique violation on a slot is another writer having got there first (decide again); the
    same violation where no race can cause it is a bug, and surfaces as one."""
    db = stores.canonical.db
    slot = {"namespace": NS, "slot": "key:x", "version": 1, "updated_at": T0}
    with db.write() as conn:
        conn.execute(insert(key_slots), slot)
    with pytest.raises(VersionConflict), db.write() as conn:
        conn.execute(insert(key_slots), slot)
    probe = {
        "deletion_id": "d",
        "memory_id": "m",
        "namespace": NS,
        "key": None,
        "salt": "00",
        "fingerprint": "",
    }
    with db.write() as conn:
        conn.execute(insert(deletion_probes), probe)
    with pytest.raises(IntegrityError), db.write() as conn:
        conn.execute(insert(deletion_probes), probe)


def test_a_staged_plan_is_taken_by_its_commit_or_swept(stores: Stores) -> None:
    from governed_memory.memory.errors import InvalidInput, NotFound

    r = record()
    ref = stores.canonical.staged.put(plan("staged-1", 0, new_records=[r]), T0)
    assert ref.memory_ids == [r.memory_id]
    assert stores.canonical.staged.get(ref).new_records[0].content == r.content
    with pytest.raises(InvalidInput):
        stores.canonical.staged.get(ref.model_copy(update={"digest": "0" * 24}))
    stores.canonical.commits.apply(stores.canonical.staged.get(ref))
    with pytest.raises(NotFound):  # the commit took it, in its own transaction
        stores.canonical.staged.get(ref)
    assert stores.canonical.commits.applied("staged-1") is not None
    left = stores.canonical.staged.put(plan("staged-2", 0, new_records=[record()]), T0)
    assert stores.canonical.staged.sweep(T0 + timedelta(days=2)) == 1
    with pytest.raises(NotFound):
        stores.canonical.staged.get(left)


def test_the_embedded_projection_serves_one_host(stores: Stores) -> None:
    """A second host opening the embedded projection of the same canonical store is refused,
    with what to do; the first keeps its claim across a new epoch; a release lets another in."""
    from governed_memory.memory.errors import ProjectionHostConflict
    from governed_memory.memory.stores import claim_host

    canonical, projection = stores.canonical, stores.projection
    if canonical.dialect == "sqlite":  # a file on this host: nothing to claim
        claim_host(canonical, projection, host="host-b")
        assert canonical.sweeps.release_host("embedded") is None
        return
    assert canonical.sweeps.release_host("embedded") is not None  # opening the stores claimed it
    claim_host(canonical, projection, host="host-a")
    claim_host(canonical, projection, host="host-a")  # again: still its own
    with pytest.raises(ProjectionHostConflict, match=r"host-a.*MEMORY_PROJECTION=weaviate"):
        claim_host(canonical, projection, host="host-b")
    assert canonical.sweeps.release_host("embedded") == "host-a"
    claim_host(canonical, projection, host="host-b")
    with pytest.raises(ProjectionHostConflict) as refused:
        claim_host(canonical, projection, host="host-a")
    assert not refused.value.retryable
    assert refused.value.code == "projection_host_conflict"
