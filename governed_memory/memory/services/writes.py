"""Writes: decide (the whole pipeline), commit with outbox and project, and batches.

The run that asks was admitted already (its grant covers the request: `workflows.admit`). The
ids a write makes (its message, memories, conflict groups, reviews) derive from the run's seed
keyed with the service's secret, so a run id does not give them away; the reviews a write opens
start with a grant the service signs here.
"""

from __future__ import annotations

from governed_memory.memory.contracts.writes import (
    BatchInput,
    CommittedWrite,
    DecideInput,
    WriteInput,
)
from governed_memory.memory.errors import NotFound
from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.models import (
    BatchResult,
    CandidateOutcome,
    ReviewStart,
    without_values,
)
from governed_memory.memory.plans import CommitPlan, CommitRef, CommitResult
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services import Progress, no_progress
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.sync.commit import commit_and_project
from governed_memory.memory.write.batch import batch_message_id, batch_seed, process_batch
from governed_memory.memory.write.decide import decide_request
from governed_memory.memory.write.decision import WriteDecision
from governed_memory.memory.write.extraction import Extractor, RuleExtractor
from governed_memory.memory.write.extraction.model import BatchExtractor, model_extractor


class WriteService:
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        keys: ServiceKeys,
        extractor: Extractor | None = None,
        background_extractor: Extractor | None = None,
    ):
        self.stores = stores
        self.settings = settings
        self.keys = keys
        self.grants = Grants(keys, start_seconds=settings.grant_start_seconds)
        #: The hot path's extractor (a single write, `decide`/`write`): the rules by default.
        self.extractor = extractor or RuleExtractor()
        #: What reads a batch's texts (background ingestion), when not `extractor`: the model
        #: extractor `MEMORY_EXTRACTOR_URL` configures, falling back to `extractor`.
        self.background_extractor = (
            background_extractor
            if background_extractor is not None
            else model_extractor(settings, fallback=self.extractor)
        )

    def _seed(self, seed: str) -> str:
        """The seed of a run's ids, keyed: nobody without the service's key computes them."""
        return self.keys.derive("write-ids", seed)

    def decide(self, inp: DecideInput) -> WriteDecision:
        base = self._seed(inp.seed)
        if inp.index is None:
            seed, message_id = base, f"msg_{base}"
        else:
            seed, message_id = batch_seed(base, inp.index), batch_message_id(base, inp.index)
        return decide_request(
            self.stores,
            inp.request,
            self.extractor,
            workflow_id=inp.workflow_id,
            seed=seed,
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
            message_id=message_id,
        )

    def granted(self, starts: list[ReviewStart]) -> list[ReviewStart]:
        """The review starts of a decision, each with the grant its run is admitted by."""
        return [
            start.model_copy(
                update={
                    "grant": self.grants.issue(
                        "ReviewMemory",
                        start.review.workflow_id,
                        start,
                        SYSTEM,
                        start.review.tenant_id,
                    )
                }
            )
            for start in starts
        ]

    def write(self, inp: WriteInput) -> CommittedWrite:
        """Decide, then commit what was decided (one canonical transaction with its outbox,
        audit, reviews and outcome, then the projection at once): one step, so the plan never
        leaves this process. Run again for the same commit (a retry, a replayed task), the
        idempotency key's stored outcome answers and nothing is committed twice. A commit that
        lost a race raises `VersionConflict`: the workflow decides again under a new commit id."""
        decision = self.decide(inp.decide)
        if decision.replayed is not None:
            return CommittedWrite(
                workflow_id=decision.workflow_id,
                outcomes=without_values(decision.replayed),
                replayed=True,
                reviews=self.granted(self.still_open(decision.replayed)),
            )
        plan = decision.plan(inp.commit_id, inp.decide.request)
        # Everything but the commit first: once committed, a retry of this step finds the
        # idempotency key decided and answers the stored outcome, not these review starts.
        outcomes = without_values(decision.outcomes)
        reviews = self.granted(decision.review_starts())
        return CommittedWrite(
            workflow_id=decision.workflow_id,
            outcomes=outcomes,
            commit=self.commit(plan),
            reviews=reviews,
        )

    def still_open(self, outcomes: list[CandidateOutcome]) -> list[ReviewStart]:
        """The reviews a decision made before opened that are open still, each to be started
        again (a review whose run is under way is left to it: `open_reviews`). The run that
        committed them may have died before it started them: its retry, or any later run of the
        same idempotency key, finds the key decided, and a review with no run would wait
        forever, never answered nor timed out. Each start is the stored review, with the
        memories its write added."""
        added: dict[str, list[str]] = {}
        for o in outcomes:
            if o.review_id is not None:
                added.setdefault(o.review_id, [])
                if o.memory_id is not None:
                    added[o.review_id].append(o.memory_id)
        starts: list[ReviewStart] = []
        for review_id, newcomers in added.items():
            try:
                review = self.stores.canonical.reviews.get(review_id)
            except NotFound:
                continue  # erased with what it was about
            if review.status == "open":
                timeout = self.stores.policy.review.timeout
                starts.append(ReviewStart(review=review, newcomers=newcomers, timeout=timeout))
        return starts

    def commit_staged(self, ref: CommitRef) -> CommitResult:
        """Commit a plan a review or a summary staged (a retry after the commit returns its
        first result: the staged plan went with the commit)."""
        prior = self.stores.canonical.commits.applied(ref.commit_id)
        if prior is not None:
            return prior
        return self.commit(self.stores.canonical.staged.get(ref))

    def commit(self, plan: CommitPlan) -> CommitResult:
        """One canonical transaction (records, outbox, audit, reviews, outcome), then the
        projection at once (left to the relay if it fails)."""
        return commit_and_project(self.stores, plan)

    def batch(self, inp: BatchInput, progress: Progress = no_progress) -> BatchResult:
        extractor: Extractor = self.extractor
        if self.background_extractor is not None:
            # One reader per batch: it heartbeats after each text, keeps the model within the
            # batch's time, and names in each audit the extractor that read the text.
            extractor = BatchExtractor(self.background_extractor, self.extractor, progress)
        result = process_batch(
            self.stores,
            inp.requests,
            extractor,
            workflow_id=inp.workflow_id,
            seed=self._seed(inp.seed),
            now=inp.now,
            allow_override=self.settings.allow_clock_override,
            progress=progress,
        )
        for i, item in enumerate(result.items):
            # decided before (a retried batch, a key another run decided): its open reviews
            # start again, or go on where they run
            if i not in result.starts and any(o.review_id for o in item.outcomes):
                reopened = self.still_open(item.outcomes)
                if reopened:
                    result.starts[i] = reopened
        result.starts = {i: self.granted(starts) for i, starts in result.starts.items()}
        return result
