"""Promotions: plan a memory's promotion into a shared namespace (`memory.promotion`) and stage
it; commits go through `WriteService.commit_staged` like every other staged plan. A refusal is
audited (reason code, ids) and changes nothing else."""

from __future__ import annotations

from governed_memory.memory.contracts.promotions import StagedPromotion, StagePromotionInput
from governed_memory.memory.errors import MemoryServiceError, NotFound, PolicyRefusal
from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.models import AuditEvent, ReviewStart
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.promotion import PromotionPlan, plan_promotion
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.stages import effective_time


class PromotionService:
    """The run asking was admitted already (`workflows.admit`)."""

    def __init__(self, stores: Stores, settings: Settings, keys: ServiceKeys) -> None:
        self.stores = stores
        self.settings = settings
        self.keys = keys
        self.grants = Grants(keys, start_seconds=settings.grant_start_seconds)

    def plan(self, inp: StagePromotionInput) -> PromotionPlan:
        """Plan the promotion (ids keyed from the run's seed); a refusal is audited, then
        raised."""
        request = inp.request
        at = effective_time(request.at, inp.now, self.settings.allow_clock_override)
        try:
            return plan_promotion(
                self.stores,
                request,
                workflow_id=inp.workflow_id,
                copy_id="mem_" + self.keys.derive("promotion-id", inp.seed),
                review_id="rev_" + self.keys.derive("promotion-review", inp.seed),
                at=at,
                commit_id=inp.commit_id,
            )
        except (PolicyRefusal, NotFound) as refusal:
            self._refused(inp, refusal)
            raise

    def _refused(self, inp: StagePromotionInput, refusal: MemoryServiceError) -> None:
        request = inp.request
        target = request.target_namespace
        same_tenant = parse_namespace(target).tenant == request.tenant
        self.stores.canonical.commits.record_audit(
            request.tenant,
            target if same_tenant else None,
            inp.workflow_id,
            [
                AuditEvent(
                    stage="promote",
                    outcome="refused",
                    decision="reject",
                    reason_code=refusal.code,
                    principal=request.principal,
                    details={"source_id": request.memory_id, "field": refusal.field},
                )
            ],
            effective_time(request.at, inp.now, self.settings.allow_clock_override),
        )

    def stage(self, inp: StagePromotionInput) -> StagedPromotion:
        """Plan, and stage the plan in the canonical store: the workflow gets its id, and the
        review run to start (granted by the service) when the promotion waits for one."""
        planned = self.plan(inp)
        plan = planned.plan
        commit = None if plan is None else self.stores.canonical.staged.put(plan, plan.at)
        review = None
        if planned.review is not None:
            start = ReviewStart(review=planned.review, timeout=self.stores.policy.review.timeout)
            grant = self.grants.issue(
                "ReviewMemory", planned.review.workflow_id, start, SYSTEM, planned.review.tenant_id
            )
            review = start.model_copy(update={"grant": grant})
        return StagedPromotion(commit=commit, result=planned.result, review=review)
