"""Activities of WriteMemory and WriteBatch, and the commit every staged plan goes through.

The hot path of a write is one local activity, `write`: the run's admission, when it is the
run's first step, then the whole pipeline (for an observe it first keeps the message,
idempotently) and the commit — one canonical transaction with its outbox, audit, reviews and
outcome — then the projection at once. What returns is ids and decisions. Reviews, summaries
and promotions stage their plans in the canonical store (a person or a timer decides between
their steps) and commit them through `commit_staged`. `write_batch` decides and commits many
writes, heartbeating.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities import heartbeat
from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.admission import AdmitInput, Admitted
from governed_memory.memory.contracts.writes import BatchInput, CommittedWrite, WriteInput
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
        return [self.write_batch, self.write, self.commit_staged]

    @activity.defn(name="memory.write")
    @typed_errors
    def write(self, inp: WriteInput) -> CommittedWrite:
        if inp.admit is not None:
            self.admit(inp.admit)
        return self.writes.write(inp)

    @activity.defn(name="memory.commit_staged")
    @typed_errors
    def commit_staged(self, ref: CommitRef) -> CommitResult:
        return self.writes.commit_staged(ref)

    @activity.defn(name="memory.write_batch")
    @typed_errors
    def write_batch(self, inp: BatchInput) -> BatchResult:
        return self.writes.batch(inp, heartbeat)
