"""promotions"""

from __future__ import annotations

from datetime import datetime

from governed_memory.memory.models import Model, PromoteRequest, PromotionResult, ReviewStart
from governed_memory.memory.plans import CommitRef


class StagePromotionInput(Model):
    request: PromoteRequest
    workflow_id: str
    #: The run's seed (`workflow.uuid4`): the copy's and the review's ids are keyed hashes of it.
    seed: str
    commit_id: str
    now: datetime


class StagedPromotion(Model):
    """A promotion planned and staged: ids only (the plan waits in the canonical store under
    `commit.commit_id`; none when nothing changes), what the requester is told, and the review
    run to start (with its grant) when it waits for one."""

    commit: CommitRef | None
    result: PromotionResult
    review: ReviewStart | None = None
