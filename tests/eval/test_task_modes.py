"""Task modes A–E (docs/evaluation.md, "Task modes") on the published cases (the tasks they
imply) and on the extended-format cases in tasks/, through the real system and the rule agent.

For every task: production retrieval (C) and the oracle (B) lead to the expected action; with a
stale value planted in the actor's namespace (D) and another tenant's value asked for (E) the
agent still succeeds and acts on neither; and the control shows each of those checks bites —
the agent handed the planted memory alone acts on it. Without memory (A) the agent does not
personalise: it asks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.shell.eval import CaseRunner, load_case, metrics_of_tasks
from governed_memory.shell.eval.agent import Action, MemoryView, RuleAgent
from governed_memory.shell.eval.runner import CaseResult
from governed_memory.shell.eval.spec import Case
from governed_memory.shell.eval.tasks import TaskRun, implied_task, mode_table

HERE = Path(__file__).parent


def _implies_tasks(path: Path) -> bool:
    case = load_case(path)
    return any(implied_task(str(i), s, case) for i, s in enumerate(case.steps, 1))


PUBLIC = [p for p in sorted((HERE / "cases").glob("*.json")) if _implies_tasks(p)]
EXTENDED = sorted((HERE / "tasks").glob("*.json"))


@pytest.fixture(scope="module")
def runner(
    temporal_env: WorkflowEnvironment, tmp_path_factory: pytest.TempPathFactory
) -> CaseRunner:
    return CaseRunner(temporal_env.client, tmp_path_factory.mktemp("tasks"))


def _check_task(task: TaskRun) -> None:
    label = task.label
    modes = task.modes
    for mode in "BC":
        assert modes[mode].success, f"{label} {mode}: {modes[mode].detail}"
    a = modes["A"]
    if task.spec.key is not None:
        assert a.action == {"action": "ask_clarification"}, f"{label} A personalised: {a.action}"
    assert a.used == []
    for mode in "DE":
        if mode not in modes:
            continue
        run = modes[mode]
        assert run.success, f"{label} {mode}: {run.detail}"
        assert run.planted, f"{label} {mode}: nothing was planted ({run.detail})"
        assert not set(run.planted) & set(run.used), f"{label} {mode} acted on {run.planted}"
        assert run.control_bites, f"{label} {mode}: the agent would not act on the plant alone"
    if "E" in modes:
        assert not set(modes["E"].planted) & set(modes["E"].bad_in_package)


async def _run(runner: CaseRunner, path: Path) -> tuple[Case, CaseResult]:
    case = load_case(path)
    result = await runner.run(case)
    assert result.error is None, result.error
    return case, result


@pytest.mark.parametrize("path", PUBLIC, ids=[p.stem for p in PUBLIC])
async def test_public_case_tasks_in_every_mode(runner: CaseRunner, path: Path) -> None:
    case, result = await _run(runner, path)
    assert result.tasks, f"{case.case_id} implies tasks but none ran"
    assert all(t.spec.derived for t in result.tasks)
    for task in result.tasks:
        assert set(task.modes) == set("ABCDE")
        _check_task(task)
    failed = [c.line() for c in result.checks if c.category == "task" and not c.passed]
    assert not failed, failed
    assert result.passed, result.first_failure


@pytest.mark.parametrize("path", EXTENDED, ids=[p.stem for p in EXTENDED])
async def test_extended_task_cases(runner: CaseRunner, path: Path) -> None:
    case, result = await _run(runner, path)
    steps = [i for i, s in enumerate(case.steps, 1) if s.op == "task"]
    assert [t.spec.index for t in result.tasks] == [str(i) for i in steps]
    for task in result.tasks:
        assert not task.spec.derived
        step = case.steps[int(task.spec.index) - 1]
        assert set(task.modes) == set(step.modes or case.modes or "ABCDE")
        _check_task(task)
    assert result.passed, result.first_failure
    # the metrics and the mode table come from these runs
    summary = metrics_of_tasks([result])
    assert summary["tasks"] == len(result.tasks)
    assert summary["task_success"]["C"] == 1.0
    assert summary["wrong_personalization_rate"] == 0.0
    table = mode_table(result.tasks)
    assert len(table) == len(result.tasks) + 2
    assert table[-1].split()[0] == "success"


async def test_a_failed_mode_fails_the_case(runner: CaseRunner, tmp_path: Path) -> None:
    """An expectation the system cannot meet (the user asked for SMS; the case expects email)
    fails modes B–E and the case, while mode A failing alone would not."""
    text = (HERE / "tasks" / "T-NOTIFY-002.json").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(
        text.replace('"send_sms_after_policy_check"', '"notify:wechat"'), encoding="utf-8"
    )
    _, result = await _run(runner, wrong)
    first = result.tasks[0]
    assert first.spec.expected == [{"action": "notify", "channel": "wechat"}]
    assert not first.modes["C"].success
    assert first.modes["C"].action == {"action": "notify", "channel": "sms"}
    assert not result.passed
    assert "task mode" in result.first_failure
    summary = metrics_of_tasks([result])
    assert summary["user_correction_rate"] == 0.5  # one of the two C runs acted wrongly
    assert summary["wrong_personalization_rate"] is not None
    assert summary["wrong_personalization_rate"] > 0


class _AlwaysAsks(RuleAgent):
    """An agent that never acts on memory (a policy choice, not a stand-in for the system)."""

    def decide(self, task: str, items: list[MemoryView]) -> Action:
        return Action(action="ask_clarification")


async def test_an_implied_task_leaves_the_case_as_it_was(
    temporal_env: WorkflowEnvironment, tmp_path: Path
) -> None:
    """What an implied task's modes plant (a stale value, another tenant's value) happens on a
    replay of the case, and its result only reports: a v1 case's own checks decide it."""
    path = HERE / "cases" / "M-DEL-010.json"  # a deletion after the task: it counts what it erases
    plain = await CaseRunner(temporal_env.client, tmp_path / "plain", tasks=False).run(
        load_case(path)
    )
    tasked = await CaseRunner(temporal_env.client, tmp_path / "tasked").run(load_case(path))
    assert [(c.name, c.passed, c.detail) for c in tasked.checks] == [
        (c.name, c.passed, c.detail) for c in plain.checks
    ]
    assert {t.label for t in tasked.tasks} == {"M-DEL-010 #3", "M-DEL-010 #5"}
    assert all(set(t.modes) == set("ABCDE") for t in tasked.tasks)
    assert all(t.modes[m].planted for t in tasked.tasks for m in "DE")
    # an agent that never acts fails the task that needs memory, not the case
    asking = CaseRunner(temporal_env.client, tmp_path / "asking", agent=_AlwaysAsks())
    result = await asking.run(load_case(path))
    assert not next(t for t in result.tasks if t.label == "M-DEL-010 #3").modes["C"].success
    assert result.passed, result.first_failure
