"""The write pipeline: extraction → normalisation → source and subject validation → detection →
consent and retention → business-fact validation → confidence → duplicate and conflict
resolution → mutation proposal → policy decision.

`decide()` is pure given a `StateView` (reads of the canonical store and the projection): it
returns one `CandidateDecision` per candidate, each with its outcome, proposal, the changes to
commit, the review to open and the audit trail of every stage. The workflow commits what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from governed_memory.memory.models import (
    DIRECT_EXTRACTOR,
    AuditEvent,
    Candidate,
    CandidateOutcome,
    ConversationMessage,
    ExtractorInfo,
    MemoryMutationProposal,
    MemoryRecord,
    Model,
    Principal,
    ReviewKind,
    ReviewRecord,
    WriteRequest,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.plans import SlotCheck, SlotState
from governed_memory.memory.policy import Policy
from governed_memory.memory.subjects import may_speak_for
from governed_memory.memory.vocabulary import TIMEZONE
from governed_memory.memory.write.decision import (
    CandidateDecision,
    PendingWrite,
    ReviewRequest,
    StateView,
    WriteDecision,
)
from governed_memory.memory.write.detectors import Detection, detect
from governed_memory.memory.write.extraction import Extractor
from governed_memory.memory.write.resolution import Resolution, resolve_keyed, resolve_unkeyed
from governed_memory.memory.write.stages import (
    Draft,
    IdSource,
    build_draft,
    is_business_claim,
    needs_consent,
    pinning_refs,
    refusal_for,
    screen,
    source_allowed,
    tool_vouches,
    verified_source,
)
from governed_memory.memory.write.statements import REFUSING, clause_span, refusals_by_sentence


class _Context(Model):
    request: WriteRequest
    principal: Principal
    policy: Policy
    at: datetime
    workflow_id: str
    ids: IdSource
    approved_by: str | None = None


def _event(
    ctx: _Context, stage: str, outcome: str, *, record: MemoryRecord | None = None, **kw: Any
) -> AuditEvent:
    return AuditEvent(
        stage=stage,
        outcome=outcome,
        principal=ctx.principal.ref,
        extractor=record.extractor if record is not None else None,
        memory_id=record.memory_id if record is not None else None,
        **kw,
    )


def _finish(
    ctx: _Context,
    trail: list[AuditEvent],
    draft: Draft | None,
    *,
    decision: str,
    reason: str | None,
    relation: str | None = None,
    resolution: Resolution | None = None,
    key: str | None = None,
) -> CandidateDecision:
    """A decision that writes nothing (reject, no_op) with its audit."""
    record = draft.record if draft is not None else None
    trail.append(
        _event(
            ctx,
            "policy_decision",
            decision,
            record=record,
            decision=decision,
            reason_code=reason,
            relation=relation,
            details={"matched": resolution.matched if resolution else []},
        )
    )
    outcome = CandidateOutcome(
        decision=decision,
        relation=relation,
        reason=reason,
        key=record.key if record is not None else key,
        value=record.structured_value if record is not None else None,
        matched_memory_ids=resolution.matched if resolution else [],
    )
    return CandidateDecision(outcome=outcome, audit=trail)


def _decide_one(
    ctx: _Context,
    index: int,
    draft: Draft,
    view: StateView,
    trail: list[AuditEvent],
    detections: list[Detection],
) -> CandidateDecision:
    """Checks, then resolution against the slot, then the policy decision: reject, no_op,
    defer for a reviewer, or commit."""
    checked = _check(ctx, draft, trail, detections, view)
    if isinstance(checked, CandidateDecision):
        return checked
    draft = checked
    state = view.slot(draft.record.namespace, draft.slot)
    resolution = _resolve(ctx, index, draft, state, view)
    trail.append(
        _event(
            ctx,
            "resolve",
            resolution.relation or "none",
            record=draft.record,
            relation=resolution.relation,
            details={"matched": resolution.matched, **resolution.evidence},
        )
    )
    proposal = _proposal(draft.record, resolution)
    trail.append(
        _event(
            ctx,
            "propose",
            proposal.operation,
            record=draft.record,
            details={"reason": proposal.reason_code},
        )
    )
    if resolution.operation == "no_op":
        return _finish(
            ctx,
            trail,
            draft,
            decision="no_op",
            reason=resolution.reason,
            relation=resolution.relation,
            resolution=resolution,
        )
    defer_reason = _defer_reason(ctx, resolution)
    if defer_reason is not None:
        return _defer(ctx, index, draft, trail, resolution, proposal, defer_reason)
    return _commit(ctx, index, draft, trail, resolution, proposal, state)


def _check(
    ctx: _Context,
    draft: Draft,
    trail: list[AuditEvent],
    detections: list[Detection],
    view: StateView,
) -> Draft | CandidateDecision:
    """Source and subject validation, detection, consent and retention, business facts,
    confidence: a refusal, or the draft as it goes on (restricted when it states a special
    category)."""
    record = draft.record
    if not source_allowed(
        ctx.principal,
        record.source_type,
        approved=ctx.approved_by is not None,
        namespace=record.namespace,
    ):
        # A writer cannot promote itself: the source says who vouches for the memory.
        source = {"source_type": record.source_type, "principal_type": ctx.principal.type}
        trail.append(_event(ctx, "source_validation", "not_allowed", record=record, details=source))
        return _finish(ctx, trail, draft, decision="reject", reason="source_not_allowed")
    if not may_speak_for(ctx.principal, record.subject_ref):
        # A writer speaks only for itself, for subjects whose namespace it may write, or about
        # business entities: a memory about someone else would sit where they cannot erase it.
        subject = {"subject_kind": record.subject_ref.partition(":")[0]}
        trail.append(
            _event(ctx, "subject_validation", "not_allowed", record=record, details=subject)
        )
        return _finish(ctx, trail, draft, decision="reject", reason="subject_not_allowed")
    if record.source_type == "verified_tool_fact" and ctx.approved_by is None:
        attested = view.attested(record.tenant_id, [r for r, _ in pinning_refs(record)])
        if not tool_vouches(ctx.principal, record, attested):
            # A tool's fact is the tool's to vouch for: its own write, or a reference it attested.
            refs = {"source_refs": record.source_refs, "principal_type": ctx.principal.type}
            trail.append(
                _event(ctx, "source_validation", "not_vouched", record=record, details=refs)
            )
            return _finish(ctx, trail, draft, decision="reject", reason="source_not_verified")
    found = detections + screen(record)
    refusal = refusal_for(found)
    trail.append(
        _event(
            ctx,
            "detect",
            refusal or ("sensitive" if found else "clean"),
            record=record,
            details={"findings": sorted({f"{d.reason}:{d.category}" for d in found})},
        )
    )
    if refusal is not None:
        return _finish(ctx, trail, draft, decision="reject", reason=refusal)
    if record.consent_ref is not None:
        consent = view.consent(record.consent_ref)
        if consent is None or not consent.in_force(record.tenant_id, record.subject_ref, ctx.at):
            # A consent is what the subject recorded, not a string: one made up, another
            # subject's or revoked changes nothing.
            trail.append(_event(ctx, "consent", "unknown", record=record))
            return _finish(ctx, trail, draft, decision="reject", reason="consent_unknown")
    sensitive = any(d.reason == "sensitive_category" for d in found)
    if sensitive:
        record = record.model_copy(update={"sensitivity": "restricted"})
        draft = draft.model_copy(update={"record": record})
    if needs_consent(record, found, ctx.policy):
        details = {"sensitivity": "restricted" if sensitive else record.sensitivity}
        trail.append(_event(ctx, "consent", "missing", record=record, details=details))
        return _finish(ctx, trail, draft, decision="reject", reason="sensitive_category")
    expires = str(record.expires_at) if record.expires_at else None
    trail.append(_event(ctx, "consent", "ok", record=record, details={"expires_at": expires}))
    if is_business_claim(record) and not verified_source(record):
        source = {"source_type": record.source_type}
        trail.append(_event(ctx, "source_validation", "unverified", record=record, details=source))
        return _finish(ctx, trail, draft, decision="reject", reason="unverified_business_fact")
    trail.append(_event(ctx, "source_validation", "ok", record=record))
    if record.confidence < ctx.policy.writes.min_confidence:
        return _finish(ctx, trail, draft, decision="reject", reason="low_confidence")
    return draft


def _resolve(
    ctx: _Context, index: int, draft: Draft, state: SlotState, view: StateView
) -> Resolution:
    record = draft.record
    group_id = ctx.ids.conflict_group(index)
    approved = ctx.approved_by is not None
    if record.key is not None:
        return resolve_keyed(draft, state, group_id=group_id, approved=approved)
    near = view.similar(record.namespace, record.kind, record.content)
    return resolve_unkeyed(draft, state, near, group_id=group_id, approved=approved)


def _proposal(record: MemoryRecord, resolution: Resolution) -> MemoryMutationProposal:
    return MemoryMutationProposal(
        operation=resolution.operation,
        namespace=record.namespace,
        kind=record.kind,
        key=record.key,
        candidate_content=record.content,
        source_refs=record.source_refs,
        matched_memory_ids=resolution.matched,
        conflict_type=resolution.relation,
        confidence=record.confidence,
        reason_code=resolution.reason or (resolution.relation or "none").lower(),
    )


def _defer_reason(ctx: _Context, resolution: Resolution) -> str | None:
    """Why the write waits for a reviewer: its writer only proposes, or it must not settle a
    disagreement on its own. A reviewer's approval is what it waited for."""
    if ctx.approved_by is not None:
        return None
    if ctx.principal.candidate_only:
        return "candidate_only"
    return "conflict" if resolution.defer else None


