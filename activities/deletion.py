"""Activities of DeleteSubject, CloseDeletionReceipt and ExpireMemories."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from temporalio import activity

from governed_memory.activities import heartbeat
from governed_memory.activities.failures import typed_errors
from governed_memory.memory.contracts.deletions import (
    CloseInput,
    EraseInput,
    ExpireInput,
    ExpireResult,
    ReceiptTimer,
    ReceiptTimerInput,
    RepairInput,
    SavedReceipt,
    StartDeletionInput,
    StartedDeletion,
    VerifyInput,
)
from governed_memory.memory.models import DeletionReceipt, ProbeResult
from governed_memory.memory.plans import EraseResult

if TYPE_CHECKING:
    # The service is named for typing only: a workflow importing this class loads none of it.
    from governed_memory.memory.services.deletions import DeletionService


class DeletionActivities:
    def __init__(self, deletions: DeletionService) -> None:
        self.deletions = deletions

    def activities(self) -> list[Callable[..., Any]]:
        return [
            self.start_deletion,
            self.erase_scope,
            self.carrying_runs,
            self.regenerate_summaries,
            self.repair_deletion,
            self.verify_deletion,
            self.save_receipt,
            self.receipt_timer,
            self.close_receipt,
            self.expire_memories,
        ]

    @activity.defn(name="memory.start_deletion")
    @typed_errors
    def start_deletion(self, inp: StartDeletionInput) -> StartedDeletion:
        return self.deletions.start(inp)

    @activity.defn(name="memory.erase_scope")
    @typed_errors
    def erase_scope(self, inp: EraseInput) -> EraseResult:
        return self.deletions.erase(inp, heartbeat)

    @activity.defn(name="memory.carrying_runs")
    @typed_errors
    def carrying_runs(self, inp: EraseInput) -> list[str]:
        return self.deletions.carrying_runs(inp)

    @activity.defn(name="memory.regenerate_summaries")
    @typed_errors
    def regenerate_summaries(self, inp: EraseInput) -> list[str]:
        return self.deletions.regenerate(inp, heartbeat)

    @activity.defn(name="memory.repair_deletion")
    @typed_errors
    def repair_deletion(self, inp: RepairInput) -> int:
        return self.deletions.repair(inp, heartbeat)

    @activity.defn(name="memory.verify_deletion")
    @typed_errors
    def verify_deletion(self, inp: VerifyInput) -> list[ProbeResult]:
        return self.deletions.verify(inp, heartbeat)

    @activity.defn(name="memory.save_receipt")
    @typed_errors
    def save_receipt(self, receipt: DeletionReceipt) -> SavedReceipt:
        return self.deletions.save_receipt(receipt)

    @activity.defn(name="memory.receipt_timer")
    @typed_errors
    def receipt_timer(self, inp: ReceiptTimerInput) -> ReceiptTimer:
        return self.deletions.receipt_timer(inp)

    @activity.defn(name="memory.close_receipt")
    @typed_errors
    def close_receipt(self, inp: CloseInput) -> DeletionReceipt:
        return self.deletions.close_receipt(inp)

    @activity.defn(name="memory.expire_memories")
    @typed_errors
    def expire_memories(self, inp: ExpireInput) -> ExpireResult:
        return self.deletions.expire(inp)
