"""`memctl serve` as a process, and the clients an agent uses with only a URL and a token: the
synchronous `Memory` facade (the README quickstart's agent example, run as a script) and the
asynchronous `RemoteClient`, both raising the service's typed errors."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from pathlib import Path

import pytest

from governed_memory.memory.errors import InvalidNamespace, Unauthenticated, UnauthorizedNamespace
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.remote import Memory, RemoteClient
from tests.factories import BOT, sms

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"


async def test_the_agent_example_runs_as_written(
    served: str, client: MemoryClient, tmp_path: Path
) -> None:
    script = tmp_path / "agent.py"
    script.write_text(
        textwrap.dedent(
            """
            import os
            from governed_memory.shell.remote import Memory

            memory = Memory(os.environ["MEMORY_URL"], os.environ["MEMORY_TOKEN"])
            memory.remember("以后都希望优先短信通知")
            print(memory.recall("how should we notify the user?").memories[0].structured_value)
            print(memory.context("通知物流异常", budget=2000).text.splitlines()[0])
            print(memory.forget(key="notification.preference").verification_status)
            """
        )
    )
    env = {"MEMORY_URL": served, "MEMORY_TOKEN": client.token_for(BOB), "PATH": "/usr/bin:/bin"}
    for _ in range(2):  # it exits cleanly every time (no abort at interpreter exit)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            env=env,
            cwd=Path(__file__).parents[2],
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        assert proc.returncode == 0, err.decode()
        lines = out.decode().splitlines()
        assert lines[0] == "{'channel': 'sms'}"
        assert lines[1].startswith("[")
        assert lines[2] == "passed"


async def test_the_facade_names_namespaces_for_agents_and_raises_typed_errors(
    served: str, client: MemoryClient
) -> None:
    client.register_principal(BOT)
    await client.write(BOB, BOB_NS, sms())

    def as_agent() -> None:
        with Memory(served, client.token_for(BOT.ref), namespace=BOB_NS) as memory:
            found = memory.recall("notify", k=3)
            assert [m.structured_value for m in found.memories] == [{"channel": "sms"}]
            with pytest.raises(InvalidNamespace):
                memory.recall("x", namespaces=["tenant/shop-a/usr/1"])
        with Memory(served, "not-a-token") as stranger, pytest.raises(Unauthenticated):
            stranger.recall("x", namespaces=[BOB_NS])

    await asyncio.to_thread(as_agent)


async def test_the_async_remote_client(served: str, client: MemoryClient) -> None:
    async with RemoteClient(served, client.token_for(BOB)) as remote:
        me = await remote.whoami()
        assert me["own_namespace"] == BOB_NS
        written = await remote.write(BOB_NS, sms())
        assert written.outcome.decision == "add"
        with pytest.raises(UnauthorizedNamespace):
            await remote.write("tenant/shop-a/user/123", sms())
        kept = await remote.my_memories()
        assert [m.structured_value for m in kept] == [{"channel": "sms"}]
        receipt = await remote.forget({"namespace": BOB_NS})
        assert receipt.verification_status == "passed"
        assert (await remote.receipt(receipt.deletion_id)).deletion_id == receipt.deletion_id
    started = time.perf_counter()
    async with RemoteClient("http://127.0.0.1:9", "t") as nowhere:
        with pytest.raises(Exception, match="cannot be reached"):
            await nowhere.whoami()
    assert time.perf_counter() - started < 30
