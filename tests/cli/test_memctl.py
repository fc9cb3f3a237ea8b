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


async def test_a_malformed_case_file_is_named_with_its_field(
    settings: Settings, tmp_path: Path
) -> None:
    bad = tmp_path / "M-BAD-001.json"
    bad.write_text(json.dumps({"case_id": "M-BAD-001", "actors": {}, "steps": [{"op": "dance"}]}))
    rc, _out, err = await memctl(env_for(settings), "eval", str(bad))
    assert rc == 2
    assert err.startswith(f"error: invalid_input: {bad}: steps.0.op: ")
    notjson = tmp_path / "M-BAD-002.json"
    notjson.write_text("{")
    rc, _out, err = await memctl(env_for(settings), "eval", str(notjson))
    assert rc == 2
    assert str(notjson) in err


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_eval_prints_a_line_per_case_and_fails_on_a_failed_check(
    settings: Settings, tmp_path: Path
) -> None:
    cases = Path(__file__).parents[1] / "eval" / "cases"
    good = cases / "M-DUP-014.json"
    wrong = json.loads(good.read_text())
    wrong["case_id"] = "M-DUP-WRONG"
    wrong["steps"][0]["expect"] = [{"key": "notification.preference", "decision": "reject"}]
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    report = tmp_path / "report.json"
    rc, out, err = await memctl(
        env_for(settings), "eval", str(good), str(tmp_path / "wrong.json"), "--json", str(report)
    )
    assert rc == 1, err
    lines = out.splitlines()
    assert "PASS M-DUP-014" in lines
    assert any(line.startswith("FAIL M-DUP-WRONG  step 1 (observe)") for line in lines)
    assert any(line.startswith("write_decision_accuracy: ") for line in lines)
    data = json.loads(report.read_text())
    assert [c["case_id"] for c in data["cases"]] == ["M-DUP-014", "M-DUP-WRONG"]
    assert data["metrics"]["cases"] == 2


async def test_audit_prints_every_stage_of_a_write(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings
) -> None:
    result = await client.observe(USER, NS, "以后用英文回复我", thread="t9")
    rc, out, err = await memctl(env_for(settings), "audit", result.workflow_id)
    assert rc == 0, err
    for stage in ("extract", "normalise", "detect", "consent", "resolve", "policy_decision"):
        assert f" {stage} " in out
    assert "extractor=rule-extractor/" in out
    memory_id = result.outcomes[0].memory_id
    assert memory_id is not None
    rc, out, err = await memctl(env_for(settings), "audit", memory_id)
    assert rc == 0, err
    assert memory_id in out
    rc, out, err = await memctl(env_for(settings), "audit", "mem_nothing")
    assert rc == 2
