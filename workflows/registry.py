"""Every workflow of the service, by class and by name: what a worker registers, and what the
client starts by typed reference (`WriteMemory.run`, not the string "WriteMemory")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from governed_memory.workflows.delete_subject import CloseDeletionReceipt, DeleteSubject
from governed_memory.workflows.expire_memories import ExpireMemories
from governed_memory.workflows.promote_memory import PromoteMemory
from governed_memory.workflows.record_feedback import RecordFeedback
from governed_memory.workflows.relay_outbox import RelayOutbox
from governed_memory.workflows.repair_projections import RepairProjections
from governed_memory.workflows.review_memory import ReviewMemory
from governed_memory.workflows.summarize_thread import SummarizeThread
from governed_memory.workflows.write_batch import WriteBatch
from governed_memory.workflows.write_memory import WriteMemory

WORKFLOWS: Sequence[type[Any]] = (
    WriteMemory,
    WriteBatch,
    ReviewMemory,
    SummarizeThread,
    PromoteMemory,
    DeleteSubject,
    CloseDeletionReceipt,
    ExpireMemories,
    RelayOutbox,
    RepairProjections,
    RecordFeedback,
)


def name_of(workflow: type[Any]) -> str:
    return str(workflow.__temporal_workflow_definition.name)


#: The run method of each workflow, by its name (what grants and routes say): started by it, a
#: run's result is read as its return annotation says.
RUNS: dict[str, Any] = {name_of(w): w.run for w in WORKFLOWS}
