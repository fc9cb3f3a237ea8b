"""SummarizeThread: load a message range → summarise → verify (fall back to the extractive
summarizer, recording why) → commit the new version with lineage → project.

The id is `summarize/{tenant}/{thread}`: a request while one runs attaches to it. Summarising
again makes a new version that supersedes the previous one; without a range it covers what was
said since the last summary and carries the earlier claims over. A summary that landed meanwhile
makes this one plan again on top of it (`decide_and_commit`).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.summary import SummaryActivities
    from activities.write import WriteActivities
    from memory.services.summaries import PlanSummaryInput
    from memory.summary import SummarizeRequest, SummaryPlan, SummaryResult
    from workflows import decide_and_commit, parse_input, run_local, run_task

#: Summary runs from this patch on plan and commit as regular activities.
PATCH = "summary-as-activities"


@workflow.defn(name="SummarizeThread")
class SummarizeThread:
    @workflow.run
    async def run(self, raw: SummarizeRequest | dict[str, Any]) -> SummaryResult:
        request = parse_input(SummarizeRequest, raw)
        info = workflow.info()
        memory_id = "mem_" + workflow.uuid4().hex
        now = workflow.now()
        regular = workflow.patched(PATCH)

        async def planned(attempt: int) -> SummaryPlan:
            inp = PlanSummaryInput(
                request=request,
                workflow_id=info.workflow_id,
                memory_id=memory_id,
                commit_id=f"{info.workflow_id}/{info.run_id}#{attempt}",
                now=now,
            )
            run = run_task if regular else run_local
            plan: SummaryPlan = await run(SummaryActivities.plan_summary, inp)
            return plan

        async def committed(plan: SummaryPlan, _: int) -> Any:
            if plan.plan is None:
                return None  # nothing new to summarise
            if regular:
                return await run_task(WriteActivities.commit, plan.plan)
            return await run_local(SummaryActivities.commit_summary, plan.plan)

        plan, _ = await decide_and_commit(planned, committed)
        return SummaryResult(
            workflow_id=info.workflow_id,
            memory_id=plan.memory_id,
            summary_version=plan.summary_version,
            source_range=plan.source_range,
            content=plan.plan.new_records[0].content if plan.plan else None,
            fallback_reason=plan.fallback_reason if plan.plan else None,
            unchanged=plan.plan is None,
        )
