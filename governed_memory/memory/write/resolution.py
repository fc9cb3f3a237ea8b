"""Duplicate and conflict resolution: how a draft relates to what its slot holds.

The slot's records form a valid-time line. A draft lands on it somewhere:

- nothing there: NEW;
- the value in force says the same: DUPLICATE (nothing changes);
- the value in force is extended by the draft (quiet hours added to a channel): REFINEMENT;
- a different value, from a source at least as trusted and later in valid time: SUPERSEDES
  (the old value's valid time ends where the new one begins; its row stays as history);
- a different value that took effect *before* the one in force (recorded late): NEW, kept as
  history (its valid time ends where the next value begins), never the current value;
- a different value at the same valid instant from another writer of equal trust, or from a
  trusted source below the one in force: CONFLICTS (both kept active in a conflict group, a
  review opens);
- a model inference or derived summary against a more trusted value: deferred for review, never
  applied on its own ("a model inference never supersedes a human-reviewed or user-stated value").

A negation closes the value it denies and stores nothing new. A reviewer's approval settles what
would otherwise conflict or wait, in favour of the draft.

A memory without key has no slot line of its own. It is a DUPLICATE only of a stored memory that
says the same thing (the same gist: `memory.sameness`); vector similarity merely proposes the
memories to compare. One that restates a stored memory with a changed detail — the same order with
a new amount, or a correction ("actually …") — is resolved on a line made of the memories it
restates, by the same rules as a key; anything else is NEW. Every resolution carries its
evidence (what was compared, how similar, what differed) for the audit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from pydantic import Field

from governed_memory.memory.models import MemoryRecord, Model, Operation, Relation
from governed_memory.memory.plans import RecordChange, SlotState
from governed_memory.memory.sameness import Comparison, compare
from governed_memory.memory.vocabulary import LOW_TRUST_RANK, SOURCE_TRUST
from governed_memory.memory.write.stages import Draft


class Resolution(Model):
    relation: Relation | None
    operation: Operation
    #: Why nothing is written (no_op) or why it waits (defer).
    reason: str | None = None
    #: The record to add (possibly adjusted: merged value, history interval, conflict group).
    record: MemoryRecord | None = None
    changes: list[RecordChange] = Field(default_factory=list)
    matched: list[str] = Field(default_factory=list)
    #: True when the draft must wait for a reviewer instead of being applied.
    defer: bool = False
    conflict_group: str | None = None
    #: Why: for a memory without key, each stored memory compared (similarity, differences).
    evidence: dict[str, Any] = Field(default_factory=dict)


class Neighbour(NamedTuple):
    """A stored memory the projection found close to a draft, with its vector similarity."""

    record: MemoryRecord
    similarity: float


def _rank(record: MemoryRecord) -> int:
    return SOURCE_TRUST[record.source_type].rank


def same_value(a: MemoryRecord, b: MemoryRecord) -> bool:
    if a.structured_value is not None and b.structured_value is not None:
        return a.structured_value == b.structured_value
    return a.content_hash == b.content_hash


def extends(new: MemoryRecord, old: MemoryRecord) -> bool:
    """The new value says everything the old one says, and more."""
    if new.structured_value is None or old.structured_value is None:
        return False
    items = old.structured_value.items()
    return len(new.structured_value) > len(old.structured_value) and all(
        new.structured_value.get(k) == v for k, v in items
    )


def denies(denied: dict[str, object] | None, record: MemoryRecord) -> bool:
    """The stored value is the one a negation denies (every field the negation names matches)."""
    if not denied or record.structured_value is None:
        return False
    return all(record.structured_value.get(k) == v for k, v in denied.items())


def _close(record: MemoryRecord, at: datetime, change: str) -> RecordChange:
    """End a value's valid time at `at`. A side of an open conflict keeps its group: for the
    time it was in force, that period's value stays unsettled rather than silently doubled."""
    return RecordChange(
        memory_id=record.memory_id,
        expected_version=record.version,
        status="superseded",
        valid_to=at,
        conflict_group=record.conflict_group,
        change=change,
    )


def _with(record: MemoryRecord, **changes: object) -> MemoryRecord:
    return record.model_copy(update=changes)


