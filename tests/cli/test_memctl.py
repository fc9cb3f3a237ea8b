"""memctl as a user runs it: a subprocess, real stores, real Temporal; one-line errors."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, NS, USER, sms


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
        "governed_memory.shell",
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
    rc, out, err = await memctl(env, "receipt", receipt["deletion_id"], "--as", USER)
    assert rc == 0, err
    rc, out, err = await memctl(env, "deletions", "list", "--tenant", "shop-a")
    assert rc == 0, err
    assert receipt["deletion_id"] in out
    assert "passed" in out
    rc, out, err = await memctl(env, "deletions", "list", "--as", "user:shop-a/999")
    assert rc == 0, err
    assert out == ""
    assert "no deletions" in err
    # another user may not read it; an agent may not grant itself more
    rc, out, err = await memctl(env, "receipt", receipt["deletion_id"], "--as", "user:shop-a/999")
    assert rc == 2
    assert err.startswith("error: forbidden: ")
    greedy = BOT.model_copy(update={"read": ["tenant/shop-a/**"]}).model_dump_json()
    rc, out, err = await memctl(env, "principal", "put", greedy, "--as", BOT.ref)
    assert rc == 2
    assert err.startswith("error: forbidden: ")
    # the same scope again: nothing left to match, and the exit code says so
    rc, out, err = await memctl(
        env, "forget", "--principal", USER, "--namespace", NS, "--key", "notification.preference"
    )
    assert rc == 3, err
    assert json.loads(out)["verification_status"] == "nothing_matched"
    assert "nothing_matched" in err
    rc, out, err = await memctl(env, "forget", "--principal", USER, "--subject", "bob")
    assert rc == 2
    assert err.startswith("error: invalid_input: ")
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
    assert any(line.startswith("M-DUP-014 #4 ") for line in lines)  # the mode table
    assert [t["step"] for t in data["tasks"] if t["case_id"] == "M-DUP-014"] == ["4"]
    rc, out, err = await memctl(env_for(settings), "eval", str(good), "--no-tasks")
    assert rc == 0, out
    assert "PASS M-DUP-014" in out.splitlines()
    assert "task modes" not in out


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


def _conversation(path: Path, n: int = 12, thread: str = "imp-1") -> None:
    lines = []
    for i in range(1, n + 1):
        user = i % 2 == 1
        text = (
            f"第{i}条：我的包裹 PKG-{i:04d} 到哪了？"
            if user
            else f"您好，包裹 PKG-{i:04d} 正在派送。"
        )
        if i == 5:
            text = "我的支付密码是 884213"
        lines.append(
            json.dumps(
                {
                    "thread": thread,
                    "position": i,
                    "speaker": "user" if user else "support-bot",
                    "time": f"2026-07-01T09:{i:02d}:00+08:00",
                    "text": text,
                    "namespace": NS,
                },
                ensure_ascii=False,
            )
        )
    path.write_text("\n".join(lines) + "\n")


async def test_import_messages_as_history_and_episodes(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings, tmp_path: Path
) -> None:
    source = tmp_path / "conversation.jsonl"
    # A thread of its own: the idempotency keys (and so the batch ids) derive from it, and the
    # Temporal server is shared by the SQLite and Postgres variants of this test.
    thread = f"imp-{uuid.uuid4().hex[:8]}"
    _conversation(source, thread=thread)
    env = env_for(settings, temporal_env)
    rc, out, err = await memctl(
        env, "import", "messages", str(source), "--as-episodic", "--keep-days", "3650"
    )
    assert rc == 0, err
    assert "12 messages stored" in out
    assert "reject 1" in out  # the password line is refused like any write
    assert "add 5" in out
    history = client.stores.canonical.messages.in_thread("shop-a", NS, thread)
    assert [m.position for m in history] == list(range(1, 13))
    assert history[1].speaker == "agent:shop-a/support-bot"
    found = await client.recall(USER, [NS], query="包裹 PKG-0003 到哪了")
    assert any("PKG-0003" in m.content for m in found.memories)
    rc, out, err = await memctl(env, "import", "messages", str(source), "--as-episodic")
    assert rc == 0, err
    assert "0 messages stored (12 were already there)" in out


async def test_a_bad_import_line_is_named_and_nothing_is_written(
    settings: Settings, tmp_path: Path
) -> None:
    source = tmp_path / "bad.jsonl"
    _conversation(source, 4)
    lines = source.read_text().splitlines()
    lines[2] = lines[2].replace('"position": 3', '"position": -3')
    source.write_text("\n".join(lines))
    rc, _out, err = await memctl(env_for(settings), "import", "messages", str(source))
    assert rc == 2
    assert err.startswith(f"error: invalid_input: {source}:3: position: ")


async def test_outbox_relay_and_repair_from_the_command_line(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings
) -> None:
    env = env_for(settings, temporal_env)
    written = await client.write(USER, NS, sms())
    memory_id = written.outcomes[0].memory_id
    assert memory_id is not None
    rc, out, err = await memctl(env, "outbox")
    assert rc == 0, err
    assert json.loads(out)["outbox"]["unprocessed"] == 0
    # the index loses the row behind everyone's back: --check says so and changes nothing
    client.stores.projection.remove([memory_id])
    rc, out, err = await memctl(env, "repair", "--check")
    assert rc == 1, err
    assert json.loads(out)["by_reason"] == {"missing": 1}
    rc, out, err = await memctl(env, "repair", "--check")
    assert rc == 1
    rc, out, err = await memctl(env, "relay")
    assert rc == 0, err
    assert json.loads(out)["events"] == 0  # the outbox said nothing: only a compare finds it
    rc, out, err = await memctl(env, "repair", "--full")
    assert rc == 0, err
    report = json.loads(out)
    assert report["mismatches"] == {"missing": 1}
    assert report["repaired"] == 1
    rc, out, err = await memctl(env, "repair", "--check")
    assert rc == 0, err
    assert json.loads(out)["differences"] == 0
    rc, out, err = await memctl(env, "outbox")
    marks = json.loads(out)["watermarks"]
    assert marks["last_index_updated"] == marks["last_event_committed"] >= 1
    assert marks["last_full_repair_at"] is not None


async def test_feedback_from_the_command_line(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings
) -> None:
    env = env_for(settings, temporal_env)
    client.register_principal(BOT)
    written = await client.write(
        USER,
        NS,
        {
            "kind": "profile",
            "key": "notification.preference",
            "structured_value": {"channel": "sms"},
            "content": "用户偏好短信通知",
            "confidence": 0.9,
        },
    )
    memory_id = written.outcome.memory_id
    assert memory_id is not None
    rc, out, err = await memctl(
        env, "feedback", "give", memory_id, "confirmed", "--principal", USER
    )
    assert rc == 0, err
    given = json.loads(out)
    assert (given["event"]["source"], given["event"]["effect"]) == ("user", "confidence_raised")
    rc, out, err = await memctl(
        env, "feedback", "report", "run-cli", "--principal", BOT.ref, "--shown", memory_id
    )
    assert rc == 0, err
    assert [e["event"]["feedback_type"] for e in json.loads(out)["events"]] == ["ignored"]
    rc, out, err = await memctl(env, "feedback", "show", "--memory", memory_id, "--as", USER)
    assert rc == 0, err
    assert [e["feedback_type"] for e in json.loads(out)] == ["confirmed", "ignored"]
    # a user mistake: one line, exit 2, nothing recorded
    rc, out, err = await memctl(
        env, "feedback", "give", memory_id, "confirmed", "--principal", BOT.ref, "--source", "user"
    )
    assert rc == 2
    assert err.startswith("error: forbidden: ")
    assert "Traceback" not in err + out
    assert len(client.feedback_on(USER, memory_id)) == 2


async def test_forget_prints_what_it_left_alone(
    client: MemoryClient, temporal_env: WorkflowEnvironment, settings: Settings
) -> None:
    """A subject's deletion erases what its requester may delete; the receipt and the command
    say how much it left alone elsewhere (counts, never where)."""
    victim = f"v{uuid.uuid4().hex[:8]}"
    scribe = BOT.model_copy(update={"id": "scribe"})
    client.register_principal(scribe)
    await client.write(f"user:shop-a/{victim}", f"tenant/shop-a/user/{victim}", sms())
    await client.write(
        scribe.ref,
        NS,
        {"kind": "semantic", "content": "邻居说他总在凌晨遛狗", "subject_ref": f"user:{victim}"},
    )
    env = env_for(settings, temporal_env)
    rc, out, err = await memctl(
        env, "forget", "--principal", f"user:shop-a/{victim}", "--subject", f"user:{victim}"
    )
    assert rc == 0, err
    receipt = json.loads(out)
    assert (receipt["withheld"], receipt["withheld_namespaces"]) == (1, 1)
    assert "1 item(s) in 1 namespace(s) you may not delete were left alone" in err
    assert NS not in out + err


async def test_consents_from_the_command_line(settings: Settings) -> None:
    env = env_for(settings)
    who = f"c{uuid.uuid4().hex[:8]}"
    user = f"user:shop-a/{who}"
    rc, out, err = await memctl(
        env, "consent", "give", f"user:{who}", "--purpose", "记住我的饮食禁忌", "--principal", user
    )
    assert rc == 0, err
    consent = json.loads(out)
    assert consent["consent_id"].startswith("cns_")
    assert (consent["subject_ref"], consent["given_by"]) == (f"user:{who}", user)
    rc, out, err = await memctl(env, "consent", "list", "--principal", user)
    assert rc == 0, err
    assert [c["consent_id"] for c in json.loads(out)] == [consent["consent_id"]]
    rc, out, err = await memctl(
        env, "consent", "revoke", consent["consent_id"], "--principal", "user:shop-a/999"
    )
    assert rc == 2
    assert err.startswith("error: not_found: ")
    rc, out, err = await memctl(
        env, "consent", "revoke", consent["consent_id"], "--principal", user
    )
    assert rc == 0, err
    revoked = json.loads(out)
    assert revoked["consent"]["revoked_by"] == user
    assert revoked["invalidated"] == []
    rc, out, err = await memctl(
        env, "consent", "give", "order:ORD-1", "--purpose", "x", "--principal", user
    )
    assert rc == 2
    assert err.startswith("error: invalid_input: ")
