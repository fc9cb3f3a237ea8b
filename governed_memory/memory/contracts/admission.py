"""admission"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from governed_memory.memory.models import Model

#: The workflows that continue as new (each continuation is granted afresh).
CONTINUING = frozenset({"ExpireMemories", "RepairProjections"})


class AdmitInput(Model):
    """What a run (or an Update) presents: who it is (from Temporal, not from its input), the
    digest of its input and its grant, and whom its input names."""

    #: The workflow type, or `Workflow.update` for an Update.
    operation: str
    workflow_id: str
    #: The run (for an Update: the run it is sent to): a grant admits one run only.
    run_id: str
    #: When Temporal accepted the run (for an Update: when the workflow received it).
    started_at: datetime
    digest: str
    grant: str | None = Field(default=None, repr=False)
    #: The principals the input names (a write's writer; every writer of a batch; none for a
    #: sweep): each must be the grant's, unless the service granted the run itself.
    principals: list[str] = Field(default_factory=list)
    #: The tenant the input is about, if it names one.
    tenant: str | None = None
    #: How Temporal runs it: a run the service starts is never retried nor repeated by
    #: Temporal (a grant is for one run; a retry policy or a cron schedule on a raw start
    #: would make one grant admit many).
    attempt: int = 1
    cron_schedule: str | None = None


class Admitted(Model):
    principal: str
    tenant: str


class ContinueInput(Model):
    """A run about to continue as new: the input its next run starts with (its digest)."""

    operation: str
    workflow_id: str
    digest: str


#: What a worker that requires encryption reads in place of a payload that came in plaintext: a
#: run started with it fails its admission (`workflows.parse_input`).
PLAINTEXT_REFUSED = "__plaintext_refused__"


def digest_of(request: BaseModel | dict[str, Any]) -> str:
    """The digest a grant binds: the request's JSON (keys sorted, every field but `grant`)."""
    body = (
        request.model_dump(mode="json", exclude={"grant"})
        if isinstance(request, BaseModel)
        else {k: v for k, v in request.items() if k != "grant"}
    )
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
