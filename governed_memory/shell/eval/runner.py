"""Runs scenario cases through the real system and checks what it decided and returns.

Each case gets empty stores of its own (a fresh SQLite canonical store and projection in a
temporary folder) and its own worker on its own task queue, against one Temporal server for the
whole run. Steps go through the public client: WriteMemory and DeleteSubject workflows, review
Updates, governed recall. The step's `at` drives the system's clock (the evaluation clock
override, enabled for these workers only). A `task` step runs in the task modes
(`shell.eval.modes`) right there, on the case's stores. A task a `recall` or `context` step
implies (a case without `task` steps: format v1) must leave the case as it would be without it:
its read-only modes (A, B, C) run right after the step, its writing modes (D, E) on a replay of
the case up to that step, and it only reports (the case's own checks decide it).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from temporalio.client import Client
from temporalio.service import RPCError

from governed_memory.memory.errors import MemoryServiceError, UnauthorizedNamespace
from governed_memory.memory.feedback import FEEDBACK_TYPES
from governed_memory.memory.models import (
    Candidate,
    CandidateOutcome,
    DeletionReceipt,
    MemoryRecord,
    Principal,
    RecallResult,
    RetrievedMemory,
)
from governed_memory.memory.namespaces import matches_any
from governed_memory.memory.sameness import same_statement
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.eval.agent import RuleAgent, TaskAgent
from governed_memory.shell.eval.modes import TaskModes, as_retrieved
from governed_memory.shell.eval.spec import Case, Step, matches
from governed_memory.shell.eval.tasks import (
    ModeRun,
    TaskRun,
    TaskSpec,
    implied_task,
    task_metrics,
    task_of,
)

_CANDIDATE_FIELDS = set(Candidate.model_fields)
_REJECTING = ("secret", "sensitive_category", "prompt_injection")
#: The checks a `feedback` step may carry (docs/evaluation.md, "Feedback steps").
_FEEDBACK_CHECKS = frozenset(
    {
        "refused",
        "effect",
        "source",
        "review",
        "status",
        "confidence",
        "rank_weight",
        "replayed",
        "correction",
    }
)


class Unsupported(Exception):
    """An op or check whose capability has not landed yet."""


@dataclass
class Check:
    step: str
    op: str
    name: str
    passed: bool
    detail: str = ""
    category: str = ""

    def line(self) -> str:
        return f"step {self.step} ({self.op}) {self.name}: {self.detail}"


@dataclass
class StepRecord:
    workflow_id: str | None = None
    outcomes: list[CandidateOutcome] = field(default_factory=list)
    written: list[str] = field(default_factory=list)


@dataclass
class CaseResult:
    case_id: str
    title: str
    checks: list[Check] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    error: str | None = None
    counters: Counter[str] = field(default_factory=Counter)
    write_ms: list[float] = field(default_factory=list)
    recall_ms: list[float] = field(default_factory=list)
    #: The task runs (docs/evaluation.md, "Task modes"), and the time of corrections and deletions.
    tasks: list[TaskRun] = field(default_factory=list)
    correction_ms: list[float] = field(default_factory=list)
    deletion_ms: list[float] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.error is None and not self.unsupported and all(c.passed for c in self.checks)

    @property
    def first_failure(self) -> str:
        """The earliest thing that went wrong, in step order (later failures often follow)."""
        if self.error is not None:
            return self.error
        found = [(_order(c.step), c.line()) for c in self.checks if not c.passed]
        found += [(_order(u.split()[1]), f"unsupported: {u}") for u in self.unsupported]
        return min(found)[1] if found else ""


def _order(step: str) -> tuple[int, ...]:
    return tuple(int(p) for p in step.split(".") if p.isdigit())


class CaseRunner:
    def __init__(
        self,
        temporal: Client,
        work_dir: Path | None = None,
        *,
        agent: TaskAgent | None = None,
        tasks: bool = True,
    ) -> None:
        self.temporal = temporal
        self.work_dir = work_dir or Path(tempfile.mkdtemp(prefix="memory-eval-"))
        #: The task agent of the task modes; `tasks=False` runs no task modes at all.
        self.agent: TaskAgent = agent or RuleAgent()
        self.tasks = tasks

    async def run(self, case: Case) -> CaseResult:
        result, aside = await self._run(case, tasks=self.tasks)
        for task, upto, at in aside:
            task.modes.update(await self._aside(case, upto, task.spec, at))
        return result

    async def _aside(
        self, case: Case, upto: int, spec: TaskSpec, at: datetime
    ) -> dict[str, ModeRun]:
        """An implied task's writing modes (D, E), on a replay of the case's first `upto` steps
        (stores of its own), so that what they plant reaches none of the case's checks."""
        writing = "".join(m for m in spec.modes if m in "DE")
        if not writing:
            return {}
        found: dict[str, ModeRun] = {}

        async def then(run: _CaseRun) -> None:
            modes = TaskModes(run.client, case, self.agent, run._item_matches)
            found.update((await modes.run(replace(spec, modes=writing), at)).modes)

        replayed, _ = await self._run(
            case.model_copy(update={"steps": case.steps[:upto]}), tasks=False, then=then
        )
        for mode in writing:
            if mode not in found:
                found[mode] = ModeRun(
                    mode=mode,
                    action={},
                    action_name="-",
                    matched=False,
                    success=False,
                    detail=f"the replay up to the task failed: {replayed.error}",
                )
        return found

    async def _run(
        self,
        case: Case,
        *,
        tasks: bool,
        then: Callable[[_CaseRun], Awaitable[None]] | None = None,
    ) -> tuple[CaseResult, list[tuple[TaskRun, int, datetime]]]:
        """Run a case on stores of its own; `then` runs after its steps, on the same stores.
        Returns the result and the implied tasks whose writing modes are still to run."""
        from governed_memory.shell.worker import build_worker

        result = CaseResult(case.case_id, case.title)
        aside: list[tuple[TaskRun, int, datetime]] = []
        data = self.work_dir / f"{case.case_id}-{uuid.uuid4().hex[:6]}"
        # Stores of its own whatever the environment names (a MEMORY_DATABASE_URL set for the
        # service would have every case, and every replay, share one store).
        settings = Settings(
            data_dir=data,
            database_url=None,
            projection="embedded",
            projection_path=None,
            deletion_journal=None,
            token=None,
            allow_clock_override=True,
            task_queue=f"eval-{case.case_id}-{uuid.uuid4().hex[:8]}",
        )
        stores = open_stores(settings)
        client = MemoryClient(self.temporal, settings, stores)
        try:
            for actor in case.actors.values():
                if actor.type != "user" or actor.read or actor.write or actor.delete:
                    client.register_principal(actor)
            async with build_worker(self.temporal, settings, stores):
                run = _CaseRun(self, case, client, result, tasks=tasks)
                aside = run.aside
                await run.steps()
                if then is not None:
                    await then(run)
                await run.cleanup()
        except Exception as exc:  # a crash in the system under test fails the case, with why
            result.error = f"error: {type(exc).__name__}: {exc}"
        finally:
            stores.close()
        return result, aside


