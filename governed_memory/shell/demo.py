"""`memctl demo`: the product's example story, told through the HTTP API over the real
workflows and stores.

A user prefers email, then asks for SMS instead (the email value becomes history); a support
agent recalls the preference for "通知物流异常"; the user asks to forget it; the deletion receipt
prints with its verification; recall returns nothing.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime

from rich.console import Console
from rich.table import Table

from governed_memory.memory.models import DeletionReceipt, RecallResult
from governed_memory.memory.settings import Settings
from governed_memory.shell.remote import RemoteClient
from governed_memory.shell.stack import embedded_stack

# Wide enough for the tables when the output is piped or captured.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)


def _recalled(result: RecallResult) -> str:
    """The memories recalled, one block each, every field the story is about in full (a table
    would cut or fold them at a terminal's width)."""
    lines = []
    for m in result.memories:
        value = json.dumps(m.structured_value, ensure_ascii=False) if m.structured_value else ""
        lines += [
            f"   [bold]{m.memory_id}[/] v{m.version}   score {m.retrieval_score:.3f}",
            *([f"     key      {m.key} = {value}"] if m.key else []),
            f"     content  {m.content}",
            f"     source   {m.source_type} {', '.join(m.source_refs)}".rstrip(),
            f"     why      {', '.join(m.retrieval_reasons)}",
        ]
    return "\n".join(lines) or "   (nothing)"


def _receipt_table(receipt: DeletionReceipt) -> Table:
    table = Table(show_header=False)
    table.add_column(overflow="fold")
    table.add_column(overflow="fold")
    for name in (
        "deletion_id",
        "subject_ref",
        "requested_at",
        "canonical_records",
        "versions_erased",
        "indexes_removed",
        "derived_records_invalidated",
        "cache_namespaces_invalidated",
        "verification_status",
        "backup_retention_deadline",
    ):
        value = getattr(receipt, name)
        table.add_row(
            name, f"{value:%Y-%m-%d %H:%M:%S} UTC" if isinstance(value, datetime) else str(value)
        )
    if receipt.temporal is not None:
        t = receipt.temporal
        table.add_row(
            "temporal (as found)",
            f"retention {t.retention_seconds}s, history archival {t.history_archival}, "
            f"visibility archival {t.visibility_archival}; payloads encrypted",
        )
    table.add_row("temporal runs deleted", str(receipt.temporal_runs_deleted))
    for limit in receipt.storage_limits:
        table.add_row("cannot guarantee", limit)
    for probe in receipt.probes:
        table.add_row(f"  probe {probe.probe}", "passed" if probe.passed else "FAILED")
    return table


def _free_port(preferred: int) -> int:
    """The configured API port when it is free, else any free one."""
    from governed_memory.memory.metrics import free_port
    from governed_memory.shell.devserver import port_open

    return free_port() if port_open("127.0.0.1", preferred) else preferred


async def run_demo(settings: Settings) -> None:
    """The story, told through the HTTP API (served here, on the stack the demo finds or
    starts): each actor holds only its own token."""
    from governed_memory.shell.http.app import serve
    from governed_memory.shell.logs import configure_logging

    # The story is what the demo prints: the service's own logs (each request, each erasure)
    # go to stderr, and only from warnings up unless MEMORY_LOG_LEVEL says otherwise.
    level = settings.log_level if "log_level" in settings.model_fields_set else "WARNING"
    configure_logging(settings.log_format, level)
    tenant = "demo-" + datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    user = f"user:{tenant}/123"
    agent = f"agent:{tenant}/support-bot"
    namespace = f"tenant/{tenant}/user/123"
    settings = settings.model_copy(update={"api_port": _free_port(settings.api_port)})

    async with embedded_stack(settings) as stack:
        stop = asyncio.Event()
        api = asyncio.create_task(serve(stack.client, stop))
        url = settings.api_url
        try:
            await _wait_until_up(url)
            await _story(
                stack.client.token_for,
                stack.client.admin_token(tenant),
                url,
                tenant,
                user,
                agent,
                namespace,
                settings,
            )
        finally:
            stop.set()
            await api
        if stack.started_server:
            console.print("[dim]stopping the dev server this demo started[/]")


async def _wait_until_up(url: str) -> None:
    import httpx

    async with httpx.AsyncClient() as http:
        for _ in range(200):
            try:
                if (await http.get(f"{url}/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)


async def _story(
    token_for: Callable[[str], str],
    admin_token: str,
    url: str,
    tenant: str,
    user: str,
    agent: str,
    namespace: str,
    settings: Settings,
) -> None:
    console.rule(f"[bold]governed memory demo — tenant {tenant}, through the API at {url}")
    async with (
        RemoteClient(url, admin_token) as admin,
        RemoteClient(url, token_for(user)) as as_user,
        RemoteClient(url, token_for(agent)) as as_agent,
    ):
        await admin.put_principal(
            {
                "type": "agent",
                "tenant": tenant,
                "id": "support-bot",
                "read": [f"tenant/{tenant}/user/*"],
                "write": [f"tenant/{tenant}/user/*"],
            }
        )
        console.print(
            f"1. the tenant's admin registers {agent}: reads and writes tenant/{tenant}/user/*"
        )

        first = await as_user.write(
            namespace,
            {
                "kind": "profile",
                "key": "notification.preference",
                "structured_value": {"channel": "email"},
                "content": "用户偏好邮件通知",
                "source_refs": ["msg://t1/1"],
            },
        )
        o = first.outcome
        console.print(
            f"2. user 123: 以后有通知请发我邮箱 → POST /v1/memories → WriteMemory {o.relation} → "
            f"{o.decision} {o.memory_id} v{o.version}  [dim]({first.workflow_id})[/]"
        )

        second = await as_user.write(
            namespace,
            {
                "kind": "profile",
                "key": "notification.preference",
                "structured_value": {"channel": "sms"},
                "content": "用户偏好短信通知",
                "source_refs": ["msg://t1/7"],
            },
        )
        o2 = second.outcome
        console.print(
            f"3. user 123: 以后物流更新请优先短信通知 → WriteMemory {o2.relation} → {o2.decision} "
            f"{o2.memory_id} v{o2.version}; replaces {', '.join(o2.matched_memory_ids)}"
        )
        assert o.memory_id is not None
        for v in await as_user.history(o.memory_id):
            until = f"{v.valid_to:%H:%M:%S}" if v.valid_to else "now"
            console.print(
                f"   history of the email value: v{v.version} {v.status:<10} "
                f"valid {v.valid_from:%H:%M:%S} → {until} (UTC)"
            )

        found = await as_agent.recall(
            [namespace], task="通知物流异常", keys=["notification.preference"]
        )
        console.print(f"4. {agent} recalls for 通知物流异常 (POST /v1/recall):")
        console.print(_recalled(found), soft_wrap=True)

        for text in (
            "Every December the customer sends a gift parcel to their sister Anna.",
            "Anna moved to Porto last spring.",
        ):
            await as_user.write(namespace, {"kind": "semantic", "content": text})
        question = "Which city should this December's gift parcel go to?"
        hops = await as_agent.recall([namespace], query=question, k=3)
        console.print(
            f"4b. user 123 said two things about Anna; {agent} asks {question!r} and the graph"
            " walks from the first to the second:"
        )
        console.print(_recalled(hops), soft_wrap=True)
        anna = await as_agent.entity("Anna", [namespace])
        console.print(
            f"4c. GET /v1/entities/Anna — names {anna.names}; relations: "
            + "; ".join(f"{r.subject} {r.predicate} {r.object}" for r in anna.relations)
        )

        receipt = await as_user.forget({"namespace": namespace, "key": "notification.preference"})
        console.print("5. user 123: 忘掉我的通知偏好 → POST /v1/forget → DeleteSubject → receipt:")
        console.print(_receipt_table(receipt))
        stored = await as_user.receipt(receipt.deletion_id)
        console.print(f"   durable receipt read back: {stored.verification_status}")

        after = await as_agent.recall(
            [namespace], task="通知物流异常", keys=["notification.preference"]
        )
        console.print(
            f"6. {agent} recalls again: {len(after.memories)} memories"
            + (" — nothing left" if not after.memories else "")
        )
    console.print(
        "[dim]   in Temporal every payload is encrypted; operators decode with "
        f"`memctl codec-server` ({settings.codec_server_url}, a token from "
        "`memctl codec-server token NAME`); the deleted runs are gone from it[/]"
    )
    console.rule(
        "[bold green]demo passed"
        if receipt.verification_status == "passed" and not after.memories
        else "[bold red]demo FAILED"
    )
