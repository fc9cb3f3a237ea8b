"""SummarizeThread: load a message range → summarise → verify (fall back to the extractive
summarizer, recording why) → stage the plan → commit the new version with lineage by id →
project. The result carries ids and ranges; the text is read from the summary itself.

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
    from memory.summary import StagedSummary, SummarizeRequest, SummaryResult
    from workflows import decide_and_commit, parse_input, run_local, run_task

#: Summary runs from this patch on plan and commit as regular activities.
PATCH = "summary-as-activities"
#: ... and from this one on stage the plan and commit it by id (no summary text in history).
BY_REFERENCE = "summary-by-reference"


@workflow.defn(name="SummarizeThread")
class SummarizeThread:
    @workflow.run
    async def run(self, raw: SummarizeRequest | dict[str, Any]) -> SummaryResult:
        request = parse_input(SummarizeRequest, raw)
        info = workflow.info()
        memory_id = "mem_" + workflow.uuid4().hex
        now = workflow.now()
        regular = workflow.patched(PATCH)
        by_reference = regular and workflow.patched(BY_REFERENCE)

        async def planned(attempt: int) -> Any:
            inp = PlanSummaryInput(
                request=request,
                workflow_id=info.workflow_id,
                memory_id=memory_id,
                commit_id=f"{info.workflow_id}/{info.run_id}#{attempt}",
                now=now,
            )
            if by_reference:
                return await run_task(SummaryActivities.stage_summary, inp)
            run = run_task if regular else run_local
            return await run(SummaryActivities.plan_summary, inp)

        async def committed(plan: Any, _: int) -> Any:
            if isinstance(plan, StagedSummary):
                if plan.commit is None:
                    return None  # nothing new to summarise
                return await run_task(WriteActivities.commit_staged, plan.commit)
            if plan.plan is None:
                return None  # nothing new to summarise
            if regular:
                return await run_task(WriteActivities.commit, plan.plan)
            return await run_local(SummaryActivities.commit_summary, plan.plan)

        plan, _ = await decide_and_commit(planned, committed)
        if isinstance(plan, StagedSummary):
            # Ids and ranges only: the caller reads the text from the committed summary.
            return SummaryResult(
                workflow_id=info.workflow_id,
                memory_id=plan.memory_id,
                summary_version=plan.summary_version,
                source_range=plan.source_range,
                fallback_reason=plan.fallback_reason if plan.commit else None,
                unchanged=plan.commit is None,
            )
        return SummaryResult(
            workflow_id=info.workflow_id,
            memory_id=plan.memory_id,
            summary_version=plan.summary_version,
            source_range=plan.source_range,
            content=plan.plan.new_records[0].content if plan.plan else None,
            fallback_reason=plan.fallback_reason if plan.plan else None,
            unchanged=plan.plan is None,
        )
