"""Duplicate and conflict resolution: how a draft relates to what the slot holds, and the plan."""

from __future__ import annotations

from memory.models import (
    AuditEvent,
    CandidateOutcome,
    MemoryMutationProposal,
    MemoryRecord,
    Model,
    Relation,
)
from memory.stores.canonical import CommitPlan, RecordChange, SlotState
from memory.write.stages import Prepared


class Resolution(Model):
    outcome: CandidateOutcome
    proposal: MemoryMutationProposal
    plan: CommitPlan | None = None


def same_value(a: MemoryRecord, b: MemoryRecord) -> bool:
    if a.structured_value is not None and b.structured_value is not None:
        return a.structured_value == b.structured_value
    return a.content_hash == b.content_hash


def resolve(prepared: Prepared, slot: SlotState, *, commit_id: str) -> Resolution:
    new = prepared.record
    current = [r for r in slot.records if r.status == "active"]
    matched = [r.memory_id for r in current]

    relation: Relation
    if not current:
        relation, operation = "NEW", "add"
    elif any(same_value(r, new) for r in current):
        relation, operation = "DUPLICATE", "no_op"
    else:
        relation, operation = "SUPERSEDES", "update"

    proposal = MemoryMutationProposal(
        operation=operation,
        namespace=new.namespace,
        kind=new.kind,
        key=new.key,
        candidate_content=new.content,
        source_refs=new.source_refs,
        matched_memory_ids=matched,
        conflict_type=relation,
        confidence=new.confidence,
        reason_code="duplicate" if relation == "DUPLICATE" else relation.lower(),
    )
    if operation == "no_op":
        outcome = CandidateOutcome(
            decision="no_op",
            relation=relation,
            reason="duplicate",
            key=new.key,
            value=new.structured_value,
            matched_memory_ids=matched,
        )
        return Resolution(outcome=outcome, proposal=proposal)

    changes = [
        RecordChange(
            memory_id=r.memory_id,
            expected_version=r.version,
            status="superseded",
            valid_to=new.valid_from,
            conflict_group=r.conflict_group,
            change=f"superseded_by:{new.memory_id}",
        )
        for r in current
    ]
    outcome = CandidateOutcome(
        decision=operation,
        relation=relation,
        key=new.key,
        value=new.structured_value,
        memory_id=new.memory_id,
        version=new.version,
        matched_memory_ids=matched,
    )
    audit = [
        AuditEvent(
            stage="policy_decision",
            outcome="commit",
            decision=operation,
            relation=relation,
            reason_code=proposal.reason_code,
            memory_id=new.memory_id,
            memory_version=new.version,
            principal=prepared.principal.ref,
            extractor=new.extractor,
            details={"matched": matched, "content_hash": new.content_hash},
        )
    ]
    plan = CommitPlan(
        commit_id=commit_id,
        tenant_id=new.tenant_id,
        namespace=new.namespace,
        slot=prepared.slot,
        expected_slot_version=slot.version,
        at=prepared.at,
        workflow_id=prepared.workflow_id,
        new_records=[new],
        changes=changes,
        audit=audit,
    )
    return Resolution(outcome=outcome, proposal=proposal, plan=plan)
