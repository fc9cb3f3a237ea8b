"""Writes: decide (the whole pipeline), commit with outbox and project, and batches."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from memory.identity import Identity
from memory.models import CandidateOutcome, Model, ReviewStart, WriteRequest, without_values
from memory.plans import CommitPlan, CommitRef, CommitResult
from memory.services import Progress, no_progress
from memory.services.gate import GatedService
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


class StageInput(Model):
    decide: DecideInput
    #: The commit this decision is for (one per decision of the run): the staged plan's id.
    commit_id: str


class StagedWrite(Model):
    """A write decided and staged: what WriteMemory carries in its history (ids, decisions and
    reason codes; no content: the values of the outcomes are left out, the plan waits in the
    canonical store under `commit.commit_id`)."""

    workflow_id: str
    outcomes: list[CandidateOutcome]
    #: Decided before (the idempotency key): nothing to commit.
    replayed: bool = False
    commit: CommitRef | None = None
    reviews: list[ReviewStart] = Field(default_factory=list)


class BatchInput(Model):
    requests: list[WriteRequest]
    workflow_id: str
    seed: str
    now: datetime


class Writes(GatedService):
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        extractor: Extractor | None = None,
        identity: Identity | None = None,
    ):
        super().__init__(stores, settings, identity)
        self.extractor = extractor or RuleExtractor()

    def _admit(self, request: WriteRequest, workflow_id: str, now: datetime) -> None:
        self.gate.admit(
            request.token,
            request.principal,
            tenant=request.tenant,
            namespace=request.namespace,
            workflow_id=workflow_id,
            at=now,
        )

    def decide(self, inp: DecideInput) -> WriteDecision:
        self._admit(inp.request, inp.workflow_id, inp.now)
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

    def stage(self, inp: StageInput) -> StagedWrite:
        """Decide, and stage the plan in the canonical store: the workflow gets its id."""
        decision = self.decide(inp.decide)
        if decision.replayed is not None:
            return StagedWrite(
                workflow_id=decision.workflow_id,
                outcomes=without_values(decision.replayed),
                replayed=True,
            )
        plan = decision.plan(inp.commit_id, inp.decide.request)
        return StagedWrite(
            workflow_id=decision.workflow_id,
            outcomes=without_values(decision.outcomes),
            commit=self.stores.canonical.staged.put(plan, decision.at),
            reviews=decision.review_starts(),
        )

    def commit_staged(self, ref: CommitRef) -> CommitResult:
        """Commit a staged plan (a retry after the commit returns its first result: the staged
        plan went with the commit)."""
        prior = self.stores.canonical.commits.applied(ref.commit_id)
        if prior is not None:
            return prior
        return self.commit(self.stores.canonical.staged.get(ref))

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
            admit=lambda request: self._admit(request, inp.workflow_id, inp.now),
        )
