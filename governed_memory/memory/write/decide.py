"""One write's decision against the stores: who writes (refused writers audited), the outcome
already stored for its idempotency key (replayed), else the message kept (screened) and the
pipeline run (`memory.write.pipeline.decide`). A single write and every write of a batch take
this one path."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

import structlog

from governed_memory.memory.errors import MemoryServiceError, PolicyRefusal
from governed_memory.memory.models import (
    AuditEvent,
    ConversationMessage,
    Principal,
    WriteRequest,
)
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.canonical.messages import NewMessage
from governed_memory.memory.sync.apply import sync_pending
from governed_memory.memory.write.decision import WriteDecision
from governed_memory.memory.write.extraction import Extractor
from governed_memory.memory.write.pipeline import decide
from governed_memory.memory.write.screening import screen
from governed_memory.memory.write.stages import IdSource, check_write_allowed, effective_time
from governed_memory.memory.write.state import Known, StoreView

log = structlog.get_logger("governed_memory.memory.write.decide")


#: Who a principal reference names: the registry's word (a batch asks it once per writer).
PrincipalOf = Callable[[str], Principal]


def authorize_write(
    stores: Stores,
    request: WriteRequest,
    workflow_id: str,
    at: datetime,
    principal_of: PrincipalOf | None = None,
) -> Principal:
    """The writing principal, or UnauthorizedNamespace (audited: it reached the service)."""
    principal = (principal_of or stores.canonical.principals.get)(request.principal)
    try:
        check_write_allowed(principal, request.namespace)
    except PolicyRefusal as refusal:
        stores.canonical.commits.record_audit(
            principal.tenant,
            request.namespace,
            workflow_id,
            [
                AuditEvent(
                    stage="authorize",
                    outcome="refused",
                    decision="reject",
                    reason_code=refusal.code,
                    principal=principal.ref,
                    details={"message": refusal.message},
                )
            ],
            at,
        )
        raise
    return principal


def message_entry(
    request: WriteRequest,
    principal: Principal,
    *,
    message_id: str,
    workflow_id: str,
    at: datetime,
) -> NewMessage:
    """What of a request's utterance is kept, as whose: screened before it is kept, so a secret
    said in a message is never stored, whatever the pipeline then decides about it."""
    assert request.utterance is not None
    screened = screen(request.utterance.text)
    return NewMessage(
        message_id=message_id,
        tenant_id=principal.tenant,
        namespace=request.namespace,
        thread=request.utterance.thread,
        speaker=principal.ref,
        speaker_type=principal.type,
        text=screened.text,
        sensitivity=screened.sensitivity,
        at=at,
        workflow_id=workflow_id,
    )


def keep_messages(
    stores: Stores,
    requests: Sequence[WriteRequest],
    message_ids: Sequence[str],
    known: Known,
    *,
    workflow_id: str,
    now: datetime,
    allow_override: bool,
) -> dict[int, ConversationMessage]:
    """The messages of a batch's requests kept in one transaction, ahead of their decisions,
    by request index: only those `decide_request` would keep (an allowed writer, a key not
    decided before); the others it decides, refuses and audits as usual."""
    entries: list[tuple[int, NewMessage]] = []
    for i, request in enumerate(requests):
        if request.utterance is None:
            continue
        try:
            at = effective_time(request.at, now, allow_override)
            principal = known.principal(request.principal, stores.canonical.principals.get)
            check_write_allowed(principal, request.namespace)
        except MemoryServiceError:
            continue
        if not known.undecided(request):
            continue
        entry = message_entry(
            request, principal, message_id=message_ids[i], workflow_id=workflow_id, at=at
        )
        entries.append((i, entry))
    kept = stores.canonical.messages.append_all([e for _, e in entries])
    return {i: m for (i, _), m in zip(entries, kept, strict=True)}


def decide_request(
    stores: Stores,
    request: WriteRequest,
    extractor: Extractor,
    *,
    workflow_id: str,
    seed: str,
    now: datetime,
    allow_override: bool,
    message_id: str | None = None,
    message: ConversationMessage | None = None,
    principal_of: PrincipalOf | None = None,
    view: StoreView | None = None,
    undecided: bool = False,
) -> WriteDecision:
    """Decide `request`; its message is kept under `message_id` first, unless the caller kept
    it already (`message`, from `keep_messages`). A batch passes what it read ahead: `view`
    (`Known`), and `undecided` when its idempotency key had no stored outcome."""
    at = effective_time(request.at, now, allow_override)
    principal = authorize_write(stores, request, workflow_id, at, principal_of)
    stored = (
        None
        if undecided
        else stores.canonical.outcomes.get(principal.tenant, principal.ref, request.idempotency_key)
    )
    if stored is not None:
        # Decided before — by this run, if its worker died after the commit: what it committed
        # reaches the index now rather than at the next relay.
        try:
            sync_pending(
                stores.canonical, stores.projection, [o.memory_id for o in stored.outcomes]
            )
        except Exception as exc:  # the index is down: the relay settles them later
            log.warning("projection of a replayed write failed", error=repr(exc))
        return WriteDecision(
            workflow_id=stored.workflow_id,
            tenant_id=principal.tenant,
            namespace=request.namespace,
            principal=principal.ref,
            at=at,
            idempotency_key=request.idempotency_key,
            review_timeout=stores.policy.review.timeout,
            replayed=stored.outcomes,
        )
    if message is None and request.utterance is not None and message_id is not None:
        entry = message_entry(
            request, principal, message_id=message_id, workflow_id=workflow_id, at=at
        )
        message = stores.canonical.messages.append_all([entry])[0]
    return decide(
        request,
        principal,
        stores.policy,
        view or StoreView(stores),
        extractor,
        workflow_id=workflow_id,
        at=at,
        ids=IdSource(seed=seed),
        message=message,
    )