def _review(
    ctx: _Context, index: int, record: MemoryRecord, kind: ReviewKind, reason: str, **fields: Any
) -> ReviewRecord:
    review_id = ctx.ids.review_id(index)
    return ReviewRecord(
        review_id=review_id,
        tenant_id=record.tenant_id,
        namespace=record.namespace,
        kind=kind,
        reason_code=reason,
        workflow_id=f"review/{record.tenant_id}/{review_id}",
        write_workflow_id=ctx.workflow_id,
        opened_at=ctx.at,
        **fields,
    )


def _defer(
    ctx: _Context,
    index: int,
    draft: Draft,
    trail: list[AuditEvent],
    resolution: Resolution,
    proposal: MemoryMutationProposal,
    reason: str,
) -> CandidateDecision:
    record = draft.record
    review = _review(ctx, index, record, "deferred", reason, memory_ids=[record.memory_id])
    decided = _finish(
        ctx,
        trail,
        draft,
        decision="defer",
        reason=reason,
        relation=resolution.relation,
        resolution=resolution,
    )
    decided.proposal = proposal
    decided.outcome.review_id = review.review_id
    decided.review = ReviewRequest(
        review=review,
        pending=[PendingWrite(record=record, negated=draft.negated, partial=draft.partial)],
    )
    return decided


