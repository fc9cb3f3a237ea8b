"""The activity every workflow runs first: its admission (memory.services.admission)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.failures import typed_errors
from memory.errors import Unauthenticated
from memory.services.admission import Admission, AdmitInput, Admitted, ContinueInput


class AdmissionActivities:
    def __init__(self, admission: Admission) -> None:
        self.admission = admission

    def activities(self) -> list[Callable[..., Any]]:
        return [self.admit, self.continuation]

    @activity.defn(name="memory.admit")
    @typed_errors
    def admit(self, inp: AdmitInput) -> Admitted:
        if activity.in_activity():
            # Which run asks is Temporal's to say: the workflow's own account must agree.
            info = activity.info()
            if (info.workflow_type, info.workflow_id) != (inp.operation, inp.workflow_id):
                raise Unauthenticated("the admission names another run", field="grant")
        return self.admission.admit(inp)

    @activity.defn(name="memory.continuation")
    @typed_errors
    def continuation(self, inp: ContinueInput) -> str:
        if activity.in_activity():
            # Only for the asking run's own type and id.
            info = activity.info()
            if (info.workflow_type, info.workflow_id) != (inp.operation, inp.workflow_id):
                raise Unauthenticated("a continuation is for the asking run only", field="grant")
        return self.admission.continuation(inp)
