"""The quota held at commit, not only counted at the door: the door counts a writer's active
memories before a run starts, and concurrent writes can all pass that count together. Each
write's plan carries the policy's quota, and the commit counts again in its own transaction
(on Postgres after a lock per namespace and writer; SQLite's writers queue), so a writer never
keeps more than its quota, a refused plan changes nothing, and a supersession at the quota
(the count unchanged) still commits. Real pipeline, real stores, SQLite and Postgres."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest

from governed_memory.memory.errors import QuotaExceeded
from governed_memory.memory.models import WriteRequest
from governed_memory.memory.plans import CommitPlan
from governed_memory.memory.policy import Quotas
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.commit import commit_and_project
from governed_memory.memory.write.decide import decide_request
from governed_memory.memory.write.extraction import RuleExtractor
from tests.factories import NS, T0, USER, sms


def quota(stores: Stores, n: int) -> None:
    stores.policy = stores.policy.model_copy(update={"quotas": Quotas(memories_per_namespace=n)})


def plan(stores: Stores, candidate: dict[str, Any], i: int) -> CommitPlan:
    """A write decided against what is committed now (as a run decides it), not committed."""
    key = f"q-{i}-{uuid.uuid4().hex[:6]}"
    at = T0 + timedelta(minutes=i)
    request = WriteRequest(
        principal=USER, namespace=NS, idempotency_key=key, candidate=candidate, at=at
    )
    decision = decide_request(
        stores,
        request,
        RuleExtractor(),
        workflow_id=f"write/{key}",
        seed=key,
        now=at,
        allow_override=True,
    )
    return decision.plan(f"commit-{key}")


def episode(n: int) -> dict[str, str]:
    return {"kind": "episodic", "content": f"asked where parcel A-{n}0{n}7 is"}


def kept(stores: Stores) -> int:
    return stores.canonical.records.active_count(NS, USER)


def test_writes_decided_together_keep_to_the_quota_at_commit(stores: Stores) -> None:
    quota(stores, 2)
    plans = [plan(stores, episode(n), n) for n in range(4)]  # all pass the count: none kept yet
    assert all(p.quota == 2 for p in plans)
    commit_and_project(stores, plans[0])
    commit_and_project(stores, plans[1])
    for refused in plans[2:]:
        with pytest.raises(QuotaExceeded) as caught:
            commit_and_project(stores, refused)
        assert caught.value.code == "quota_exceeded"
        # nothing of it: no record, no outcome, its commit id unused
        assert stores.canonical.commits.applied(refused.commit_id) is None
    assert kept(stores) == 2
    assert len(stores.canonical.records.namespace_heads(NS)) == 2


def test_concurrent_commits_for_one_writer_never_overshoot(stores: Stores) -> None:
    quota(stores, 3)
    plans = [plan(stores, episode(n), n) for n in range(10)]

    def commit(p: CommitPlan) -> str:
        try:
            stores.canonical.commits.apply(p)
        except QuotaExceeded:
            return "refused"
        return "kept"

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(commit, plans))
    assert sorted(results) == ["kept"] * 3 + ["refused"] * 7
    assert kept(stores) == 3


def test_a_supersession_at_the_quota_commits(stores: Stores) -> None:
    quota(stores, 1)
    commit_and_project(stores, plan(stores, sms(), 0))
    assert kept(stores) == 1
    email = sms(structured_value={"channel": "email"}, content="用户偏好邮件通知")
    commit_and_project(stores, plan(stores, email, 1))  # replaces the one kept: still 1
    heads = {r.content: r.status for r in stores.canonical.records.namespace_heads(NS)}
    assert heads["用户偏好邮件通知"] == "active"
    assert kept(stores) == 1


def test_no_quota_no_count(stores: Stores) -> None:
    quota(stores, 0)
    plans = [plan(stores, episode(n), n) for n in range(3)]
    assert all(p.quota == 0 for p in plans)
    for p in plans:
        commit_and_project(stores, p)
    assert kept(stores) == 3


def test_a_batch_door_counts_every_writer_at_once(stores: Stores) -> None:
    """`active_counts` (one grouped query) says what `active_count` says of each pair, and 0
    of a pair that keeps nothing."""
    quota(stores, 0)
    commit_and_project(stores, plan(stores, episode(1), 1))
    commit_and_project(stores, plan(stores, episode(2), 2))
    other_ns, other_user = "tenant/shop-a/user/456", "user:shop-a/456"
    pairs = [(NS, USER), (other_ns, other_user), (NS, other_user), (other_ns, USER)]
    counts = stores.canonical.records.active_counts(pairs)
    assert counts == {p: stores.canonical.records.active_count(*p) for p in pairs}
    assert counts[(NS, USER)] == 2
    assert counts[(NS, other_user)] == 0


def test_plans_committed_together_count_each_others_memories(stores: Stores) -> None:
    """One transaction of many plans (a batch's commit) writes their memories at its end: the
    quota still counts what the earlier plans of the transaction added, and a plan over it
    undoes the whole transaction."""
    quota(stores, 2)
    together = [plan(stores, episode(n), n) for n in range(3)]
    with pytest.raises(QuotaExceeded):
        stores.canonical.commits.apply_all(together)
    assert kept(stores) == 0
    assert all(stores.canonical.commits.applied(p.commit_id) is None for p in together)
    results = stores.canonical.commits.apply_all(together[:2])
    assert kept(stores) == 2
    # each plan's outbox events, in order, none shared
    seqs = [s for r in results for s in r.outbox_seqs]
    assert [len(r.outbox_seqs) for r in results] == [len(r.written) for r in results]
    assert seqs == sorted(seqs)
    assert len(set(seqs)) == len(seqs)
    events = {e.seq: e for e in stores.canonical.outbox.events(unprocessed_only=False)}
    for result in results:
        assert [(events[s].memory_id, events[s].memory_version) for s in result.outbox_seqs] == [
            tuple(w) for w in result.written
        ]
    # applied again: the first results, nothing written twice
    again = stores.canonical.commits.apply_all(together[:2])
    assert [r.outbox_seqs for r in again] == [r.outbox_seqs for r in results]
    assert all(r.replayed for r in again)
    assert kept(stores) == 2
