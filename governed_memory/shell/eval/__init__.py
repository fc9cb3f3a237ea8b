"""`memctl eval`: scenario cases (format v1 and its task extension; docs/evaluation.md,
"Scenario cases") through the real workflows and stores, with each task run in the task
modes A–E."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from temporalio.client import Client

from governed_memory.shell.codec import Keyring, data_converter
from governed_memory.shell.devserver import start_local
from governed_memory.shell.eval.agent import RuleAgent, TaskAgent
from governed_memory.shell.eval.runner import (
    CaseResult,
    CaseRunner,
    all_tasks,
    metrics,
    metrics_of_tasks,
)
from governed_memory.shell.eval.spec import Case, case_files, load_case
from governed_memory.shell.eval.tasks import mode_table

__all__ = [
    "Case",
    "CaseResult",
    "CaseRunner",
    "RuleAgent",
    "TaskAgent",
    "load_case",
    "metrics",
    "metrics_of_tasks",
    "run_cases",
    "run_eval",
]

console = Console(highlight=False, soft_wrap=True)


async def run_cases(temporal: Client, cases: list[Case]) -> list[CaseResult]:
    runner = CaseRunner(temporal)
    return [await runner.run(case) for case in cases]


async def run_eval(
    paths: list[Path],
    json_out: Path | None = None,
    agent: TaskAgent | None = None,
    *,
    tasks: bool = True,
) -> int:
    """Run every case under `paths`; print a line per case, the metrics, the mode table of the
    tasks and the task metrics (`tasks=False`: no task modes); 0 if all passed."""
    cases = [load_case(p) for p in case_files(paths)]  # malformed files fail before anything runs
    env = await start_local(data_converter(Keyring.new()))
    try:
        runner = CaseRunner(env.client, agent=agent, tasks=tasks)
        results = []
        for case in cases:
            result = await runner.run(case)
            results.append(result)
            status = "PASS" if result.passed else "FAIL"
            suffix = "" if result.passed else f"  {result.first_failure}"
            console.print(f"{status} {case.case_id}{suffix}", markup=False)
    finally:
        await env.shutdown()
    summary = metrics(results)
    console.print("")
    for name, value in summary.items():
        console.print(f"{name}: {'n/a' if value is None else value}", markup=False)
    runs = all_tasks(results)
    task_summary = metrics_of_tasks(results)
    if runs:
        console.print("")
        console.print(
            "task modes (A no memory, B oracle, C production, D stale injected, "
            "E unauthorized): ✓ success, ✗ failure, – not run",
            markup=False,
        )
        for line in mode_table(runs):
            console.print(line, markup=False)
        console.print("")
        for name, value in task_summary.items():
            if isinstance(value, dict):
                value = "  ".join(f"{k} {'n/a' if v is None else v}" for k, v in value.items())
            console.print(f"{name}: {'n/a' if value is None else value}", markup=False)
    if json_out is not None:
        report = _report(results, summary)
        report["task_metrics"] = task_summary
        report["tasks"] = [t.as_json() for t in runs]
        _write_json(json_out, report)
    return 0 if all(r.passed for r in results) else 1


def _write_json(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False))


def _report(results: list[CaseResult], summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "metrics": summary,
        "cases": [
            {
                "case_id": r.case_id,
                "title": r.title,
                "passed": r.passed,
                "error": r.error,
                "unsupported": r.unsupported,
                "checks": [
                    {
                        "step": c.step,
                        "op": c.op,
                        "check": c.name,
                        "passed": c.passed,
                        "detail": c.detail,
                    }
                    for c in r.checks
                ],
            }
            for r in results
        ],
    }
