"""Commits: a plan applied in one transaction across records, slots, outbox, audit, reviews,
outcomes, lineage and generations — all of it, or (VersionConflict) none of it. A commit id
already applied returns its first result (a retried activity writes nothing twice)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, insert, select
from sqlalchemy.exc import OperationalError

from governed_memory.memory.errors import (
    FencedByDeletion,
    QuotaExceeded,
    RequestMismatch,
    VersionConflict,
)
from governed_memory.memory.feedback import Signals
from governed_memory.memory.models import AuditEvent, MemoryRecord, ReviewRecord
from governed_memory.memory.plans import CommitPlan, CommitResult, WriteOutcome
from governed_memory.memory.stores.canonical._db import Part, chunks
from governed_memory.memory.stores.canonical.outbox import event_row
from governed_memory.memory.stores.schema import applied_commits

if TYPE_CHECKING:
    from governed_memory.memory.stores.canonical import CanonicalStore

_INSERT_COMMIT = insert(applied_commits)
_APPLIED_MANY = select(applied_commits.c.commit_id, applied_commits.c.result).where(
    applied_commits.c.commit_id.in_(bindparam("ids", expanding=True))
)


@dataclass
class _Later:
    """What a transaction's plans add that none of them reads back before its end: written
    then, one statement per table, not per plan — the audit, the outcomes by idempotency key,
    the commits applied, the staged plans dropped, the namespaces' cache generations, the slots
    moved, the outbox events and the new memories (written earlier when a plan reads memories
    back: a change to one, a quota's count, feedback). A lost race among them (a slot moved, an
    outcome decided twice at once) still undoes the whole."""

    #: Results of the commit ids applied before this transaction, by bounded commit id.
    prior: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: How many active memories each (namespace, writer) the plans add to kept at the
    #: transaction's start (`Commits._kept`), and how many the plans added since.
    kept: dict[tuple[str, str], int] = field(default_factory=dict)
    added: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: The deletion fences on the slots the plans write to (`Commits._fences`).
    fences: list[tuple[str, str, str, datetime]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    applied: list[tuple[CommitResult, datetime]] = field(default_factory=list)
    staged: list[str] = field(default_factory=list)
    bumps: dict[str, datetime] = field(default_factory=dict)
    slots: list[tuple[str, str, int, datetime]] = field(default_factory=list)
    events: list[tuple[CommitResult, list[dict[str, Any]]]] = field(default_factory=list)
    records: list[MemoryRecord] = field(default_factory=list)

    def quota_counts(
        self, conn: Connection, s: CanonicalStore, plan: CommitPlan, added: Counter[str]
    ) -> dict[str, int]:
        """How many active memories each writer the plan adds to keeps before it, counted
        exactly where the plan could take one past its quota, else nothing to check: the count
        at the transaction's start and every memory its plans added so far bound it from above
        (what they removed only lowers it)."""
        if not plan.quota or not added:
            return {}
        bound = {
            w: self.kept.get((plan.namespace, w), plan.quota) + self.added[(plan.namespace, w)]
            for w in added
        }
        if all(bound[w] + n <= plan.quota for w, n in added.items()):
            return {}
        self.write_records(conn, s)
        return s.records.kept_by(conn, plan.namespace, sorted(added))

    def write_records(self, conn: Connection, s: CanonicalStore) -> None:
        """The new memories so far, before a plan reads memories back."""
        s.records.insert(conn, self.records, "created")
        self.records = []

    def write(self, conn: Connection, s: CanonicalStore) -> None:
        s.slots.advance_all(conn, self.slots)
        self.write_records(conn, s)
        seqs = s.outbox.append_rows(conn, [row for _, rows in self.events for row in rows])
        at = 0
        for result, rows in self.events:
            result.outbox_seqs = seqs[at : at + len(rows)]
            at += len(rows)
        s.audit.insert_rows(conn, self.audit)
        s.outcomes.insert_rows(conn, self.outcomes)
        s.staged.drop_all(conn, self.staged)
        s.generations.bump_each(self.bumps, conn)
        if self.applied:
            conn.execute(
                _INSERT_COMMIT,
                [
                    {
                        "commit_id": _bounded(result.commit_id),
                        "result": result.model_dump(mode="json"),
                        "committed_at": when,
                    }
                    for result, when in self.applied
                ],
            )


def _bounded(commit_id: str) -> str:
    """Commit ids are made of workflow ids and can be long; past 200 characters, a digest."""
    return (
        commit_id
        if len(commit_id) <= 200
        else f"sha256:{hashlib.sha256(commit_id.encode()).hexdigest()}"
    )


def _within_scope(plan: CommitPlan) -> None:
    """Everything a plan writes is of its tenant and namespace, whoever made the plan (a change
    to an existing memory is checked against the stored one, in `apply_change`)."""
    scope = (plan.tenant_id, plan.namespace)
    outside = [
        *(r.memory_id for r in plan.new_records if (r.tenant_id, r.namespace) != scope),
        *(r.review_id for r in plan.reviews if (r.tenant_id, r.namespace) != scope),
        *(e.memory_id for e in plan.feedback if (e.tenant_id, e.namespace) != scope),
    ]
    if outside:
        raise RequestMismatch(
            f"{outside[0]} is not of the namespace this commit is for", field="namespace"
        )
    if plan.outcome is not None and plan.outcome.tenant_id != plan.tenant_id:
        raise RequestMismatch("the outcome is of another tenant", field="tenant")


def _still_there(heads: Sequence[Any], plan: CommitPlan) -> None:
    """What the plan copies is still active at the version it read (its rows locked until the
    commit ends, so an erasure either waits for it, and then finds the copy, or goes first)."""
    found = {r.memory_id: r for r in heads}
    for memory_id, version in sorted(plan.derived_from.items()):
        head = found.get(memory_id)
        if head is None or head.status != "active" or head.version != version:
            raise VersionConflict(f"memory {memory_id} changed since the plan was made")


def _hold_quota(plan: CommitPlan, before: dict[str, int], after: dict[str, int]) -> None:
    """A plan that takes a writer past its quota is refused, whatever the door counted: the
    door's count and the commit may race with the writer's other writes. A plan that keeps a
    writer's count (a supersession) or lowers it commits at the quota too."""
    for writer, count in after.items():
        if count > plan.quota and count > before[writer]:
            raise QuotaExceeded(
                f"{writer} keeps {before[writer]} active memories in {plan.namespace}, and may "
                f"keep {plan.quota}: delete some (or let them expire) before writing more",
                field="namespace",
            )


