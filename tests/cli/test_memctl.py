"""memctl as a user runs it: a subprocess, real stores, real Temporal; one-line errors."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from memory.client import MemoryClient
from memory.settings import Settings
from tests.factories import BOT, NS, USER


def env_for(settings: Settings, temporal: WorkflowEnvironment | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        "MEMORY_DATA_DIR": str(settings.data_dir),
        "MEMORY_DATABASE_URL": settings.canonical_url,
        "MEMORY_TASK_QUEUE": settings.task_queue,
    }
    if temporal is not None:
        env["MEMORY_TEMPORAL_ADDRESS"] = temporal.client.service_client.config.target_host
    return env


async def memctl(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "memory",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (
            ["recall", "--principal", USER, "--namespace", "tenant/shop-a/usr/1"],
            "invalid_namespace",
        ),
        (["recall", "--principal", USER, "--namespace", NS, "-k", "0"], "invalid_input"),
        (["recall", "--principal", USER, "--namespace", NS, "--at", "yesterday"], "invalid_input"),
        (["recall", "--principal", "agent:shop-a/ghost", "--namespace", NS], "not_found"),
        (["receipt", "del_missing"], "not_found"),
        (["principal", "put", '{"type": "agent", "tenant": "shop-a"}'], "invalid_input"),
        (["principal", "put", "{not json"], "invalid_input"),
    ],
)
async def test_user_mistakes_print_one_line_and_exit_2(
    settings: Settings, args: list[str], code: str
) -> None:
    rc, out, err = await memctl(env_for(settings), *args)
    assert rc == 2
    assert err.startswith(f"error: {code}: ")
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


async def test_write_recall_forget_receipt_from_the_command_line(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings
) -> None:
    env = env_for(settings, temporal_env)
    rc, out, err = await memctl(env, "principal", "put", BOT.model_dump_json())
    assert rc == 0, err
    rc, out, err = await memctl(
        env,
        "write",
        "--principal",
        USER,
        "--namespace",
        NS,
        "--kind",
        "profile",
        "--key",
        "notification.preference",
        "--value",
        '{"channel": "sms"}',
        "--content",
        "用户偏好短信通知",
    )
    assert rc == 0, err
    assert json.loads(out)["outcomes"][0]["decision"] == "add"
    rc, out, err = await memctl(
        env, "recall", "--principal", BOT.ref, "--namespace", NS, "--task", "通知物流异常"
    )
    assert rc == 0, err
    assert [m["structured_value"] for m in json.loads(out)["memories"]] == [{"channel": "sms"}]
    rc, out, err = await memctl(
        env, "forget", "--principal", USER, "--namespace", NS, "--key", "notification.preference"
    )
    assert rc == 0, err
    receipt = json.loads(out)
    assert receipt["verification_status"] == "passed"
    rc, out, err = await memctl(env, "receipt", receipt["deletion_id"])
    assert rc == 0, err
    assert json.loads(out) == receipt
    rc, out, err = await memctl(env, "forget", "--principal", "user:shop-a/999", "--namespace", NS)
    assert rc == 2
    assert err.startswith("error: unauthorized_namespace: ")
    assert Path(settings.data_dir).exists()
