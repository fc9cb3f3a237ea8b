"""PromoteMemory: admit → read the memory by id and decide by the policy's `[promotion]` rules and
the requester's grants, then stage the plan → commit it by id (the copy with its lineage, or the
review it waits for) → project → open the review, if any. History carries ids only: the copy's
words are read from the canonical store by the commit.

The id is `promote/{tenant}/{keyed hash of the requester, the memory and the target}`: the same
request while one runs attaches to it; asked again later, it finds the copy made (`unchanged`) or
the review still open. A promotion that waits for a reviewer returns at once (`pending_review`);
the ReviewMemory child (its `review` Update, answered through the reviews API) makes the copy once
a reviewer of the target namespace approves it, and nothing if it is rejected or times out. A
memory changed or deleted between the decision and the commit makes it decide again
(`decide_and_commit`): a copy never outlives what it copies.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.projection import ProjectionActivities
    from governed_memory.activities.promotion import PromotionActivities
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.contracts.projections import ProjectInput
    from governed_memory.memory.contracts.promotions import StagedPromotion, StagePromotionInput
    from governed_memory.memory.models import PromoteRequest, PromotionResult
    from governed_memory.memory.plans import CommitResult
    from governed_memory.workflows import (
        admit,
        decide_and_commit,
        parse_input,
        record_outcome,
        run_local,
    )
    from governed_memory.workflows.review_memory import open_reviews


@workflow.defn(name="PromoteMemory")
class PromoteMemory:
    @workflow.run
    async def run(self, raw: PromoteRequest | dict[str, Any]) -> PromotionResult:
        request = parse_input(PromoteRequest, raw)
        await admit(request, principals=[request.principal], tenant=request.tenant)
        request = request.model_copy(update={"grant": None})
        info = workflow.info()
        seed = workflow.uuid4().hex
        now = workflow.now()

        async def planned(attempt: int) -> StagedPromotion:
            staged: StagedPromotion = await run_local(
                PromotionActivities.stage_promotion,
                StagePromotionInput(
                    request=request,
                    workflow_id=info.workflow_id,
                    seed=seed,
                    commit_id=f"{info.workflow_id}/{info.run_id}#{attempt}",
                    now=now,
                ),
            )
            return staged

        async def committed(plan: StagedPromotion, _: int) -> CommitResult | None:
            if plan.commit is None:
                return None  # nothing changes: the target says it already, or a review waits
            result: CommitResult = await run_local(WriteActivities.commit_staged, plan.commit)
            return result

        plan, commit = await decide_and_commit(planned, committed)
        if commit is not None and commit.written and not commit.projected:
            try:
                await run_local(
                    ProjectionActivities.project_memories,
                    ProjectInput(memory_ids=commit.memory_ids, outbox_seqs=commit.outbox_seqs),
                )
            except ApplicationError:
                # The commit stands; the outbox relay or the repair sweep projects it, and
                # reads re-check canonical meanwhile.
                workflow.logger.warning("projection failed after commit; left to the outbox relay")
        if plan.review is not None:
            await open_reviews([plan.review])
        record_outcome(plan.result.status)
        return plan.result
