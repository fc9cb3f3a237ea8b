"""Activities of the DeleteSubject workflow: resolve and authorize, erase, verify, receipt."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from temporalio import activity

from activities import typed_errors
from memory.deletion import authorize, resolve_scope, verify_erased
from memory.errors import PolicyRefusal
from memory.models import AuditEvent, DeleteRequest, DeletionReceipt, Model, ProbeResult
from memory.settings import Settings
from memory.stores import Stores
from memory.stores.canonical import EraseResult
from memory.write.stages import effective_time


class StartDeletionInput(Model):
    request: DeleteRequest
    deletion_id: str
    workflow_id: str
    now: datetime


class StartedDeletion(Model):
    receipt: DeletionReceipt
    memory_ids: list[str]
    at: datetime


class EraseInput(Model):
    deletion_id: str
    memory_ids: list[str]
    at: datetime


class VerifyInput(Model):
    deletion_id: str
    principal: str
    memory_ids: list[str]
    at: datetime


class DeletionActivities:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def activities(self) -> list[Callable[..., Any]]:
        return [self.start_deletion, self.erase_memories, self.verify_deletion, self.save_receipt]

    @activity.defn(name="memory.start_deletion")
    @typed_errors
    def start_deletion(self, inp: StartDeletionInput) -> StartedDeletion:
        """Resolve the scope, authorize it (all or nothing) and persist a pending receipt."""
        request = inp.request
        canonical = self.stores.canonical
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = canonical.get_principal(request.principal)
        records = resolve_scope(self.stores, request.tenant, request.scope)
        try:
            authorize(principal, request.tenant, request.scope, records)
        except PolicyRefusal as refusal:
            canonical.record_audit(
                request.tenant,
                request.scope.namespace,
                inp.workflow_id,
                [
                    AuditEvent(
                        stage="delete_authorize",
                        outcome="refused",
                        decision="reject",
                        reason_code=refusal.code,
                        principal=principal.ref,
                        details={"scope": request.scope.describe(), "message": refusal.message},
                    )
                ],
                at,
            )
            raise
        receipt = DeletionReceipt(
            deletion_id=inp.deletion_id,
            tenant_id=request.tenant,
            subject_ref=request.scope.describe(),
            scope=request.scope,
            requested_by=principal.ref,
            requested_at=at,
            indexes_removed=list(self.stores.projection.indexes),
            backup_retention_deadline=at + self.stores.policy.backup.retention,
            workflow_id=inp.workflow_id,
        )
        canonical.save_receipt(receipt, at)
        return StartedDeletion(receipt=receipt, memory_ids=[r.memory_id for r in records], at=at)

    @activity.defn(name="memory.erase_memories")
    @typed_errors
    def erase_memories(self, inp: EraseInput) -> EraseResult:
        return self.stores.canonical.erase(inp.deletion_id, inp.memory_ids, inp.at)

    @activity.defn(name="memory.verify_deletion")
    @typed_errors
    def verify_deletion(self, inp: VerifyInput) -> list[ProbeResult]:
        principal = self.stores.canonical.get_principal(inp.principal)
        probes = self.stores.canonical.probes(inp.deletion_id)
        return verify_erased(
            self.stores,
            principal=principal,
            memory_ids=inp.memory_ids,
            probes=probes,
            at=inp.at,
        )

    @activity.defn(name="memory.save_receipt")
    @typed_errors
    def save_receipt(self, receipt: DeletionReceipt) -> None:
        self.stores.canonical.save_receipt(receipt, receipt.completed_at or receipt.requested_at)
        if receipt.verification_status == "passed":
            # Probe material (the erased text) is kept only as long as verification needs it.
            self.stores.canonical.drop_probes(receipt.deletion_id)
