"""Activities of PromoteMemory: plan and stage the promotion (the copy, or the review it waits
for); the commit is the shared `memory.commit_staged`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.promotions import StagedPromotion, StagePromotionInput

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.promotions import PromotionService


class PromotionActivities:
    def __init__(self, promotions: PromotionService) -> None:
        self.promotions = promotions

    def activities(self) -> list[Callable[..., Any]]:
        return [self.stage_promotion]

    @activity.defn(name="memory.stage_promotion")
    @typed_errors
    def stage_promotion(self, inp: StagePromotionInput) -> StagedPromotion:
        return self.promotions.stage(inp)
