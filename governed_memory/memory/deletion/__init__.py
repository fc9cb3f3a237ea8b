"""Deletion: what a request covers, who may delete it, erasing it everywhere it is said, and
proof that no read path returns it.

A scope (subject, namespace, key, source, or a request in words) resolves to memories, the
messages they were extracted from, and every summary derived from either (through lineage,
transitively). Erasure tombstones the memories and blanks every version; blanks a message, or,
for a key scope, cuts out only the clauses that state that key; erases the derived summaries and
writes fresh ones from what remains. Verification then asks every read path for it,
recognising the erased text by salted fingerprints (the text is not kept).

- `scope`: requests in words, resolving a scope to ids, and who may delete it.
- `erase`: redaction of stating clauses, erasure, and summaries written again.
- `verify`: the probes, one per read path, in a fixed order.
- `journal`: the deletion journal, applied again after a restore from backup.
"""

from __future__ import annotations

from governed_memory.memory.deletion.erase import REDACTED, erase, redaction, regenerate_summaries
from governed_memory.memory.deletion.journal import load_journal, reapply
from governed_memory.memory.deletion.scope import authorize_deletion, resolve, resolve_words
from governed_memory.memory.deletion.verify import READ_PATH_SAMPLE, _spread, verify_erased
from governed_memory.memory.models.deletion import MessageTarget, ResolvedScope, SummaryTarget

__all__ = [
    "READ_PATH_SAMPLE",
    "REDACTED",
    "MessageTarget",
    "ResolvedScope",
    "SummaryTarget",
    "_spread",
    "authorize_deletion",
    "erase",
    "load_journal",
    "reapply",
    "redaction",
    "regenerate_summaries",
    "resolve",
    "resolve_words",
    "verify_erased",
]
