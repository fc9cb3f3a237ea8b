"""An in-process script (the example in docs/api.md) ends with exit code 0 every time: `run_script`
skips the interpreter teardown that the Temporal client's threads can abort."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from tests.cli.test_memctl import env_for

ROOT = Path(__file__).parents[2]


def _api_doc_example() -> str:
    """The python block under docs/api.md's "Using it from Python, in the service's process"."""
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = page.split("## Using it from Python, in the service's process", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


async def test_the_in_process_example_exits_cleanly_every_time(
    client: MemoryClient, settings: Settings, temporal_env: WorkflowEnvironment, tmp_path: Path
) -> None:
    script = tmp_path / "in_process.py"
    script.write_text(_api_doc_example(), encoding="utf-8")
    for _ in range(3):
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            env=env_for(settings, temporal_env),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert "notification.preference" in out.decode()
