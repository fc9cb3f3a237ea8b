"""`memctl demo`: the seed's story, told through the real workflows and stores.

A user prefers email, then asks for SMS instead (the email value becomes history); a support
agent recalls the preference for "通知物流异常"; the user asks to forget it; the deletion receipt
prints with its verification; recall returns nothing.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from rich.console import Console
from rich.table import Table

from memory.models import DeletionReceipt, RecallResult
from memory.settings import Settings
from shell.stack import embedded_stack

# Wide enough for the tables when the output is piped or captured.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)


def _recall_table(result: RecallResult) -> Table:
    table = Table(show_header=True, header_style="bold")
    for col in ("memory", "key", "value", "content", "source", "score", "why"):
        table.add_column(col)
    for m in result.memories:
        table.add_row(
            f"{m.memory_id[:12]}… v{m.version}",
            m.key or "",
            str(m.structured_value or ""),
            m.content,
            f"{m.source_type} {','.join(m.source_refs)}",
            f"{m.retrieval_score:.3f}",
            ",".join(m.retrieval_reasons),
        )
    return table


def _receipt_table(receipt: DeletionReceipt) -> Table:
    table = Table(show_header=False)
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
        table.add_row(name, str(getattr(receipt, name)))
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


async def run_demo(settings: Settings) -> None:
    tenant = "demo-" + datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    user = f"user:{tenant}/123"
    agent = f"agent:{tenant}/support-bot"
    namespace = f"tenant/{tenant}/user/123"

    async with embedded_stack(settings) as stack:
        client = stack.client
        console.rule(f"[bold]governed memory demo — tenant {tenant}")
        client.register_principal(
            {
                "type": "agent",
                "tenant": tenant,
                "id": "support-bot",
                "read": [f"tenant/{tenant}/user/*"],
                "write": [f"tenant/{tenant}/user/*"],
            }
        )
        console.print(f"1. registered {agent}: reads and writes tenant/{tenant}/user/*")

        first = await client.write(
            user,
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
            f"2. user 123: 以后有通知请发我邮箱 → WriteMemory {o.relation} → {o.decision} "
            f"{o.memory_id} v{o.version}  [dim]({first.workflow_id})[/]"
        )

        second = await client.write(
            user,
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
        for v in client.stores.canonical.records.versions(o.memory_id):
            console.print(
                f"   history of the email value: v{v.version} {v.status:<10} "
                f"valid {v.valid_from:%H:%M:%S} → {v.valid_to or '…'}"
            )

        found = await client.recall(
            agent, [namespace], task="通知物流异常", keys=["notification.preference"]
        )
        console.print(f"4. {agent} recalls for 通知物流异常:")
        console.print(_recall_table(found))

        receipt = await client.forget(
            user, {"namespace": namespace, "key": "notification.preference"}
        )
        console.print("5. user 123: 忘掉我的通知偏好 → DeleteSubject → receipt:")
        console.print(_receipt_table(receipt))
        stored = client.receipt(receipt.deletion_id, receipt.requested_by)
        console.print(f"   durable receipt read back: {stored.verification_status}")

        after = await client.recall(
            agent, [namespace], task="通知物流异常", keys=["notification.preference"]
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
        if stack.started_server:
            console.print("[dim]stopping the dev server this demo started[/]")