def _commit(
    ctx: _Context,
    index: int,
    draft: Draft,
    trail: list[AuditEvent],
    resolution: Resolution,
    proposal: MemoryMutationProposal,
    state: SlotState,
) -> CandidateDecision:
    """A committing decision: what it writes, the conflict review it opens, its audit."""
    record = draft.record
    written = resolution.record
    review_request = None
    if resolution.relation == "CONFLICTS" and resolution.conflict_group and written is not None:
        review = _review(
            ctx,
            index,
            record,
            "conflict",
            "conflict",
            conflict_group=resolution.conflict_group,
            memory_ids=sorted({written.memory_id, *resolution.matched}),
        )
        review_request = ReviewRequest(review=review)
    said = written or record
    trail.append(
        _event(
            ctx,
            "policy_decision",
            "commit",
            record=said,
            decision=resolution.operation,
            relation=resolution.relation,
            reason_code=resolution.reason,
            memory_version=1 if written is not None else None,
            details={
                "matched": resolution.matched,
                "approved_by": ctx.approved_by,
                "content_hash": said.content_hash,
            },
        )
    )
    outcome = CandidateOutcome(
        decision=resolution.operation,
        relation=resolution.relation,
        reason=resolution.reason,
        key=record.key,
        value=said.structured_value,
        memory_id=written.memory_id if written is not None else None,
        version=1 if written is not None else None,
        matched_memory_ids=resolution.matched,
        conflict_group=resolution.conflict_group,
        review_id=review_request.review.review_id if review_request else None,
    )
    return CandidateDecision(
        outcome=outcome,
        proposal=proposal,
        slot=SlotCheck(slot=draft.slot, expected_version=state.version),
        new_records=[written] if written is not None else [],
        changes=resolution.changes,
        review=review_request,
        audit=trail,
    )


def decide(
    request: WriteRequest,
    principal: Principal,
    policy: Policy,
    view: StateView,
    extractor: Extractor,
    *,
    workflow_id: str,
    at: datetime,
    ids: IdSource,
    message: ConversationMessage | None = None,
    approved_by: str | None = None,
    pending: Sequence[PendingWrite] = (),
) -> WriteDecision:
    """Decide every candidate of a request (or, with `pending`, of a reviewed deferred write)."""
    ctx = _Context(
        request=request,
        principal=principal,
        policy=policy,
        at=at,
        workflow_id=workflow_id,
        ids=ids,
        approved_by=approved_by,
    )
    namespace = request.namespace
    decisions: list[CandidateDecision] = []
    timezone = _timezone(view, namespace, at, policy)

    if pending:
        for i, p in enumerate(pending):
            draft = Draft(
                record=p.record.model_copy(update={"recorded_at": at}),
                negated=p.negated,
                partial=p.partial,
            )
            trail = [
                _event(
                    ctx,
                    "review",
                    "approved",
                    record=draft.record,
                    details={"reviewer": approved_by},
                )
            ]
            decisions.append(_decide_one(ctx, i, draft, view, trail, []))
    elif request.candidate is not None:
        decisions.append(
            _decide_candidate(
                ctx, 0, request.candidate, DIRECT_EXTRACTOR, timezone, view, negated=False
            )
        )
    else:
        decisions.extend(_decide_utterance(ctx, extractor, timezone, view, message))
    return WriteDecision(
        workflow_id=workflow_id,
        tenant_id=parse_namespace(namespace).tenant,
        namespace=namespace,
        principal=principal.ref,
        at=at,
        idempotency_key=request.idempotency_key,
        message=message,
        candidates=decisions,
        review_timeout=policy.review.timeout,
        quota=policy.quotas.memories_per_namespace,
    )


