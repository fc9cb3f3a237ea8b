"""The service boundary's one check of who is asking.

Every workflow input names a principal and carries its token; the first thing each service does
with a request is to have the token prove that principal (`memory.identity`). A missing, forged,
expired, foreign or someone else's token is refused as `Unauthenticated`, and nothing else
happens.

A refusal is counted, not written down one row each: whoever can reach the service can send
refused tokens as fast as it likes, and an audit row per refusal would let it fill the audit
table (and hold the canonical store's write lock) for free. So every refusal increments
`memory_auth_refusals_total{reason}` (Prometheus: the volume, by why), and the audit keeps a
bounded trace: one `authenticate`/`refused` row per (tenant, claimed principal, client, reason)
per minute — the first refusal of each in the minute — carrying how many refusals of the same
key were folded into the key's previous row, and at most `TRACE_KEYS` such rows per minute per
gate. What the audit loses is the exact count, which the counter keeps.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime

from prometheus_client import Counter

from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.identity import Claims, Identity, identity_for, refusal_reason
from governed_memory.memory.models import AuditEvent
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores

#: Where a refusal is audited when the request did not say which tenant it was for.
UNKNOWN_TENANT = "-"
#: Each key (tenant, claimed principal, client, reason) has at most one audit row per window.
TRACE_WINDOW_SECONDS = 60.0
#: Distinct keys audited per window by one gate; refusals beyond are only counted.
TRACE_KEYS = 1000

REFUSALS = Counter(
    "memory_auth_refusals",
    "Tokens refused at the service's gate, by reason (missing, malformed, bad_signature, "
    "expired, wrong_audience, wrong_issuer, unsupported_algorithm, wrong_principal, …).",
    ["reason"],
)

_TraceKey = tuple[str, str | None, str | None, str]


class RefusalTrace:
    """Which refusals get an audit row: the first of each key in a window, up to `keys` keys."""

    def __init__(self, window: float = TRACE_WINDOW_SECONDS, keys: int = TRACE_KEYS) -> None:
        self.window = window
        self.keys = keys
        self._started = time.monotonic()
        #: Refusals of each key in this window that got no row of their own.
        self._folded: dict[_TraceKey, int] = {}
        #: Refusals of each key folded in the previous window (told by its next row).
        self._carried: dict[_TraceKey, int] = {}
        self._lock = threading.Lock()

    def due(self, key: _TraceKey) -> int | None:
        """None when this refusal is only counted; else the number of refusals of the same key
        folded since its previous row (the row to write says so)."""
        now = time.monotonic()
        with self._lock:
            if now - self._started >= self.window:
                self._carried = {k: n for k, n in self._folded.items() if n}
                self._folded = {}
                self._started = now
            if key in self._folded:
                self._folded[key] += 1
                return None
            if len(self._folded) >= self.keys:
                return None
            self._folded[key] = 0
            return self._carried.pop(key, 0)


class Gate:
    def __init__(self, stores: Stores, identity: Identity) -> None:
        self.stores = stores
        self.identity = identity
        self.trace = RefusalTrace()

    def admit(
        self,
        token: str | None,
        principal: str | None,
        *,
        tenant: str | None,
        namespace: str | None,
        workflow_id: str | None,
        at: datetime,
        client: str | None = None,
    ) -> Claims:
        """The verified claims of `token`, which must prove `principal` when one is named (a
        read by bearer token names none: the token says who asks). `client` is where the
        request came from (an HTTP client's address), for the trace of refusals."""
        verifier = self.identity.verifier
        try:
            if principal is None:
                return verifier.verify(token)
            return verifier.principal(token, principal)
        except Unauthenticated as refused:
            reason = refusal_reason(refused)
            REFUSALS.labels(reason).inc()
            where = tenant or UNKNOWN_TENANT
            folded = self.trace.due((where, principal, client, reason))
            if folded is not None:
                self._audit(
                    refused, reason, where, principal, namespace, workflow_id, at, client, folded
                )
            raise

    def _audit(
        self,
        refused: Unauthenticated,
        reason: str,
        tenant: str,
        principal: str | None,
        namespace: str | None,
        workflow_id: str | None,
        at: datetime,
        client: str | None,
        folded: int,
    ) -> None:
        details: dict[str, object] = {
            "message": refused.message,
            "reason": reason,
            "audited_once_per_seconds": int(self.trace.window),
        }
        if client is not None:
            details["client"] = client
        if folded:
            details["refusals_since_last_row"] = folded
        self.stores.canonical.commits.record_audit(
            tenant,
            namespace,
            workflow_id,
            [
                AuditEvent(
                    stage="authenticate",
                    outcome="refused",
                    decision="reject",
                    reason_code=refused.code,
                    principal=principal,
                    details=details,
                )
            ],
            at,
        )


class GatedService:
    """A service that requests reach: its stores, its settings, and the gate its requests pass
    (the identity given, or the one the settings describe)."""

    def __init__(self, stores: Stores, settings: Settings, identity: Identity | None) -> None:
        self.stores = stores
        self.settings = settings
        self.gate = Gate(stores, identity or identity_for(settings))
