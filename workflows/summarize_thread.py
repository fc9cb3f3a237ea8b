"""SummarizeThread: admit → load a message range → summarise → verify (fall back to the
extractive summarizer, recording why) → stage the plan → commit the new version with lineage by id
→ project. The result carries ids and ranges; the text is read from the summary itself.

The id is `summarize/{tenant}/{keyed hash of the thread}`: a request while one runs attaches to
it. Summarising again makes a new version that supersedes the previous one; without a range it
covers what was said since the last summary and carries the earlier claims over. A summary that
landed meanwhile makes this one plan again on top of it (`decide_and_commit`).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from governed_memory.activities.summary import SummaryActivities
    from governed_memory.activities.write import WriteActivities
    from governed_memory.memory.contracts.summaries import PlanSummaryInput, StagedSummary
    from governed_memory.memory.models import SummarizeRequest, SummaryResult
    from governed_memory.workflows import admit, decide_and_commit, parse_input, run_task


@workflow.defn(name="SummarizeThread")
class SummarizeThread:
    @workflow.run
    async def run(self, raw: SummarizeRequest | dict[str, Any]) -> SummaryResult:
        request = parse_input(SummarizeRequest, raw)
        await admit(request, principals=[request.principal], tenant=request.tenant)
        request = request.model_copy(update={"grant": None})
        info = workflow.info()
        seed = workflow.uuid4().hex
        now = workflow.now()

        async def planned(attempt: int) -> StagedSummary:
            staged: StagedSummary = await run_task(
                SummaryActivities.stage_summary,
                PlanSummaryInput(
                    request=request,
                    workflow_id=info.workflow_id,
                    seed=seed,
                    commit_id=f"{info.workflow_id}/{info.run_id}#{attempt}",
                    now=now,
                ),
            )
            return staged

        async def committed(plan: StagedSummary, _: int) -> Any:
            if plan.commit is None:
                return None  # nothing new to summarise
            return await run_task(WriteActivities.commit_staged, plan.commit)

        plan, _ = await decide_and_commit(planned, committed)
        # Ids and ranges only: the caller reads the text from the committed summary.
        return SummaryResult(
            workflow_id=info.workflow_id,
            memory_id=plan.memory_id,
            summary_version=plan.summary_version,
            source_range=plan.source_range,
            fallback_reason=plan.fallback_reason if plan.commit else None,
            unchanged=plan.commit is None,
        )