class _CaseRun:
    def __init__(
        self,
        runner: CaseRunner,
        case: Case,
        client: MemoryClient,
        result: CaseResult,
        *,
        tasks: bool,
    ):
        self.runner = runner
        self.case = case
        self.client = client
        self.result = result
        self.records: dict[str, StepRecord] = {}
        self.clock: datetime | None = None
        #: The namespace each thread was said in (a thread is a namespace's): where a summarize
        #: step without a namespace finds its thread.
        self.threads: dict[str, str] = {}
        explicit = any(s.op == "task" for s in case._all_steps())
        self.tasks = tasks
        #: Tasks are implied by recall and context steps only in a case without `task` steps.
        self.implied = tasks and not explicit
        #: Implied tasks whose writing modes run aside (the task run, the steps before it and
        #: the step itself, its clock).
        self.aside: list[tuple[TaskRun, int, datetime]] = []

    # ------------------------------------------------------------------------ driving

    async def steps(self) -> None:
        for i, step in enumerate(self.case.steps, 1):
            await self.step(str(i), step)

    async def step(self, index: str, step: Step) -> None:
        if step.at is not None:
            self.clock = step.at
        at = self.clock or datetime.now(UTC)
        handler: Callable[[str, Step, datetime], Awaitable[None]] | None = getattr(
            self, f"op_{step.op}", None
        )
        try:
            if handler is None:
                raise Unsupported(f"op {step.op}")
            await handler(index, step, at)
        except Unsupported as exc:
            self.result.unsupported.append(f"step {index} ({step.op}): {exc}")
            return
        if self.implied:
            implied = implied_task(index, step, self.case)
            if implied is not None:
                await self._run_implied(implied, int(index), at)

    async def op_task(self, index: str, step: Step, at: datetime) -> None:
        if self.tasks:
            await self._run_task(task_of(index, step, self.case), step, at)

    async def _run_implied(self, spec: TaskSpec, upto: int, at: datetime) -> None:
        """An implied task: its read-only modes now, its writing ones later on a replay (the
        case's own stores and checks stay as they would be without it); it reports only."""
        reading = "".join(m for m in spec.modes if m not in "DE")
        modes = TaskModes(self.client, self.case, self.runner.agent, self._item_matches)
        run = await modes.run(replace(spec, modes=reading), at)
        run.spec = spec
        self.result.tasks.append(run)
        if len(reading) < len(spec.modes):
            self.aside.append((run, upto, at))

    async def _run_task(self, spec: TaskSpec, step: Step, at: datetime) -> None:
        """The task in each of its modes; every mode but A (no memory: failing there is what
        memory is for) must succeed for the case to pass."""
        modes = TaskModes(self.client, self.case, self.runner.agent, self._item_matches)
        run = await modes.run(spec, at)
        self.result.tasks.append(run)
        for mode, outcome in run.modes.items():
            if mode != "A":
                self.check(
                    spec.index, step, f"task mode {mode}", outcome.success, outcome.detail, "task"
                )

    async def cleanup(self) -> None:
        """Reviews still open when the case ends are left by the case, not by the system:
        terminate their workflows so the next case starts clean."""
        tenants = {actor.tenant for actor in self.case.actors.values()}
        for tenant in tenants:
            operator = f"service:{tenant}/operator"
            token = self.client.operator_token(tenant)
            for review in self.client.open_reviews(operator, token=token):
                with contextlib.suppress(RPCError):
                    await self.client.temporal.get_workflow_handle(review.workflow_id).terminate(
                        reason="evaluation case finished"
                    )

    def principal(self, step: Step) -> Principal:
        assert step.actor is not None
        return self.case.actors[step.actor]

    def check(
        self, index: str, step: Step, name: str, passed: bool, detail: str, category: str
    ) -> None:
        self.result.checks.append(Check(index, step.op, name, passed, detail, category))

    # ------------------------------------------------------------------------ writes

    async def op_observe(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        assert step.namespace is not None
        assert step.text is not None
        if step.thread is not None:
            self.threads.setdefault(step.thread, step.namespace)
        await self._write(
            index,
            step,
            lambda: self.client.observe(
                who.ref, step.namespace or "", step.text or "", thread=step.thread, at=at
            ),
        )

    async def op_propose(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        candidate = {k: v for k, v in (step.candidate or {}).items() if k in _CANDIDATE_FIELDS}
        if candidate.get("source_type") == "verified_tool_fact":
            self._tools_attest(who.tenant, candidate.get("source_refs") or [])
        await self._write(
            index, step, lambda: self.client.write(who.ref, step.namespace or "", candidate, at=at)
        )

    op_tool_fact = op_propose

    def _tools_attest(self, tenant: str, refs: list[str]) -> None:
        """A case's tool fact presupposes the tool that issued it (the order system, the refund
        system): the runner plays that tool, registered for the references' schemes, and
        attests the references, so the agent relaying the fact is checked the way production
        checks it (a reference no tool attested is refused as `source_not_verified`)."""
        schemes = sorted({urlsplit(r).scheme for r in refs if urlsplit(r).scheme})
        if not schemes:
            return
        tool = Principal(type="service", tenant=tenant, id="case-tools", tools=schemes)
        self.client.register_principal(tool)
        with contextlib.suppress(MemoryServiceError):  # a malformed ref: the write refuses it
            self.client.attest(tool.ref, [r for r in refs if urlsplit(r).scheme])

    async def _write(self, index: str, step: Step, call: Callable[[], Awaitable[Any]]) -> None:
        started = time.perf_counter()
        record = StepRecord()
        try:
            result = await call()
            record.workflow_id = result.workflow_id
            record.outcomes = result.outcomes
        except UnauthorizedNamespace:
            record.outcomes = [CandidateOutcome(decision="reject", reason="unauthorized_namespace")]
        except MemoryServiceError as exc:
            record.outcomes = [CandidateOutcome(decision="reject", reason=exc.code)]
        elapsed = (time.perf_counter() - started) * 1000
        self.result.write_ms.append(elapsed)
        if any(
            o.relation in ("SUPERSEDES", "REFINEMENT") and o.decision in ("update", "invalidate")
            for o in record.outcomes
        ):
            self.result.correction_ms.append(elapsed)
        record.written = [o.memory_id for o in record.outcomes if o.memory_id]
        if step.id:
            self.records[step.id] = record
        self._check_write(index, step, record.outcomes)

    def _check_write(
        self,
        index: str,
        step: Step,
        outcomes: list[CandidateOutcome],
        expect: Any = None,
        label: str = "expect",
    ) -> None:
        """The step's write checks (`expect`, or those given: a feedback's `correction`)."""
        expect = step.expect if expect is None else expect
        if expect is None:
            return
        expectations = expect if isinstance(expect, list) else [expect]
        counters = self.result.counters
        for exp in expectations:
            if not isinstance(exp, dict):
                continue
            pool = [o for o in outcomes if "key" not in exp or matches(exp["key"], o.key)]
            ok_outcome = next((o for o in pool if self._write_expectation_holds(exp, o)), None)
            shown = ", ".join(
                f"{o.key or '-'}:{o.decision}/{o.relation or '-'}/{o.reason or '-'}"
                for o in outcomes
            )
            passed = ok_outcome is not None
            self.check(index, step, f"{label} {exp}", passed, f"got [{shown}]", "write")
            chosen = ok_outcome or (pool[0] if pool else None)
            if "decision" in exp:
                counters["decision_total"] += 1
                counters["decision_ok"] += bool(
                    chosen and matches(exp["decision"], chosen.decision)
                )
            reason = exp.get("reason")
            if reason in _REJECTING:
                counters["block_total"] += 1
                counters["block_ok"] += bool(
                    chosen and chosen.decision == "reject" and matches(reason, chosen.reason)
                )
            if exp.get("relation") == "DUPLICATE" or reason == "duplicate":
                counters["duplicate_offered"] += 1
                counters["duplicate_stored"] += bool(
                    chosen and chosen.decision in ("add", "update")
                )
            if exp.get("relation") == "CONFLICTS":
                counters["conflict_total"] += 1
                counters["conflict_found"] += bool(chosen and chosen.relation == "CONFLICTS")

    @staticmethod
    def _write_expectation_holds(exp: dict[str, Any], o: CandidateOutcome) -> bool:
        for name in ("decision", "relation", "reason", "key"):
            if name in exp and not matches(exp[name], getattr(o, name)):
                return False
        if "value" in exp and not matches(exp["value"], o.value):
            return False
        if "not_reason" in exp:
            banned = (
                exp["not_reason"] if isinstance(exp["not_reason"], list) else [exp["not_reason"]]
            )
            if o.reason in banned:
                return False
        return True

    # ------------------------------------------------------------------------ reviews

    async def op_review(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        target = self.records.get(step.target or "")
        if target is None:
            self.check(index, step, "review", False, f"no record of step {step.target}", "review")
            return
        try:
            review = self.client.find_review(
                who.ref,
                memory_id=target.written[0] if target.written else None,
                write_workflow_id=target.workflow_id,
            )
            side = target.written[0] if review.kind == "conflict" and target.written else None
            outcome = await self.client.review(
                who.ref, review.review_id, step.decision or "approve", memory_id=side, at=at
            )
            self.check(index, step, "review", True, f"{outcome.status}", "review")
        except MemoryServiceError as exc:
            refused = isinstance(step.expect, dict) and step.expect.get("refused")
            self.check(
                index,
                step,
                "review",
                bool(refused and matches(refused, exc.code)),
                f"{exc.code}: {exc}",
                "review",
            )

    async def op_expire(self, index: str, step: Step, at: datetime) -> None:
        await self.client.expire(at=at)

    async def op_repair(self, index: str, step: Step, at: datetime) -> None:
        await self.client.repair(at=at)

    # ------------------------------------------------------------------------ summaries

    async def op_summarize(self, index: str, step: Step, at: datetime) -> None:
        assert step.thread is not None
        who = self.principal(step) if step.actor else self._runner_principal()
        expect = step.expect if isinstance(step.expect, dict) else {}
        try:
            result = await self.client.summarize(
                who.ref,
                step.thread,
                namespace=step.namespace or self.threads.get(step.thread),
                range=step.range,
                at=at,
            )
        except MemoryServiceError as exc:
            refused = expect.get("refused")
            self.check(
                index,
                step,
                "summarize",
                refused is not None and matches(refused, exc.code),
                f"{exc.code}: {exc}",
                "summary",
            )
            return
        content = result.content or ""
        for needle in _as_list(expect.get("summary_contains")):
            self.check(
                index,
                step,
                f"summary_contains {needle!r}",
                needle in content,
                content[:200],
                "summary",
            )
        for needle in _as_list(expect.get("summary_excludes")):
            self.check(
                index,
                step,
                f"summary_excludes {needle!r}",
                needle not in content,
                content[:200],
                "summary",
            )
        if "source_range" in expect:
            got = list(result.source_range) if result.source_range else None
            self.check(
                index,
                step,
                "source_range",
                got == list(expect["source_range"]),
                f"summary covers {got}",
                "summary",
            )

    def _runner_principal(self) -> Principal:
        """For steps without an actor: a service of the case's tenant that may read and write
        all of it (registered on first use)."""
        tenant = next(iter(self.case.actors.values())).tenant
        runner = Principal(
            type="service",
            tenant=tenant,
            id="eval-runner",
            read=[f"tenant/{tenant}/**"],
            write=[f"tenant/{tenant}/**"],
        )
        self.client.register_principal(runner)
        return runner

    # ------------------------------------------------------------------------ deletion

    async def op_forget(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        scope = step.scope or {"text": step.text, "namespace": step.namespace}
        expect = step.expect if isinstance(step.expect, dict) else {}
        started = time.perf_counter()
        try:
            receipt: DeletionReceipt = await self.client.forget(who.ref, scope, at=at)
        except MemoryServiceError as exc:
            refused = expect.get("refused")
            self.check(
                index,
                step,
                "refused",
                refused is not None and matches(refused, exc.code),
                f"refused with {exc.code}",
                "delete",
            )
            return
        finally:
            self.result.write_ms.append((time.perf_counter() - started) * 1000)
        self.result.deletion_ms.append((time.perf_counter() - started) * 1000)
        self.result.counters["delete_total"] += 1
        self.result.counters["delete_passed"] += receipt.verification_status == "passed"
        if "refused" in expect:
            self.check(index, step, "refused", False, "the request was carried out", "delete")
        stored = self.client.receipt(receipt.deletion_id, receipt.requested_by)
        want = expect.get("receipt") or {}
        checks: dict[str, Callable[[Any], bool]] = {
            "verification_status": lambda v: matches(v, stored.verification_status),
            "canonical_records_min": lambda v: stored.canonical_records >= v,
            "derived_records_invalidated_min": lambda v: stored.derived_records_invalidated >= v,
            "indexes_removed": lambda v: set(v) <= set(stored.indexes_removed),
        }
        for name, value in want.items():
            if name in checks:
                self.check(
                    index,
                    step,
                    f"receipt.{name}",
                    checks[name](value),
                    f"expected {value!r}, receipt has "
                    f"{getattr(stored, name.removesuffix('_min'), None)!r}",
                    "delete",
                )

    # ------------------------------------------------------------------------ feedback

    async def op_feedback(self, index: str, step: Step, at: datetime) -> None:
        """Feedback on a memory through `MemoryClient.feedback`, as the actor; the memory is
        named as a case names memories (a step id, or an item as in `includes`). A memory that
        cannot be named, a refusal the case did not expect, or an effect it did not expect is a
        failed check of the step."""
        who = self.principal(step)
        expect = step.expect if isinstance(step.expect, dict) else {}
        if step.expect is not None and not isinstance(step.expect, dict):
            self.check(
                index, step, "expect", False, "a feedback step's expect is an object", "feedback"
            )
        for name in sorted(set(expect) - _FEEDBACK_CHECKS):
            known = ", ".join(sorted(_FEEDBACK_CHECKS))
            self.check(
                index, step, name, False, f"not a feedback check (known: {known})", "feedback"
            )
        memory, why = self._named_memory(step)
        if memory is None:
            self.check(index, step, f"memory {step.memory}", False, why, "feedback")
            return
        kind = step.feedback_type or ""
        before = self._judged(memory.memory_id)
        started = time.perf_counter()
        try:
            outcome = await self.client.feedback(
                who.ref,
                memory.memory_id,
                kind,
                source=step.source,
                run_id=step.run_id,
                evidence_refs=step.evidence_refs,
                memory_version=step.memory_version,
                correction=step.correction,
                occurred_at=at,
                event_id=step.event_id,
            )
        except MemoryServiceError as exc:
            refused = expect.get("refused")
            detail = f"refused with {exc.code}: {exc}"
            if kind not in FEEDBACK_TYPES:
                known = ", ".join(FEEDBACK_TYPES)
                detail = f"unknown feedback type {kind!r} (known: {known}); {detail}"
            passed = refused is not None and matches(refused, exc.code)
            self.check(
                index, step, "refused" if refused else "feedback", passed, detail, "feedback"
            )
            if refused is not None:
                after = self._judged(memory.memory_id)
                self.check(
                    index,
                    step,
                    "unchanged",
                    after == before,
                    "nothing changed" if after == before else f"was {before}, now {after}",
                    "feedback",
                )
            return
        elapsed = (time.perf_counter() - started) * 1000
        event = outcome.event
        review = outcome.review.review if outcome.review is not None else None
        record = StepRecord(written=[memory.memory_id])
        if review is not None:  # a later `review` step targeting this one answers it
            record.workflow_id = review.write_workflow_id
        elif event.feedback_type == "corrected":
            record.workflow_id = event.effect_ref
        if step.id:
            self.records[step.id] = record
        if any(
            o.relation in ("SUPERSEDES", "REFINEMENT") and o.decision in ("update", "invalidate")
            for o in outcome.correction
        ):
            self.result.correction_ms.append(elapsed)
        if outcome.deletion is not None:
            self.result.deletion_ms.append(elapsed)
            self.result.counters["delete_total"] += 1
            self.result.counters["delete_passed"] += (
                outcome.deletion.verification_status == "passed"
            )
        if "refused" in expect:
            self.check(
                index,
                step,
                "refused",
                False,
                f"the feedback was accepted (effect {event.effect})",
                "feedback",
            )
        said: dict[str, Any] = {
            "effect": event.effect,
            "source": event.source,
            "replayed": outcome.replayed,
        }
        for name, got in said.items():
            if name in expect:
                self.check(
                    index,
                    step,
                    f"{name} {expect[name]!r}",
                    matches(expect[name], got),
                    f"got {got!r} (effect {event.effect}, source {event.source})",
                    "feedback",
                )
        if "review" in expect:
            self._check_feedback_review(index, step, expect, review)
        head = self.client.stores.canonical.records.head(memory.memory_id)
        if "status" in expect:
            status = head.status if head is not None else "erased"
            self.check(
                index,
                step,
                f"status {expect['status']!r}",
                matches(expect["status"], status),
                f"the memory is {status}",
                "feedback",
            )
        for name, got in (
            ("confidence", head.confidence if head is not None else None),
            ("rank_weight", outcome.rank_weight),
        ):
            if name in expect:
                self.check(
                    index,
                    step,
                    f"{name} {expect[name]!r}",
                    any(
                        got is not None and abs(float(want) - got) < 1e-6
                        for want in _as_list(expect[name])
                    ),
                    f"got {got!r}",
                    "feedback",
                )
        if "correction" in expect:
            self._check_write(index, step, outcome.correction, expect["correction"], "correction")

    def _check_feedback_review(
        self, index: str, step: Step, expect: dict[str, Any], review: Any
    ) -> None:
        """`review`: true (a review was opened and is open), false (none was), or an object
        matched as a subset of the review as kept (`kind`, `reason_code`, `status`, ...)."""
        want = expect["review"]
        if review is None:
            self.check(
                index, step, f"review {want!r}", want is False, "no review opened", "feedback"
            )
            return
        kept = self.client.stores.canonical.reviews.get(review.review_id)
        shown = f"review {kept.review_id}: {kept.kind}/{kept.reason_code}/{kept.status}"
        if isinstance(want, dict):
            ok = matches(want, kept.model_dump(mode="json"))
        else:
            ok = want is True and kept.status == "open"
        self.check(index, step, f"review {want!r}", ok, shown, "feedback")

    def _named_memory(self, step: Step) -> tuple[MemoryRecord | None, str]:
        """The memory a feedback step names, from the canonical store (the case's own stores,
        whoever the actor: whether the actor may judge it is the service's to say). An earlier
        step's id names what it wrote; an item is matched as `includes` items are, among the
        memories of `namespace` (or of the whole case). Of several, the current (active) one,
        else the latest recorded; more than one active is ambiguous."""
        item = step.memory_item
        records = self.client.stores.canonical.records
        if "from_step" in item:
            wrote = self.records.get(item["from_step"])
            if wrote is None or not wrote.written:
                return None, f"step {item['from_step']} wrote no memory"
            pool = list(records.heads(wrote.written).values())
        elif step.namespace is not None:
            pool = records.namespace_heads(step.namespace)
        else:
            pool = self._all_heads()
        found = [
            r for r in pool if r.status != "deleted" and self._item_matches(item, as_retrieved(r))
        ]
        where = f" in {step.namespace}" if step.namespace else ""
        if not found:
            return None, f"no memory matches {item}{where}"
        active = [r for r in found if r.status == "active"]
        if len(active) > 1:
            shown = "; ".join(
                f"{r.key or r.kind}={r.structured_value or r.content[:40]}" for r in active
            )
            return None, f"ambiguous: {len(active)} active memories match {item}{where}: {shown}"
        return (active or sorted(found, key=lambda r: r.recorded_at)[-1:])[0], ""

    def _all_heads(self) -> list[MemoryRecord]:
        records = self.client.stores.canonical.records
        ids: list[str] = []
        after: str | None = None
        while page := records.digests(after, 1000):
            ids += [d.memory_id for d in page]
            after = page[-1].memory_id
        return list(records.heads(ids).values())

    def _judged(self, memory_id: str) -> tuple[Any, ...]:
        """What feedback could change about a memory: its head (version, status, confidence),
        the feedback kept on it, and its rank signals."""
        canonical = self.client.stores.canonical
        head = canonical.records.head(memory_id)
        return (
            None if head is None else (head.version, head.status, head.confidence),
            [e.event_id for e in canonical.feedback.of_memory(memory_id)],
            canonical.feedback.signals(memory_id),
        )

    # ------------------------------------------------------------------------ reads

    async def op_recall(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        started = time.perf_counter()
        try:
            result = await self.client.recall(
                who.ref,
                step.read_namespaces,
                task=step.task or "",
                query=step.query,
                keys=step.keys or [],
                kinds=step.kinds,  # type: ignore[arg-type]
                k=step.k,
                at=at,
                valid_at=step.valid_at,
            )
        except UnauthorizedNamespace:
            result = RecallResult(memories=[], refused_namespaces=step.read_namespaces)
        self.result.recall_ms.append((time.perf_counter() - started) * 1000)
        self._account_returned(who, result.memories, at, step)
        self._check_read(index, step, result.memories, who, at)
        expect = step.expect if isinstance(step.expect, dict) else {}
        if "state" in expect:
            await self._check_state(index, step, who, at, result)

    def _account_returned(
        self, who: Principal, memories: list[RetrievedMemory], at: datetime, step: Step
    ) -> None:
        counters = self.result.counters
        counters["returned"] += len(memories)
        known = self.client.stores.canonical.records.as_of([m.memory_id for m in memories], at)
        for m in memories:
            counters["unauthorized"] += not who.can_read(m.namespace)
            record = known.get(m.memory_id)
            counters["stale"] += record is None or not record.readable_at(at, step.valid_at)

    def _item_matches(self, item: dict[str, Any], m: RetrievedMemory) -> bool:
        if "from_step" in item:
            record = self.records.get(item["from_step"])
            if record is None or m.memory_id not in record.written:
                return False
        if "key" in item and not matches(item["key"], m.key):
            return False
        if "value" in item and not matches(item["value"], m.structured_value):
            return False
        return not ("content_contains" in item and item["content_contains"] not in m.content)

    def _check_read(
        self, index: str, step: Step, memories: list[RetrievedMemory], who: Principal, at: datetime
    ) -> None:
        expect = step.expect if isinstance(step.expect, dict) else {}
        counters = self.result.counters
        for item in expect.get("includes", []):
            found = any(self._item_matches(item, m) for m in memories)
            counters["required_total"] += 1
            counters["required_found"] += found
            self.check(index, step, f"includes {item}", found, self._shown(memories), "recall")
        if expect.get("includes"):
            counters["precision_returned"] += len(memories)
            counters["precision_relevant"] += sum(
                any(self._item_matches(i, m) for i in expect["includes"]) for m in memories
            )
        for item in expect.get("excludes", []):
            leaked = [m for m in memories if self._item_matches(item, m)]
            self.check(index, step, f"excludes {item}", not leaked, self._shown(leaked), "recall")
        if "only_namespaces" in expect:
            outside = [
                m for m in memories if not matches_any(expect["only_namespaces"], m.namespace)
            ]
            self.check(index, step, "only_namespaces", not outside, self._shown(outside), "recall")
        if "top" in expect:
            ok = bool(memories) and self._item_matches(expect["top"], memories[0])
            self.check(index, step, f"top {expect['top']}", ok, self._shown(memories[:1]), "recall")
        if "max_same_content" in expect:
            worst = self._max_same(memories)
            self.check(
                index,
                step,
                "max_same_content",
                worst <= expect["max_same_content"],
                f"{worst} memories say the same thing",
                "recall",
            )
        if "conflict_group" in expect:
            want = expect["conflict_group"]
            groups = Counter(
                m.conflict_group
                for m in memories
                if m.conflict_group and matches(want.get("key"), m.key)
            )
            size = max(groups.values(), default=0)
            counters["surfacing_total"] += 1
            counters["surfacing_ok"] += size == want.get("size")
            self.check(
                index,
                step,
                f"conflict_group {want}",
                size == want.get("size"),
                f"largest group returned: {size}",
                "conflict",
            )

    async def _check_state(
        self, index: str, step: Step, who: Principal, at: datetime, result: RecallResult
    ) -> None:
        """The verdict on a key for the same actor, namespaces and times: from the recall when
        it covered the key, else asked beside it."""
        want = step.expect["state"]
        verdict = result.verdict(want["key"])
        if verdict is None:
            beside = await self.client.recall(
                who.ref,
                step.read_namespaces,
                task=step.task or "",
                keys=[want["key"]],
                k=step.k,
                at=at,
                valid_at=step.valid_at,
            )
            verdict = beside.verdict(want["key"])
        state = verdict.state if verdict else None
        ok = matches(want.get("is"), state)
        if want.get("is") == "conflicting":
            self.result.counters["surfacing_total"] += 1
            self.result.counters["surfacing_ok"] += ok
        self.check(index, step, f"state {want}", ok, f"verdict {state}", "state")

    async def op_context(self, index: str, step: Step, at: datetime) -> None:
        who = self.principal(step)
        budget = (
            step.budget.model_dump(exclude_none=True)
            if step.budget
            else {"total_tokens": 8000, "reserved_output_tokens": 1000}
        )
        started = time.perf_counter()
        try:
            package = await self.client.build_context(
                who.ref,
                step.read_namespaces,
                step.task or "",
                budget,
                instructions=step.instructions,
                thread=step.thread,
                at=at,
            )
        except MemoryServiceError as exc:
            self.check(index, step, "context", False, f"{exc.code}: {exc}", "context")
            return
        self.result.recall_ms.append((time.perf_counter() - started) * 1000)
        expect = step.expect if isinstance(step.expect, dict) else {}
        text = package.text()
        heads = self.client.stores.canonical.records.heads(p.memory_id for p in package.pinned)
        shown = [
            self._as_retrieved(heads[p.memory_id]) for p in package.pinned if p.memory_id in heads
        ]
        self._account_returned(who, shown, at, step)
        for item in expect.get("includes", []):
            found = any(self._item_matches(item, m) for m in shown) or (
                set(item) == {"content_contains"} and item["content_contains"] in text
            )
            self.check(index, step, f"includes {item}", found, self._shown(shown), "context")
        for item in expect.get("excludes", []):
            leaked = any(self._item_matches(item, m) for m in shown) or (
                "content_contains" in item and item["content_contains"] in text
            )
            self.check(
                index,
                step,
                f"excludes {item}",
                not leaked,
                "found in the package" if leaked else "absent",
                "context",
            )
        for needle in _as_list(expect.get("untrusted_contains")):
            outside = [
                i.kind for i in package.items if needle in i.content and i.trust != "untrusted"
            ]
            self.check(
                index,
                step,
                f"untrusted_contains {needle!r}",
                not outside,
                f"outside untrusted items: {outside}" if outside else "only untrusted",
                "context",
            )
        if "max_total_tokens" in expect:
            self.check(
                index,
                step,
                "max_total_tokens",
                package.total_tokens <= expect["max_total_tokens"],
                f"package has {package.total_tokens} tokens",
                "context",
            )
        if "state" in expect:
            recall = await self.client.recall(
                who.ref, step.read_namespaces, task=step.task or "", at=at
            )
            await self._check_state(index, step, who, at, recall)

    @staticmethod
    def _as_retrieved(record: Any) -> RetrievedMemory:
        return as_retrieved(record)

    @staticmethod
    def _max_same(memories: list[RetrievedMemory]) -> int:
        """The most returned memories that say one thing (the service's own sameness rule)."""
        return max(
            (sum(1 for o in memories if o is m or same_statement(m, o)) for m in memories),
            default=0,
        )

    @staticmethod
    def _shown(memories: list[RetrievedMemory]) -> str:
        if not memories:
            return "returned nothing"
        return "returned " + "; ".join(
            f"{m.key or m.kind}={m.structured_value or m.content[:40]!s}" for m in memories[:6]
        )

    async def op_concurrent(self, index: str, step: Step, at: datetime) -> None:
        await asyncio.gather(
            *(self.step(f"{index}.{j}", sub) for j, sub in enumerate(step.steps or [], 1))
        )


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def all_tasks(results: list[CaseResult]) -> list[TaskRun]:
    return [t for r in results for t in r.tasks]


def metrics_of_tasks(results: list[CaseResult]) -> dict[str, Any]:
    """The task-level metrics over every task run (docs/evaluation.md, "Task metrics")."""
    return task_metrics(
        all_tasks(results),
        [ms for r in results for ms in r.correction_ms],
        [ms for r in results for ms in r.deletion_ms],
    )


def metrics(results: list[CaseResult]) -> dict[str, Any]:
    c: Counter[str] = Counter()
    writes: list[float] = []
    recalls: list[float] = []
    for r in results:
        c.update(r.counters)
        writes += r.write_ms
        recalls += r.recall_ms

    def rate(num: str, den: str) -> float | None:
        return round(c[num] / c[den], 4) if c[den] else None

    def pct(samples: list[float], q: float) -> float | None:
        if not samples:
            return None
        ordered = sorted(samples)
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))], 1)

    return {
        "cases": len(results),
        "passed": sum(r.passed for r in results),
        "write_decision_accuracy": rate("decision_ok", "decision_total"),
        "sensitive_secret_injection_block_rate": rate("block_ok", "block_total"),
        "duplicate_rate": rate("duplicate_stored", "duplicate_offered"),
        "conflict_detection_recall": rate("conflict_found", "conflict_total"),
        "required_memory_recall": rate("required_found", "required_total"),
        "memory_precision": rate("precision_relevant", "precision_returned"),
        "stale_memory_rate": rate("stale", "returned"),
        "unauthorized_retrieval_rate": rate("unauthorized", "returned"),
        "conflict_surfacing_rate": rate("surfacing_ok", "surfacing_total"),
        "delete_compliance": rate("delete_passed", "delete_total"),
        "write_latency_ms_p50": round(statistics.median(writes), 1) if writes else None,
        "write_latency_ms_p95": pct(writes, 0.95),
        "recall_latency_ms_p50": round(statistics.median(recalls), 1) if recalls else None,
        "recall_latency_ms_p95": pct(recalls, 0.95),
    }