def _timezone(view: StateView, namespace: str, at: datetime, policy: Policy) -> str:
    stored = view.current_value(namespace, TIMEZONE, at)
    value = stored.get("value") if stored else None
    return value if isinstance(value, str) else policy.defaults.timezone


def _decide_candidate(
    ctx: _Context,
    index: int,
    candidate: Candidate,
    extractor: ExtractorInfo,
    timezone: str,
    view: StateView,
    *,
    negated: bool,
    trail: list[AuditEvent] | None = None,
    detections: list[Detection] | None = None,
) -> CandidateDecision:
    trail = trail if trail is not None else []
    draft = build_draft(
        candidate,
        principal=ctx.principal,
        namespace=ctx.request.namespace,
        policy=ctx.policy,
        at=ctx.at,
        memory_id=ctx.ids.memory_id(index),
        extractor=extractor,
        default_timezone=timezone,
        negated=negated,
    )
    trail.append(
        _event(
            ctx,
            "normalise",
            "ok",
            record=draft.record,
            details={"key": draft.record.key, "partial": draft.partial},
        )
    )
    return _decide_one(ctx, index, draft, view, trail, detections or [])


def _decide_utterance(
    ctx: _Context,
    extractor: Extractor,
    timezone: str,
    view: StateView,
    message: ConversationMessage | None,
) -> list[CandidateDecision]:
    utterance = ctx.request.utterance
    assert utterance is not None
    text = utterance.text
    refs = [message.ref] if message is not None else []
    if ctx.principal.own_namespace != ctx.request.namespace and ctx.principal.type != "user":
        # An agent's (or service's) own message is conversation, not a claim about the user.
        trail = [
            _event(
                ctx, "extract", "conversation_only", details={"speaker_type": ctx.principal.type}
            )
        ]
        return [_finish(ctx, trail, None, decision="no_op", reason="not_memorable")]

    extraction = extractor.extract(text, default_timezone=timezone)
    findings = detect(text)
    decisions: list[CandidateDecision] = []
    covered: set[int] = set()
    for i, found in enumerate(extraction.candidates):
        candidate = found.candidate.model_copy(
            update={"source_refs": [*found.candidate.source_refs, *refs]}
        )
        start = text.find(found.clause) if found.clause else -1
        local: list[Detection] = []
        for j, d in enumerate(findings):
            if start >= 0 and d.start is not None and start <= d.start < start + len(found.clause):
                local.append(d)
                covered.add(j)
        trail = [
            _event(
                ctx,
                "extract",
                "candidate",
                details={
                    "key": candidate.key,
                    "kind": candidate.kind,
                    "negated": found.negated,
                    "message": refs,
                },
            )
        ]
        trail[0].extractor = extractor.info
        decided = _decide_candidate(
            ctx,
            i,
            candidate,
            extractor.info,
            timezone,
            view,
            negated=found.negated,
            trail=trail,
            detections=local,
        )
        decided.outcome.span = clause_span(text, found.clause)
        decisions.append(decided)
    for skipped in extraction.skipped:
        trail = [_event(ctx, "extract", skipped.reason, details={"key": skipped.key})]
        trail[0].extractor = extractor.info
        decision = _finish(
            ctx, trail, None, decision="no_op", reason=skipped.reason, key=skipped.key
        )
        decision.outcome.value = (
            dict(skipped.structured_value) if skipped.structured_value else None
        )
        decision.outcome.span = clause_span(text, skipped.clause)
        decisions.append(decision)

    # Whatever the detectors found outside the extracted clauses is refused as such: a secret
    # or an injection said in passing must not slip through as "nothing memorable".
    leftover = [d for j, d in enumerate(findings) if j not in covered]
    for span, hits in refusals_by_sentence(text, leftover):
        reason = next(r for r in REFUSING if any(d.reason == r for d in hits))
        kinds = sorted({f"{d.reason}:{d.category}" for d in hits if d.reason == reason})
        trail = [_event(ctx, "detect", reason, details={"findings": kinds})]
        trail[0].extractor = extractor.info
        refused = _finish(ctx, trail, None, decision="reject", reason=reason)
        refused.outcome.span = span
        decisions.append(refused)
    if not decisions:
        trail = [_event(ctx, "extract", "nothing", details={"message": refs})]
        trail[0].extractor = extractor.info
        decisions.append(_finish(ctx, trail, None, decision="no_op", reason="not_memorable"))
    return decisions
