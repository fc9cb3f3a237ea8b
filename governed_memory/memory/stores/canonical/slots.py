"""Key slots, the unit of optimistic concurrency, and the fences deletions put on them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from governed_memory.memory.errors import VersionConflict
from governed_memory.memory.stores.canonical._db import Part, chunks, dialect_insert
from governed_memory.memory.stores.schema import deletion_fences, key_slots

_INSERT_SLOT = insert(key_slots)
_ADVANCE_SLOT = update(key_slots).where(
    key_slots.c.namespace == bindparam("b_namespace"),
    key_slots.c.slot == bindparam("b_slot"),
    key_slots.c.version == bindparam("b_expected"),
)


#: Built once, with bound parameters (each commit of a write asks them).
_VERSION = select(key_slots.c.version).where(
    key_slots.c.namespace == bindparam("namespace"), key_slots.c.slot == bindparam("slot")
)
#: The slots of these namespaces with these names (a cross product the caller keeps small).
_VERSIONS = select(key_slots.c.namespace, key_slots.c.slot, key_slots.c.version).where(
    key_slots.c.namespace.in_(bindparam("namespaces", expanding=True)),
    key_slots.c.slot.in_(bindparam("slots", expanding=True)),
)
_FENCES_AMONG = select(
    deletion_fences.c.namespace,
    deletion_fences.c.slot,
    deletion_fences.c.deletion_id,
    deletion_fences.c.committed_at,
).where(
    deletion_fences.c.namespace.in_(bindparam("namespaces", expanding=True)),
    deletion_fences.c.slot.in_(bindparam("slots", expanding=True)),
    deletion_fences.c.committed_at > bindparam("at"),
)
#: How many (namespace, slot) probes one read of a namespaces × slots query may make.
_CROSS_PRODUCT = 2_000


def _among(
    conn: Connection, statement: Any, pairs: Sequence[tuple[str, str]], params: dict[str, Any]
) -> Iterator[Any]:
    """The rows of `statement` (over `namespaces` and `slots`) of exactly these (namespace,
    slot) pairs: one read of the namespaces' and slots' cross product when it is small (many
    namespaces with one slot name each, or one namespace with many slots), else one per
    namespace."""
    wanted = set(pairs)
    namespaces = sorted({ns for ns, _ in wanted})
    names = sorted({slot for _, slot in wanted})
    if len(namespaces) * len(names) <= _CROSS_PRODUCT:
        groups = [(namespaces, names)]
    else:
        by_ns: dict[str, list[str]] = {}
        for ns, slot in sorted(wanted):
            by_ns.setdefault(ns, []).append(slot)
        groups = [([ns], slots) for ns, slots in by_ns.items()]
    for nss, slots in groups:
        for part in chunks(slots):
            for row in conn.execute(statement, {**params, "namespaces": nss, "slots": part}):
                if (row[0], row[1]) in wanted:
                    yield row


class Slots(Part):
    def advance(
        self, conn: Connection, namespace: str, slot: str, expected: int, at: datetime
    ) -> None:
        """Move a slot from the version a plan was decided against to the next, or raise
        `VersionConflict` if another commit moved it first."""
        if expected == 0:
            exists = conn.execute(_VERSION, {"namespace": namespace, "slot": slot}).scalar()
            if exists is not None:
                raise VersionConflict(f"slot {slot} moved to version {exists}")
            conn.execute(
                _INSERT_SLOT, {"namespace": namespace, "slot": slot, "version": 1, "updated_at": at}
            )
            return
        moved = conn.execute(
            _ADVANCE_SLOT,
            {
                "b_namespace": namespace,
                "b_slot": slot,
                "b_expected": expected,
                "version": expected + 1,
                "updated_at": at,
            },
        ).rowcount
        if moved != 1:
            raise VersionConflict(f"slot {slot} is no longer at version {expected}")

    def advance_all(
        self, conn: Connection, checks: Sequence[tuple[str, str, int, datetime]]
    ) -> None:
        """`advance` for each (namespace, slot, expected version, when), in order; the slots
        written for the first time (expected 0) are checked in one read and created in one
        statement, not two statements each."""
        fresh = [(ns, slot, at) for ns, slot, expected, at in checks if expected == 0]
        if len({(ns, slot) for ns, slot, _ in fresh}) != len(fresh):
            raise VersionConflict("two plans of one commit create the same slot")
        if fresh:
            taken = self._versions(conn, [(ns, slot) for ns, slot, _ in fresh])
            if taken:
                (_, slot), version = next(iter(taken.items()))
                raise VersionConflict(f"slot {slot} moved to version {version}")
            conn.execute(
                _INSERT_SLOT,
                [
                    {"namespace": ns, "slot": slot, "version": 1, "updated_at": at}
                    for ns, slot, at in fresh
                ],
            )
        for namespace, slot, expected, at in checks:
            if expected:
                self.advance(conn, namespace, slot, expected, at)

    def _versions(
        self, conn: Connection, pairs: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], int]:
        """The version of each of these (namespace, slot) that exists."""
        return {
            (ns, slot): int(version) for ns, slot, version in _among(conn, _VERSIONS, pairs, {})
        }

    def fences_among(
        self, conn: Connection, pairs: Sequence[tuple[str, str]], since: datetime
    ) -> list[tuple[str, str, str, datetime]]:
        """The fences on these (namespace, slot) committed after `since`: (namespace, slot,
        deletion, committed at)."""
        return [
            (ns, slot, deletion_id, at)
            for ns, slot, deletion_id, at in _among(conn, _FENCES_AMONG, pairs, {"at": since})
        ]

    def move(self, conn: Connection, slots: Sequence[tuple[str, str]], at: datetime) -> None:
        """Advance each slot's version by one (creating those never written): plans decided
        against the old versions must decide again."""
        by_ns: dict[str, list[str]] = {}
        for namespace, slot in slots:
            by_ns.setdefault(namespace, []).append(slot)
        for namespace, names in by_ns.items():
            for chunk in chunks(names):
                existing = set(
                    conn.execute(
                        select(key_slots.c.slot).where(
                            key_slots.c.namespace == namespace, key_slots.c.slot.in_(chunk)
                        )
                    ).scalars()
                )
                if existing:
                    conn.execute(
                        update(key_slots)
                        .where(key_slots.c.namespace == namespace, key_slots.c.slot.in_(existing))
                        .values(version=key_slots.c.version + 1, updated_at=at)
                    )
                missing = [
                    {"namespace": namespace, "slot": s, "version": 1, "updated_at": at}
                    for s in chunk
                    if s not in existing
                ]
                if missing:
                    conn.execute(_INSERT_SLOT, missing)

    def fence(
        self,
        conn: Connection,
        deletion_id: str,
        slots: Sequence[tuple[str, str]],
        at: datetime,
    ) -> None:
        """Writes decided before `at` may not write these slots again."""
        if not slots:
            return
        conn.execute(
            dialect_insert(conn, deletion_fences).on_conflict_do_nothing(),
            [
                {"namespace": ns, "slot": slot, "deletion_id": deletion_id, "committed_at": at}
                for ns, slot in sorted(slots)
            ],
        )
