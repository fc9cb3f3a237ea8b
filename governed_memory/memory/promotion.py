"""Promotion: a memory of one namespace copied into a shared one (a user's into a team's or a
project's), as a governed step.

Who may: the requester writes the target namespace (of its own tenant) and reads the memory (a
user its own; anyone else by a read grant, within its sensitivity ceiling; a memory it may not
read is no memory to it, `NotFound`). What may: the policy's `[promotion]` rules name the scopes a
memory may go from and to; only an active memory, in no open conflict, not a thread summary (it
cites its own namespace's conversation), of a sensitivity the policy does not keep home
(`never`: restricted) and saying nothing the detectors flag (a secret, an injection, a special
category). Each refusal is a typed error and changes nothing.

Where a rule requires a review (or the requester is candidate-only), the promotion opens a
`promotion` review in the target namespace, answered by its reviewers through the usual review
run; a requester that may approve there itself is that review. The copy is then planned from the
memory as the canonical store holds it at approval (checked again: a memory deleted, changed or
no longer the requester's to promote meanwhile makes the approval a rejection).

The copy keeps what the memory says, its subject, kind, key, source type, confidence,
sensitivity, validity, expiry and consent; it cites the memory (`memory://{id}?version=N`) instead
of the conversation it was said in (a thread is its namespace's); it is written by the requester.
Lineage (copy → memory) is how a deletion of the memory finds the copy, and the commit holds the
memory at the version copied (`CommitPlan.derived_from`): a copy never outlives what it copies.
The target namespace saying it already is `unchanged`; a copy promoted before from the same
namespace and key is superseded by a newer one; any other value held there for the key is the
target's own, and is refused (correct or delete it there first).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from governed_memory.memory.errors import Forbidden, NotFound, PolicyRefusal, UnauthorizedNamespace
from governed_memory.memory.models import (
    SENSITIVITY_ORDER,
    AuditEvent,
    ExtractorInfo,
    MemoryRecord,
    Model,
    Principal,
    PromoteRequest,
    PromotionResult,
    ReviewRecord,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.plans import (
    CommitPlan,
    LineageLink,
    RecordChange,
    SlotCheck,
    slot_for,
)
from governed_memory.memory.policy import PromotionPolicy, PromotionRule
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.write.detectors import detect
from governed_memory.memory.write.stages import scanned_text

#: The extractor a promoted copy names: nothing was extracted, the memory was copied.
PROMOTER = ExtractorInfo(name="promotion", version="1")


class PromotionTask(Model):
    """What settling a promotion's review needs, kept with the review row: ids only."""

    source_id: str
    source_version: int
    requester: str
    copy_id: str


class PromotionPlan(Model):
    """A promotion planned: the commit (the copy, or the review it waits for; none when nothing
    changes), what the requester is told, and the review it opens."""

    plan: CommitPlan | None
    result: PromotionResult
    review: ReviewRecord | None = None


def scope_of(namespace: str) -> str:
    """A namespace's scope as the `[promotion]` rules name it (`tenant` for the tenant's own)."""
    return parse_namespace(namespace).scope or "tenant"


def source_ref(memory: MemoryRecord) -> str:
    """How a copy cites what it copies."""
    return f"memory://{memory.memory_id}?version={memory.version}"


def check_promotion(
    stores: Stores,
    requester: Principal,
    tenant: str,
    memory_id: str,
    target: str,
    at: datetime,
) -> tuple[MemoryRecord, PromotionRule]:
    """The memory to promote and the rule that allows it, once the requester may write the
    target and read the memory, and the policy allows it; else a typed refusal."""
    if requester.tenant != tenant or parse_namespace(target).tenant != tenant:
        raise UnauthorizedNamespace(
            f"{requester.ref} may not promote into {target}", field="target_namespace"
        )
    if not requester.can_write(target):
        raise UnauthorizedNamespace(
            f"{requester.ref} may not write to {target}", field="target_namespace"
        )
    source = stores.canonical.records.head(memory_id)
    if source is None or source.tenant_id != tenant or not _may_read(requester, source):
        raise NotFound(f"no memory {memory_id!r}", field="memory_id")
    if source.namespace == target:
        raise PolicyRefusal(f"memory {memory_id} is in {target} already", field="target_namespace")
    policy = stores.policy.promotion
    rule = policy.rule(scope_of(source.namespace), scope_of(target))
    if rule is None:
        raise PolicyRefusal(
            f"the policy allows no promotion from a {scope_of(source.namespace)} namespace to a "
            f"{scope_of(target)} one ([promotion] rules)",
            field="target_namespace",
        )
    _check_promotable(source, policy, at)
    return source, rule


