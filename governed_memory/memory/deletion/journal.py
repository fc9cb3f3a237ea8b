"""Restores: the deletion journal (one ledger entry a line) and applying it again to a store
restored from a backup taken before those deletions."""

from __future__ import annotations

from pathlib import Path

from governed_memory.memory.deletion.erase import redaction
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import ConversationMessage, DeletionScope
from governed_memory.memory.plans import ErasureLedgerEntry, MessageErasure
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.apply import sync
from governed_memory.memory.write.extraction import Extractor


def load_journal(path: Path) -> list[ErasureLedgerEntry]:
    if not path.exists():
        raise InvalidInput(f"{path}: no deletion journal", field="journal")
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                entries.append(ErasureLedgerEntry.model_validate_json(line))
            except ValueError as exc:
                raise InvalidInput(f"{path}:{number}: not a ledger entry ({exc})") from None
    return entries


def reapply(
    stores: Stores, entries: list[ErasureLedgerEntry], extractor: Extractor
) -> dict[str, int]:
    """Apply recorded deletions again to a store restored from an older backup: whatever they
    erased and is back is erased again (with its fences and ledger row), and unprojected.
    Deletions still in force are left alone."""
    canonical = stores.canonical
    counts = {"deletions": 0, "reapplied": 0, "memories": 0, "messages": 0}
    timezone = stores.policy.defaults.timezone
    for entry in entries:
        counts["deletions"] += 1
        heads = canonical.records.heads(entry.memory_ids)
        back = [m for m, r in heads.items() if r.content or r.status != "deleted"]
        messages = {
            m.message_id: m
            for ns in {r.namespace for r in heads.values()} | _namespaces_of(stores, entry)
            for m in canonical.messages.in_namespace(ns)
        }
        erasures = _message_erasures(entry, messages, extractor, timezone)
        consents = entry.consents if canonical.consents.remaining(entry.consents) else []
        if not back and not erasures and not consents:
            continue
        result = canonical.erasure.erase(
            entry.deletion_id,
            back,
            entry.committed_at,
            messages=erasures,
            ledger=entry,
            consents=consents,
            tenant_id=entry.tenant_id,
        )
        canonical.erasure.drop_probes(entry.deletion_id)
        sync(canonical, stores.projection, entry.memory_ids, result.outbox_seqs)
        if result.invalidated:
            sync(canonical, stores.projection, result.invalidated, result.invalidated_seqs)
        counts["reapplied"] += 1
        counts["memories"] += len(result.memory_ids)
        counts["messages"] += len(erasures)
    return counts


def _message_erasures(
    entry: ErasureLedgerEntry,
    messages: dict[str, ConversationMessage],
    extractor: Extractor,
    timezone: str,
) -> list[MessageErasure]:
    """The entry's messages that are back: blanked again, or, for a key, its clauses cut out
    again (a message no longer stating the key was redacted already and is left alone)."""
    erasures: list[MessageErasure] = []
    for message_id, keys in entry.messages:
        message = messages.get(message_id)
        if message is None or message.status == "erased":
            continue
        cut = redaction(message.text, keys.split(","), extractor, timezone) if keys else None
        if keys and cut is None:
            continue  # already redacted: nothing states the key any more
        erasures.append(
            cut.model_copy(update={"message_id": message_id, "key": keys})
            if cut is not None
            else MessageErasure(message_id=message_id, erased_parts=[message.text])
        )
    return erasures


def _namespaces_of(stores: Stores, entry: ErasureLedgerEntry) -> set[str]:
    scope = DeletionScope.model_validate(entry.scope)
    found = {ns for ns, _ in entry.fences}
    if scope.namespace:
        found.add(scope.namespace)
    return found
