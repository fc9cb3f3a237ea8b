"""Recall's verdict per key asked or implied by the task: confirmed, conflicting, below
confidence, expired (to be asked again) or unknown."""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.models import (
    READABLE_STATUSES,
    SENSITIVITY_ORDER,
    KeyState,
    KeyVerdict,
    Principal,
    RecallQuery,
)
from governed_memory.memory.retrieval.candidates import _Candidate, _text_and_keys
from governed_memory.memory.stores import Stores


def _verdicts(
    stores: Stores,
    query: RecallQuery,
    allowed: list[str],
    candidates: dict[str, _Candidate],
    at: datetime,
    valid_at: datetime,
    as_of: bool,
    principal: Principal,
) -> list[KeyVerdict]:
    """A verdict per key asked or implied by the task, in the order asked."""
    _, keys = _text_and_keys(query)
    if not keys:
        return []
    threshold = stores.policy.retrieval.confirmed_confidence
    expired_seen = _expired_by_key(stores, allowed, keys, at, valid_at, principal)
    return [_verdict(key, candidates, threshold, expired_seen) for key in keys]


def _expired_by_key(
    stores: Stores,
    allowed: list[str],
    keys: list[str],
    at: datetime,
    valid_at: datetime,
    principal: Principal,
) -> dict[str, list[str]]:
    """Per key, the memories (as known at `at`) this reader could have seen but that have
    expired: their value needs reconfirmation rather than being simply unknown."""
    ceiling = SENSITIVITY_ORDER[principal.sensitivity_ceiling]
    expired_seen: dict[str, list[str]] = {}
    statuses = ("active", "superseded", "invalidated")
    records = stores.canonical.records.key_records(allowed, keys, statuses)
    if any(r.recorded_at > at for r in records):
        known = stores.canonical.records.as_of([r.memory_id for r in records], at)
        records = list(known.values())
    for r in records:
        if (
            r.key is not None
            and r.status in READABLE_STATUSES
            and r.valid_at(valid_at)
            and r.expired_at(at)
            and SENSITIVITY_ORDER[r.sensitivity] <= ceiling
        ):
            expired_seen.setdefault(r.key, []).append(r.memory_id)
    return expired_seen


def _verdict(
    key: str,
    candidates: dict[str, _Candidate],
    threshold: float,
    expired_seen: dict[str, list[str]],
) -> KeyVerdict:
    """The verdict on one key, from the candidates recall admitted with that key."""
    live = [c.record for c in candidates.values() if c.record.key == key]
    groups = {r.conflict_group for r in live if r.conflict_group}
    confirmed = [r for r in live if r.confidence >= threshold]
    state: KeyState
    if any(sum(1 for r in live if r.conflict_group == g) > 1 for g in groups):
        state, ids = "conflicting", [r.memory_id for r in live if r.conflict_group]
        detail = "sides of an open conflict: use none of them as confirmed"
    elif confirmed:
        state, ids, detail = "confirmed", [r.memory_id for r in confirmed], ""
    elif live:
        state, ids = "low_confidence_only", [r.memory_id for r in live]
        detail = f"only values below confidence {threshold}: do not use as confirmed"
    elif key in expired_seen:
        state, ids = "needs_reconfirmation", expired_seen[key]
        detail = "the stored value has expired: ask the user again"
    else:
        state, ids, detail = "none_confirmed", [], "no confirmed value"
    return KeyVerdict(key=key, state=state, memory_ids=ids, detail=detail)
