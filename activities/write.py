"""Activities of WriteMemory and WriteBatch.

On the hot path a write is two hops: `decide_write` (the whole pipeline; for an observe it first
keeps the message, idempotently) and `commit_write` (one canonical transaction with its outbox,
audit, reviews and outcome, then the projection at once). `write_batch` does the same for many
requests, sharing transactions and the projection step.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from temporalio import activity

from activities import typed_errors
from memory.models import Model, WriteRequest
from memory.plans import CommitPlan, CommitResult
from memory.settings import Settings
from memory.stores import Stores
from memory.write.batch import BatchResult, decide_request, process_batch
from memory.write.extraction import Extractor, RuleExtractor
from memory.write.pipeline import WriteDecision


class DecideInput(Model):
    request: WriteRequest
    workflow_id: str
    #: Seed of the deterministic ids of this write (memories, conflict groups, reviews, message).
    seed: str
    now: datetime


class BatchInput(Model):
    requests: list[WriteRequest]
    workflow_id: str
    seed: str
    now: datetime


class WriteActivities:
    def __init__(self, stores: Stores, settings: Settings, extractor: Extractor | None = None):
        self.stores = stores
        self.settings = settings
        self.extractor = extractor or RuleExtractor()

    def activities(self) -> list[Callable[..., Any]]:
        return [self.decide_write, self.commit_write, self.write_batch]

    @activity.defn(name="memory.decide_write")
    @typed_errors
    def decide_write(self, inp: DecideInput) -> WriteDecision:
        return decide_request(
            self.stores,
            inp.request,
            self.extractor,
            workflow_id=inp.workflow_id,
            seed=inp.seed,
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
            message_id=f"msg_{inp.seed}",
        )

    @activity.defn(name="memory.commit_write")
    @typed_errors
    def commit_write(self, plan: CommitPlan) -> CommitResult:
        return self.stores.commit_and_project(plan)

    @activity.defn(name="memory.write_batch")
    @typed_errors
    def write_batch(self, inp: BatchInput) -> BatchResult:
        return process_batch(
            self.stores,
            inp.requests,
            self.extractor,
            workflow_id=inp.workflow_id,
            seed=inp.seed,
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
        )
