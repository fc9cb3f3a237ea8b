"""The checks a candidate passes before resolution: validation, normalisation, detection,
consent and retention, source validation, confidence. Plain functions over plain models."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

from governed_memory.memory.errors import (
    ClockOverrideRefused,
    ContentTooLarge,
    QuotaExceeded,
    UnauthorizedNamespace,
)
from governed_memory.memory.models import (
    Candidate,
    ExtractorInfo,
    MemoryRecord,
    Model,
    Principal,
    content_hash,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.plans import slot_for
from governed_memory.memory.policy import Policy
from governed_memory.memory.sameness import gist_of
from governed_memory.memory.subjects import canonical_subject, subject_of
from governed_memory.memory.vocabulary import completing_field
from governed_memory.memory.write.detectors import Detection, detect
from governed_memory.memory.write.normalize import normalize_structured_value, normalize_whitespace

BUSINESS_SUBJECTS = ("order:", "payment:", "shipment:", "refund:")
BUSINESS_KEYS = ("order.", "payment.", "logistics.", "refund.")


class Draft(Model):
    """A candidate on its way through the pipeline, as the record it would become."""

    record: MemoryRecord
    #: A negation: `record.structured_value` is the value being denied.
    negated: bool = False
    #: The value is a part of a composite value, to merge with the stored one.
    partial: bool = False

    @property
    def slot(self) -> str:
        return slot_for(self.record.key, self.record.gist)


class IdSource(Model):
    """Deterministic ids for one write: the same seed and index give the same id on replay."""

    seed: str

    def _make(self, prefix: str, *parts: object) -> str:
        raw = "/".join([self.seed, prefix, *map(str, parts)])
        return f"{prefix}_{hashlib.sha256(raw.encode()).hexdigest()[:32]}"

    def memory_id(self, index: int) -> str:
        return self._make("mem", index)

    def conflict_group(self, index: int) -> str:
        return self._make("cg", index)

    def review_id(self, index: int) -> str:
        return self._make("rev", index)


def effective_time(request_at: datetime | None, now: datetime, allow_override: bool) -> datetime:
    if request_at is not None and not allow_override:
        raise ClockOverrideRefused(
            "this service does not accept a clock override (`at`); it is for evaluation and "
            "tests and is enabled with MEMORY_ALLOW_CLOCK_OVERRIDE=true",
            field="at",
        )
    return request_at or now


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


def check_quota(kept: int, adding: int, policy: Policy, principal: str, namespace: str) -> None:
    """Refuses (`QuotaExceeded`) `adding` more writes of a principal that keeps `kept` active
    memories in `namespace`, when they would take it past the policy's quota (0: none)."""
    quota = policy.quotas.memories_per_namespace
    if quota and kept + adding > quota:
        raise QuotaExceeded(
            f"{principal} keeps {kept} active memories in {namespace}, and may keep {quota}: "
            "delete some (or let them expire) before writing more",
            field="namespace",
        )


def build_draft(
    candidate: Candidate,
    *,
    principal: Principal,
    namespace: str,
    policy: Policy,
    at: datetime,
    memory_id: str,
    extractor: ExtractorInfo,
    default_timezone: str,
    negated: bool = False,
) -> Draft:
    """Normalise a candidate into the record it would become (raises InvalidInput)."""
    check_content_size(candidate.content, policy)
    content = normalize_whitespace(candidate.content)
    value = normalize_structured_value(
        candidate.key, candidate.structured_value, default_timezone=default_timezone
    )
    valid_from = candidate.valid_from or at
    ttl = policy.retention.ttl(candidate.kind)
    expires_at = candidate.expires_at or (valid_from + ttl if ttl is not None else None)
    if ttl is not None and expires_at is not None:
        # The policy's retention bounds what a writer may ask for: earlier, yes; later, no
        # (counted from when the memory is recorded).
        expires_at = min(expires_at, at + ttl)
    record = MemoryRecord(
        memory_id=memory_id,
        tenant_id=principal.tenant,
        namespace=namespace,
        subject_ref=(
            canonical_subject(candidate.subject_ref, parse_namespace(namespace).tenant)
            if candidate.subject_ref
            else subject_of(namespace)
        ),
        kind=candidate.kind,
        key=candidate.key,
        content=content,
        structured_value=value,
        source_refs=candidate.source_refs,
        source_type=candidate.source_type,
        confidence=candidate.confidence,
        sensitivity=candidate.sensitivity or policy.defaults.sensitivity,
        valid_from=valid_from,
        valid_to=candidate.valid_to,
        recorded_at=at,
        expires_at=expires_at,
        consent_ref=candidate.consent_ref,
        status="active",
        version=1,
        content_hash=content_hash(content, value),
        gist=gist_of(content, value),
        extractor=extractor,
        written_by=principal.ref,
        graph=candidate.graph,
    )
    whole = completing_field(candidate.key)
    partial = whole is not None and value is not None and whole not in value
    return Draft(record=record, negated=negated, partial=partial)


