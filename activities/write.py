"""Activities of the WriteMemory workflow.

Two hops on the hot path: `decide_write` (validate, normalise and resolve against the slot: reads
only) and `commit_write` (one canonical transaction with its outbox, then the projection at once).
`project_memories` retries a projection that failed right after a commit; the outbox relay is the
backstop behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import structlog
from temporalio import activity

from activities import typed_errors
from memory.errors import PolicyRefusal
from memory.models import AuditEvent, Model, WriteRequest, utcnow
from memory.settings import Settings
from memory.stores import Stores
from memory.stores.canonical import CommitPlan, CommitResult
from memory.stores.projection import project
from memory.write.resolution import Resolution, resolve
from memory.write.stages import Prepared, effective_time, prepare

log = structlog.get_logger("memory.activities.write")


class DecideInput(Model):
    request: WriteRequest
    workflow_id: str
    memory_id: str
    commit_id: str
    now: datetime


class WriteDecision(Model):
    prepared: Prepared
    resolution: Resolution


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
        return [self.decide_write, self.commit_write, self.record_audit]

    @activity.defn(name="memory.decide_write")
    @typed_errors
    def decide_write(self, inp: DecideInput) -> WriteDecision:
        request = inp.request
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = self.stores.canonical.get_principal(request.principal)
        try:
            prepared = prepare(
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
        slot = self.stores.canonical.slot_state(prepared.record.namespace, prepared.slot)
        return WriteDecision(
            prepared=prepared, resolution=resolve(prepared, slot, commit_id=inp.commit_id)
        )

    @activity.defn(name="memory.commit_write")
    @typed_errors
    def commit_write(self, plan: CommitPlan) -> CommitResult:
        result = self.stores.canonical.commit(plan)
        try:
            project(self.stores.canonical, self.stores.projection, result.memory_ids)
            self.stores.canonical.mark_processed(result.outbox_seqs, utcnow())
            result.projected = True
        except Exception as exc:  # the commit stands; the workflow retries the projection
            log.warning("projection after commit failed", commit=plan.commit_id, error=repr(exc))
        return result

    @activity.defn(name="memory.record_audit")
    @typed_errors
    def record_audit(self, inp: AuditInput) -> None:
        self.stores.canonical.record_audit(
            inp.tenant_id, inp.namespace, inp.workflow_id, inp.events, inp.at
        )
