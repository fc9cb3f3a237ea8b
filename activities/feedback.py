"""Activities of RecordFeedback: record the event with its effect (and the grants of what it
starts), and end a corrected memory without a key once its correction is kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.feedback import RecordInput, RetireInput
from governed_memory.memory.feedback import FeedbackRecorded

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.feedback import FeedbackService


class FeedbackActivities:
    def __init__(self, feedback: FeedbackService) -> None:
        self.feedback = feedback

    def activities(self) -> list[Callable[..., Any]]:
        return [self.record_feedback, self.retire_corrected]

    @activity.defn(name="memory.record_feedback")
    @typed_errors
    def record_feedback(self, inp: RecordInput) -> FeedbackRecorded:
        return self.feedback.record_run(inp)

    @activity.defn(name="memory.retire_corrected")
    @typed_errors
    def retire_corrected(self, inp: RetireInput) -> bool:
        return self.feedback.retire(inp)
