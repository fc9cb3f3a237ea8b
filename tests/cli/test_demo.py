"""`memctl demo` tells its story and nothing else on stdout: no log lines, and every field the
story is about printed in full (no cell cut with an ellipsis)."""

from __future__ import annotations

from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.metrics import free_port
from governed_memory.memory.settings import Settings
from tests.cli.test_memctl import env_for, memctl


async def test_the_demo_prints_the_story_whole(
    settings: Settings, temporal_env: WorkflowEnvironment
) -> None:
    env = env_for(settings, temporal_env)
    env.pop("MEMORY_LOG_LEVEL", None)
    env["MEMORY_API_PORT"] = str(free_port())  # the two store variants run side by side
    rc, out, err = await memctl(env, "demo")
    assert rc == 0, err[-3000:]
    assert "demo passed" in out
    assert 'key      notification.preference = {"channel": "sms"}' in out
    assert "content  用户偏好短信通知" in out
    assert "Every December the customer sends a gift parcel to their sister Anna." in out
    assert "verification_status" in out
    assert "…" not in out  # nothing the story is about is cut short
    for noise in ("[info", "[warning", "request_id=", "scope erased"):
        assert noise not in out, noise
