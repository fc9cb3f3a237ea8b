"""The Python client for agents: writes and deletions through Temporal, reads straight from the
stores (re-checked against canonical), all with the service's typed errors.

It is the service's door in process (the HTTP API, MCP and memctl act through it): a request's
principal is proven here, once, by its token (`bound(token)` for a caller's own; in process, one
minted with the embedded key), a write's text is screened here (a secret is redacted before any
workflow starts), and each run is started with a grant the service signs for that run alone
(memory.grants). No bearer token enters Temporal. Before attaching to a run already under a
request's workflow id, the client checks that run is the one it would have started.

    client = await MemoryClient.connect()
    result = await client.write("agent:shop-a/support-bot", "tenant/shop-a/user/123", candidate)
    found = await client.recall("agent:shop-a/support-bot", ["tenant/shop-a/user/123"], task="...")
    receipt = await client.forget("user:shop-a/123", DeletionScope(namespace=..., key=...))
"""

from __future__ import annotations

import asyncio
import copy
import os
import sys
import time
import uuid
from collections import Counter
from collections.abc import Coroutine, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, NoReturn, TypeVar

import structlog
from pydantic import BaseModel, ValidationError
from temporalio.client import (
    Client,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowUpdateFailedError,
)
from temporalio.service import RPCError

from governed_memory.activities.failures import (
    VERIFICATION_FAILED,
    client_error,
    failure_details,
    failure_type,
    service_error,
)
from governed_memory.memory import metrics
from governed_memory.memory.consents import Consent, ConsentRequest, ConsentRevocation
from governed_memory.memory.contracts.feedback import RunOutcome
from governed_memory.memory.errors import (
    ClockOverrideRefused,
    Forbidden,
    InvalidInput,
    NotFound,
    PolicyRefusal,
    ServiceUnavailable,
    UnauthorizedNamespace,
    from_validation_error,
)
from governed_memory.memory.feedback import (
    STARTING,
    FeedbackRequest,
    FeedbackResult,
    FeedbackStart,
    MemoryFeedbackEvent,
    correction_key,
    default_event_id,
    run_event_id,
)
from governed_memory.memory.grants import SYSTEM, Grants
from governed_memory.memory.identity import BearerToken, NoTokens, Tokens, identity_for
from governed_memory.memory.models import (
    MAX_BATCH,
    MAX_BATCH_BYTES,
    BatchRequest,
    BatchResult,
    Candidate,
    CandidateOutcome,
    DeleteRequest,
    DeletionReceipt,
    DeletionScope,
    EntityView,
    ExpireRequest,
    ExpireSummary,
    Kind,
    MemoryRecord,
    Model,
    Principal,
    PromoteRequest,
    PromotionResult,
    RecallQuery,
    RecallResult,
    RelayRequest,
    RelayResult,
    RepairReport,
    RepairRequest,
    ReviewDecision,
    ReviewOutcome,
    ReviewRecord,
    SummarizeRequest,
    SummaryResult,
    WriteRequest,
    WriteResult,
    request_size,
)
from governed_memory.memory.models.context import (
    ContextBudget,
    ContextPackage,
    ContextRequest,
    ContextValidation,
)
from governed_memory.memory.namespaces import check_tenant
from governed_memory.memory.promotion import check_promotion_reviewer
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.services.access import EXPORT_PAGE, Access, Caller, MemoryExport
from governed_memory.memory.services.consents import ConsentService
from governed_memory.memory.services.feedback import FeedbackOutcome, FeedbackService, RunReport
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores, open_stores
from governed_memory.memory.write.screening import redact_request, redact_secrets
from governed_memory.memory.write.stages import check_content_size, check_quota, check_write_allowed
from governed_memory.memory.write.statements import statements_of
from governed_memory.shell import tracing
from governed_memory.shell.runs import Runs
from governed_memory.shell.temporal import (
    connect,
    route,
)

log = structlog.get_logger("governed_memory.shell.client")

#: Memories one run report may name (each is a feedback event).
MAX_RUN_MEMORIES = 200
#: The result model of a sweep workflow.
S = TypeVar("S")


class GrantedStart(Model):
    """What an agent's own Temporal client starts: `workflow` under `workflow_id` on
    `task_queue`, with `input` (the request as the door screened it, with its grant)."""

    workflow: str
    """The workflow type to start (`WriteMemory`, `WriteBatch`, `DeleteSubject`,
    `SummarizeThread`)."""
    workflow_id: str
    """The id to start it under: the grant holds for this id only."""
    task_queue: str
    """The task queue to start it on (the service's)."""
    input: dict[str, Any]
    """The workflow's input, exactly as the service screened it (a secret in the text redacted),
    with the grant signed for this run in its `grant` field. Start it unchanged, encrypted with the
    service's codec key."""


