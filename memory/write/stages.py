"""Validation and normalisation of a candidate into a draft record."""

from __future__ import annotations

from datetime import datetime

from memory.errors import ClockOverrideRefused, ContentTooLarge, UnauthorizedNamespace
from memory.models import (
    DIRECT_EXTRACTOR,
    MemoryRecord,
    Model,
    Principal,
    WriteRequest,
    content_hash,
)
from memory.namespaces import parse_namespace
from memory.policy import Policy
from memory.stores.canonical import slot_for


class Prepared(Model):
    """A candidate that passed validation, as the record it would become."""

    workflow_id: str
    principal: Principal
    at: datetime
    record: MemoryRecord

    @property
    def slot(self) -> str:
        return slot_for(self.record.key, self.record.content_hash)


def effective_time(request_at: datetime | None, now: datetime, allow_override: bool) -> datetime:
    if request_at is not None and not allow_override:
        raise ClockOverrideRefused(
            "this service does not accept a clock override (`at`); it is for evaluation and "
            "tests and is enabled with MEMORY_ALLOW_CLOCK_OVERRIDE=true",
            field="at",
        )
    return request_at or now


def default_subject(namespace: str) -> str:
    ns = parse_namespace(namespace)
    return f"{ns.scope}:{ns.id}" if ns.scope else f"tenant:{ns.tenant}"


def check_write_allowed(principal: Principal, namespace: str) -> None:
    if parse_namespace(namespace).tenant != principal.tenant or not principal.can_write(namespace):
        raise UnauthorizedNamespace(
            f"{principal.ref} may not write to {namespace}", field="namespace"
        )


def check_content_size(content: str, policy: Policy) -> None:
    size = len(content.encode("utf-8"))
    if size > policy.limits.max_content_bytes:
        raise ContentTooLarge(
            f"content is {size} bytes, more than the limit of {policy.limits.max_content_bytes}",
            field="content",
        )


def prepare(
    request: WriteRequest,
    principal: Principal,
    policy: Policy,
    *,
    workflow_id: str,
    memory_id: str,
    at: datetime,
) -> Prepared:
    """Validate the request and build the draft record; raises a typed error on bad input."""
    check_write_allowed(principal, request.namespace)
    c = request.candidate
    check_content_size(c.content, policy)
    content = " ".join(c.content.split())
    valid_from = c.valid_from or at
    ttl = policy.retention.ttl(c.kind)
    expires_at = c.expires_at or (valid_from + ttl if ttl is not None else None)
    record = MemoryRecord(
        memory_id=memory_id,
        tenant_id=principal.tenant,
        namespace=request.namespace,
        subject_ref=c.subject_ref or default_subject(request.namespace),
        kind=c.kind,
        key=c.key,
        content=content,
        structured_value=c.structured_value,
        source_refs=c.source_refs,
        source_type=c.source_type,
        confidence=c.confidence,
        sensitivity=c.sensitivity or policy.defaults.sensitivity,
        valid_from=valid_from,
        valid_to=c.valid_to,
        recorded_at=at,
        expires_at=expires_at,
        consent_ref=c.consent_ref,
        status="active",
        version=1,
        content_hash=content_hash(content, c.structured_value),
        extractor=DIRECT_EXTRACTOR,
        written_by=principal.ref,
    )
    return Prepared(workflow_id=workflow_id, principal=principal, at=at, record=record)
