"""Erasing what a scope covers everywhere it is said.

Erasure tombstones the memories and blanks every version; blanks a message, or, for a key
scope, cuts out only the clauses that state that key; erases the derived summaries, and then
writes fresh ones from what remains.
"""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.errors import InvalidInput, NotFound, UnauthorizedNamespace
from governed_memory.memory.fingerprints import squash
from governed_memory.memory.models import ConversationMessage, SummarizeRequest
from governed_memory.memory.models.deletion import ResolvedScope, SummaryTarget
from governed_memory.memory.plans import (
    EraseResult,
    ErasureLedgerEntry,
    MessageErasure,
    PendingScope,
)
from governed_memory.memory.stores import Stores
from governed_memory.memory.summary import ExtractiveSummarizer, ThreadSummary, plan_summary
from governed_memory.memory.sync.commit import commit_and_project
from governed_memory.memory.write.extraction import Extractor

REDACTED = "[已删除]"


def redaction(
    text: str, keys: list[str], extractor: Extractor, timezone: str
) -> MessageErasure | None:
    """Cut out of a message the clauses that state these keys (None: nothing found to cut)."""
    found = extractor.extract(text, default_timezone=timezone)
    clauses = [c.clause for c in found.candidates if c.candidate.key in keys and c.clause]
    clauses += [s.clause for s in found.skipped if s.key in keys and s.clause]
    redacted = text
    removed: list[str] = []
    for clause in sorted(set(clauses), key=len, reverse=True):
        if clause in redacted:
            redacted = redacted.replace(clause, REDACTED)
            removed.append(clause)
    if not removed:
        return None
    return MessageErasure(message_id="", new_text=redacted, erased_parts=removed)


def _tenant_of(resolved: ResolvedScope) -> str:
    return resolved.namespaces[0].split("/")[1] if resolved.namespaces else ""


def erase(
    stores: Stores,
    deletion_id: str,
    resolved: ResolvedScope,
    at: datetime,
    extractor: Extractor,
    *,
    by: str = "system",
) -> EraseResult:
    """Erase memories, messages (or their stating clauses), derived summaries and the subject's
    consents at once (what else depended on those consents is invalidated, as `by` asked)."""
    canonical = stores.canonical
    tenant = _tenant_of(resolved)
    originals = {
        m.message_id: m
        for ns in {t.namespace for t in resolved.messages}
        for m in canonical.messages.in_namespace(ns)
    }
    erasures = _message_erasures(resolved, originals, extractor, stores.policy.defaults.timezone)
    ledger = ErasureLedgerEntry(
        deletion_id=deletion_id,
        tenant_id=tenant,
        scope=resolved.scope.model_dump(mode="json"),
        memory_ids=resolved.all_memory_ids,
        messages=[(e.message_id, e.key) for e in erasures],
        committed_at=at,
        consents=resolved.consents,
    )
    pending = PendingScope(
        tenant_id=tenant,
        # where only promoted copies were found, nothing else of the scope is
        namespaces=[ns for ns in resolved.namespaces if ns not in resolved.copy_namespaces],
        keys=resolved.keys,
        whole=resolved.scope.whole_namespace,
    )
    return canonical.erasure.erase(
        deletion_id,
        resolved.all_memory_ids,
        at,
        messages=erasures,
        ledger=ledger,
        pending=pending,
        consents=resolved.consents,
        tenant_id=tenant,
        by=by,
    )


def _message_erasures(
    resolved: ResolvedScope,
    originals: dict[str, ConversationMessage],
    extractor: Extractor,
    timezone: str,
) -> list[MessageErasure]:
    """Per target message not yet erased: the clauses stating its keys cut out, or, when it
    has no keys or cutting would leave nothing but the mark, the whole message blanked."""
    erasures: list[MessageErasure] = []
    for target in resolved.messages:
        message = originals.get(target.message_id)
        if message is None or message.status == "erased":
            continue
        cut = redaction(message.text, target.keys, extractor, timezone) if target.keys else None
        if cut is not None and squash(cut.new_text or "") != squash(REDACTED):
            erasures.append(
                cut.model_copy(
                    update={"message_id": target.message_id, "key": ",".join(target.keys)}
                )
            )
        else:
            erasures.append(
                MessageErasure(message_id=target.message_id, erased_parts=[message.text])
            )
    return erasures


def regenerate_summaries(
    stores: Stores, resolved: ResolvedScope, at: datetime, deletion_id: str
) -> list[str]:
    """Summaries built on erased sources, written again from what remains (the erased ones are
    gone with everything else). A thread with nothing left keeps no summary."""
    made: list[str] = []
    latest: dict[tuple[str, str], SummaryTarget] = {}
    for target in resolved.summaries:
        conversation = (target.namespace, target.thread)
        if conversation not in latest or target.last > latest[conversation].last:
            latest[conversation] = target
    tenant = _tenant_of(resolved)
    for (namespace, thread), target in sorted(latest.items()):
        remaining = stores.canonical.messages.in_thread(tenant, namespace, thread)
        span = [m.position for m in remaining if target.first <= m.position <= target.last]
        if not span:
            continue
        memory_id = f"mem_regen_{deletion_id.removeprefix('del_')}_{len(made)}"
        try:
            planned = plan_summary(
                stores,
                SummarizeRequest(
                    principal=target.writer,
                    tenant=tenant,
                    namespace=namespace,
                    thread=thread,
                    range=(min(span), max(span)),
                ),
                ExtractiveSummarizer(),
                workflow_id=f"regenerate/{deletion_id}",
                memory_id=memory_id,
                at=at,
                commit_id=f"regenerate/{deletion_id}/{namespace}/{thread}",
            )
        except (InvalidInput, NotFound, UnauthorizedNamespace):
            continue  # nothing left to summarise, or its writer lost the right: stays erased
        if planned.plan is None or not planned.plan.new_records:
            continue
        record = planned.plan.new_records[0]
        if (
            not record.structured_value
            or not ThreadSummary.model_validate(record.structured_value).claims()
        ):
            continue
        commit_and_project(stores, planned.plan)
        made.append(record.memory_id)
    return made
