"""PromoteMemory's input and output: one memory, by id, copied into a shared namespace."""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, Field, field_validator

from governed_memory.memory.models.base import Model, Stored
from governed_memory.memory.namespaces import check_tenant, parse_namespace

#: `promoted`: the copy is in the target namespace; `pending_review`: it waits for a reviewer;
#: `unchanged`: the target namespace says it already (the copy made before, or its own memory).
PromotionStatus = Literal["promoted", "pending_review", "unchanged"]


class PromoteRequest(Stored):
    """Input of the PromoteMemory workflow: copy the memory `memory_id` into `target_namespace`.
    A request, never a fact: the run reads the memory by id and decides by the policy's
    `[promotion]` rules and the requester's grants as the canonical store holds them."""

    principal: str
    tenant: str
    memory_id: str = Field(min_length=1, max_length=128)
    target_namespace: str
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, v: str) -> str:
        return check_tenant(v)

    @field_validator("target_namespace")
    @classmethod
    def _namespace(cls, v: str) -> str:
        parse_namespace(v)
        return v


class PromotionResult(Model):
    """What a promotion did (ids only: the copy's words are the source's)."""

    workflow_id: str
    """The id of the promotion's workflow run."""
    status: PromotionStatus
    """`promoted` (the copy is in the target namespace), `pending_review` (it waits for a reviewer
    of the target namespace: answer `review_id` through the reviews API) or `unchanged` (the target
    namespace says it already)."""
    source_id: str
    """The memory promoted."""
    source_version: int
    """The version of it that was (or will be) copied."""
    target_namespace: str
    """The namespace it is promoted into."""
    memory_id: str | None = None
    """The copy in the target namespace (for `unchanged`, the memory there that says it already);
    null while a review is pending."""
    review_id: str | None = None
    """The review the promotion waits for (`pending_review`); null otherwise."""
