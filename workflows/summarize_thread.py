"""SummarizeThread: load a message range → summarise → verify (fall back to the extractive
summarizer, recording why) → commit the new version with lineage → project.

The id is `summarize/{tenant}/{thread}`: a request while one runs attaches to it. Summarising
again makes a new version that supersedes the previous one; without a range it covers what was
said since the last summary and carries the earlier claims over.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.summary import PlanSummaryInput, SummaryActivities
    from memory.summary import SummarizeRequest, SummaryResult
    from workflows import (
        ACTIVITY_FAILURES,
        LOCAL_RETRY,
        LOCAL_TIMEOUT,
        error_type,
        parse_input,
        reraise_typed,
    )

MAX_ATTEMPTS = 5


@workflow.defn(name="SummarizeThread")
class SummarizeThread:
    @workflow.run
    async def run(self, raw: SummarizeRequest | dict[str, Any]) -> SummaryResult:
        request = parse_input(SummarizeRequest, raw)
        workflow_id = workflow.info().workflow_id
        memory_id = "mem_" + workflow.uuid4().hex
        now = workflow.now()
        for attempt in range(MAX_ATTEMPTS):
            try:
                planned = await workflow.execute_local_activity_method(
                    SummaryActivities.plan_summary,
                    PlanSummaryInput(
                        request=request,
                        workflow_id=workflow_id,
                        memory_id=memory_id,
                        commit_id=f"{workflow_id}/{workflow.info().run_id}#{attempt}",
                        now=now,
                    ),
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
            except ACTIVITY_FAILURES as exc:
                raise reraise_typed(exc) from exc
            if planned.plan is None:
                return SummaryResult(
                    workflow_id=workflow_id,
                    memory_id=planned.memory_id,
                    summary_version=planned.summary_version,
                    source_range=planned.source_range,
                    unchanged=True,
                )
            try:
                await workflow.execute_local_activity_method(
                    SummaryActivities.commit_summary,
                    planned.plan,
                    start_to_close_timeout=LOCAL_TIMEOUT,
                    retry_policy=LOCAL_RETRY,
                )
            except ACTIVITY_FAILURES as exc:
                if error_type(exc) != "VersionConflict":
                    raise reraise_typed(exc) from exc
                continue  # another summary landed meanwhile: plan again on top of it
            return SummaryResult(
                workflow_id=workflow_id,
                memory_id=planned.memory_id,
                summary_version=planned.summary_version,
                source_range=planned.source_range,
                content=planned.plan.new_records[0].content,
                fallback_reason=planned.fallback_reason,
            )
        raise ApplicationError(
            "the thread's summary kept changing; gave up",
            type="VersionConflict",
            non_retryable=True,
        )