def resolve_keyed(draft: Draft, state: SlotState, *, group_id: str, approved: bool) -> Resolution:
    return _Line(
        draft, state.records, group_id=group_id, approved=approved, same=same_value, more=extends
    ).resolve()


class _Line:
    """A slot's valid-time line of records stating one thing's value, seen from a draft that
    starts at `start`: `same(old, new)` says the same value, `more(new, old)` says it and more."""

    def __init__(
        self,
        draft: Draft,
        records: Sequence[MemoryRecord],
        *,
        group_id: str,
        approved: bool,
        same: Callable[[MemoryRecord, MemoryRecord], bool],
        more: Callable[[MemoryRecord, MemoryRecord], bool],
    ) -> None:
        self.draft = draft
        self.new = draft.record
        assert self.new.valid_from is not None
        self.start = self.new.valid_from
        self.group_id = group_id
        self.approved = approved
        self.same = same
        self.more = more
        #: Records with a real valid interval, current or history.
        self.records = [r for r in records if _on_the_line(r)]
        #: Active records in force at `start`.
        self.in_force = [r for r in self.records if _in_force(r, self.start)]
        #: Records that take effect after `start` (the draft was recorded late).
        self.later = [r for r in self.records if r.valid_from and r.valid_from > self.start]

    def resolve(self) -> Resolution:
        """Where the draft lands on the line."""
        if self.draft.negated:
            return self.withdraw()
        self.complete_partial()
        if self.later:
            return self.as_history()
        if not self.in_force:
            return Resolution(relation="NEW", operation="add", record=self.new)
        return self.against_current()

    def withdraw(self) -> Resolution:
        """A negation closes the value it denies and stores nothing new."""
        targets = [r for r in self.in_force if denies(self.new.structured_value, r)]
        if not targets:
            return Resolution(relation=None, operation="no_op", reason="not_memorable")
        return Resolution(
            relation="SUPERSEDES",
            operation="invalidate",
            changes=[_close(r, self.start, f"withdrawn_by:{self.new.memory_id}") for r in targets],
            matched=[r.memory_id for r in targets],
        )

    def complete_partial(self) -> None:
        """A part of a value (quiet hours without a channel) merges with the value in force."""
        if self.draft.partial and len(self.in_force) == 1 and self.in_force[0].structured_value:
            merged = {**self.in_force[0].structured_value, **(self.new.structured_value or {})}
            self.new = self.new.saying(structured_value=merged)

    def _duplicate_of(self, candidates: Sequence[MemoryRecord]) -> Resolution | None:
        matched = [r.memory_id for r in candidates if self.same(r, self.new)]
        if not matched:
            return None
        return Resolution(
            relation="DUPLICATE", operation="no_op", reason="duplicate", matched=matched
        )

    def as_history(self) -> Resolution:
        """Recorded late, effective earlier: it becomes history before the next value."""
        new, start = self.new, self.start
        nxt = min(self.later, key=lambda r: r.valid_from or start)
        covering = [r for r in self.records if _covers(r, start)]
        duplicate = self._duplicate_of([nxt, *covering])
        if duplicate is not None:
            return duplicate
        if not self.approved and any(_rank(r) > _rank(new) for r in covering):
            # Rewriting history over a more trusted value is not for a lesser source to do.
            return Resolution(
                relation="CONFLICTS",
                operation="add",
                record=new,
                defer=True,
                reason="conflict",
                matched=[r.memory_id for r in covering],
            )
        return Resolution(
            relation="NEW",
            operation="add",
            record=_with(new, valid_to=nxt.valid_from, status="superseded"),
            changes=[_close(r, start, f"shortened_by:{new.memory_id}") for r in covering],
            matched=[nxt.memory_id],
        )

    def against_current(self) -> Resolution:
        """A different value from the one in force: supersede it, or conflict with it."""
        duplicate = self._duplicate_of(self.in_force)
        if duplicate is not None:
            return duplicate
        if self._supersedes():
            refinement = len(self.in_force) == 1 and self.more(self.new, self.in_force[0])
            return Resolution(
                relation="REFINEMENT" if refinement else "SUPERSEDES",
                operation="update",
                record=self.new,
                changes=[
                    _close(r, self.start, f"superseded_by:{self.new.memory_id}")
                    for r in self.in_force
                ],
                matched=[r.memory_id for r in self.in_force],
            )
        if _rank(self.new) <= LOW_TRUST_RANK:
            return Resolution(
                relation="CONFLICTS",
                operation="add",
                record=self.new,
                matched=[r.memory_id for r in self.in_force],
                defer=True,
                reason="conflict",
            )
        return self._conflict()

    def _open_group(self) -> str | None:
        return next((r.conflict_group for r in self.in_force if r.conflict_group), None)

    def _supersedes(self) -> bool:
        """A more trusted source supersedes; an equally trusted one too, unless another writer
        stated its value at the same instant; an open conflict waits for a reviewer or a more
        trusted source. A reviewer's approval always does."""
        if self.approved:
            return True
        strongest = max(_rank(r) for r in self.in_force)
        rank = _rank(self.new)
        if rank > strongest:
            return True
        simultaneous = any(
            r.valid_from == self.start and r.written_by != self.new.written_by
            for r in self.in_force
        )
        return rank == strongest and not simultaneous and self._open_group() is None

    def _conflict(self) -> Resolution:
        """Both kept active in one conflict group (joining an open one), and a review opens."""
        group = self._open_group() or self.group_id
        return Resolution(
            relation="CONFLICTS",
            operation="add",
            record=_with(self.new, conflict_group=group),
            changes=[
                RecordChange(
                    memory_id=r.memory_id,
                    expected_version=r.version,
                    status=r.status,
                    valid_to=r.valid_to,
                    conflict_group=group,
                    change=f"conflicts_with:{self.new.memory_id}",
                )
                for r in self.in_force
                if r.conflict_group != group
            ],
            matched=[r.memory_id for r in self.in_force],
            reason="conflict",
            conflict_group=group,
        )


