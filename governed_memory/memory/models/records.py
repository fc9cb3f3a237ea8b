"""Records: a memory's versions, the candidates writers propose and the graph hints they carry."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    Field,
    field_validator,
    model_validator,
)

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models.base import (
    READABLE_STATUSES,
    Kind,
    Model,
    Operation,
    Relation,
    Sensitivity,
    SourceType,
    Status,
    check_key,
    content_hash,
)
from governed_memory.memory.sameness import gist_of


class ExtractorInfo(Model):
    name: str
    version: str
    model: str | None = None


DIRECT_EXTRACTOR = ExtractorInfo(name="caller", version="1")


#: The relations the graph keeps (`memory.graph.extract` states them; a writer may propose them):
#: between two entities, and the kin and roles of the person a memory is about (`self`).
def _vocabulary(text: str) -> frozenset[str]:
    return frozenset(text.split())


RELATION_PREDICATES = _vocabulary(
    "allergic_to delivered_to lives_in located_in manages married_to moved_to ordered owns"
    " replaced_by studies_at works_at"
)
ROLE_PREDICATES = _vocabulary(
    "assistant aunt boss boyfriend brother brother-in-law cat child classmate colleague cousin"
    " daughter daughter-in-law dog father father-in-law fiance friend girlfriend grandchild"
    " granddaughter grandfather grandmother grandson husband landlord mother mother-in-law"
    " neighbor nephew niece parent partner pet roommate sister sister-in-law son son-in-law"
    " teacher twin uncle wife"
)
#: The person a memory is about, as a relation's end.
SELF = "self"

HintKind = Literal["person", "place", "organisation", "id", "thing"]


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class EntityHint(Model):
    """An entity a memory's text mentions, as its writer names it."""

    name: str = Field(min_length=1, max_length=80)
    kind: HintKind = "thing"
    #: Other names the text gives it ("Anna, whom we call Annie").
    aliases: list[str] = Field(default_factory=list, max_length=5)


class RelationHint(Model):
    """A relation a memory's text states: between two of its entities (by name), or of the
    person it is about (`self`) and one of them ("sister": Anna)."""

    subject: str = Field(min_length=1, max_length=80)
    predicate: str
    object: str = Field(min_length=1, max_length=80)

    @field_validator("predicate")
    @classmethod
    def _known(cls, v: str) -> str:
        v = v.strip().casefold()
        if v not in RELATION_PREDICATES and v not in ROLE_PREDICATES:
            # the word itself is not echoed: an error message travels and is logged
            raise InvalidInput(
                f"unknown relation: one of {', '.join(sorted(RELATION_PREDICATES))},"
                " or a kin or role word (sister, colleague, …)",
                field="graph",
            )
        return v


class GraphHints(Model):
    """The entities and relations a writer proposes with a candidate. Each name must be said
    by the candidate's own text (nothing enters the graph that the memory does not say), and
    each relation joins entities it names (or `self`); the graph projection takes them with
    what its extractor finds, from the stored memory, and keeps only the names the stored text
    still says (a redaction takes its names with it)."""

    entities: list[EntityHint] = Field(default_factory=list, max_length=20)
    relations: list[RelationHint] = Field(default_factory=list, max_length=20)

    def check_against(self, content: str) -> None:
        """Raise InvalidInput unless `content` says every name and each relation joins them."""
        # Errors name the hint by position, never by what it says (a name is a person's word,
        # and an error message travels and is logged).
        said = _folded(content)
        names: set[str] = {SELF}
        for i, entity in enumerate(self.entities):
            for name in (entity.name, *entity.aliases):
                if _folded(name) not in said:
                    raise InvalidInput(
                        f"entity {i}: a name or alias is not in the memory's text",
                        field=f"graph.entities.{i}",
                    )
                names.add(_folded(name))
        for i, relation in enumerate(self.relations):
            for end in (relation.subject, relation.object):
                if _folded(end) not in names:
                    raise InvalidInput(
                        f"relation {i}: an end names none of the memory's entities (nor self)",
                        field=f"graph.relations.{i}",
                    )

    def still_said(self, content: str) -> GraphHints:
        """The hints whose names `content` still says (a redacted text keeps fewer)."""
        said = _folded(content)
        entities = [
            e.model_copy(update={"aliases": [a for a in e.aliases if _folded(a) in said]})
            for e in self.entities
            if _folded(e.name) in said
        ]
        names = {SELF} | {_folded(n) for e in entities for n in (e.name, *e.aliases)}
        return GraphHints(
            entities=entities,
            relations=[
                r
                for r in self.relations
                if _folded(r.subject) in names and _folded(r.object) in names
            ],
        )


