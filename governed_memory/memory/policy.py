"""The policy: one typed file, not code. Loaded once per process and passed where it is needed."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.vocabulary import Sensitivity

DEFAULT_POLICY_FILE = Path(__file__).with_name("policy.default.toml")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FeedbackPolicy(_Section):
    """The bounds of feedback's effects (policy file, `[feedback]`)."""

    confirm_step: float = Field(default=0.05, gt=0, le=1)
    #: The most confidence confirmation can give, by source type.
    confidence_ceiling: dict[str, float] = Field(
        default_factory=lambda: {
            "user_assertion": 0.98,
            "verified_tool_fact": 1.0,
            "human_review": 1.0,
            "system_policy": 1.0,
            "derived_summary": 0.85,
            "model_inference": 0.75,
        }
    )
    ignored_after: int = Field(default=3, ge=1)
    ignored_step: float = Field(default=0.15, ge=0, le=1)
    ignored_floor: float = Field(default=0.4, ge=0, le=1)


class LimitPolicy(_Section):
    max_content_bytes: int = Field(default=16384, gt=0)
    max_recall_k: int = Field(default=200, gt=0)


class Defaults(_Section):
    sensitivity: Sensitivity = "internal"
    timezone: str = "Asia/Shanghai"


class WritePolicy(_Section):
    min_confidence: float = Field(default=0.3, ge=0, le=1)
    #: Vector similarity at which a stored memory without key is compared with a new one. The
    #: comparison (memory.sameness), never the similarity, decides DUPLICATE; this only bounds
    #: which memories are looked at. (`near_duplicate_similarity` is its former name.)
    compare_similarity: float = Field(
        default=0.7,
        gt=0,
        le=1,
        validation_alias=AliasChoices("compare_similarity", "near_duplicate_similarity"),
    )
    #: At most this many close memories are compared with each new one.
    compare_neighbours: int = Field(default=10, ge=1, le=100)


class Review(_Section):
    timeout_hours: float = Field(default=72, gt=0)

    @property
    def timeout(self) -> timedelta:
        return timedelta(hours=self.timeout_hours)


class Weights(_Section):
    semantic_relevance: float = 1.0
    task_relevance: float = 0.6
    source_trust: float = 0.3
    freshness: float = 0.05
    explicit_user_priority: float = 0.1
    conflict_penalty: float = 0.05
    staleness_penalty: float = 0.2
    redundancy_penalty: float = 0.5
    privacy_penalty: float = 0.1


class Retrieval(_Section):
    confirmed_confidence: float = Field(default=0.7, ge=0, le=1)
    min_relevance: float = Field(default=0.03, ge=0, le=1)
    candidate_pool: int = Field(default=4, ge=1, le=50)
    #: Past this k, the pool's headroom stops growing (`pool`).
    pool_headroom_k: int = Field(default=50, ge=1, le=1000)
    cache_ttl_seconds: float = Field(default=5, ge=0)
    cache_entries: int = Field(default=2048, ge=0)
    freshness_half_life_days: float = Field(default=90, gt=0)
    #: The share of its conversational neighbours' relevance a memory takes: of the message
    #: before the one it was said in, and of the message after; shrinking by `context_decay`
    #: with each message farther, up to `context_window` messages away (0: none).
    context_previous: float = Field(default=0.5, ge=0, le=1)
    context_next: float = Field(default=0.25, ge=0, le=1)
    context_decay: float = Field(default=0.5, ge=0, le=1)
    context_window: int = Field(default=2, ge=0, le=8)

    def pool(self, k: int) -> int:
        """How many candidates search proposes for `k` memories: the k, and room to rerank
        (trust, freshness, diversity, dedupe) of `candidate_pool - 1` more per memory asked,
        that room growing no further past `pool_headroom_k` (what search ranks 800th does not
        reach a top 200; reading it cost more than the rest of the recall). At least 20."""
        return max(k + (self.candidate_pool - 1) * min(k, self.pool_headroom_k), 20)

    #: The graph walk (`Reader._add_graph`): a memory that shares an entity with a relevant one
    #: takes `graph_share` of its relevance, shared among the other readable memories that
    #: mention the entity, `graph_decay` times less at the second hop; from the `graph_seeds`
    #: most relevant candidates, through entities at most `graph_max_degree` readable memories
    #: mention, reaching at most `graph_budget` memories (0: no walk). Below 1: what a walk
    #: reaches never ties what led there.
    graph_share: float = Field(default=0.8, ge=0, le=1)
    graph_decay: float = Field(default=0.5, ge=0, le=1)
    graph_hops: int = Field(default=2, ge=0, le=2)
    graph_seeds: int = Field(default=8, ge=0, le=64)
    graph_max_degree: int = Field(default=40, ge=1, le=1000)
    graph_budget: int = Field(default=200, ge=0, le=5000)
    #: At most this many memories the walk reached, the best-lent, are read and admitted.
    graph_admit: int = Field(default=40, ge=0, le=1000)
    weights: Weights = Field(default_factory=Weights)


