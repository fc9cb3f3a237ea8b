"""The published scenario cases (copied from eval/cases), and this repository's own (`M-FB-*`:
the `feedback` step), through the real system.

Each case runs as `memctl eval` runs it: empty stores, its own worker, the real workflows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.shell.eval import CaseRunner, load_case

CASES = sorted(Path(__file__).with_name("cases").glob("*.json"))
#: Cases whose every check must pass, not only their writes: the point of a feedback case is
#: what the feedback did and what later reads show of it.
EVERY_CHECK = ("M-FB-",)


@pytest.fixture(scope="module")
def runner(
    temporal_env: WorkflowEnvironment, tmp_path_factory: pytest.TempPathFactory
) -> CaseRunner:
    return CaseRunner(temporal_env.client, tmp_path_factory.mktemp("eval"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
async def test_every_write_check_passes(runner: CaseRunner, path: Path) -> None:
    result = await runner.run(load_case(path))
    assert result.error is None, result.error
    writes = [c for c in result.checks if c.category == "write"]
    failed = [c.line() for c in writes if not c.passed]
    assert not failed, failed
    if path.stem.startswith(EVERY_CHECK):
        assert any(c.op == "feedback" for c in result.checks), "no feedback step was checked"
        assert result.passed, result.first_failure