def _on_the_line(r: MemoryRecord) -> bool:
    return (
        r.status in ("active", "superseded")
        and r.valid_from is not None
        and (r.valid_to is None or r.valid_to > r.valid_from)
    )


def _covers(r: MemoryRecord, at: datetime) -> bool:
    return (
        r.valid_from is not None and r.valid_from <= at and (r.valid_to is None or r.valid_to > at)
    )


def _in_force(r: MemoryRecord, at: datetime) -> bool:
    return r.status == "active" and _covers(r, at)


def resolve_unkeyed(
    draft: Draft,
    state: SlotState,
    neighbours: Sequence[Neighbour],
    *,
    group_id: str,
    approved: bool,
) -> Resolution:
    """A memory without key: DUPLICATE of an active memory that says the same thing (same gist,
    same structured value), resolved on the line of the memories it restates with a changed
    detail, else NEW. `state` is the draft's gist slot; `neighbours` the close memories of the
    same kind the projection found (it proposes; the comparison decides)."""
    new = draft.record
    similarity = {n.record.memory_id: n.similarity for n in neighbours}
    stored: dict[str, MemoryRecord] = {
        r.memory_id: r for r in state.records if r.status == "active"
    }
    for n in neighbours:
        if n.record.kind == new.kind and n.record.key is None and n.record.status == "active":
            stored.setdefault(n.record.memory_id, n.record)
    compared: dict[str, Comparison] = {
        mid: compare(old.content, new.content) for mid, old in stored.items()
    }
    evidence = {
        "rule": "gist",
        "compared": {
            mid: {"similarity": _rounded(similarity.get(mid)), **c.evidence()}
            for mid, c in sorted(compared.items())
        },
    }
    same = [
        mid
        for mid, c in compared.items()
        if c.same and stored[mid].structured_value == new.structured_value
    ]
    if same:
        return Resolution(
            relation="DUPLICATE",
            operation="no_op",
            reason="duplicate",
            matched=sorted(same),
            evidence={**evidence, "why": "no_salient_difference"},
        )
    restated = [stored[mid] for mid, c in sorted(compared.items()) if c.changed_detail]
    if restated:
        resolution = _Line(
            draft,
            restated,
            group_id=group_id,
            approved=approved,
            same=lambda old, new: False,  # a changed detail is never the same value
            more=lambda new, old: compare(old.content, new.content).adds_only,
        ).resolve()
        resolution.evidence = {**evidence, "why": "changed_detail"}
        return resolution
    return Resolution(relation="NEW", operation="add", record=new, evidence=evidence)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
