"""The MCP server through the SDK's own client: over stdio as the process's principal, and over
streamable HTTP with each request's bearer token; tools bound to the token's principal, trust
labels kept in what they return."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.metrics import free_port
from governed_memory.memory.models import Principal
from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from tests.cli.test_memctl import env_for
from tests.factories import BOT, sms

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
TEAM = "tenant/shop-a/team/ops"
ROOT = Path(__file__).parents[2]


def _error(called: Any) -> str:
    """A refusal: a tool error (`isError`), its text starting with the service's code."""
    assert called.is_error, called
    text: str = called.content[0].text
    return text


def _result(called: Any) -> dict[str, Any]:
    assert not called.is_error, called.content[0].text
    if called.structured_content is not None:
        found: dict[str, Any] = called.structured_content
        return found.get("result", found) if set(found) == {"result"} else found
    text = called.content[0].text
    parsed: dict[str, Any] = json.loads(text)
    return parsed


async def _use_tools(mcp: Client, client: MemoryClient) -> None:
    names = {t.name for t in (await mcp.list_tools()).tools}
    assert names == {"remember", "recall", "context", "forget", "feedback", "promote"}
    written = _result(await mcp.call_tool("remember", {"text": "以后都希望优先短信通知"}))
    assert written["outcomes"][0]["decision"] == "add", written
    assert client.stores.canonical.records.namespace_heads(BOB_NS)[0].written_by == BOB
    assert [(s["text"], s["kept"]) for s in written["statements"]] == [
        ("以后都希望优先短信通知", True)
    ]
    # what keeps nothing says so, sentence by sentence
    idle = _result(await mcp.call_tool("remember", {"text": "我妹妹喜欢邮件通知。谢谢！"}))
    assert [(s["kept"], s["reasons"]) for s in idle["statements"]] == [
        (False, ["third_party"]),
        (False, ["not_memorable"]),
    ], idle
    found = _result(await mcp.call_tool("recall", {"task": "how to notify"}))
    assert found["memories"][0]["structured_value"] == {"channel": "sms"}
    assert found["memories"][0]["trust"] == "untrusted"
    ctx = _result(await mcp.call_tool("context", {"task": "通知物流异常", "budget_tokens": 2000}))
    assert "trust=" in ctx["text"]
    # someone else's namespace: refused, as data
    other = _result(
        await mcp.call_tool("recall", {"task": "x", "namespaces": ["tenant/shop-a/user/123"]})
    )
    assert other["memories"] == []
    assert other["refused_namespaces"] == ["tenant/shop-a/user/123"]
    memory_id = found["memories"][0]["memory_id"]
    confirmed = _result(
        await mcp.call_tool("feedback", {"memory_id": memory_id, "feedback_type": "confirmed"})
    )
    assert (confirmed["event"]["source"], confirmed["event"]["given_by"]) == ("user", BOB)
    refused = _error(
        await mcp.call_tool("feedback", {"memory_id": memory_id, "feedback_type": "thanks"})
    )
    assert "invalid_input" in refused, refused
    # sharing with a team takes a write grant there: refused, typed, nothing copied
    denied = _error(
        await mcp.call_tool("promote", {"memory_id": memory_id, "target_namespace": TEAM})
    )
    assert "unauthorized_namespace" in denied, denied
    assert client.stores.canonical.records.namespace_heads(TEAM) == []
    # forget with nothing named refuses, and nothing is erased
    for unnamed in ({}, {"namespace": BOB_NS}, {"everything": True, "key": "x"}):
        assert "everything=true" in _error(await mcp.call_tool("forget", unnamed))
    assert [r.status for r in client.stores.canonical.records.namespace_heads(BOB_NS)] == ["active"]
    receipt = _result(await mcp.call_tool("forget", {"key": "notification.preference"}))
    assert receipt["verification_status"] == "passed", receipt
    assert {r.status for r in client.stores.canonical.records.namespace_heads(BOB_NS)} == {
        "deleted"
    }
    await mcp.call_tool("remember", {"text": "以后都希望优先短信通知"})
    whole = _result(await mcp.call_tool("forget", {"everything": True}))
    assert whole["verification_status"] == "passed", whole
    assert whole["scope"] == {"namespace": BOB_NS} | dict.fromkeys(
        ("subject_ref", "key", "source_ref", "text", "memory_id")
    )
    assert {r.status for r in client.stores.canonical.records.namespace_heads(BOB_NS)} == {
        "deleted"
    }


async def test_the_mcp_server_over_stdio(
    client: MemoryClient, settings: Settings, temporal_env: WorkflowEnvironment
) -> None:
    env = {**env_for(settings, temporal_env), "MEMORY_TOKEN": client.token_for(BOB)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "governed_memory.shell", "mcp"], env=env, cwd=ROOT
    )
    async with Client(params) as mcp:
        await _use_tools(mcp, client)


