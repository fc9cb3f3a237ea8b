"""The activity every workflow runs first: its admission (memory.services.admission)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.admission import AdmitInput, Admitted, ContinueInput
from governed_memory.memory.errors import Unauthenticated

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.admission import Admission


class AdmissionActivities:
    def __init__(
        self, admission: Admission, vouch: Callable[[str], None] = lambda _run_id: None
    ) -> None:
        self.admission = admission
        #: Told each run admitted here (`activities.callers.ServiceCallersOnly.vouch`).
        self.vouch = vouch

    def activities(self) -> list[Callable[..., Any]]:
        return [self.admit, self.continuation]

    @activity.defn(name="memory.admit")
    @typed_errors
    def admit(self, inp: AdmitInput) -> Admitted:
        return self.admit_here(inp)

    def admit_here(self, inp: AdmitInput) -> Admitted:
        """Admit the asking run, from one of its local activities (`memory.admit`, or a first
        step that admits before it acts: `memory.write`)."""
        _own_run(inp.operation, inp.workflow_id)
        admitted = self.admission.admit(inp)
        run_id = activity.info().workflow_run_id if activity.in_activity() else None
        if run_id:
            self.vouch(run_id)
        return admitted

    @activity.defn(name="memory.continuation")
    @typed_errors
    def continuation(self, inp: ContinueInput) -> str:
        _own_run(inp.operation, inp.workflow_id)
        return self.admission.continuation(inp)


def _own_run(operation: str, workflow_id: str) -> None:
    """Admission runs only as a local activity (so only for a run this worker's own workflow
    code runs: no stranger's workflow can schedule it) and only for the asking run itself."""
    if not activity.in_activity():
        return  # called directly (tests): the caller is the service
    info = activity.info()
    if not info.is_local:
        raise Unauthenticated("admission runs inside the service's own runs only", field="grant")
    if (info.workflow_type, info.workflow_id) != (operation, workflow_id):
        raise Unauthenticated("an admission is for the asking run only", field="grant")
