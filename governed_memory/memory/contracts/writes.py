"""writes"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from governed_memory.memory.contracts.admission import AdmitInput
from governed_memory.memory.models import CandidateOutcome, Model, ReviewStart, WriteRequest
from governed_memory.memory.plans import CommitRef


class DecideInput(Model):
    request: WriteRequest
    workflow_id: str
    #: The run's seed (`workflow.uuid4`): the ids of this write are keyed hashes of it.
    seed: str
    now: datetime
    #: The write's place in its batch (a write a batch lost to a race, decided again by the
    #: workflow, keeps the ids and message id the batch gave it).
    index: int | None = None


class StageInput(Model):
    decide: DecideInput
    #: The commit this decision is for (one per decision of the run): the staged plan's id.
    commit_id: str
    #: The run's admission, when staging is its first step (WriteMemory): verified in the same
    #: local activity before anything is read or decided, so a refused run changes nothing.
    admit: AdmitInput | None = None


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
