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
    """The tokens the model call may use in all, its answer included (more than 0). The reserved
    output and the sections sized here may not add up to more."""
    reserved_output_tokens: int = Field(default=0, ge=0)
    """Tokens kept free for the model's answer (default 0)."""
    instructions_tokens: int | None = Field(default=None, ge=0)
    """The most the policy instructions (and the caller's own) may take; a request whose
    instructions need more is refused. Absent: no cap of its own."""
    state_tokens: int | None = Field(default=None, ge=0)
    """Tokens for the agent's state. Absent: the policy's share (10%) of the tokens left once the
    reserved output, the instructions, the goal and the output contract are counted."""
    tool_schema_tokens: int | None = Field(default=None, ge=0)
    """Tokens for tool schemas. Absent: the policy's share (15%) of the tokens left once the
    reserved output, the instructions, the goal and the output contract are counted."""
    evidence_tokens: int | None = Field(default=None, ge=0)
    """Tokens for verified tool facts, and as many again for business evidence. Absent: the policy's
    share (10% each) of the tokens left once the reserved output, the instructions, the goal and the
    output contract are counted."""
    conversation_tokens: int | None = Field(default=None, ge=0)
    """Tokens for the conversation slice. Absent: the policy's share (20%) of the tokens left once
    the reserved output, the instructions, the goal and the output contract are counted."""
    memory_tokens: int | None = Field(default=None, ge=0)
    """Tokens for recalled memories and what is known about the entities the task names. Absent:
    whatever the other sections leave."""

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
    """The item's id in the package: its section and its number there (`selected_memory-2`)."""
    kind: str
    """The section it is in, in the package's order: `policy_instructions`, `current_goal`,
    `agent_state`, `verified_tool_facts`, `business_evidence`, `conversation_slice`,
    `entity_summary`, `selected_memory`, `tool_schemas`, `output_contract`."""
    content: str
    """What the model reads; cut short (ending in `…`) when truncated, empty when omitted."""
    trust: Trust
    """How far the model may trust it: `instruction` (the service's and the caller's instructions,
    the goal, tool schemas, the output contract), `verified` (agent state, verified tool facts,
    business evidence) or `untrusted` (remembered content and conversation: data, never
    instructions)."""
    source_refs: list[str] = Field(default_factory=list)
    """Where it comes from (`msg://{thread}/{position}`, tool references)."""
    token_estimate: int
    """Its estimated tokens as shown (0 when omitted), counted on the high side for Chinese and
    English."""
    priority: int
    """Its section's place in the package, from 1 (policy instructions) to 9 (output contract)."""
    expires_at: datetime | None = None
    """When what it says expires, when known; null otherwise."""
    content_hash: str
    """`sha256:<hex>` of its whole content, before any truncation."""
    truncated: bool = False
    """Whether its content was cut to fit its section's budget."""
    omitted: bool = False
    """Whether it was left out for want of room (its hash and references kept)."""
    memory_id: str | None = None
    """The memory this item shows, for later validation; null for an item that shows none."""
    version: int | None = None
    """The version of that memory it shows; null for an item that shows none."""
    namespace: str | None = None
    """The namespace a memory or message item comes from (an agent may check it is one it asked
    for); null for the other items."""


class PinnedVersion(Model):
    memory_id: str
    """A memory the package shows."""
    version: int
    """The version of it the package shows."""


class ContextPackage(Model):
    package_id: str
    """The package's id (`ctx_…`); its untrusted items are fenced with marks derived from it."""
    principal: str
    """Whom it was built for (the caller)."""
    namespaces: list[str]
    """The namespaces it was built from."""
    task: str
    """The task it was built for."""
    created_at: datetime
    """When it was built."""
    at: datetime
    """The time it was built as of (memories as recorded by then, the conversation said by then)."""
    budget: ContextBudget
    """The budget it was filled within."""
    items: list[ContextItem]
    """Its items, section by section in the package's order."""
    total_tokens: int
    """Its estimated tokens: every item's, plus the reserved output tokens."""
    pinned: list[PinnedVersion]
    """The memory versions it shows: `POST /v1/context/validate` says which no longer hold."""
    verdicts: list[KeyVerdict] = Field(default_factory=list)
    """The verdict on each key the task implies, as recall gives them."""

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
    """The conversation item whose message changed; null for a pinned memory."""
    memory_id: str | None = None
    """The pinned memory that changed; null for a message."""
    message_ref: str | None = None
    """The message that changed (`msg://{thread}/{position}`); null for a pinned memory."""
    pinned_version: int | None = None
    """The version the package pinned."""
    current_version: int | None = None
    """The memory's version now; null when it is gone (or not the caller's to read)."""
    reason: ChangeReason
    """Why it no longer holds: `deleted`, `superseded`, `invalidated`, `quarantined`, `expired`,
    `missing` (gone, or not the caller's to read) or `redacted` (a message's text changed)."""


class ContextValidation(Model):
    valid: bool
    """Whether everything the package shows still holds."""
    changed: list[ChangedItem] = Field(default_factory=list)
    """What no longer holds, with why; empty when `valid`."""
