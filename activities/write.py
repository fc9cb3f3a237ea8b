"""Activities of the WriteMemory workflow: validate, resolve, commit, audit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from temporalio import activity

from activities import typed_errors
from memory.errors import PolicyRefusal
from memory.models import AuditEvent, Model, WriteRequest
from memory.settings import Settings
from memory.stores import Stores
from memory.stores.canonical import CommitPlan, CommitResult
from memory.write.resolution import Resolution, resolve
from memory.write.stages import Prepared, effective_time, prepare


class PrepareWriteInput(Model):
    request: WriteRequest
    workflow_id: str
    memory_id: str
    now: datetime


class ResolveWriteInput(Model):
    prepared: Prepared
    commit_id: str


class AuditInput(Model):
    tenant_id: str
    namespace: str | None
    workflow_id: str
    at: datetime
    events: list[AuditEvent]


class WriteActivities:
    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def activities(self) -> list[Callable[..., Any]]:
        return [self.prepare_write, self.resolve_write, self.commit_write, self.record_audit]

    @activity.defn(name="memory.prepare_write")
    @typed_errors
    def prepare_write(self, inp: PrepareWriteInput) -> Prepared:
        request = inp.request
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = self.stores.canonical.get_principal(request.principal)
        try:
            return prepare(
                request,
                principal,
                self.stores.policy,
                workflow_id=inp.workflow_id,
                memory_id=inp.memory_id,
                at=at,
            )
        except PolicyRefusal as refusal:
            # A refusal that reached the service is audited before the workflow fails.
            self.stores.canonical.record_audit(
                principal.tenant,
                request.namespace,
                inp.workflow_id,
                [
                    AuditEvent(
                        stage="validate",
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

    @activity.defn(name="memory.resolve_write")
    @typed_errors
    def resolve_write(self, inp: ResolveWriteInput) -> Resolution:
        record = inp.prepared.record
        slot = self.stores.canonical.slot_state(record.namespace, inp.prepared.slot)
        return resolve(inp.prepared, slot, commit_id=inp.commit_id)

    @activity.defn(name="memory.commit_write")
    @typed_errors
    def commit_write(self, plan: CommitPlan) -> CommitResult:
        return self.stores.canonical.commit(plan)

    @activity.defn(name="memory.record_audit")
    @typed_errors
    def record_audit(self, inp: AuditInput) -> None:
        self.stores.canonical.record_audit(
            inp.tenant_id, inp.namespace, inp.workflow_id, inp.events, inp.at
        )