class MemoryClient:
    def __init__(self, temporal: Client, settings: Settings, stores: Stores) -> None:
        self.settings = settings
        self.stores = stores
        self.reader = Reader(stores, clock_override=settings.allow_clock_override)
        self.identity = identity_for(settings)
        self.tokens = Tokens(settings, self.identity)
        #: Every read goes through the service's gate and ACL (memory/services/access.py).
        self.access = Access(stores, settings, self.identity, reader=self.reader)
        self.contexts = self.access.contexts
        self.feedbacks = FeedbackService(stores, settings, self.access)
        self.consent_registry = ConsentService(stores, settings)
        #: Starting, attaching to and waiting for runs (the thin Temporal client).
        self.runs = Runs(temporal, settings, ServiceKeys.for_settings(settings))

    @classmethod
    async def connect(cls, settings: Settings | None = None) -> MemoryClient:
        settings = settings or Settings()
        temporal = await connect(settings)
        return cls(temporal, settings, open_stores(settings))

    def close(self) -> None:
        self.stores.close()

    # The thin Temporal client's parts, as this façade's (tests and benches set them).

    @property
    def temporal(self) -> Client:
        return self.runs.temporal

    @property
    def keys(self) -> ServiceKeys:
        return self.runs.keys

    @property
    def grants(self) -> Grants:
        return self.runs.grants

    @property
    def eager(self) -> bool:
        return self.runs.eager

    @eager.setter
    def eager(self, on: bool) -> None:
        self.runs.eager = on

    @property
    def search_attributes(self) -> bool:
        return self.runs.search_attributes

    @search_attributes.setter
    def search_attributes(self, on: bool) -> None:
        self.runs.search_attributes = on

    def subject_key(self, tenant: str, subject: str) -> str:
        """The `MemorySubject` search attribute of a deletion about `subject` (`user:123`)."""
        return self.runs.subject_key(tenant, subject)

    # ------------------------------------------------------------------------ principals

    def bound(self, token: str) -> MemoryClient:
        """This client acting only for the principal `token` proves: every request it makes
        carries that token (the HTTP API answers each request with one)."""
        other = copy.copy(self)
        other.tokens = BearerToken(token)
        return other

    def serving(self) -> MemoryClient:
        """This client as a door that serves callers holds it: it mints no token and presents
        none of its own, so it acts only once `bound` to a request's token (the HTTP API and
        the MCP server hold this; memctl, the demo and tests in process keep the minting one)."""
        other = copy.copy(self)
        other.tokens = NoTokens()
        return other

    def token_for(self, principal: str, roles: Sequence[str] = ()) -> str:
        """A token proving `principal` (memory.identity.Tokens)."""
        return self.tokens.for_(principal, roles)

    def admin_token(self, tenant: str) -> str:
        return self.tokens.admin(check_tenant(tenant))

    def operator_token(self, tenant: str) -> str:
        return self.tokens.operator(check_tenant(tenant))

    def register_principal(
        self, principal: Principal | dict[str, Any], *, token: str | None = None
    ) -> Principal:
        """Create or replace a principal (agents, reviewers and services must be registered):
        only an admin of its tenant may (`token`, by default `admin_token`)."""
        if token is None:
            tenant = (
                principal.tenant
                if isinstance(principal, Principal)
                else str(principal.get("tenant", ""))
            )
            token = self.admin_token(tenant)
        return self.access.put_principal(token, principal)

    def attest(self, tool: str, refs: Sequence[str], *, token: str | None = None) -> list[str]:
        """A tool vouches for references it issued, so agents may relay its facts as
        `verified_tool_fact` (memory/services/access.py)."""
        return self.access.attest(token or self.token_for(tool), refs)

    # ------------------------------------------------------------------------ consents

    def give_consent(
        self, principal: str, subject: str, purpose: str, *, at: datetime | None = None
    ) -> Consent:
        """Record a consent `subject` gave for `purpose`, as `principal` (the subject themself,
        or a principal that may write the subject's namespace). Its id is what a candidate's
        `consent_ref` names."""
        self._check_clock(at)
        caller = self.prove(principal)
        try:
            request = ConsentRequest(subject=subject, purpose=purpose)
        except ValidationError as exc:
            raise from_validation_error(exc, "consent") from None
        return self.consent_registry.give(caller, request, at=at)

    def consents(self, principal: str, subject: str | None = None) -> list[Consent]:
        """The consents of `subject` (default: the principal's own) `principal` may see."""
        return self.consent_registry.of_subject(self.prove(principal), subject)

    def revoke_consent(
        self, principal: str, consent_id: str, *, at: datetime | None = None
    ) -> ConsentRevocation:
        """Revoke a consent: what depended on it is invalidated, out of every read path."""
        self._check_clock(at)
        return self.consent_registry.revoke(self.prove(principal), consent_id, at=at)

    # ------------------------------------------------------------------------ writes

    def _check_clock(self, at: datetime | None) -> None:
        if at is not None and not self.settings.allow_clock_override:
            raise ClockOverrideRefused(
                "`at` is a clock override for evaluation and tests; enable it with "
                "MEMORY_ALLOW_CLOCK_OVERRIDE=true",
                field="at",
            )

    def write_request(
        self,
        principal: str,
        namespace: str,
        candidate: Candidate | dict[str, Any] | None = None,
        *,
        text: str | None = None,
        thread: str | None = None,
        idempotency_key: str | None = None,
        at: datetime | None = None,
    ) -> WriteRequest:
        """The door of a write: the principal proven by its token, everything that can be
        validated checked, and the text screened — a secret in it is redacted here
        (``[REDACTED:<category>]``), so it never reaches a workflow's history; the pipeline then
        refuses what was redacted, as it refuses any secret."""
        try:
            request = WriteRequest.model_validate(
                {
                    "principal": principal,
                    "namespace": namespace,
                    "candidate": candidate,
                    "utterance": None if text is None else {"text": text, "thread": thread},
                    "idempotency_key": idempotency_key or uuid.uuid4().hex,
                    "at": at,
                }
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "write") from None
        self.prove(principal, namespace=namespace)
        self._check_clock(at)
        # the registry entry the proof just read (reads' copy, PRINCIPAL_TTL old at most: the
        # worker checks the writer again in the store it commits to)
        who = self.reader.principal(principal)
        check_write_allowed(who, namespace)
        content = request.candidate.content if request.candidate else request.utterance.text  # type: ignore[union-attr]
        check_content_size(content, self.stores.policy)
        self.check_quota([request])
        return redact_request(request)

    def check_quota(self, requests: Sequence[WriteRequest]) -> None:
        """Refuses (`QuotaExceeded`, before anything starts) writes whose writer would keep
        more active memories in a namespace than the policy's `[quotas]
        memories_per_namespace`: each (writer, namespace) of `requests` counted once, with as
        many writes as it has there. An indexed count per pair; none when there is no quota."""
        policy = self.stores.policy
        if not policy.quotas.memories_per_namespace:
            return
        adding = Counter((r.principal, r.namespace) for r in requests)
        if len(adding) == 1:
            [((principal, namespace), n)] = adding.items()
            kept = self.stores.canonical.records.active_count(namespace, principal)
            check_quota(kept, n, policy, principal, namespace)
            return
        counts = self.stores.canonical.records.active_counts((ns, w) for w, ns in adding)
        for (principal, namespace), n in adding.items():
            check_quota(counts[(namespace, principal)], n, policy, principal, namespace)

    async def write(
        self,
        principal: str,
        namespace: str,
        candidate: Candidate | dict[str, Any],
        *,
        idempotency_key: str | None = None,
        at: datetime | None = None,
    ) -> WriteResult:
        """propose: run WriteMemory on a ready candidate and wait for its decision."""
        return await self.run_write(
            await asyncio.to_thread(
                self.write_request,
                principal,
                namespace,
                candidate,
                idempotency_key=idempotency_key,
                at=at,
            )
        )

    async def observe(
        self,
        principal: str,
        namespace: str,
        text: str,
        *,
        thread: str | None = None,
        idempotency_key: str | None = None,
        at: datetime | None = None,
    ) -> WriteResult:
        """observe: keep a raw message in the conversation history, extract what is worth
        remembering, and wait for one decision per candidate. The result says, sentence by
        sentence, what was kept and what was not and why (`WriteResult.statements`)."""
        request = await asyncio.to_thread(
            self.write_request,
            principal,
            namespace,
            text=text,
            thread=thread,
            idempotency_key=idempotency_key,
            at=at,
        )
        result = await self.run_write(request)
        assert request.utterance is not None
        # the text as the pipeline read it: screened once, at the door
        result.statements = statements_of(text, result.outcomes, seen=request.utterance.text)
        return result

    def prove(self, principal: str, *, namespace: str | None = None) -> Caller:
        """The door's one check of who asks: this client's token for `principal` (a bound
        client's caller's own) must prove it. Refused: `Unauthenticated`, before anything."""
        return self.access.caller(self.token_for(principal), principal, namespace=namespace)

    def start_for(self, request: BaseModel) -> GrantedStart:
        """What starting `request` takes, for an agent that starts the workflow from its own
        Temporal client: the workflow, its id and task queue, and the input with the grant the
        service signs for that run (the request must have come through this door: built by
        `write_request`, `delete_request`, `summarize_request`, ...). A sweep covers every tenant:
        only the service itself (a client acting for no one caller) may start one."""
        where = route(self.keys, request)
        if where.principal == SYSTEM and isinstance(self.tokens, BearerToken):
            raise Forbidden(f"only the service itself starts {where.workflow}", field="workflow")
        granted = request.model_copy(
            update={
                "grant": self.runs.grant(
                    where.workflow, where.workflow_id, request, where.principal, where.tenant
                )
            }
        )
        return GrantedStart(
            workflow=where.workflow,
            workflow_id=where.workflow_id,
            task_queue=self.settings.task_queue,
            input=granted.model_dump(mode="json"),
        )

    async def run_write(self, request: WriteRequest) -> WriteResult:
        result = await self.runs.result(await self.start_write(request))
        mine = (request.principal, request.idempotency_key)
        filled = await asyncio.to_thread(self._with_values, request.tenant, {mine: result.outcomes})
        result.outcomes = filled[mine]
        return result

    def _with_values(
        self, tenant: str, decided: dict[tuple[str, str], list[CandidateOutcome]]
    ) -> dict[tuple[str, str], list[CandidateOutcome]]:
        """Workflow history carries outcomes without their values (what was said): the values
        come from the outcomes kept by idempotency key (blank once a deletion erased them)."""
        stored = self.stores.canonical.outcomes.many(tenant, list(decided))
        return {
            key: stored[key] if len(stored.get(key, ())) == len(outcomes) else outcomes
            for key, outcomes in decided.items()
        }

    async def start_write(self, request: WriteRequest) -> WorkflowHandle[Any, WriteResult]:
        """Start WriteMemory and return at once (background mode); same id, same run."""
        return await self.runs.start(request, WriteResult)

    # ------------------------------------------------------------------------ background

    async def start_batch(self, requests: Sequence[WriteRequest]) -> WorkflowHandle[Any, Any]:
        """Start WriteBatch for many writes of one tenant and return at once (background mode).

        Each write keeps its own decision, audit and idempotency key; the same set of keys
        attaches to the same run, and a key decided before returns its stored outcome.
        """
        tenants = {r.tenant for r in requests}
        if len(tenants) != 1:
            raise InvalidInput("a batch holds the writes of exactly one tenant", field="requests")
        if not 0 < len(requests) <= MAX_BATCH:
            raise InvalidInput(f"a batch holds 1 to {MAX_BATCH} writes", field="requests")
        if len(requests) > 1 and sum(map(request_size, requests)) > MAX_BATCH_BYTES:
            raise InvalidInput(
                f"a batch holds at most {MAX_BATCH_BYTES} bytes of writes; "
                "split it with memory.write.batch.cut",
                field="requests",
            )
        writers = sorted({r.principal for r in requests})
        await asyncio.to_thread(self._admit_batch, writers, requests)  # SQL: off the event loop
        batch = BatchRequest(requests=list(requests))
        return await self.runs.start(batch, BatchResult, eager=False)

    def _admit_batch(self, writers: Sequence[str], requests: Sequence[WriteRequest]) -> None:
        """The door's checks of a batch, in one trip off the loop: every writer proven, then
        the quota of every (writer, namespace) counted at once."""
        for writer in writers:
            self.prove(writer)
        self.check_quota(requests)

    async def write_batch(self, requests: Sequence[WriteRequest]) -> BatchResult:
        result: BatchResult = await self.runs.result(await self.start_batch(requests))
        pairs = [(r.principal, r.idempotency_key) for r in requests]
        filled = await asyncio.to_thread(
            self._with_values,
            requests[0].tenant,
            {pair: item.outcomes for pair, item in zip(pairs, result.items, strict=True)},
        )
        for pair, item in zip(pairs, result.items, strict=True):
            item.outcomes = filled[pair]
        return result

    def write_outcome(
        self, tenant: str, idempotency_key: str, principal: str, *, token: str | None = None
    ) -> list[CandidateOutcome] | None:
        """The decision of a principal's write by its idempotency key (None while it is not
        decided): only that principal reads it."""
        return self.access.outcome(token or self.token_for(principal), tenant, idempotency_key)

    # ------------------------------------------------------------------------ reviews

    def open_reviews(self, reviewer: str, *, token: str | None = None) -> list[ReviewRecord]:
        """The open reviews `reviewer` may answer (an operator: all of its tenant's)."""
        return self.access.reviews(token or self.token_for(reviewer))

    def find_review(
        self,
        reviewer: str,
        *,
        memory_id: str | None = None,
        write_workflow_id: str | None = None,
        token: str | None = None,
    ) -> ReviewRecord:
        """The open review of a conflict side (by memory id) or of a deferred write, among those
        `reviewer` may answer."""
        canonical = self.stores.canonical
        mine = self.access.reviews(token or self.token_for(reviewer))
        found: list[ReviewRecord] = []
        if write_workflow_id is not None:
            found = [r for r in mine if r.write_workflow_id == write_workflow_id]
        if not found and memory_id is not None:
            head = canonical.records.head(memory_id)
            if head is not None and head.conflict_group:
                found = [r for r in mine if r.conflict_group == head.conflict_group]
            if not found:
                found = [r for r in mine if memory_id in r.memory_ids]
        if not found:
            raise NotFound("no open review for that write or memory", field="review")
        return found[0]

    async def review(
        self,
        reviewer: str,
        review_id: str,
        decision: str,
        *,
        memory_id: str | None = None,
        at: datetime | None = None,
    ) -> ReviewOutcome:
        """Answer an open review through its workflow's `review` Update."""
        answer, workflow_id = await asyncio.to_thread(
            self._review_answer, reviewer, review_id, decision, memory_id, at
        )
        handle = self.temporal.get_workflow_handle(workflow_id)
        try:
            outcome: ReviewOutcome = await handle.execute_update(
                "review", answer, result_type=ReviewOutcome
            )
            return outcome
        except (WorkflowUpdateFailedError, RPCError) as exc:
            typed = service_error(exc)
            if typed is not None:
                raise typed from None
            cause = getattr(exc, "cause", None) or exc
            raise PolicyRefusal(f"review refused: {getattr(cause, 'message', cause)}") from None

    def _review_answer(
        self,
        reviewer: str,
        review_id: str,
        decision: str,
        memory_id: str | None,
        at: datetime | None,
    ) -> tuple[ReviewDecision, str]:
        """The door of a review's answer: who answers may approve there, the review is open;
        the answer granted for that review's run."""
        self._check_clock(at)
        self.prove(reviewer)
        who = self.stores.canonical.principals.get(reviewer)
        review = self.stores.canonical.reviews.get(review_id)
        if who.tenant != review.tenant_id or not who.can_approve(review.namespace):
            raise UnauthorizedNamespace(
                f"{who.ref} may not approve in {review.namespace}", field="reviewer"
            )
        if review.kind == "promotion":
            check_promotion_reviewer(who, self.stores.canonical.reviews.task(review_id))
        if review.status != "open":
            raise PolicyRefusal(f"review {review_id} is already {review.status}", field="review")
        try:
            answer = ReviewDecision(reviewer=who.ref, decision=decision, memory_id=memory_id, at=at)
        except ValidationError as exc:
            raise from_validation_error(exc, "review") from None
        answer.grant = self.runs.grant(
            "ReviewMemory.review", review.workflow_id, answer, who.ref, review.tenant_id
        )
        return answer, review.workflow_id

    # ------------------------------------------------------------------------ reads

    async def recall(
        self,
        principal: str,
        namespaces: Sequence[str],
        *,
        task: str = "",
        query: str | None = None,
        keys: Sequence[str] = (),
        kinds: Sequence[Kind] | None = None,
        k: int = 5,
        at: datetime | None = None,
        valid_at: datetime | None = None,
        token: str | None = None,
    ) -> RecallResult:
        try:
            q = RecallQuery(
                principal=principal,
                namespaces=list(namespaces),
                task=task,
                query=query,
                keys=list(keys),
                kinds=list(kinds) if kinds is not None else None,
                k=k,
                at=at,
                valid_at=valid_at,
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "recall") from None
        with metrics.RECALL_SECONDS.time():
            # SQL and numpy: on a worker thread, never on the caller's event loop (the API's)
            return await asyncio.to_thread(
                self.access.recall, token or self.token_for(principal), q
            )

    def entity(
        self,
        principal: str,
        name: str,
        namespaces: Sequence[str] | None = None,
        *,
        at: datetime | None = None,
        token: str | None = None,
    ) -> EntityView:
        """What the memories `principal` may read say of one entity (a name, an id, a role),
        in `namespaces` (default: the principal's own)."""
        self._check_clock(at)
        if not name.strip():
            raise InvalidInput("name the entity", field="name")
        if namespaces is None:
            own = self.stores.canonical.principals.get(principal).own_namespace
            if own is None:
                raise InvalidInput("name the namespaces to look in", field="namespaces")
            namespaces = [own]
        return self.access.entity(
            token or self.token_for(principal), principal, name.strip(), list(namespaces), at=at
        )

    async def build_context(
        self,
        principal: str,
        namespaces: Sequence[str],
        task: str,
        budget: ContextBudget | dict[str, Any],
        *,
        token: str | None = None,
        **extra: Any,
    ) -> ContextPackage:
        """A budgeted context package for an agent's next model call (memory/context.py)."""
        try:
            request = ContextRequest.model_validate(
                {
                    "principal": principal,
                    "namespaces": list(namespaces),
                    "task": task,
                    "budget": budget,
                    **extra,
                }
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "context") from None
        with metrics.CONTEXT_SECONDS.time():
            package = await asyncio.to_thread(
                self.access.context, token or self.token_for(principal), request
            )
        metrics.CONTEXT_MEMORY_SHARE.observe(package.memory_token_share)
        return package

    def validate_context(
        self, package: ContextPackage, *, token: str | None = None
    ) -> ContextValidation:
        return self.access.validate_context(token or self.token_for(package.principal), package)

    # ------------------------------------------------------------------------ summaries

    async def summarize(
        self,
        principal: str,
        thread: str,
        *,
        namespace: str | None = None,
        range: tuple[int, int] | None = None,
        at: datetime | None = None,
    ) -> SummaryResult:
        """Run SummarizeThread: a new summary version of a namespace's thread (or of a message
        range); a user's own namespace by default."""
        request = await asyncio.to_thread(
            self.summarize_request, principal, thread, namespace=namespace, range=range, at=at
        )
        handle = await self.runs.start(request, SummaryResult)
        result: SummaryResult = await self.runs.result(handle)
        if result.content is None and result.memory_id and not result.unchanged:
            # History carries ids: the text is the committed summary's.
            heads = await asyncio.to_thread(self.stores.canonical.records.heads, [result.memory_id])
            head = heads.get(result.memory_id)
            result.content = head.content if head is not None else None
        return result

    def summarize_request(
        self,
        principal: str,
        thread: str,
        *,
        namespace: str | None = None,
        range: tuple[int, int] | None = None,
        at: datetime | None = None,
    ) -> SummarizeRequest:
        """The door of a summary: the principal proven, the request validated. A thread is a
        namespace's: a user's own by default; anyone else names it."""
        self._check_clock(at)
        self.prove(principal, namespace=namespace)
        who = self.stores.canonical.principals.get(principal)
        namespace = namespace or who.own_namespace
        if namespace is None:
            raise InvalidInput("name the namespace whose thread to summarise", field="namespace")
        try:
            return SummarizeRequest(
                principal=principal,
                tenant=who.tenant,
                namespace=namespace,
                thread=thread,
                range=range,
                at=at,
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "summarize") from None

    # ------------------------------------------------------------------------ promotion

    async def promote(
        self,
        principal: str,
        memory_id: str,
        target_namespace: str,
        *,
        at: datetime | None = None,
    ) -> PromotionResult:
        """Run PromoteMemory: copy a memory into a shared namespace (a user's into a team's or a
        project's) as the policy's `[promotion]` rules allow, keeping its lineage
        (memory/promotion.py). Where a review is required the result is `pending_review`, and
        a reviewer of the target namespace answers `review_id` (`review`)."""
        request = await asyncio.to_thread(
            self.promote_request, principal, memory_id, target_namespace, at=at
        )
        return await self.run_promotion(request)

    async def run_promotion(self, request: PromoteRequest) -> PromotionResult:
        result: PromotionResult = await self.runs.result(
            await self.runs.start(request, PromotionResult)
        )
        return result

    def promote_request(
        self,
        principal: str,
        memory_id: str,
        target_namespace: str,
        *,
        at: datetime | None = None,
    ) -> PromoteRequest:
        """The door of a promotion: the principal proven, the request validated, and the same
        checks the run makes (rights, policy, the memory's state), to refuse before anything
        starts."""
        from governed_memory.memory.promotion import check_promotion

        self._check_clock(at)
        self.prove(principal, namespace=target_namespace)
        who = self.stores.canonical.principals.get(principal)
        try:
            request = PromoteRequest(
                principal=principal,
                tenant=who.tenant,
                memory_id=memory_id,
                target_namespace=target_namespace,
                at=at,
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "promotion") from None
        check_promotion(
            self.stores, who, who.tenant, memory_id, target_namespace, at or datetime.now(UTC)
        )
        return request

    # ------------------------------------------------------------------------ deletion

    def delete_request(
        self,
        principal: str,
        scope: DeletionScope | dict[str, Any],
        *,
        at: datetime | None = None,
    ) -> DeleteRequest:
        from governed_memory.memory.deletion import authorize_deletion, resolve

        try:
            s = scope if isinstance(scope, DeletionScope) else DeletionScope.model_validate(scope)
            self.prove(principal, namespace=s.namespace)
            who = self.stores.canonical.principals.get(principal)
            if (s.source_ref or "").startswith("msg://") and s.namespace is None:
                # a message is of a namespace's thread: a user's own by default
                s = s.model_copy(update={"namespace": who.own_namespace})
            if s.text is not None:
                # a request in words is screened like any text: no secret enters a history
                s = s.model_copy(update={"text": redact_secrets(s.text)})
            request = DeleteRequest(principal=principal, tenant=who.tenant, scope=s, at=at)
        except ValidationError as exc:
            raise from_validation_error(exc, "deletion scope") from None
        self._check_clock(at)
        # The same resolution the workflow makes, to refuse before anything starts.
        resolved = resolve(self.stores, request.tenant, s, may_delete=who.can_delete)
        authorize_deletion(who, request.tenant, resolved)
        return request

    async def forget(
        self,
        principal: str,
        scope: DeletionScope | dict[str, Any],
        *,
        at: datetime | None = None,
    ) -> DeletionReceipt:
        """Run DeleteSubject to the end and return its durable receipt."""
        request = await asyncio.to_thread(self.delete_request, principal, scope, at=at)
        return await self._run_deletion(request)

    async def _run_deletion(self, request: DeleteRequest) -> DeletionReceipt:
        # A repeated request for the same scope attaches to the running deletion; once it ended,
        # a new request deletes again (what was written since).
        handle = await self.runs.start(
            request, DeletionReceipt, subject=deletion_subject(request.scope)
        )
        try:
            claimed = await self.runs.waited(handle)
        except WorkflowFailureError as exc:
            # A failed verification fails the run; its receipt travels with the failure.
            if failure_type(exc) != VERIFICATION_FAILED:
                raise client_error(exc) from None
            claimed = DeletionReceipt.model_validate(failure_details(exc)[0])
        except RPCError as exc:
            raise client_error(exc) from None
        return await asyncio.to_thread(self._stored_receipt, claimed, handle.id)

    def _stored_receipt(self, claimed: DeletionReceipt, workflow_id: str) -> DeletionReceipt:
        """A run's result is a claim too: the receipt is the one the canonical store keeps for
        that deletion, saved by this very workflow."""
        try:
            stored = self.stores.canonical.receipts.get(claimed.deletion_id)
        except NotFound:
            stored = None
        if stored is None or stored.workflow_id != workflow_id:
            raise ServiceUnavailable(
                f"run {workflow_id} answered with a receipt the store does not hold"
            )
        return stored

    async def expire(self, *, at: datetime | None = None) -> ExpireSummary:
        """Run the expiry sweep now (ExpireMemories); `at` is the evaluation clock."""
        self._check_clock(at)
        return await self._sweep(ExpireRequest(at=at), ExpireSummary)

    async def relay(self) -> RelayResult:
        """Apply the unprocessed outbox to the projection now (RelayOutbox)."""
        return await self._sweep(RelayRequest(), RelayResult)

    async def repair(self, *, full: bool = False, at: datetime | None = None) -> RepairReport:
        """Run RepairProjections now: what changed since the last repair, or everything."""
        self._check_clock(at)
        return await self._sweep(RepairRequest(full=full, at=at), RepairReport)

    async def _sweep(self, request: BaseModel, result_type: type[S]) -> S:
        """Run a sweep workflow to the end under an id of its own (`sweep/{name}/…`). A sweep
        covers every tenant: only the service itself (a process holding its keys) starts one."""
        start = self.start_for(request)
        granted = type(request).model_validate(start.input)
        return await self.runs.sweep(granted, start.workflow_id, result_type)

    def receipt(
        self, deletion_id: str, principal: str, *, token: str | None = None
    ) -> DeletionReceipt:
        """A durable deletion receipt, for who asked for it, whom it is about, who may delete or
        read in its namespace, or an operator."""
        return self.access.receipt(token or self.token_for(principal), deletion_id)

    # ------------------------------------------------------------------------ feedback

    async def feedback(
        self,
        principal: str,
        memory_id: str,
        feedback_type: str,
        *,
        source: str | None = None,
        run_id: str | None = None,
        evidence_refs: Sequence[str] = (),
        memory_version: int | None = None,
        correction: dict[str, Any] | None = None,
        occurred_at: datetime | None = None,
        event_id: str | None = None,
        token: str | None = None,
    ) -> FeedbackOutcome:
        """Feedback on a memory (memory/feedback.py), recorded with its effect. Feedback that
        starts something (a `harmful` report's review, a `corrected` value's write as the caller
        through the whole write pipeline, a `deleted` memory's deletion) runs as RecordFeedback,
        which starts each effect durably; the rest is one transaction, recorded here."""
        token = token or self.token_for(principal)
        try:
            request = FeedbackRequest.model_validate(
                {
                    "principal": principal,
                    "memory_id": memory_id,
                    "feedback_type": feedback_type,
                    "source": source,
                    "run_id": run_id,
                    "evidence_refs": list(evidence_refs),
                    "memory_version": memory_version,
                    "correction": correction,
                    "occurred_at": occurred_at,
                    "event_id": event_id,
                }
            )
        except ValidationError as exc:
            raise from_validation_error(exc, "feedback") from None
        if request.feedback_type not in STARTING:  # one transaction, here
            recorded = await asyncio.to_thread(self.feedbacks.record, token, request)
            return FeedbackOutcome(**recorded.model_dump())
        started = time.perf_counter()
        start = await asyncio.to_thread(self._feedback_start, principal, token, request)
        handle, attached = await self.runs.launch(start, FeedbackResult)
        done: FeedbackResult = await self.runs.result(handle)
        outcome = await asyncio.to_thread(self._feedback_outcome, start, done, attached)
        if start.write is not None:
            metrics.CORRECTION_SECONDS.observe(time.perf_counter() - started)
        return outcome

    def _feedback_start(
        self, principal: str, token: str, request: FeedbackRequest
    ) -> FeedbackStart:
        """The door of feedback that starts something: the caller may judge the memory, and
        the write or deletion it implies is built (and checked) here, before anything starts."""
        caller = self.access.caller(token, principal)
        head = self.feedbacks.check(token, request)
        event = (
            request.event_id
            or default_event_id(caller.ref, request, request.memory_version or head.version)
            or f"fb_{uuid.uuid4().hex}"
        )
        write: WriteRequest | None = None
        deletion: DeleteRequest | None = None
        if request.feedback_type == "corrected":
            write = self._correction(principal, head, request, event)
        elif request.feedback_type == "deleted":
            scope = DeletionScope(namespace=head.namespace, memory_id=request.memory_id)
            deletion = self.delete_request(principal, scope, at=self._clock(request.occurred_at))
        return FeedbackStart(
            feedback=request.model_copy(update={"event_id": event, "correction": None}),
            roles=sorted(caller.roles),
            write=write,
            deletion=deletion,
        )

    def _feedback_outcome(
        self, start: FeedbackStart, done: FeedbackResult, attached: bool
    ) -> FeedbackOutcome:
        """What the run did, with the values history does not carry read back from the store."""
        outcome = FeedbackOutcome(**done.receipt.model_dump())
        # asked again: the first answer
        outcome.replayed = outcome.replayed or attached
        outcome.review = (
            None
            if done.receipt.review is None
            else done.receipt.review.model_copy(update={"grant": None})
        )
        write = start.write
        if write is not None:
            mine = (write.principal, write.idempotency_key)
            outcome.correction = self._with_values(write.tenant, {mine: done.correction})[mine]
        if done.deletion is not None and done.deletion_workflow_id is not None:
            outcome.deletion = self._stored_receipt(done.deletion, done.deletion_workflow_id)
        return outcome

    def _clock(self, at: datetime | None) -> datetime | None:
        """`at` as the clock of what feedback starts, where the clock override is on."""
        return at if self.settings.allow_clock_override else None

    def _correction(
        self, principal: str, head: MemoryRecord, request: FeedbackRequest, event_id: str
    ) -> WriteRequest:
        """The write of a corrected value: a candidate of the memory's kind and key (or words to
        extract from), by the caller, keyed by the feedback event (asked again, one write)."""
        correction = dict(request.correction or {})
        key = correction_key(event_id)
        at = self._clock(request.occurred_at)
        if set(correction) == {"text"}:
            return self.write_request(
                principal, head.namespace, text=str(correction["text"]), idempotency_key=key, at=at
            )
        candidate = {"kind": head.kind, "key": head.key, **correction}
        return self.write_request(principal, head.namespace, candidate, idempotency_key=key, at=at)

    async def report_run(
        self,
        principal: str,
        run_id: str,
        *,
        package: ContextPackage | None = None,
        shown: Sequence[str] = (),
        used: Sequence[str] = (),
        harmful: Sequence[str] = (),
        outcome: RunOutcome | None = None,
        token: str | None = None,
    ) -> RunReport:
        """An agent reports a run: the memories it used, those it had in context (`package`'s
        memory items and `shown`) and did not use (each `ignored`), those that hurt it
        (`harmful`: quarantined, reviewed), and how the run ended. Reporting the same run again
        records nothing twice."""
        token = token or self.token_for(principal)
        in_context = [i.memory_id for i in package.items if i.memory_id] if package else []
        everything = list(dict.fromkeys([*in_context, *shown, *used, *harmful]))
        if len(everything) > MAX_RUN_MEMORIES:
            raise InvalidInput(
                f"a run report names at most {MAX_RUN_MEMORIES} memories", field="shown"
            )
        kinds: dict[str, str] = {}
        for memory_id in everything:
            if memory_id in harmful:
                kinds[memory_id] = "harmful"
            elif memory_id in used:
                kinds[memory_id] = "used"
            else:
                kinds[memory_id] = "ignored"
        report = RunReport(run_id=run_id, outcome=outcome)
        for memory_id, kind in kinds.items():
            try:
                receipt = await self.feedback(
                    principal,
                    memory_id,
                    kind,
                    run_id=run_id,
                    event_id=run_event_id(principal, run_id, memory_id, kind),
                    token=token,
                )
            except NotFound:
                report.skipped.append(memory_id)
                continue
            report.events.append(receipt)
        first_time = not report.events or not all(e.replayed for e in report.events)
        if outcome is not None and first_time:  # a run reported again is counted once
            caused = outcome == "failure" and any(k == "harmful" for k in kinds.values())
            metrics.TASK_RUNS.labels(outcome, str(caused).lower()).inc()
        return report

    def feedback_on(
        self, principal: str, memory_id: str, *, token: str | None = None
    ) -> list[MemoryFeedbackEvent]:
        """The feedback kept on a memory, for whoever may see it."""
        return self.feedbacks.of_memory(token or self.token_for(principal), memory_id)

    def run_feedback(
        self, principal: str, run_id: str, *, token: str | None = None
    ) -> list[MemoryFeedbackEvent]:
        """The feedback of one run, as far as `principal` may see it."""
        return self.feedbacks.of_run(token or self.token_for(principal), run_id)

    # ------------------------------------------------------------------------ records

    def audit(
        self,
        principal: str,
        *,
        memory_id: str | None = None,
        workflow_id: str | None = None,
        token: str | None = None,
    ) -> list[dict[str, Any]]:
        """The audit trail of a memory or a run, as far as `principal` may see it."""
        return self.access.audit(
            token or self.token_for(principal), memory_id=memory_id, workflow_id=workflow_id
        )

    def history(
        self, principal: str, memory_id: str, *, token: str | None = None
    ) -> list[MemoryRecord]:
        return self.access.history(token or self.token_for(principal), memory_id)

    def export(self, principal: str, namespace: str, *, token: str | None = None) -> MemoryExport:
        """Everything kept about a namespace (a user's own, or one `principal` may read)."""
        return self.access.export(token or self.token_for(principal), namespace)

    def export_page(
        self,
        principal: str,
        namespace: str,
        after: str | None = None,
        limit: int = EXPORT_PAGE,
        *,
        versions: bool = True,
        token: str | None = None,
    ) -> MemoryExport:
        """One page of an export: `limit` memories after `after`, and in `next` where the next
        page starts (None: the last)."""
        return self.access.export_page(
            token or self.token_for(principal), namespace, after, limit, versions=versions
        )

    def export_pages(
        self,
        principal: str,
        namespace: str,
        *,
        limit: int = EXPORT_PAGE,
        versions: bool = True,
        token: str | None = None,
    ) -> Iterator[MemoryExport]:
        """Every page of an export, read as they are asked for (refused, if at all, by this
        call: before the first page)."""
        return self.access.export_pages(
            token or self.token_for(principal), namespace, limit=limit, versions=versions
        )


def deletion_subject(scope: DeletionScope) -> str | None:
    """Whom a deletion is about, for the `MemorySubject` search attribute: its subject, or the
    user whose namespace it covers."""
    if scope.subject_ref is not None:
        return scope.subject_ref
    if scope.namespace is not None:
        parts = scope.namespace.split("/")
        if len(parts) == 4 and parts[2] == "user":
            return f"user:{parts[3]}"
    return None


def run_script(main: Coroutine[Any, Any, Any]) -> NoReturn:
    """Run an in-process script's `main()` and end the process without interpreter teardown.

    The Temporal client's Rust threads can outlive the event loop and abort the interpreter
    while it finalizes ("PyGILState_Release … finalizing", temporalio/sdk-python#300, open
    upstream); memctl and the worker end the same way. Agents that reach the service over HTTP
    (`shell.remote`) hold no Temporal client and exit normally."""
    code = 0
    try:
        asyncio.run(main)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    tracing.flush()  # MEMORY_TRACING: the last spans (os._exit skips the exporter's own flush)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
