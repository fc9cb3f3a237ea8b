"""The context builder's input and output: a request with its token budget, and the package
of labelled, fenced items (each with its provenance and trust) it fills; a package's
validation later."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, Field, model_validator

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import Model
from governed_memory.memory.models.reads import KeyVerdict

Trust = Literal["instruction", "verified", "untrusted"]


class ContextBudget(Model):
    total_tokens: int = Field(gt=0)
    reserved_output_tokens: int = Field(default=0, ge=0)
    instructions_tokens: int | None = Field(default=None, ge=0)
    state_tokens: int | None = Field(default=None, ge=0)
    tool_schema_tokens: int | None = Field(default=None, ge=0)
    evidence_tokens: int | None = Field(default=None, ge=0)
    conversation_tokens: int | None = Field(default=None, ge=0)
    memory_tokens: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _fits(self) -> ContextBudget:
        parts = [
            self.reserved_output_tokens,
            *(
                v
                for v in (
                    self.instructions_tokens,
                    self.state_tokens,
                    self.tool_schema_tokens,
                    self.evidence_tokens,
                    self.conversation_tokens,
                    self.memory_tokens,
                )
                if v is not None
            ),
        ]
        if sum(parts) > self.total_tokens:
            raise InvalidInput(
                f"the budget's reserved parts ({sum(parts)} tokens) exceed total_tokens "
                f"({self.total_tokens})",
                field="budget",
            )
        return self


class ToolFact(Model):
    content: str
    source_refs: list[str] = Field(min_length=1)


class Evidence(Model):
    content: str
    source_refs: list[str] = Field(default_factory=list)


class ContextRequest(Model):
    principal: str
    namespaces: list[str] = Field(min_length=1)
    task: str = Field(min_length=1)
    budget: ContextBudget
    instructions: str | None = None
    agent_state: dict[str, Any] | None = None
    tool_facts: list[ToolFact] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    thread: str | None = None
    tool_schemas: list[dict[str, Any]] = Field(default_factory=list)
    output_contract: str | None = None
    k: int = Field(default=8, gt=0, le=50)
    at: AwareDatetime | None = None
    #: Entities (names, ids, role words) to say what is known about, besides those the task
    #: names.
    entities: list[str] = Field(default_factory=list, max_length=20)


class ContextItem(Model):
    item_id: str
    kind: str
    content: str
    trust: Trust
    source_refs: list[str] = Field(default_factory=list)
    token_estimate: int
    priority: int
    expires_at: datetime | None = None
    content_hash: str
    truncated: bool = False
    omitted: bool = False
    #: The memory (and its version) this item shows, for later validation, and its namespace
    #: (an agent may check it is one it asked for).
    memory_id: str | None = None
    version: int | None = None
    namespace: str | None = None


class PinnedVersion(Model):
    memory_id: str
    version: int


class ContextPackage(Model):
    package_id: str
    principal: str
    namespaces: list[str]
    task: str
    created_at: datetime
    at: datetime
    budget: ContextBudget
    items: list[ContextItem]
    total_tokens: int
    pinned: list[PinnedVersion]
    verdicts: list[KeyVerdict] = Field(default_factory=list)

    @property
    def memory_tokens(self) -> int:
        """Tokens of the package spent on recalled memories (items that carry a memory id)."""
        return sum(i.token_estimate for i in self.items if i.memory_id and not i.omitted)

    @property
    def memory_token_share(self) -> float:
        """The share of the package's tokens that are recalled memory (0 when empty)."""
        return self.memory_tokens / self.total_tokens if self.total_tokens else 0.0

    def text(self) -> str:
        """The package as a model reads it: each section under its label and trust, and every
        item that is not an instruction fenced (spotlighting): it opens and closes with a mark
        of this package's own, and each of its lines starts with `│`, so nothing inside can pass
        for an instruction, a section or the end of the fence."""
        fence = self.package_id.removeprefix("ctx_")[:12]
        lines: list[str] = []
        kind = None
        for item in self.items:
            if item.omitted:
                continue
            if item.kind != kind:
                kind = item.kind
                lines.append(f"[{item.kind} | trust={item.trust}]")
            if item.trust == "instruction":
                lines.append(item.content)
                continue
            lines.append(f"<<{item.trust} {fence}>>")
            lines += [f"│ {line}" for line in item.content.splitlines() or [""]]
            lines.append(f"<</{item.trust} {fence}>>")
        return "\n".join(lines)


ChangeReason = Literal[
    "deleted", "superseded", "invalidated", "quarantined", "expired", "missing", "redacted"
]


class ChangedItem(Model):
    """An item of a package that no longer holds: a pinned memory version that is no longer
    current, or a message of the conversation slice erased or redacted since."""

    item_id: str | None = None
    memory_id: str | None = None
    message_ref: str | None = None
    pinned_version: int | None = None
    current_version: int | None = None
    reason: ChangeReason


class ContextValidation(Model):
    valid: bool
    changed: list[ChangedItem] = Field(default_factory=list)
