"""Tasks of the task modes (docs/evaluation.md, "Task modes"): what a task asks, the tasks a
case implies, what each mode's run recorded, and the metrics and the mode table computed from
the runs."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from governed_memory.shell.eval.agent import ASK, action_for_value, intent_of
from governed_memory.shell.eval.spec import MODES, Case, Step

#: The order modes run in on a case's stores: D writes into the actor's namespace, so it goes
#: last; E writes only into another namespace.
RUN_ORDER = "ABCED"
#: The states of a recall's `state` check that imply the agent must ask.
ASKING_STATES = ("conflicting", "none_confirmed")


@dataclass
class TaskSpec:
    index: str
    actor: str
    namespaces: list[str]
    task: str
    expected: list[dict[str, Any]]
    must_use: list[dict[str, Any]] = field(default_factory=list)
    must_not_use: list[dict[str, Any]] = field(default_factory=list)
    forbidden_namespaces: list[str] | None = None
    inject: dict[str, Any] | None = None
    modes: str = MODES
    budget: dict[str, Any] | None = None
    derived: bool = False

    @property
    def key(self) -> str | None:
        intent = intent_of(self.task)
        return intent.key if intent else None

    @property
    def expects_clarification(self) -> bool:
        return all(e.get("action") == ASK for e in self.expected)


def task_of(index: str, step: Step, case: Case) -> TaskSpec:
    """An explicit `task` step."""
    assert step.actor is not None
    assert step.task is not None
    return TaskSpec(
        index=index,
        actor=step.actor,
        namespaces=step.read_namespaces,
        task=step.task,
        expected=step.expected,
        must_use=list(step.must_use),
        must_not_use=list(step.must_not_use),
        forbidden_namespaces=step.forbidden_namespaces,
        inject=step.inject,
        modes=step.modes or case.modes or MODES,
        budget=step.budget.model_dump(exclude_none=True) if step.budget else None,
    )


def implied_task(index: str, step: Step, case: Case) -> TaskSpec | None:
    """The task a `recall` or `context` step implies (docs/evaluation.md, "Implied tasks"), or None.

    Its `task` text must carry a cue of the agent's policy, and then either a `state` check on
    the cue's key that is `conflicting` or `none_confirmed` (expected: `ask_clarification`), or
    an `includes` item `{key, value}` of that key (expected: what the policy does with exactly
    that value; the item is the task's `must_use`). `excludes` become `must_not_use`. Steps with
    `valid_at` (a question about the past, not an action now) and steps inside `concurrent`
    imply none."""
    if step.op not in ("recall", "context") or not step.task or step.actor is None:
        return None
    if step.valid_at is not None or "." in index:
        return None
    intent = intent_of(step.task)
    expect = step.expect if isinstance(step.expect, dict) else {}
    if intent is None:
        return None
    state = expect.get("state")
    must_use: list[dict[str, Any]] = []
    if (
        isinstance(state, dict)
        and state.get("key") == intent.key
        and state.get("is") in ASKING_STATES
    ):
        expected = [{"action": ASK}]
    else:
        found = next(
            (
                (item, action_for_value(intent, item["value"]))
                for item in expect.get("includes", [])
                if isinstance(item, dict)
                and item.get("key") == intent.key
                and isinstance(item.get("value"), dict)
                and action_for_value(intent, item["value"]) is not None
            ),
            None,
        )
        if found is None or found[1] is None:
            return None
        must_use, expected = [found[0]], [found[1]]
    return TaskSpec(
        index=index,
        actor=step.actor,
        namespaces=step.read_namespaces,
        task=step.task,
        expected=expected,
        must_use=must_use,
        must_not_use=[i for i in expect.get("excludes", []) if isinstance(i, dict)],
        modes=case.modes or MODES,
        budget=step.budget.model_dump(exclude_none=True) if step.budget else None,
        derived=True,
    )


@dataclass
class ModeRun:
    mode: str
    action: dict[str, Any]
    action_name: str
    #: The action matches the expected action.
    matched: bool
    #: Matched, and the mode's own conditions hold (docs/evaluation.md, "Modes").
    success: bool
    used: list[str] = field(default_factory=list)
    reason: str = ""
    detail: str = ""
    package_tokens: int = 0
    memory_tokens: int = 0
    context_ms: float = 0.0
    decide_ms: float = 0.0
    #: Memory items shown (with a memory id), relevant among them, their sources resolving.
    memory_items: int = 0
    relevant_items: int = 0
    cited_items: int = 0
    #: Memories the agent acted on that were relevant (must_use, or the key with the value).
    useful_used: int = 0
    #: Ids of must_not_use / injected (D) / forbidden (E) memories in the package, and used.
    bad_in_package: list[str] = field(default_factory=list)
    bad_used: list[str] = field(default_factory=list)
    #: E: the system refused the request naming the forbidden namespace.
    refused: bool = False
    #: D: the injected memory; E: the forbidden memories.
    planted: list[str] = field(default_factory=list)
    #: D, E: whether the agent, handed the planted memories alone, acts on them (the control
    #: that shows the mode's check would catch a package that let them through).
    control_bites: bool | None = None

    @property
    def asked(self) -> bool:
        return self.action.get("action") == ASK

    @property
    def acted_on_memory(self) -> bool:
        return bool(self.used)

    def as_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "action": self.action,
            "matched": self.matched,
            "success": self.success,
            "used": self.used,
            "reason": self.reason,
            "detail": self.detail,
            "package_tokens": self.package_tokens,
            "memory_tokens": self.memory_tokens,
            "context_ms": round(self.context_ms, 1),
            "decide_ms": round(self.decide_ms, 2),
            "memory_items": self.memory_items,
            "relevant_items": self.relevant_items,
            "cited_items": self.cited_items,
            "bad_in_package": self.bad_in_package,
            "bad_used": self.bad_used,
            "refused": self.refused,
            "planted": self.planted,
            "control_bites": self.control_bites,
        }


@dataclass
class TaskRun:
    case_id: str
    spec: TaskSpec
    modes: dict[str, ModeRun] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.case_id} #{self.spec.index}"

    def as_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "step": self.spec.index,
            "task": self.spec.task,
            "derived": self.spec.derived,
            "expected": self.spec.expected,
            "modes": {m: r.as_json() for m, r in self.modes.items()},
        }


# ---------------------------------------------------------------------------- the report


def _rate(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def _median(samples: list[float]) -> float | None:
    return round(statistics.median(samples), 1) if samples else None


def task_metrics(
    tasks: list[TaskRun], correction_ms: list[float], deletion_ms: list[float]
) -> dict[str, Any]:
    """The task-level metrics of the design sketch, computed from the runs
    (docs/evaluation.md, "Task metrics")."""
    runs: dict[str, list[ModeRun]] = {m: [t.modes[m] for t in tasks if m in t.modes] for m in MODES}
    c = runs["C"]
    harmful = [r for m in "CDE" for r in runs[m]]
    acted = [r for r in harmful if r.acted_on_memory]
    paired = [t for t in tasks if "A" in t.modes and "C" in t.modes]
    told = [t for t in paired if not t.spec.expects_clarification]
    assisted = [r for r in c if r.success and r.acted_on_memory]
    return {
        "tasks": len(tasks),
        "task_success": {m: _rate(sum(r.success for r in runs[m]), len(runs[m])) for m in MODES},
        "memory_precision_at_k": _rate(
            sum(r.relevant_items for r in c), sum(r.memory_items for r in c)
        ),
        "source_citation_accuracy": _rate(
            sum(r.cited_items for r in c), sum(r.memory_items for r in c)
        ),
        "tokens_per_useful_memory": _rate(
            sum(r.memory_tokens for r in c), sum(r.useful_used for r in c)
        ),
        "task_success_with_memory": _rate(sum(r.success for r in c), len(c)),
        "task_success_without_memory": _rate(sum(r.success for r in runs["A"]), len(runs["A"])),
        "wrong_personalization_rate": _rate(
            sum(not r.matched or bool(r.bad_used) for r in acted), len(acted)
        ),
        "clarification_reduction": _rate(
            sum(t.modes["A"].asked for t in paired) - sum(t.modes["C"].asked for t in paired),
            len(paired),
        ),
        "repeated_work_reduction": _rate(
            sum(t.modes["A"].asked and not t.modes["C"].asked for t in told), len(told)
        ),
        "user_correction_rate": _rate(sum(not r.matched and not r.asked for r in c), len(c)),
        "context_memory_token_share": _rate(
            sum(r.memory_tokens for r in c), sum(r.package_tokens for r in c)
        ),
        "memory_caused_task_failure_rate": _rate(
            sum(not r.success and r.acted_on_memory for r in harmful), len(harmful)
        ),
        "correction_completion_ms_p50": _median(correction_ms),
        "corrections": len(correction_ms),
        "deletion_completion_ms_p50": _median(deletion_ms),
        "deletions": len(deletion_ms),
        "cost_per_memory_assisted_success_tokens": _rate(
            sum(r.memory_tokens for r in c), len(assisted)
        ),
        "cost_per_memory_assisted_success_ms": _rate(
            round(sum(r.context_ms for r in c), 1), len(assisted)
        ),
    }


def mode_table(tasks: list[TaskRun]) -> list[str]:
    """One row per task (case id and step), a column per mode: ✓ success, ✗ failure, – not
    run; then the success rate of each mode."""
    width = max([len(t.label) for t in tasks] + [len("task"), len("success")])
    head = f"{'task':<{width}}  " + "  ".join(f"{m:^5}" for m in MODES) + "  expected"
    lines = [head]
    for t in tasks:
        cells = []
        for m in MODES:
            run = t.modes.get(m)
            cells.append("–" if run is None else "✓" if run.success else "✗")
        expected = " | ".join(_name(e) for e in t.spec.expected)
        lines.append(
            f"{t.label:<{width}}  " + "  ".join(f"{c:^5}" for c in cells) + f"  {expected}"
        )
    totals = []
    for m in MODES:
        ran = [t.modes[m] for t in tasks if m in t.modes]
        totals.append(f"{sum(r.success for r in ran)}/{len(ran)}" if ran else "–")
    lines.append(f"{'success':<{width}}  " + "  ".join(f"{c:^5}" for c in totals))
    return lines


def _name(action: dict[str, Any]) -> str:
    params = [str(v) for k, v in action.items() if k != "action"]
    return ":".join([str(action.get("action")), *params[:1]])
