"""Writes: decide (the whole pipeline), commit with outbox and project, and batches."""

from __future__ import annotations

from datetime import datetime

from memory.models import Model, WriteRequest
from memory.plans import CommitPlan, CommitResult
from memory.services import Progress, no_progress
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
    #: The id its message is kept under (default `msg_{seed}`; a write decided again after a
    #: batch lost its race keeps the id the batch gave it).
    message_id: str | None = None


class BatchInput(Model):
    requests: list[WriteRequest]
    workflow_id: str
    seed: str
    now: datetime


class Writes:
    def __init__(self, stores: Stores, settings: Settings, extractor: Extractor | None = None):
        self.stores = stores
        self.settings = settings
        self.extractor = extractor or RuleExtractor()

    def decide(self, inp: DecideInput) -> WriteDecision:
        return decide_request(
            self.stores,
            inp.request,
            self.extractor,
            workflow_id=inp.workflow_id,
            seed=inp.seed,
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
            message_id=inp.message_id or f"msg_{inp.seed}",
        )

    def commit(self, plan: CommitPlan) -> CommitResult:
        """One canonical transaction (records, outbox, audit, reviews, outcome), then the
        projection at once (left to the relay if it fails)."""
        return self.stores.commit_and_project(plan)

    def batch(self, inp: BatchInput, progress: Progress = no_progress) -> BatchResult:
        return process_batch(
            self.stores,
            inp.requests,
            self.extractor,
            workflow_id=inp.workflow_id,
            seed=inp.seed,
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
            progress=progress,
        )