@pytest.fixture
async def mcp_http(
    client: MemoryClient, settings: Settings, temporal_env: WorkflowEnvironment, tmp_path: Path
) -> AsyncIterator[str]:
    port = free_port()
    log = (tmp_path / "mcp.log").open("wb")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "governed_memory.shell",
        "mcp",
        "--http",
        "--port",
        str(port),
        env=env_for(settings, temporal_env),
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        async with httpx.AsyncClient() as http:
            for _ in range(200):
                try:
                    await http.get(url)
                    break
                except httpx.TransportError:
                    if proc.returncode is not None:
                        pytest.fail((tmp_path / "mcp.log").read_text())
                    await asyncio.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), timeout=20)
        log.close()


async def test_the_mcp_server_over_http_with_bearer_tokens(
    mcp_http: str, client: MemoryClient
) -> None:
    async with httpx.AsyncClient() as http:
        refused = await http.post(mcp_http, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert refused.status_code == 401
    headers = {"Authorization": f"Bearer {client.token_for(BOB)}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http2,
        Client(streamable_http_client(mcp_http, http_client=http2)) as mcp,
    ):
        await _use_tools(mcp, client)
    # an agent's token acts as the agent: it names the namespace, and its grants apply
    client.register_principal(BOT)
    await client.write(BOB, BOB_NS, sms())
    headers = {"Authorization": f"Bearer {client.token_for(BOT.ref)}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http2,
        Client(streamable_http_client(mcp_http, http_client=http2)) as mcp,
    ):
        missing = _error(await mcp.call_tool("recall", {"task": "notify"}))
        assert missing.startswith("Error executing tool recall: invalid_input"), missing
        found = _result(await mcp.call_tool("recall", {"task": "notify", "namespaces": [BOB_NS]}))
        assert found["memories"][0]["structured_value"] == {"channel": "sms"}
    # a user who may write the team's namespace shares a memory of theirs: a reviewer of the
    # team decides (the default rules), and the copy lands once approved
    carol = Principal(type="user", tenant="shop-a", id="789", write=[TEAM])
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=[TEAM])
    for p in (carol, lead):
        client.register_principal(p)
    own = (await client.write(carol.ref, "tenant/shop-a/user/789", sms())).outcome.memory_id
    headers = {"Authorization": f"Bearer {client.token_for(carol.ref)}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http2,
        Client(streamable_http_client(mcp_http, http_client=http2)) as mcp,
    ):
        asked = _result(
            await mcp.call_tool("promote", {"memory_id": own, "target_namespace": TEAM})
        )
        assert (asked["status"], asked["source_id"]) == ("pending_review", own), asked
    review = await client.review(lead.ref, asked["review_id"], "approve")
    [copy_id] = review.committed
    [copy] = client.stores.canonical.records.namespace_heads(TEAM)
    assert (copy.memory_id, copy.written_by) == (copy_id, carol.ref)


async def test_an_mcp_server_started_from_any_folder_finds_the_users_data(
    temporal_env: WorkflowEnvironment, tmp_path: Path
) -> None:
    """What a desktop app does: it starts `memctl mcp` from a folder of its own, naming no data
    folder. The token minted in one folder, the worker started in another and the MCP server in
    a third all use the user's data folder (`Settings.default_data_dir`: the same signing key,
    the same stores), so the token verifies and what is remembered is recalled."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env |= {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "MEMORY_TEMPORAL_ADDRESS": temporal_env.client.service_client.config.target_host,
        "MEMORY_TASK_QUEUE": f"mcp-anywhere-{uuid.uuid4().hex[:8]}",
    }
    folders = [tmp_path / name for name in ("terminal", "worker", "desktop-app")]
    for folder in folders:
        folder.mkdir()

    async def memctl_in(folder: Path, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "governed_memory.shell", *args, env=env, cwd=folder,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
        return out.decode()

    where = await memctl_in(folders[0], "where")
    data = home / ".local" / "share" / "governed-memory"
    assert f"data folder      {data}" in where, where
    token = (await memctl_in(folders[0], "token", "issue", BOB)).strip()
    worker = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "governed_memory.shell", "worker", env=env, cwd=folders[1],
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "governed_memory.shell", "mcp"],
            env={**env, "MEMORY_TOKEN": token},
            cwd=folders[2],
        )
        async with Client(params) as mcp:
            written = _result(await mcp.call_tool("remember", {"text": "以后都希望优先短信通知"}))
            assert written["outcomes"][0]["decision"] == "add", written
            found = _result(await mcp.call_tool("recall", {"task": "how to notify"}))
            assert found["memories"][0]["structured_value"] == {"channel": "sms"}
            assert "everything=true" in _error(await mcp.call_tool("forget", {}))
    finally:
        worker.terminate()
        await asyncio.wait_for(worker.wait(), timeout=30)
    assert (data / "canonical.db").exists()
    for folder in folders:  # nothing was made where the processes started
        assert list(folder.iterdir()) == [], list(folder.iterdir())
