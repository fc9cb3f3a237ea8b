"""Which workflow runs carried what a deletion erases.

A run's history holds its input and every activity result (encrypted, but readable by whoever
holds the codec key), so a deletion removes the closed runs that carried the erased content:
the runs whose audit names an erased memory (writes, batches, reviews, summaries), the runs that
kept an erased message, the reviews those writes opened, and for a whole namespace every run
audited in it (a refused write, a secret, left no memory but its input is still in history).
Deletion runs themselves are kept: they hold ids and a scope, and their receipts must stay
inspectable.
"""

from __future__ import annotations

from governed_memory.memory.models.deletion import ResolvedScope
from governed_memory.memory.stores import Stores

#: Workflow ids of deletions and their receipts: never deleted as carriers.
KEPT_PREFIXES = ("delete/", "backup-expiry/")
#: The suffixes of the runs a RecordFeedback run starts: its correction's write, and its
#: deletion (kept, as every deletion is).
CORRECTION = "/correction"
DELETION = "/deletion"


def carrying_runs(
    stores: Stores, tenant_id: str, resolved: ResolvedScope, deleting: str | None = None
) -> list[str]:
    """Workflow ids whose history carried content in the scope, sorted; never the run
    `deleting` (this deletion's) nor the feedback run that started it (it carries ids only,
    and waits for this deletion)."""
    canonical = stores.canonical
    scope = resolved.scope
    whole = [scope.namespace] if scope.whole_namespace and scope.namespace else []
    found = canonical.audit.workflows_about(tenant_id, resolved.all_memory_ids, whole)
    found |= canonical.messages.workflows_of([m.message_id for m in resolved.messages])
    found |= canonical.reviews.opened_by(tenant_id, sorted(found))
    # A feedback run started its correction's write with the corrected words: it carried them.
    found |= {w.removesuffix(CORRECTION) for w in found if w.endswith(CORRECTION)}
    kept = {deleting, deleting.removesuffix(DELETION)} if deleting else set()
    return sorted(
        w for w in found if not (w.startswith(KEPT_PREFIXES) or w.endswith(DELETION) or w in kept)
    )
