"""Records, principals and the inputs and outputs of every workflow, update and query.

Everything here is a pydantic v2 model: the same classes travel through the Temporal data converter,
the canonical store and the client. Nothing in this module does I/O.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from memory.errors import InvalidInput
from memory.namespaces import check_tenant, matches_any, parse_namespace, parse_pattern
from memory.sameness import gist_of

Kind = Literal["episodic", "semantic", "profile", "procedural", "summary"]

SourceType = Literal[
    "user_assertion",
    "verified_tool_fact",
    "human_review",
    "derived_summary",
    "system_policy",
    "model_inference",
]

Sensitivity = Literal["public", "internal", "confidential", "restricted"]
SENSITIVITY_ORDER: dict[str, int] = {
    "public": 0,
    "internal": 1,
    "confidential": 2,
    "restricted": 3,
}

# active: currently asserted.  superseded: history, its valid time was closed by a newer value or a
# withdrawal; it still answers "valid at" questions for its interval.  invalidated: out of every
# read (a rejected side of a conflict, an expired retention).  deleted: erased.
#: `quarantined`: reported harmful and held out of every read path until a reviewer decides.
Status = Literal["active", "superseded", "invalidated", "deleted", "quarantined"]
READABLE_STATUSES: tuple[str, ...] = ("active", "superseded")

Relation = Literal["NEW", "DUPLICATE", "REFINEMENT", "SUPERSEDES", "CONFLICTS"]
Operation = Literal["add", "update", "invalidate", "delete", "no_op"]
Decision = Literal["add", "update", "invalidate", "delete", "no_op", "reject", "defer"]

PrincipalType = Literal["user", "agent", "reviewer", "service"]

_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


def refuse_nul(value: Any, where: str) -> Any:
    """Text a store cannot keep (NUL, which Postgres text and JSONB refuse) is bad input, said
    at once, not a failed write deep in a commit."""
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidInput("text may not contain NUL characters", field=where)
    elif isinstance(value, dict):
        for k, v in value.items():
            refuse_nul(k, where)
            refuse_nul(v, f"{where}.{k}" if isinstance(k, str) else where)
    elif isinstance(value, (list, tuple)):
        for v in value:
            refuse_nul(v, where)
    return value


class Stored(Model):
    """A request whose text the service keeps: NUL characters are refused before anything."""

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        return refuse_nul(data, cls.__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


def content_hash(content: str, structured_value: dict[str, Any] | None = None) -> str:
    """Hash of what a memory says: its normalised text and structured value."""
    h = hashlib.sha256()
    h.update(" ".join(content.split()).encode())
    if structured_value is not None:
        h.update(b"\x00")
        h.update(json.dumps(structured_value, sort_keys=True, ensure_ascii=False).encode())
    return "sha256:" + h.hexdigest()


def check_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not key or len(key) > 128 or not set(key) <= _KEY_CHARS or key[0] in "._-":
        raise InvalidInput(
            f"invalid key {key!r}: lower-case letters, digits and . _ - only",
            field="key",
        )
    return key


# --------------------------------------------------------------------------------------------
# Principals


#: A reference scheme (RFC 3986): `order` in `order://ORD-1?version=8`.
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]{0,31}")


class Principal(Stored):
    """Who acts: its tenant, what it may read, write, approve and delete, and its limits."""

    type: PrincipalType
    tenant: str
    id: str = Field(min_length=1, max_length=128)
    read: list[str] = Field(default_factory=list)
    write: list[str] = Field(default_factory=list)
    approve: list[str] = Field(default_factory=list)
    delete: list[str] = Field(default_factory=list)
    candidate_only: bool = False
    sensitivity_ceiling: Sensitivity = "internal"
    #: Roles beyond the grants: `auditor` may read as of a past time what has expired since.
    roles: list[Literal["admin", "auditor", "operator"]] = Field(default_factory=list)
    #: A tool (a service principal): the reference schemes it is the system of record for
    #: (`order`, `refund`). Only it writes or attests `verified_tool_fact`s citing them.
    tools: list[str] = Field(default_factory=list)

    @field_validator("tools")
    @classmethod
    def _schemes(cls, v: list[str]) -> list[str]:
        for scheme in v:
            if not _SCHEME.fullmatch(scheme):
                raise InvalidInput(f"{scheme!r} is not a reference scheme", field="tools")
        return v

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, v: str) -> str:
        return check_tenant(v)

    @field_validator("read", "write", "approve", "delete")
    @classmethod
    def _patterns(cls, v: list[str]) -> list[str]:
        for p in v:
            parse_pattern(p)
        return v

    @model_validator(mode="after")
    def _same_tenant(self) -> Principal:
        if self.tools and self.type != "service":
            raise InvalidInput("only a service principal can be a tool", field="tools")
        for p in (*self.read, *self.write, *self.approve, *self.delete):
            if parse_pattern(p).tenant != self.tenant:
                raise InvalidInput(
                    f"pattern {p!r} reaches outside tenant {self.tenant!r}",
                    field="patterns",
                )
        return self

    @property
    def ref(self) -> str:
        return principal_ref(self.type, self.tenant, self.id)

    @property
    def own_namespace(self) -> str | None:
        return f"tenant/{self.tenant}/user/{self.id}" if self.type == "user" else None

    def _own(self, namespace: str) -> bool:
        return self.own_namespace is not None and namespace == self.own_namespace

    def can_read(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.read, namespace)

    def can_write(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.write, namespace)

    def can_delete(self, namespace: str) -> bool:
        return self._own(namespace) or matches_any(self.delete, namespace)

    def can_approve(self, namespace: str) -> bool:
        return matches_any(self.approve, namespace)


def principal_ref(type_: str, tenant: str, id_: str) -> str:
    return f"{type_}:{tenant}/{id_}"


def parse_principal_ref(ref: str) -> tuple[PrincipalType, str, str]:
    try:
        type_, rest = ref.split(":", 1)
        tenant, id_ = rest.split("/", 1)
    except ValueError:
        raise InvalidInput(
            f"invalid principal {ref!r}: expected type:tenant/id", field="principal"
        ) from None
    if type_ not in ("user", "agent", "reviewer", "service") or not id_:
        raise InvalidInput(f"invalid principal {ref!r}", field="principal")
    check_tenant(tenant)
    return type_, tenant, id_  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------
# Records


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


# --------------------------------------------------------------------------------------------
# WriteMemory


class Utterance(Model):
    """A raw message, for `observe`: kept in the conversation history, then extracted."""

    text: str = Field(min_length=1)
    thread: str | None = Field(default=None, min_length=1, max_length=128)

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise InvalidInput("text is empty", field="text")
        return v


class WriteRequest(Stored):
    """Input of the WriteMemory workflow (its JSON is the write API for any SDK).

    Exactly one of `candidate` (propose: a ready candidate from an agent's own extractor) and
    `utterance` (observe: a raw message, extracted by the service) is given.
    """

    principal: str
    namespace: str
    candidate: Candidate | None = None
    utterance: Utterance | None = None
    idempotency_key: str = Field(min_length=1, max_length=200)
    #: Clock override for evaluation and tests; refused unless the service enables it.
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants): signed by the door that proved the
    #: principal, for this workflow id and exactly this input. Never a bearer token.
    grant: str | None = Field(default=None, repr=False)

    @field_validator("namespace")
    @classmethod
    def _ns(cls, v: str) -> str:
        parse_namespace(v)
        return v

    @model_validator(mode="after")
    def _one_input(self) -> WriteRequest:
        if (self.candidate is None) == (self.utterance is None):
            raise InvalidInput("give exactly one of candidate and utterance", field="candidate")
        return self

    @property
    def tenant(self) -> str:
        return parse_namespace(self.namespace).tenant

    @property
    def operation(self) -> str:
        return "observe" if self.utterance is not None else "propose"


class CandidateOutcome(Model):
    decision: Decision
    relation: Relation | None = None
    reason: str | None = None
    key: str | None = None
    value: dict[str, Any] | None = None
    memory_id: str | None = None
    version: int | None = None
    matched_memory_ids: list[str] = Field(default_factory=list)
    conflict_group: str | None = None
    #: The review a deferred or conflicting write waits on.
    review_id: str | None = None


def without_values(outcomes: list[CandidateOutcome]) -> list[CandidateOutcome]:
    """Outcomes as workflow history carries them: the value (what was said) left out; the
    caller reads it from the outcome kept by idempotency key (`write_outcomes`)."""
    return [o.model_copy(update={"value": None}) for o in outcomes]


class WriteResult(Model):
    workflow_id: str
    outcomes: list[CandidateOutcome]

    @property
    def outcome(self) -> CandidateOutcome:
        return self.outcomes[0]


# --------------------------------------------------------------------------------------------
# Reads


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


# --------------------------------------------------------------------------------------------
# DeleteSubject


class DeletionScope(Model):
    """What to forget, one of: a subject (`subject_ref`, optionally within a `namespace`); a
    whole `namespace`; a `key` in a namespace; everything derived from a `source_ref` (a message
    `msg://thread/position` or a tool reference); one memory (`memory_id`, in its `namespace`);
    or a request in words (`text`, with the `namespace` it is about), resolved by the service to
    one of these."""

    subject_ref: str | None = None
    namespace: str | None = None
    key: str | None = None
    source_ref: str | None = None
    text: str | None = None
    memory_id: str | None = None

    @property
    def whole_namespace(self) -> bool:
        """The scope is a namespace with nothing narrowing it: everything in it goes."""
        return self.namespace is not None and not (
            self.key or self.subject_ref or self.source_ref or self.text or self.memory_id
        )

    @model_validator(mode="after")
    def _shape(self) -> DeletionScope:
        if self.namespace is not None:
            parse_namespace(self.namespace)
        check_key(self.key)
        if self.subject_ref is None and self.namespace is None and self.source_ref is None:
            raise InvalidInput(
                "a deletion scope needs subject_ref, namespace or source_ref", field="scope"
            )
        if (
            self.key is not None or self.text is not None or self.memory_id is not None
        ) and self.namespace is None:
            raise InvalidInput(
                "a key, a memory or a request in words needs its namespace", field="scope"
            )
        if self.memory_id is not None and (self.key or self.subject_ref or self.source_ref):
            raise InvalidInput("a memory is a scope of its own", field="scope")
        if self.text is not None and (self.key or self.subject_ref or self.source_ref):
            raise InvalidInput(
                "a request in words stands alone (with its namespace)", field="scope"
            )
        if self.text is not None and not self.text.strip():
            raise InvalidInput("the request is empty", field="scope.text")
        return self

    def describe(self) -> str:
        if self.source_ref is not None:
            return f"derived from {self.source_ref}"
        if self.subject_ref is not None:
            return self.subject_ref + (f" in {self.namespace}" if self.namespace else "")
        assert self.namespace is not None
        return self.namespace + (f"#{self.key}" if self.key else "")

    def fingerprint(self) -> str:
        fields = self.model_dump()
        if fields["memory_id"] is None:  # fingerprints of the scopes before it stay as they were
            del fields["memory_id"]
        raw = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(raw.encode()).hexdigest()[:20]


class DeleteRequest(Stored):
    principal: str
    tenant: str
    scope: DeletionScope
    at: AwareDatetime | None = None
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)

    @field_validator("tenant")
    @classmethod
    def _tenant(cls, v: str) -> str:
        return check_tenant(v)


#: `nothing_matched`: the scope covered nothing, so nothing was erased (neither passed nor failed).
VerificationStatus = Literal["pending", "passed", "failed", "refused", "nothing_matched"]


class ProbeResult(Model):
    """One read path asked for the erased data after deletion."""

    probe: str
    passed: bool
    returned: int = 0
    detail: str = ""


class TemporalRetention(Model):
    """How long Temporal keeps a closed run (its encrypted payloads) and whether it archives
    them, as the namespace was found when the deletion ran."""

    namespace: str
    retention_seconds: int | None = None
    history_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"
    visibility_archival: str = "ARCHIVAL_STATE_UNSPECIFIED"


class HistoryErasure(Model):
    """The closed Temporal runs whose histories carried a deletion's scope, to delete (input)."""

    namespace: str
    workflow_ids: list[str] = Field(default_factory=list)
    #: How long to wait for runs still open (a write in flight) to close, and for the server
    #: to carry out the deletions (it does so asynchronously).
    within: timedelta = timedelta(minutes=2)


class ErasedHistories(Model):
    """What deleting the runs did: how many runs were deleted, which are still there."""

    runs_deleted: int = 0
    #: Workflow ids with a run still readable (open past the wait, or not yet dropped).
    remaining: list[str] = Field(default_factory=list)


class DeletionReceipt(Model):
    deletion_id: str
    tenant_id: str
    subject_ref: str
    scope: DeletionScope
    requested_by: str
    requested_at: datetime
    completed_at: datetime | None = None
    canonical_records: int = 0
    versions_erased: int = 0
    indexes_removed: list[str] = Field(default_factory=list)
    derived_records_invalidated: int = 0
    cache_namespaces_invalidated: int = 0
    verification_status: VerificationStatus = "pending"
    probes: list[ProbeResult] = Field(default_factory=list)
    refused_reason: str | None = None
    backup_retention_deadline: datetime | None = None
    #: "retained" until the backup retention deadline passes, then "expired" (receipt closed).
    backup_status: Literal["retained", "expired"] = "retained"
    closed_at: datetime | None = None
    #: The scope as resolved (a request in words becomes a key, a namespace, ...).
    resolved_scope: DeletionScope | None = None
    messages_erased: int = 0
    summaries_regenerated: int = 0
    workflow_id: str | None = None
    #: Wall-clock seconds from the deletion's start to its receipt.
    elapsed_seconds: float | None = None
    #: Temporal's retention and archival, as found; the backup deadline covers the retention.
    temporal: TemporalRetention | None = None
    #: Closed Temporal runs that carried the erased content, deleted from the server's history.
    temporal_runs_deleted: int = 0
    #: What this deletion cannot guarantee, by the stores it ran on (backups, Postgres WAL).
    storage_limits: list[str] = Field(default_factory=list)
    #: What the scope covers that the requester may not delete (memories, summaries and
    #: messages in other principals' namespaces), left alone: how many, and in how many
    #: namespaces. Counts only: never which namespaces, never what they hold.
    withheld: int = 0
    withheld_namespaces: int = 0


# --------------------------------------------------------------------------------------------
# Conversation history and reviews


class ConversationMessage(Model):
    message_id: str
    tenant_id: str
    namespace: str
    thread: str | None
    position: int
    speaker: str
    speaker_type: PrincipalType
    #: As stored: secrets already replaced by ``[REDACTED:<category>]`` (`memory.write.screening`).
    text: str
    at: AwareDatetime
    status: Literal["active", "erased"] = "active"
    sensitivity: Sensitivity = "internal"

    @property
    def ref(self) -> str:
        """How memories cite it: msg://{thread}/{position}, or msg://{message id} off-thread."""
        return f"msg://{self.thread}/{self.position}" if self.thread else f"msg://{self.message_id}"


#: Where a memory was said in a conversation: (namespace, thread, position).
Place = tuple[str, str, int]


def thread_position(ref: str) -> tuple[str, int] | None:
    """The thread and position a `msg://{thread}/{position}` reference cites (None for any other
    reference, `msg://{message id}` off-thread included)."""
    if not ref.startswith("msg://"):
        return None
    thread, _, position = ref.removeprefix("msg://").rpartition("/")
    if not thread or not position.isdigit():
        return None
    return thread, int(position)


def place_of(namespace: str, source_refs: Sequence[str]) -> Place | None:
    """Where a memory was said: the one conversation message it cites. A memory citing several
    (a thread summary) was not said at any one place and has none. Recall lends a memory part of
    its conversational neighbours' relevance (`memory.retrieval`)."""
    cited = {c for ref in source_refs if (c := thread_position(ref)) is not None}
    if len(cited) != 1:
        return None
    ((thread, position),) = cited
    return namespace, thread, position


#: `harmful`: a memory reported harmful, quarantined until a reviewer upholds the report
#: (invalidated) or rejects it (restored).
ReviewKind = Literal["deferred", "conflict", "harmful"]
ReviewStatus = Literal["open", "approved", "rejected", "timed_out"]


class ReviewRecord(Model):
    review_id: str
    tenant_id: str
    namespace: str
    kind: ReviewKind
    status: ReviewStatus = "open"
    reason_code: str
    workflow_id: str
    write_workflow_id: str
    conflict_group: str | None = None
    #: The sides of a conflict, or the memory ids a deferred write would create.
    memory_ids: list[str] = Field(default_factory=list)
    opened_at: AwareDatetime
    closed_at: AwareDatetime | None = None
    decided_by: str | None = None
    decision: dict[str, Any] | None = None


class ReviewStart(Model):
    """Input of ReviewMemory: the review as its starter saw it, ids only. The run believes none
    of it: it reads the review by id and refuses a start whose review differs from the stored
    one; what settling needs (the write, the drafts it waits on) is kept with the review row."""

    review: ReviewRecord
    #: Memories the opening write added (a timed-out conflict loses these sides, and only those
    #: the stored review names).
    newcomers: list[str] = Field(default_factory=list)
    timeout: timedelta
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class ReviewDecision(Stored):
    """A reviewer's answer, sent as the `review` Update of a review workflow."""

    reviewer: str
    decision: Literal["approve", "reject"]
    #: For a conflict: the side approved (the others are invalidated) or rejected.
    memory_id: str | None = None
    at: AwareDatetime | None = None
    #: What the service lets this answer do (memory.grants): signed by the door that proved the
    #: reviewer, for this review's workflow and exactly this answer.
    grant: str | None = Field(default=None, repr=False)


class ReviewOutcome(Model):
    review_id: str
    status: ReviewStatus
    #: Memories committed (approved deferred writes) or invalidated (losing conflict sides).
    committed: list[str] = Field(default_factory=list)
    invalidated: list[str] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Sweeps


class RepairRequest(Model):
    """Input of RepairProjections (and of each of its continued runs)."""

    #: Compare every record and every index row (default: what changed since the last repair).
    full: bool = False
    #: Clock override for evaluation and tests (refused unless enabled); default: now.
    at: AwareDatetime | None = None
    page_size: int = Field(default=2000, gt=0, le=20_000)
    #: Pages per activity call (each call heartbeats after every page).
    budget_pages: int = Field(default=50, gt=0, le=1000)
    #: Carried across continue-as-new: the repair's id, cursor and what it did so far.
    repair_id: str | None = None
    cursor: dict[str, Any] | None = None
    totals: dict[str, Any] | None = None
    relayed_events: int = Field(default=0, ge=0)
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class RepairReport(Model):
    repair_id: str
    full: bool
    relayed_events: int
    compared: int
    mismatches: dict[str, int]
    repaired: int
    namespaces_refreshed: int
    last_event_committed: int
    last_index_updated: int


class ExpireRequest(Model):
    """Input of ExpireMemories."""

    #: Clock override for evaluation and tests (refused unless enabled); default: now.
    at: AwareDatetime | None = None
    batch_size: int = Field(default=500, gt=0, le=10_000)
    expired_so_far: int = 0
    #: What the service lets this run do (memory.grants).
    grant: str | None = Field(default=None, repr=False)


class ExpireSummary(Model):
    expired: int
    namespaces: list[str]


# --------------------------------------------------------------------------------------------
# Audit


class AuditEvent(Model):
    stage: str
    outcome: str
    reason_code: str | None = None
    decision: str | None = None
    relation: str | None = None
    memory_id: str | None = None
    memory_version: int | None = None
    principal: str | None = None
    extractor: ExtractorInfo | None = None
    details: dict[str, Any] = Field(default_factory=dict)
