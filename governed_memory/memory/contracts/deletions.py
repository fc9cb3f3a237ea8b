"""deletions"""

from __future__ import annotations

from datetime import datetime, timedelta

from governed_memory.memory.contracts.admission import AdmitInput
from governed_memory.memory.models import DeleteRequest, DeletionReceipt, Model
from governed_memory.memory.models.deletion import CloseReceiptInput, ResolvedScope


class StartDeletionInput(Model):
    request: DeleteRequest
    #: The run's seed: the deletion id is a keyed hash of it.
    seed: str
    workflow_id: str
    now: datetime


class StartedDeletion(Model):
    receipt: DeletionReceipt
    resolved: ResolvedScope
    generations: dict[str, int]
    at: datetime


class EraseInput(Model):
    deletion_id: str
    resolved: ResolvedScope
    at: datetime


class RepairInput(Model):
    deletion_id: str
    resolved: ResolvedScope
    regenerated: list[str]
    at: datetime


class VerifyInput(Model):
    deletion_id: str
    principal: str
    resolved: ResolvedScope
    generations: dict[str, int]
    at: datetime


class ReceiptTimerInput(Model):
    """CloseDeletionReceipt's first step: its admission, and the run that started it."""

    admission: AdmitInput
    deletion_id: str
    #: The workflow that started this run (None for a run started from outside).
    parent_workflow_id: str | None
    now: datetime


class ReceiptTimer(Model):
    """How long the run waits before the receipt's stored deadline has passed."""

    deadline: datetime
    wait: timedelta


class CloseInput(Model):
    deletion_id: str
    now: datetime


class SavedReceipt(Model):
    """A final receipt, saved; and, when it waits for its backup deadline, the start of the run
    that closes it then (with the grant it is admitted by)."""

    closer_id: str | None = None
    closer: CloseReceiptInput | None = None


class ExpireInput(Model):
    #: Clock override (evaluation and tests only); `now` otherwise.
    at: datetime | None = None
    now: datetime
    limit: int = 500


class ExpireResult(Model):
    expired: list[str]
    namespaces: list[str]
    more: bool