def _may_read(p: Principal, memory: MemoryRecord) -> bool:
    """A user reads its own namespace; anyone else by a read grant, within its ceiling."""
    return p.own_namespace == memory.namespace or (
        p.can_read(memory.namespace)
        and SENSITIVITY_ORDER[memory.sensitivity] <= SENSITIVITY_ORDER[p.sensitivity_ceiling]
    )


def _check_promotable(source: MemoryRecord, policy: PromotionPolicy, at: datetime) -> None:
    """What the policy keeps home, refused."""
    memory_id = source.memory_id
    if source.status != "active" or source.expired_at(at):
        state = source.status if source.status != "active" else "expired"
        raise PolicyRefusal(
            f"memory {memory_id} is {state}: only an active memory is promoted", field="memory_id"
        )
    if source.conflict_group is not None:
        raise PolicyRefusal(
            f"memory {memory_id} is in an open conflict: a reviewer settles it first",
            field="memory_id",
        )
    if source.kind == "summary":
        raise PolicyRefusal(
            "a thread summary cites its own namespace's conversation: it is not promoted",
            field="memory_id",
        )
    if source.sensitivity in policy.never:
        raise PolicyRefusal(
            f"{source.sensitivity} memories are never promoted ([promotion] never)",
            field="sensitivity",
        )
    # What the write path screens: the content and the structured value (a record stored before
    # a detector learned more, or imported, is screened again before it leaves its namespace).
    found = sorted({d.reason for d in detect(scanned_text(source))})
    if found:
        raise PolicyRefusal(
            f"memory {memory_id} says what may not leave its namespace ({', '.join(found)})",
            field="memory_id",
        )


def check_promotion_reviewer(reviewer: Principal, task: dict[str, Any] | None) -> None:
    """A promotion's review is someone else's: not its requester's (who would answer for
    itself) and not a candidate-only principal's (whose own promotions wait for a review)."""
    if reviewer.candidate_only:
        raise Forbidden(f"{reviewer.ref} proposes only: it reviews no promotion", field="reviewer")
    if task is not None and task.get("requester") == reviewer.ref:
        raise Forbidden("a promotion is reviewed by someone other than who asked", field="reviewer")


def plan_promotion(
    stores: Stores,
    request: PromoteRequest,
    *,
    workflow_id: str,
    copy_id: str,
    review_id: str,
    at: datetime,
    commit_id: str,
) -> PromotionPlan:
    """Check the request against the stores and plan it: nothing when the target says it
    already or a review of this very request is open; a review where one is required; else the
    copy. Raises a typed error (and plans nothing) for what may not be promoted."""
    canonical = stores.canonical
    requester = canonical.principals.get(request.principal)
    target = request.target_namespace
    source, rule = check_promotion(stores, requester, request.tenant, request.memory_id, target, at)
    result = PromotionResult(
        workflow_id=workflow_id,
        status="promoted",
        source_id=source.memory_id,
        source_version=source.version,
        target_namespace=target,
    )
    held = _saying_it(canonical, source, target)
    if held is not None:
        return PromotionPlan(
            plan=None, result=result.model_copy(update={"status": "unchanged", "memory_id": held})
        )
    waiting = canonical.reviews.find(request.tenant, write_workflow_id=workflow_id)
    if waiting:  # asked again while its review is open
        return PromotionPlan(
            plan=None,
            result=result.model_copy(
                update={"status": "pending_review", "review_id": waiting[0].review_id}
            ),
        )
    approves = requester.can_approve(target) and not requester.candidate_only
    if (rule.require_review or requester.candidate_only) and not approves:
        return _waiting(source, requester, target, result, (review_id, copy_id), at, commit_id)
    plan, memory_id = copy_plan(
        stores,
        source,
        requester,
        target,
        copy_id=copy_id,
        at=at,
        commit_id=commit_id,
        workflow_id=workflow_id,
        approved_by=requester.ref if rule.require_review else None,
    )
    status = "promoted" if plan is not None else "unchanged"
    return PromotionPlan(
        plan=plan, result=result.model_copy(update={"status": status, "memory_id": memory_id})
    )


