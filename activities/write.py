"""Activities of the WriteMemory workflow.

On the hot path a propose is two hops: `decide_write` (every pipeline stage; reads only) and
`commit_write` (one canonical transaction with its outbox, then the projection at once); an
observe adds `record_message` in front. `record_decision` audits a decision that commits nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import Field
from temporalio import activity

from activities import typed_errors
from memory.errors import PolicyRefusal
from memory.models import AuditEvent, ConversationMessage, Model, ReviewRecord, WriteRequest
from memory.settings import Settings
from memory.stores import Stores
from memory.stores.canonical import CommitPlan, CommitResult
from memory.write.extraction import Extractor, RuleExtractor
from memory.write.pipeline import WriteDecision, decide
from memory.write.stages import IdSource, check_write_allowed, effective_time
from memory.write.state import StoreView


class RecordMessageInput(Model):
    request: WriteRequest
    message_id: str
    workflow_id: str
    now: datetime


class DecideInput(Model):
    request: WriteRequest
    workflow_id: str
    #: Seed of the deterministic ids of this write (memories, conflict groups, reviews).
    seed: str
    now: datetime
    message: ConversationMessage | None = None


class RecordDecisionInput(Model):
    tenant_id: str
    namespace: str | None
    workflow_id: str
    at: datetime
    events: list[AuditEvent]
    reviews: list[ReviewRecord] = Field(default_factory=list)


class WriteActivities:
    def __init__(self, stores: Stores, settings: Settings, extractor: Extractor | None = None):
        self.stores = stores
        self.settings = settings
        self.extractor = extractor or RuleExtractor()

    def activities(self) -> list[Callable[..., Any]]:
        return [self.record_message, self.decide_write, self.commit_write, self.record_decision]

    def _authorized(self, request: WriteRequest, workflow_id: str, at: datetime) -> Any:
        principal = self.stores.canonical.get_principal(request.principal)
        try:
            check_write_allowed(principal, request.namespace)
        except PolicyRefusal as refusal:
            # A refusal that reached the service is audited before the workflow fails.
            self.stores.canonical.record_audit(
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

    @activity.defn(name="memory.record_message")
    @typed_errors
    def record_message(self, inp: RecordMessageInput) -> ConversationMessage:
        request = inp.request
        assert request.utterance is not None
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = self._authorized(request, inp.workflow_id, at)
        return self.stores.canonical.append_message(
            message_id=inp.message_id,
            tenant_id=principal.tenant,
            namespace=request.namespace,
            thread=request.utterance.thread,
            speaker=principal.ref,
            speaker_type=principal.type,
            text=request.utterance.text,
            at=at,
            workflow_id=inp.workflow_id,
        )

    @activity.defn(name="memory.decide_write")
    @typed_errors
    def decide_write(self, inp: DecideInput) -> WriteDecision:
        request = inp.request
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        principal = self._authorized(request, inp.workflow_id, at)
        return decide(
            request,
            principal,
            self.stores.policy,
            StoreView(self.stores),
            self.extractor,
            workflow_id=inp.workflow_id,
            at=at,
            ids=IdSource(seed=inp.seed),
            message=inp.message,
        )

    @activity.defn(name="memory.commit_write")
    @typed_errors
    def commit_write(self, plan: CommitPlan) -> CommitResult:
        return self.stores.commit_and_project(plan)

    @activity.defn(name="memory.record_decision")
    @typed_errors
    def record_decision(self, inp: RecordDecisionInput) -> None:
        self.stores.canonical.record_audit(
            inp.tenant_id, inp.namespace, inp.workflow_id, inp.events, inp.at, inp.reviews
        )
