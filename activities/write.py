"""Activities of WriteMemory and WriteBatch, and the commit every workflow's plan goes through.

The hot path of a write is two local activities: `stage_write` (the whole pipeline; for an
observe it first keeps the message, idempotently; the plan is staged in the canonical store and
only its id returns) and `commit_staged` (one canonical transaction with its outbox, audit,
reviews and outcome, then the projection at once). `decide_write` and `commit_write` carried the
whole decision through history; runs recorded before replay on them. `write_batch` decides
and commits many writes, heartbeating.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities import heartbeat
from activities.failures import typed_errors
from memory.plans import CommitPlan, CommitRef, CommitResult
from memory.services.writes import BatchInput, DecideInput, StagedWrite, StageInput, Writes
from memory.write.batch import BatchResult
from memory.write.pipeline import WriteDecision


class WriteActivities:
    def __init__(self, writes: Writes) -> None:
        self.writes = writes

    def activities(self) -> list[Callable[..., Any]]:
        return [
            self.decide_write,
            self.commit_write,
            self.commit,
            self.write_batch,
            self.stage_write,
            self.commit_staged,
        ]

    @activity.defn(name="memory.decide_write")
    @typed_errors
    def decide_write(self, inp: DecideInput) -> WriteDecision:
        return self.writes.decide(inp)

    @activity.defn(name="memory.commit_write")
    @typed_errors
    def commit_write(self, plan: CommitPlan) -> CommitResult:
        return self.writes.commit(plan)

    @activity.defn(name="memory.stage_write")
    @typed_errors
    def stage_write(self, inp: StageInput) -> StagedWrite:
        return self.writes.stage(inp)

    @activity.defn(name="memory.commit_staged")
    @typed_errors
    def commit_staged(self, ref: CommitRef) -> CommitResult:
        return self.writes.commit_staged(ref)

    @activity.defn(name="memory.commit")
    @typed_errors
    def commit(self, plan: CommitPlan) -> CommitResult:
        """Any plan (a summary, a review) as a regular activity."""
        return self.writes.commit(plan)

    @activity.defn(name="memory.write_batch")
    @typed_errors
    def write_batch(self, inp: BatchInput) -> BatchResult:
        return self.writes.batch(inp, heartbeat)
