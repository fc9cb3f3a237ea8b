"""writes"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from governed_memory.memory.contracts.admission import AdmitInput
from governed_memory.memory.models import CandidateOutcome, Model, ReviewStart, WriteRequest
from governed_memory.memory.plans import CommitResult


class DecideInput(Model):
    request: WriteRequest
    workflow_id: str
    #: The run's seed (`workflow.uuid4`): the ids of this write are keyed hashes of it.
    seed: str
    now: datetime
    #: The write's place in its batch (a write a batch lost to a race, decided again by the
    #: workflow, keeps the ids and message id the batch gave it).
    index: int | None = None


class WriteInput(Model):
    decide: DecideInput
    #: The commit this decision is for (one per decision of the run: `{workflow}/{run}#{n}`):
    #: a retry of the step that committed it returns that commit, never a second one.
    commit_id: str
    #: The run's admission, when this is its first step (WriteMemory): verified in the same
    #: local activity before anything is read or decided, so a refused run changes nothing.
    admit: AdmitInput | None = None


class CommittedWrite(Model):
    """A write decided and committed in one step: what WriteMemory carries in its history (ids,
    decisions and reason codes; no content: the values of the outcomes are left out, what was
    said is in the canonical store)."""

    workflow_id: str
    outcomes: list[CandidateOutcome]
    #: Decided before (the idempotency key): nothing committed now.
    replayed: bool = False
    commit: CommitResult | None = None
    reviews: list[ReviewStart] = Field(default_factory=list)


class BatchInput(Model):
    requests: list[WriteRequest]
    workflow_id: str
    seed: str
    now: datetime