def _waiting(
    source: MemoryRecord,
    requester: Principal,
    target: str,
    result: PromotionResult,
    ids: tuple[str, str],
    at: datetime,
    commit_id: str,
) -> PromotionPlan:
    """The review a promotion waits for, in the target namespace, with its task (ids: the
    review's, and the copy's once approved)."""
    tenant = source.tenant_id
    review_id, copy_id = ids
    review = ReviewRecord(
        review_id=review_id,
        tenant_id=tenant,
        namespace=target,
        kind="promotion",
        reason_code="candidate_only" if requester.candidate_only else "promotion",
        workflow_id=f"review/{tenant}/{review_id}",
        write_workflow_id=result.workflow_id,
        memory_ids=[source.memory_id],
        opened_at=at,
    )
    task = PromotionTask(
        source_id=source.memory_id,
        source_version=source.version,
        requester=requester.ref,
        copy_id=copy_id,
    )
    plan = CommitPlan(
        commit_id=commit_id,
        tenant_id=tenant,
        namespace=target,
        at=at,
        workflow_id=result.workflow_id,
        audit=[
            AuditEvent(
                stage="promote",
                outcome="deferred",
                decision="defer",
                reason_code=review.reason_code,
                principal=requester.ref,
                details={**_about(source), "review_id": review_id},
            )
        ],
        reviews=[review],
        review_tasks={review_id: task.model_dump(mode="json")},
    )
    return PromotionPlan(
        plan=plan,
        result=result.model_copy(update={"status": "pending_review", "review_id": review_id}),
        review=review,
    )


def approved_promotion(
    stores: Stores,
    review: ReviewRecord,
    kept: dict[str, Any] | None,
    *,
    reviewer: str,
    at: datetime,
    commit_id: str,
) -> tuple[CommitPlan | None, str]:
    """A promotion its reviewer approved, planned from the memory as the store holds it now:
    still the requester's to promote, by the policy as it is, saying what it said when the
    promotion was asked. The plan (None: the target says it already) and the memory there."""
    if kept is None:
        raise PolicyRefusal("what the promotion needs was erased meanwhile", field="review")
    task = PromotionTask.model_validate(kept)
    requester = stores.canonical.principals.get(task.requester)
    source, _ = check_promotion(
        stores, requester, review.tenant_id, task.source_id, review.namespace, at
    )
    if source.version != task.source_version and not _unchanged_since(
        stores.canonical, source, task.source_version
    ):
        raise PolicyRefusal(
            f"memory {source.memory_id} changed since its promotion was asked", field="memory_id"
        )
    return copy_plan(
        stores,
        source,
        requester,
        review.namespace,
        copy_id=task.copy_id,
        at=at,
        commit_id=commit_id,
        workflow_id=review.workflow_id,
        approved_by=reviewer,
    )


def _unchanged_since(canonical: CanonicalStore, source: MemoryRecord, version: int) -> bool:
    """Whether the memory says now what it said at `version` (a confirmation makes a new
    version that says the same)."""
    versions = canonical.records.versions(source.memory_id)
    then = next((v for v in versions if v.version == version), None)
    return then is not None and then.content_hash == source.content_hash