def scanned_text(record: MemoryRecord) -> str:
    """What the detectors read: the content and every string in the structured value."""
    texts = [record.content]
    if record.structured_value:
        texts.append(json.dumps(record.structured_value, ensure_ascii=False))
    return "\n".join(texts)


def screen(record: MemoryRecord) -> list[Detection]:
    return detect(scanned_text(record))


def refusal_for(detections: list[Detection]) -> str | None:
    """The reason a write is refused for what the detectors found: secrets and injections always;
    sensitive categories only without consent (see `needs_consent`)."""
    for reason in ("secret", "prompt_injection"):
        if any(d.reason == reason for d in detections):
            return reason
    return None


def needs_consent(record: MemoryRecord, detections: list[Detection], policy: Policy) -> bool:
    sensitive = any(d.reason == "sensitive_category" for d in detections)
    level = "restricted" if sensitive else record.sensitivity
    return level in policy.consent.required_for and not record.consent_ref


def is_business_claim(record: MemoryRecord) -> bool:
    return record.subject_ref.startswith(BUSINESS_SUBJECTS) or (
        record.key is not None and record.key.startswith(BUSINESS_KEYS)
    )


def _ref_parts(ref: str) -> tuple[str, str, dict[str, list[str]]]:
    parts = urlsplit(ref)
    return parts.scheme, parts.netloc + parts.path, parse_qs(parts.query)


def source_allowed(
    principal: Principal, source_type: str, *, approved: bool, namespace: str | None = None
) -> bool:
    """Whether this principal may claim this source: `human_review` is what a reviewer's
    approval makes, or a fact a reviewer (a principal of type `reviewer` with approve rights over
    the namespace) records as checked by them; nobody writes `derived_summary` (the
    summarizer's); `system_policy` needs the admin role; a user cannot vouch for a tool
    (`verified_tool_fact`)."""
    if source_type == "human_review":
        reviewer = principal.type == "reviewer" and namespace is not None
        return approved or (reviewer and principal.can_approve(namespace or ""))
    if source_type == "derived_summary":
        return False
    if source_type == "system_policy":
        return "admin" in principal.roles
    if source_type == "verified_tool_fact":
        return principal.type != "user"
    return True


def pinning_refs(record: MemoryRecord) -> list[tuple[str, str]]:
    """The `(ref, scheme)` of the references that pin what a record states.

    State (an order's status, a payment's amount) changes, so a state claim needs a versioned
    reference (`order://ORD-1?version=8`). An event record (kind episodic) is immutable, so a
    reference that identifies it (`refund://RF-20260715-88`) is enough.
    """
    pinned = []
    for ref in record.source_refs:
        scheme, ident, query = _ref_parts(ref)
        if not scheme or not ident.strip("/"):
            continue
        if "version" in query or record.kind == "episodic":
            pinned.append((ref, scheme))
    return pinned


def verified_source(record: MemoryRecord) -> bool:
    """A business claim is a fact only from a verified tool, with a reference that pins it."""
    return record.source_type == "verified_tool_fact" and bool(pinning_refs(record))


def tool_vouches(principal: Principal, record: MemoryRecord, attested: set[str]) -> bool:
    """Whether a tool vouches for a `verified_tool_fact`: the writer is the tool of a pinning
    reference's scheme, or a tool has attested one of its pinning references. The writer's
    own say-so (an agent's made-up `order://ORD-1?version=1`) is not enough."""
    return any(scheme in principal.tools or ref in attested for ref, scheme in pinning_refs(record))
