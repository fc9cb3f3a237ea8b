"""Reads: recall queries and results, entities and what is known about them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    Field,
    field_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import Kind, Model, Sensitivity, SourceType, check_key
from governed_memory.memory.namespaces import parse_namespace


class RecallAsk(Model):
    """What a recall asks for, whoever asks (the HTTP API's body: the token says who)."""

    namespaces: list[str] = Field(min_length=1, max_length=64)
    task: str = ""
    query: str | None = None
    keys: list[str] = Field(default_factory=list)
    kinds: list[Kind] | None = None
    k: int = 5
    at: AwareDatetime | None = None
    valid_at: AwareDatetime | None = None

    @field_validator("namespaces")
    @classmethod
    def _ns(cls, v: list[str]) -> list[str]:
        for ns in v:
            parse_namespace(ns)
        return v

    @field_validator("keys")
    @classmethod
    def _keys(cls, v: list[str]) -> list[str]:
        for key in v:
            check_key(key)
        return v

    @field_validator("k")
    @classmethod
    def _k(cls, v: int) -> int:
        if v <= 0 or v > 200:
            raise InvalidInput("k must be between 1 and 200", field="k")
        return v


class RecallQuery(RecallAsk):
    principal: str


class RetrievedMemory(Model):
    memory_id: str
    version: int
    namespace: str
    kind: str
    key: str | None
    content: str
    structured_value: dict[str, Any] | None
    source_refs: list[str]
    source_type: SourceType
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    confidence: float
    sensitivity: Sensitivity
    retrieval_score: float
    retrieval_reasons: list[str]
    conflict_group: str | None = None


class EntityRelation(Model):
    """A relation a readable memory states of an entity, at that memory's valid time."""

    subject: str
    predicate: str
    object: str
    memory_id: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    #: The names the memory uses for each end (None: the person the memory is about).
    subject_name: str | None = None
    object_name: str | None = None

    def sentence(self, about: str) -> str:
        """The relation as a person reads it ("the user's sister: Anna", "Anna moved to
        Porto"), with its valid time; `about` names the entity when its own name is unknown."""
        words = self.predicate.replace("_", " ")
        obj = self.object_name or about
        if self.subject == "self":
            said = f"the user's {words}: {obj}"
        else:
            said = f"{self.subject_name or about} {words} {obj}"
        if self.valid_from:
            said += f" (from {self.valid_from:%Y-%m-%d}"
            said += f" until {self.valid_to:%Y-%m-%d})" if self.valid_to else ")"
        elif self.valid_to:
            said += f" (until {self.valid_to:%Y-%m-%d})"
        return said


class EntityMemory(Model):
    """A readable memory that mentions an entity."""

    memory_id: str
    version: int
    namespace: str
    content: str
    source_type: SourceType
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime


class EntityView(Model):
    """What the memories a reader may read say of one entity (`memory.stores.graph`): the names
    it goes by and how many memories use each, the keys it is one with, the relations stated of
    it (each with the memory behind it and its valid time) and the memories that mention it,
    newest first. Every memory is re-checked against canonical as for recall."""

    key: str
    names: dict[str, int] = Field(default_factory=dict)
    kinds: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    relations: list[EntityRelation] = Field(default_factory=list)
    memories: list[EntityMemory] = Field(default_factory=list)
    refused_namespaces: list[str] = Field(default_factory=list)

    @property
    def name(self) -> str:
        """The name most of its memories use (a role's: the person it is an alias of)."""
        if self.names:
            return max(self.names, key=lambda n: (self.names[n], n))
        return self.key.removeprefix("role:").removeprefix("id:")


KeyState = Literal[
    "confirmed", "none_confirmed", "conflicting", "low_confidence_only", "needs_reconfirmation"
]


class KeyVerdict(Model):
    """What the system can say about a key for this reader, at these times."""

    key: str
    state: KeyState
    memory_ids: list[str] = Field(default_factory=list)
    detail: str = ""


class RecallResult(Model):
    memories: list[RetrievedMemory]
    #: One verdict per key asked for or implied by the task.
    verdicts: list[KeyVerdict] = Field(default_factory=list)
    refused_namespaces: list[str] = Field(default_factory=list)
    #: The times the answer is for: as recorded by `at`, valid at `valid_at`.
    at: AwareDatetime | None = None
    valid_at: AwareDatetime | None = None
    cached: bool = False

    def verdict(self, key: str) -> KeyVerdict | None:
        return next((v for v in self.verdicts if v.key == key), None)