def _says_same(held: MemoryRecord, source: MemoryRecord) -> bool:
    return (
        held.content_hash == source.content_hash
        or held.gist == source.gist
        or (
            source.key is not None
            and source.structured_value is not None
            and held.structured_value == source.structured_value
        )
    )


def _saying_it(canonical: CanonicalStore, source: MemoryRecord, target: str) -> str | None:
    """The memory of the target namespace that says what `source` says already, if any."""
    state = canonical.records.slot_state(target, slot_for(source.key, source.gist))
    return next(
        (r.memory_id for r in state.records if r.status == "active" and _says_same(r, source)),
        None,
    )


def _copied_before(canonical: CanonicalStore, held: MemoryRecord, source: MemoryRecord) -> bool:
    """Whether `held` is a copy promoted from the same namespace and key as `source` (a value
    promoted before, which a newer one replaces)."""
    links = [s.source_id for s in canonical.lineage.sources_of(held.memory_id)]
    origins = canonical.records.heads(links).values() if links else []
    return any(o.namespace == source.namespace and o.key == source.key for o in origins)


def copy_plan(
    stores: Stores,
    source: MemoryRecord,
    requester: Principal,
    target: str,
    *,
    copy_id: str,
    at: datetime,
    commit_id: str,
    workflow_id: str,
    approved_by: str | None,
) -> tuple[CommitPlan | None, str]:
    """The copy of `source` in `target` as one commit (the copy, the copies of the same key it
    replaces, lineage, audit), against the target's slot; None and the memory there when the
    target says it already."""
    canonical = stores.canonical
    slot = slot_for(source.key, source.gist)
    state = canonical.records.slot_state(target, slot)
    held = [r for r in state.records if r.status == "active"]
    same = next((r for r in held if _says_same(r, source)), None)
    if same is not None:
        return None, same.memory_id
    if any(not _copied_before(canonical, r, source) for r in held):
        raise PolicyRefusal(
            f"{target} holds a value of its own for {source.key}: correct or delete it there "
            "before promoting another",
            field="target_namespace",
        )
    copy = source.model_copy(
        update={
            "memory_id": copy_id,
            "namespace": target,
            "source_refs": [
                source_ref(source),
                *(r for r in source.source_refs if not r.startswith("msg://")),
            ],
            "recorded_at": at,
            "status": "active",
            "version": 1,
            "extractor": PROMOTER,
            "written_by": requester.ref,
            "conflict_group": None,
        }
    )
    return (
        CommitPlan(
            commit_id=commit_id,
            tenant_id=source.tenant_id,
            namespace=target,
            at=at,
            slots=[SlotCheck(slot=slot, expected_version=state.version)],
            workflow_id=workflow_id,
            new_records=[copy],
            changes=[
                RecordChange(
                    memory_id=r.memory_id,
                    expected_version=r.version,
                    status="superseded",
                    valid_to=at,
                    conflict_group=None,
                    change=f"superseded_by:{copy_id}",
                )
                for r in held
            ],
            audit=[
                AuditEvent(
                    stage="promote",
                    outcome="committed",
                    decision="update" if held else "add",
                    relation="SUPERSEDES" if held else "NEW",
                    memory_id=copy_id,
                    memory_version=1,
                    principal=requester.ref,
                    extractor=PROMOTER,
                    details={
                        **_about(source),
                        "approved_by": approved_by,
                        "superseded": [r.memory_id for r in held],
                    },
                )
            ],
            lineage=[
                LineageLink(
                    derived_id=copy_id,
                    derived_version=1,
                    source_kind="memory",
                    source_id=source.memory_id,
                )
            ],
            derived_from={source.memory_id: source.version},
            quota=stores.policy.quotas.memories_per_namespace,
        ),
        copy_id,
    )


def _about(source: MemoryRecord) -> dict[str, Any]:
    """What a promotion's audit says of its source (ids)."""
    return {
        "source_id": source.memory_id,
        "source_version": source.version,
        "source_namespace": source.namespace,
    }