class Commits(Part):
    def __init__(self, store: CanonicalStore) -> None:
        super().__init__(store.db)
        self.store = store

    def applied(self, commit_id: str) -> CommitResult | None:
        """The result of a commit already applied (None if it never was)."""
        with self.db.read() as conn:
            prior = conn.execute(
                select(applied_commits.c.result).where(
                    applied_commits.c.commit_id == _bounded(commit_id)
                )
            ).scalar()
        return None if prior is None else CommitResult.model_validate({**prior, "replayed": True})

    def apply(self, plan: CommitPlan) -> CommitResult:
        """Apply a plan in one transaction, or raise `VersionConflict` and change nothing."""
        return self.apply_all([plan])[0]

    def apply_all(self, plans: Sequence[CommitPlan]) -> list[CommitResult]:
        """Apply several plans in one transaction: all of them, or (VersionConflict) none."""
        try:
            with self.db.write() as conn:
                later = _Later(
                    prior=self._prior(conn, plans),
                    kept=self._kept(conn, plans),
                    fences=self._fences(conn, plans),
                )
                results = [self._apply(conn, plan, later) for plan in plans]
                later.write(conn, self.store)
                return results
        except OperationalError as exc:  # SQLite busy beyond the timeout, PG serialization
            raise VersionConflict(f"store busy: {exc.orig}") from exc

    def _prior(self, conn: Connection, plans: Sequence[CommitPlan]) -> dict[str, dict[str, Any]]:
        """The results of the plans' commits applied before, by bounded commit id."""
        ids = list(dict.fromkeys(_bounded(p.commit_id) for p in plans))
        return {
            str(commit_id): result
            for part in chunks(ids)
            for commit_id, result in conn.execute(_APPLIED_MANY, {"ids": part})
        }

    def _kept(self, conn: Connection, plans: Sequence[CommitPlan]) -> dict[tuple[str, str], int]:
        """What each (namespace, writer) a plan with a quota adds to keeps (`_Later.kept`)."""
        pairs = {
            (p.namespace, r.written_by)
            for p in plans
            if p.quota
            for r in p.new_records
            if r.status == "active"
        }
        return self.store.records.kept_by_all(conn, pairs) if pairs else {}

    def _fences(
        self, conn: Connection, plans: Sequence[CommitPlan]
    ) -> list[tuple[str, str, str, datetime]]:
        """The deletion fences on the slots the plans write new memories to, committed after
        the earliest of their decisions (each plan then checks its own, `_apply`)."""
        writing = [p for p in plans if p.new_records and p.slots]
        if not writing:
            return []
        pairs = [(p.namespace, c.slot) for p in writing for c in p.slots]
        return self.store.slots.fences_among(conn, pairs, min(p.at for p in writing))

    def _apply(self, conn: Connection, plan: CommitPlan, later: _Later) -> CommitResult:
        s = self.store
        prior = later.prior.get(_bounded(plan.commit_id))
        if prior is not None:
            return CommitResult.model_validate({**prior, "replayed": True})
        if plan.new_records and plan.slots:
            # A write decided before a deletion of these slots committed is stale: it must not
            # bring back what the deletion erased.
            mine = {c.slot for c in plan.slots}
            fenced = sorted(
                deletion
                for ns, slot, deletion, at in later.fences
                if ns == plan.namespace and slot in mine and at > plan.at
            )
            if fenced:
                raise FencedByDeletion(
                    f"deletion {fenced[0]} erased this after the write was decided",
                    field="namespace",
                )
        _within_scope(plan)
        if plan.derived_from:
            _still_there(
                s.records.locked_heads(conn, sorted(plan.derived_from), for_update=True), plan
            )
        cited = [(r.consent_ref, r.subject_ref) for r in plan.new_records if r.consent_ref]
        if cited:
            # A consent revoked since the write was decided: what depends on it is not written
            # (the write decides again, and is refused).
            lapsed = s.consents.held(conn, plan.tenant_id, cited, plan.at)
            if lapsed:
                raise VersionConflict(f"consent {lapsed[0]} is no longer in force")
        added = Counter(r.written_by for r in plan.new_records if r.status == "active")
        kept = later.quota_counts(conn, s, plan, added)
        later.slots += [
            (plan.namespace, check.slot, check.expected_version, plan.at)
            for check in sorted(plan.slots, key=lambda c: c.slot)
        ]
        if plan.changes and later.records:
            later.write_records(conn, s)  # a change reads its memory back
        written = [
            s.records.apply_change(
                conn, change, plan.at, tenant_id=plan.tenant_id, namespace=plan.namespace
            )
            for change in plan.changes
        ]
        later.records += plan.new_records
        written += [(r.memory_id, r.version) for r in plan.new_records]
        later.added.update({(plan.namespace, w): n for w, n in added.items()})
        if kept:
            # Counted again only where the plan could take a writer past the quota.
            near = [w for w, n in kept.items() if n + added[w] > plan.quota]
            if near:
                later.write_records(conn, s)
                _hold_quota(plan, kept, s.records.kept_by(conn, plan.namespace, near))
        later.audit += s.audit.rows(
            plan.audit,
            tenant_id=plan.tenant_id,
            namespace=plan.namespace,
            workflow_id=plan.workflow_id,
            at=plan.at,
        )
        for review in plan.reviews:
            s.reviews.save(review, conn, task=plan.review_tasks.get(review.review_id))
        later.staged.append(plan.commit_id)
        if plan.outcome is not None:
            later.outcomes.append(s.outcomes.row(plan.outcome, plan.at))
        s.lineage.add(plan.lineage, plan.tenant_id, plan.at, conn)
        if plan.feedback:
            # Feedback about a memory a deletion erased since it was decided would outlive it.
            later.write_records(conn, s)
            about = sorted({e.memory_id for e in plan.feedback})
            heads = {r.memory_id: r for r in s.records.locked_heads(conn, about)}
            gone = [m for m in about if m not in heads or heads[m].status == "deleted"]
            if gone:
                raise VersionConflict(f"memory {gone[0]} was erased meanwhile")
            s.feedback.add(conn, plan.feedback)
        for memory_id, signals in sorted(plan.signals.items()):
            before = plan.signals_before.get(memory_id, Signals())
            s.feedback.swap_signals(conn, plan.tenant_id, memory_id, before, signals, plan.at)
        if written or plan.reranks():  # a rank weight changes what a cached recall ranked
            at = later.bumps.get(plan.namespace)
            later.bumps[plan.namespace] = plan.at if at is None else max(at, plan.at)
        # Its outbox seqs are known once the transaction's events are written (`_Later.write`).
        result = CommitResult(commit_id=plan.commit_id, written=written, outbox_seqs=[])
        later.events.append(
            (
                result,
                [
                    event_row(
                        plan.commit_id, plan.tenant_id, plan.namespace, m, v, "upsert", plan.at
                    )
                    for m, v in written
                ],
            )
        )
        later.applied.append((result, plan.at))
        return result

    def record_audit(
        self,
        tenant_id: str,
        namespace: str | None,
        workflow_id: str | None,
        events: Sequence[AuditEvent],
        at: datetime,
        reviews: Sequence[ReviewRecord] = (),
        outcome: WriteOutcome | None = None,
    ) -> None:
        """A decision that changes no memory: its audit, with the reviews it opens or closes and
        the write's outcome by idempotency key, in one transaction."""
        s = self.store
        with self.db.write() as conn:
            for review in reviews:
                s.reviews.save(review, conn)
            if outcome is not None:
                s.outcomes.save(outcome, at, conn)
            s.audit.append(
                events,
                tenant_id=tenant_id,
                namespace=namespace,
                workflow_id=workflow_id,
                at=at,
                conn=conn,
            )

    def load(self, records: Sequence[MemoryRecord], at: datetime) -> list[int]:
        """Insert new memories (version 1) with their outbox events, without resolution: for
        loads resolved elsewhere or needing none (benchmarks, imports of raw episodes)."""
        if not records:
            return []
        s = self.store
        with self.db.write() as conn:
            s.records.insert(conn, records, "created")
            seqs = s.outbox.append_many(
                conn, [(r.memory_id, r.version, r.tenant_id, r.namespace) for r in records], at
            )
            s.generations.bump({r.namespace for r in records}, at, conn)
        return seqs