class ContextShares(_Section):
    state_share: float = Field(default=0.10, ge=0, le=1)
    evidence_share: float = Field(default=0.20, ge=0, le=1)
    conversation_share: float = Field(default=0.20, ge=0, le=1)
    memory_share: float = Field(default=0.30, ge=0, le=1)
    tool_schema_share: float = Field(default=0.15, ge=0, le=1)
    conversation_messages: int = Field(default=20, ge=0)
    #: What is known about the entities a task names (or the request lists): at most
    #: `entities` of them, in at most `entity_share` of the memory room, each line a relation
    #: or a memory that mentions the entity, cited and pinned like a recalled memory.
    entities: int = Field(default=3, ge=0, le=20)
    entity_share: float = Field(default=0.25, ge=0, le=1)


class Retention(_Section):
    episodic_days: int | None = 90
    semantic_days: int | None = None
    profile_days: int | None = None
    procedural_days: int | None = None
    summary_days: int | None = None

    def ttl(self, kind: str) -> timedelta | None:
        days: int | None = getattr(self, f"{kind}_days")
        return None if days is None else timedelta(days=days)


class Backup(_Section):
    retention_days: int = Field(default=30, ge=0)

    @property
    def retention(self) -> timedelta:
        return timedelta(days=self.retention_days)


_NEEDS_CONSENT: tuple[Sensitivity, ...] = ("restricted",)


class ConsentPolicy(_Section):
    required_for: list[Sensitivity] = Field(default_factory=lambda: list(_NEEDS_CONSENT))


class Quotas(_Section):
    #: The active memories one principal may keep in one namespace (0: no limit). A write that
    #: would go past it is refused at the door (`QuotaExceeded`, `quota_exceeded`), even one
    #: that would replace a memory: the writer deletes some first. The commit holds it again in
    #: its transaction, so concurrent writes that all passed the door never overshoot it (there
    #: a replacement, which keeps the count, commits).
    memories_per_namespace: int = Field(default=100_000, ge=0)


#: The scopes of namespaces a promotion names (`tenant`: the tenant's own namespace).
PromotionScope = Literal["user", "team", "project", "agent", "thread", "tenant"]


class PromotionRule(_Section):
    """A memory of a `source` scope's namespace may be copied into a namespace of one of the
    `targets` scopes (`memory.promotion`)."""

    source: PromotionScope
    targets: list[PromotionScope] = Field(min_length=1)
    #: Whether a reviewer whose approve grants reach the target namespace must approve the
    #: copy first (a requester that may approve there, and is not candidate-only, is that
    #: reviewer; a candidate-only requester always waits for one).
    require_review: bool = True


_NEVER_PROMOTED: tuple[Sensitivity, ...] = ("restricted",)


def _promotion_rules() -> list[PromotionRule]:
    return [
        PromotionRule(source="user", targets=["team", "project"]),
        PromotionRule(source="team", targets=["project", "tenant"]),
        PromotionRule(source="project", targets=["tenant"]),
    ]


class PromotionPolicy(_Section):
    #: Sensitivity levels never promoted out of the namespace they were said in.
    never: list[Sensitivity] = Field(default_factory=lambda: list(_NEVER_PROMOTED))
    #: Which promotions are allowed; any other is refused.
    rules: list[PromotionRule] = Field(default_factory=_promotion_rules)

    def rule(self, source: str, target: str) -> PromotionRule | None:
        """The rule that allows promoting from a `source` scope to a `target` one, if any."""
        return next((r for r in self.rules if r.source == source and target in r.targets), None)


class Policy(_Section):
    limits: LimitPolicy = Field(default_factory=LimitPolicy)
    defaults: Defaults = Field(default_factory=Defaults)
    writes: WritePolicy = Field(default_factory=WritePolicy)
    review: Review = Field(default_factory=Review)
    retrieval: Retrieval = Field(default_factory=Retrieval)
    context: ContextShares = Field(default_factory=ContextShares)
    retention: Retention = Field(default_factory=Retention)
    backup: Backup = Field(default_factory=Backup)
    consent: ConsentPolicy = Field(default_factory=ConsentPolicy)
    feedback: FeedbackPolicy = Field(default_factory=FeedbackPolicy)
    quotas: Quotas = Field(default_factory=Quotas)
    promotion: PromotionPolicy = Field(default_factory=PromotionPolicy)


def load_policy(path: Path | None = None) -> Policy:
    path = path or DEFAULT_POLICY_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput(f"policy file {path} does not exist", field="policy_file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"policy file {path} is not valid TOML: {exc}") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidInput(f"policy file {path}: {where}: {first['msg']}", field=where) from None
