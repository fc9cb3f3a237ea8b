"""Activities of WriteMemory and WriteBatch, and the commit every workflow's plan goes through.

The hot path of a write is two local activities: `stage_write` (the run's admission, when it is
the run's first step, then the whole pipeline; for an observe it first keeps the message,
idempotently; the plan is staged in the canonical store and only its id returns) and
`commit_staged` (one canonical transaction with its outbox, audit,
reviews and outcome, then the projection at once). Reviews and summaries stage their plans too
and commit them through `commit_staged`. `write_batch` decides and commits many writes,
heartbeating.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities import heartbeat
from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.admission import AdmitInput, Admitted
from governed_memory.memory.contracts.writes import BatchInput, StagedWrite, StageInput
from governed_memory.memory.models import BatchResult
from governed_memory.memory.plans import CommitRef, CommitResult

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.writes import WriteService


class WriteActivities:
    def __init__(self, writes: WriteService, admit: Callable[[AdmitInput], Admitted]) -> None:
        self.writes = writes
        #: Admits the asking run (`AdmissionActivities.admit_here`).
        self.admit = admit

    def activities(self) -> list[Callable[..., Any]]:
        return [self.write_batch, self.stage_write, self.commit_staged]

    @activity.defn(name="memory.stage_write")
    @typed_errors
    def stage_write(self, inp: StageInput) -> StagedWrite:
        if inp.admit is not None:
            self.admit(inp.admit)
        return self.writes.stage(inp)

    @activity.defn(name="memory.commit_staged")
    @typed_errors
    def commit_staged(self, ref: CommitRef) -> CommitResult:
        return self.writes.commit_staged(ref)

    @activity.defn(name="memory.write_batch")
    @typed_errors
    def write_batch(self, inp: BatchInput) -> BatchResult:
        return self.writes.batch(inp, heartbeat)
