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
    """The extractor's name: `caller` for a candidate written as its writer proposed it,
    `rule-extractor` for one extracted from an observed message, `extractive-summarizer` for a
    thread summary."""
    version: str
    """The extractor's version: what it finds may change from one version to the next."""
    model: str | None = None
    """The language model the extractor used, when it used one; null for the built-in extractors,
    which use none."""


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
    """The entity's name as the memory's text writes it (1 to 80 characters); it must appear in the
    text."""
    kind: HintKind = "thing"
    """What sort of entity it is: `person`, `place`, `organisation`, `id` (an order number, a
    tracking number, …) or `thing` (the default)."""
    aliases: list[str] = Field(default_factory=list, max_length=5)
    """Other names the text gives it ("Anna, whom we call Annie"), at most 5; each must appear in
    the text."""


class RelationHint(Model):
    """A relation a memory's text states: between two of its entities (by name), or of the
    person it is about (`self`) and one of them ("sister": Anna)."""

    subject: str = Field(min_length=1, max_length=80)
    """The entity the relation starts from, by a name or alias of the candidate's entities, or
    `self` for the person the memory is about (1 to 80 characters)."""
    predicate: str
    """The relation: one of `allergic_to`, `delivered_to`, `lives_in`, `located_in`, `manages`,
    `married_to`, `moved_to`, `ordered`, `owns`, `replaced_by`, `studies_at`, `works_at`, or a kin
    or role word (`sister`, `colleague`, `landlord`, …). Case is ignored; any other word is
    refused."""
    object: str = Field(min_length=1, max_length=80)
    """The entity the relation points to, by a name or alias of the candidate's entities, or `self`
    (1 to 80 characters)."""

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
    """The entities the text mentions, at most 20."""
    relations: list[RelationHint] = Field(default_factory=list, max_length=20)
    """The relations the text states between those entities (or `self`), at most 20."""

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
    """The memory's id: the same for all its versions."""
    schema_version: Literal["2"] = "2"
    """The version of the record's shape; always `2`."""
    tenant_id: str
    """The tenant the memory belongs to."""
    namespace: str
    """The namespace it is kept in (`tenant/{tenant}` or
    `tenant/{tenant}/{user|team|project|agent|thread}/{id}`)."""
    subject_ref: str
    """Whom or what it is about, as `{kind}:{id}`: someone with a namespace (`user:456`, `team:ops`,
    `tenant:shop-a`) or a business entity (`order:A-7781`)."""
    kind: Kind
    """What sort of memory it is: `episodic` (an event), `semantic` (a fact), `profile` (a keyed
    attribute or preference), `procedural` (how something is done) or `summary` (a thread's
    summary)."""
    key: str | None
    """The slot it fills, for a keyed memory (`notification.preference`): a newer value of the same
    key supersedes or conflicts with it. Null for a memory without key."""
    content: str
    """What the memory says, in words; empty once a deletion erased it."""
    structured_value: dict[str, Any] | None
    """The value in structured form (`{"channel": "sms"}` for a notification preference); null when
    it has none, or once erased."""
    source_refs: list[str]
    """Where it comes from: conversation messages (`msg://{thread}/{position}`) and tool references
    (`order://ORD-1?version=8`)."""
    source_type: SourceType
    """Who vouches for it: `user_assertion`, `verified_tool_fact`, `human_review`,
    `derived_summary`, `system_policy` or `model_inference`. Feedback never changes it."""
    confidence: float = Field(ge=0, le=1)
    """How sure the service is of it, from 0 to 1. A confirmation raises it, never beyond the
    ceiling of its source type."""
    sensitivity: Sensitivity
    """How sensitive it is: `public`, `internal`, `confidential` or `restricted`. A reader sees it
    only up to its own sensitivity ceiling."""
    valid_from: AwareDatetime | None
    """When what it says starts to hold (valid time); null: since always."""
    valid_to: AwareDatetime | None
    """When it stops holding (set when a newer value or a withdrawal closes it); null: still
    holds."""
    recorded_at: AwareDatetime
    """When this version was recorded (recorded time)."""
    expires_at: AwareDatetime | None
    """When it expires: from then on no read returns it. Null: it is kept until changed or
    deleted."""
    consent_ref: str | None
    """The id of the consent it was stored under (`cns_…`); null when it needs none."""
    status: Status
    """`active` (currently asserted), `superseded` (history: a newer value or a withdrawal closed
    its valid time; it still answers questions about that time), `invalidated` (out of every read: a
    rejected side of a conflict, a revoked consent, an expired retention), `deleted` (erased) or
    `quarantined` (reported harmful, out of every read until a reviewer decides)."""
    version: int = Field(ge=1)
    """This version's number: 1 for the first, one more for each change."""
    content_hash: str
    """`sha256:<hex>` of the normalised content and structured value; `erased` once a deletion
    erased it."""
    extractor: ExtractorInfo
    """What turned the input into this memory."""
    written_by: str
    """The principal that wrote it (`user:shop-a/123`, `agent:shop-a/support-bot`)."""
    conflict_group: str | None = None
    """The group of memories that contradict each other, when it is in one: every side stays active
    until a reviewer settles it. Null otherwise."""
    gist: str | None = None
    """A hash of what the content says, with spacing, punctuation, filler words and the spelling of
    values set aside: two memories with equal gists make the same statement. Null once erased."""
    graph: GraphHints | None = None
    """The entities and relations its writer proposed with it, checked against its text; null when
    none were, or once erased."""

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
    """What sort of memory it is: `episodic` (an event), `semantic` (a fact), `profile` (a keyed
    attribute or preference), `procedural` (how something is done) or `summary`. The policy's
    retention for the kind bounds how long it is kept."""
    key: str | None = None
    """The slot it fills, for a keyed memory (`notification.preference`): lower-case letters,
    digits, `.`, `_` and `-`, at most 128 characters, starting with a letter or digit. A value for a
    key already held is resolved against the stored one (duplicate, refinement, supersession or
    conflict). Absent: a memory without key, compared with others by what it says."""
    content: str
    """What the memory says, in words (not empty; at most the policy's `max_content_bytes`, 16 KiB
    by default)."""
    structured_value: dict[str, Any] | None = None
    """The value in structured form (`{"channel": "sms"}`), normalised by key (channel synonyms,
    language tags, time zones, hour ranges). Optional."""
    source_type: SourceType = "user_assertion"
    """Who vouches for it (default `user_assertion`). A writer claims only what it may:
    `human_review` only a reviewer with approve rights over the namespace (or an approved
    review) writes, nobody writes `derived_summary`, `system_policy` needs the admin role,
    `verified_tool_fact` needs the tool that issued its reference; anything else is refused
    (`source_not_allowed`)."""
    source_refs: list[str] = Field(default_factory=list)
    """Where it comes from: conversation messages (`msg://{thread}/{position}`) and tool references
    (`order://ORD-1?version=8`). A claim about an order, payment, shipment or refund is kept as a
    fact only with a verified tool's reference that pins it."""
    confidence: float = Field(default=1.0, ge=0, le=1)
    """How sure the writer is, from 0 to 1 (default 1). Below the policy's `min_confidence` (0.3 by
    default) the write is refused (`low_confidence`)."""
    sensitivity: Sensitivity | None = None
    """How sensitive it is: `public`, `internal`, `confidential` or `restricted`. Default: the
    policy's (`internal`). A text that discloses a special category (health, religion, precise
    location, …) is stored as `restricted`, which needs a `consent_ref`."""
    subject_ref: str | None = None
    """Whom or what it is about: `user:456`, `user:shop-a/456` or `tenant/shop-a/user/456` for
    someone with a namespace (stored as `user:456`), or a business entity (`order:A-7781`). A writer
    may name only itself, a subject whose namespace it may write, or a business entity. Default: the
    subject of the namespace written to."""
    valid_from: AwareDatetime | None = None
    """When what it says starts to hold (valid time, with a time zone). Default: when it is
    recorded."""
    valid_to: AwareDatetime | None = None
    """When it stops holding; after `valid_from`. Absent: it holds until a newer value closes it."""
    expires_at: AwareDatetime | None = None
    """When it expires (with a time zone). Default: the policy's retention for its kind (episodic:
    90 days), which also bounds a later time asked for; no retention: kept until changed or
    deleted."""
    consent_ref: str | None = None
    """The id of a consent (`cns_…`, from `POST /v1/consents`) recorded for the memory's subject and
    not revoked: required for `restricted` memories; a reference to no such consent is refused
    (`consent_unknown`)."""
    graph: GraphHints | None = None
    """The entities the text mentions and the relations it states, as the writer reads it: every
    name must appear in `content`. Optional: the service's own extractor finds entities too."""

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
