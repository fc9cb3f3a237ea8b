"""feedback"""

from __future__ import annotations

from typing import Literal

from governed_memory.memory.feedback import FeedbackStart
from governed_memory.memory.models import Model

RunOutcome = Literal["success", "failure"]


class RecordInput(Model):
    """A RecordFeedback run's input (without its grant), its id, and the principal its
    admission proved."""

    start: FeedbackStart
    workflow_id: str
    principal: str


class RetireInput(Model):
    """After a corrected write: the event, its run, and the memory the write kept."""

    event_id: str
    workflow_id: str
    replaced_by: str