class MemoryRecord(Model):
    """One version of one memory. History is kept: a change writes a new version."""

    memory_id: str
    schema_version: Literal["2"] = "2"
    tenant_id: str
    namespace: str
    subject_ref: str
    kind: Kind
    key: str | None
    content: str
    structured_value: dict[str, Any] | None
    source_refs: list[str]
    source_type: SourceType
    confidence: float = Field(ge=0, le=1)
    sensitivity: Sensitivity
    valid_from: AwareDatetime | None
    valid_to: AwareDatetime | None
    recorded_at: AwareDatetime
    expires_at: AwareDatetime | None
    consent_ref: str | None
    status: Status
    version: int = Field(ge=1)
    content_hash: str
    extractor: ExtractorInfo
    written_by: str
    conflict_group: str | None = None
    #: What the content says, as a hash (`memory.sameness.gist_of`): equal gists, same statement.
    gist: str | None = None
    #: The entities and relations its writer proposed (checked against its text).
    graph: GraphHints | None = None

    def saying(
        self, content: str | None = None, structured_value: dict[str, Any] | None = None
    ) -> MemoryRecord:
        """A copy that says `content` and/or `structured_value`, with both hashes computed again
        (the only way a record's words change before it is stored)."""
        text = self.content if content is None else content
        value = self.structured_value if structured_value is None else structured_value
        return self.model_copy(
            update={
                "content": text,
                "structured_value": value,
                "content_hash": content_hash(text, value),
                "gist": gist_of(text, value),
            }
        )

    def valid_at(self, instant: datetime) -> bool:
        if self.valid_from is not None and instant < self.valid_from:
            return False
        return self.valid_to is None or instant < self.valid_to

    def expired_at(self, instant: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= instant

    def readable_at(self, instant: datetime, valid_at: datetime | None = None) -> bool:
        """True if a reader asking at `instant` (about `valid_at`, default the same) may see it."""
        return (
            self.status in READABLE_STATUSES
            and not self.expired_at(instant)
            and self.valid_at(valid_at or instant)
        )


class Candidate(Model):
    """A memory a writer proposes; omitted fields take the policy's defaults."""

    kind: Kind
    key: str | None = None
    content: str
    structured_value: dict[str, Any] | None = None
    source_type: SourceType = "user_assertion"
    source_refs: list[str] = Field(default_factory=list)
    confidence: float = Field(default=1.0, ge=0, le=1)
    sensitivity: Sensitivity | None = None
    subject_ref: str | None = None
    valid_from: AwareDatetime | None = None
    valid_to: AwareDatetime | None = None
    expires_at: AwareDatetime | None = None
    consent_ref: str | None = None
    #: The entities the text mentions and the relations it states, as the writer reads it
    #: (`GraphHints`): each name must be in `content`.
    graph: GraphHints | None = None

    @field_validator("key")
    @classmethod
    def _key(cls, v: str | None) -> str | None:
        return check_key(v)

    @field_validator("content")
    @classmethod
    def _content(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise InvalidInput("content is empty", field="content")
        return v

    @model_validator(mode="after")
    def _interval(self) -> Candidate:
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise InvalidInput("valid_to must be after valid_from", field="valid_to")
        if self.graph is not None:
            self.graph.check_against(self.content)
        return self


class MemoryMutationProposal(Model):
    """What the pipeline proposes to do with a candidate, before the policy decides."""

    operation: Operation
    namespace: str
    kind: str
    key: str | None
    candidate_content: str | None
    source_refs: list[str]
    matched_memory_ids: list[str]
    conflict_type: Relation | None
    confidence: float
    reason_code: str
