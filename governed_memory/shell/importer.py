"""Bulk import of long conversations (`memctl import messages FILE.jsonl`).

One message per line: `{"thread", "position", "speaker", "time", "text", "namespace"}`. The whole
file is validated before anything is written (a bad line is named with its number and field).
Messages go to the conversation history in batches (idempotent by thread and position); with
`--as-episodic`, the user's messages also become episodic memories through `WriteBatch`, so
they pass the whole write pipeline (secrets, injections and special categories are refused as
for any write) and keep one idempotency key each.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from asyncio import FIRST_COMPLETED
from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from pydantic import AwareDatetime, Field, ValidationError, field_validator

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import (
    BatchResult,
    ConversationMessage,
    Model,
    WriteRequest,
    cut,
    parse_principal_ref,
    utcnow,
)
from governed_memory.memory.namespaces import parse_namespace
from governed_memory.memory.write.screening import screen


class ImportMessage(Model):
    thread: str = Field(min_length=1, max_length=128)
    position: int = Field(ge=1)
    speaker: str = Field(min_length=1)
    time: AwareDatetime
    text: str = Field(min_length=1)
    namespace: str

    @field_validator("namespace")
    @classmethod
    def _ns(cls, v: str) -> str:
        parse_namespace(v)
        return v

    @property
    def tenant(self) -> str:
        return parse_namespace(self.namespace).tenant

    def speaker_ref(self) -> str:
        """A principal ref, or a role: "user" is the namespace's user, anything else an agent."""
        if ":" in self.speaker:
            parse_principal_ref(self.speaker)
            return self.speaker
        ns = parse_namespace(self.namespace)
        if self.speaker.lower() in ("user", "customer", "用户") and ns.scope == "user":
            return f"user:{ns.tenant}/{ns.id}"
        return f"agent:{ns.tenant}/{self.speaker.lower()}"


def load_messages(path: Path) -> list[ImportMessage]:
    messages: list[ImportMessage] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InvalidInput(f"{path}: no such file", field="path") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            message = ImportMessage.model_validate(data)
            message.speaker_ref()
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}:{number}: not valid JSON: {exc.msg}") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            msg = str(first["msg"]).removeprefix("Value error, ")
            raise InvalidInput(f"{path}:{number}: {where}: {msg}", field=where) from None
        except InvalidInput as exc:
            raise InvalidInput(f"{path}:{number}: {exc.message}", field=exc.field) from None
        messages.append(message)
    if not messages:
        raise InvalidInput(f"{path}: no messages", field="path")
    tenants = {m.tenant for m in messages}
    if len(tenants) != 1:
        raise InvalidInput(f"{path}: messages of several tenants ({', '.join(sorted(tenants))})")
    return messages


def batches(items: list[ImportMessage], size: int) -> Iterator[list[ImportMessage]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _message_id(m: ImportMessage) -> str:
    """Stable per (namespace, thread, position), so a second import of a file adds nothing
    (thread `t` of another namespace is another conversation)."""
    raw = f"{m.namespace}/{m.thread}/{m.position}".encode()
    return f"msg_imp_{hashlib.sha256(raw).hexdigest()[:32]}"


def as_history(messages: list[ImportMessage]) -> list[ConversationMessage]:
    """The messages as the conversation history keeps them: screened (secrets redacted,
    sensitivity set) like every message stored."""
    return [_screened(m) for m in messages]


def _screened(m: ImportMessage) -> ConversationMessage:
    screened = screen(m.text)
    return ConversationMessage(
        message_id=_message_id(m),
        tenant_id=m.tenant,
        namespace=m.namespace,
        thread=m.thread,
        position=m.position,
        speaker=m.speaker_ref(),
        speaker_type=parse_principal_ref(m.speaker_ref())[0],
        text=screened.text,
        sensitivity=screened.sensitivity,
        at=m.time,
    )


def as_episodes(
    messages: list[ImportMessage],
    make_request: Callable[..., WriteRequest],
    keep_days: int | None,
    now: datetime | None = None,
) -> list[WriteRequest]:
    """Episodic write requests for the user's messages (an agent's lines are conversation)."""
    now = now or utcnow()
    out = []
    for m in messages:
        ref = m.speaker_ref()
        if not ref.startswith("user:"):
            continue
        candidate = {
            "kind": "episodic",
            "content": m.text,
            "source_type": "user_assertion",
            "source_refs": [f"msg://{m.thread}/{m.position}"],
            "valid_from": m.time.isoformat(),
            "confidence": 0.8,
        }
        if keep_days is not None:
            candidate["expires_at"] = (now + timedelta(days=keep_days)).isoformat()
        out.append(
            make_request(
                ref,
                m.namespace,
                candidate,
                idempotency_key=f"import:{m.thread}:{m.position}",
            )
        )
    return out


async def write_episodes(
    write_batch: Callable[[Sequence[WriteRequest]], Awaitable[BatchResult]],
    workers_polling: Callable[[], Awaitable[bool]],
    requests: list[WriteRequest],
    batch_size: int,
    progress: Callable[[int, str], None],
    *,
    in_flight: int = 4,
    every: float = 2.0,
) -> dict[str, int]:
    """Write `requests` in WriteBatch runs (`MemoryClient.write_batch`) of `batch_size`,
    `in_flight` at a time, and return the count of each decision. `progress(written,
    waiting_on)` is called as each batch completes, and every `every` seconds while none does,
    saying what the import waits on (no worker polling the task queue is said at once, not
    after the client's timeout)."""
    todo = cut(requests, batch_size)
    running: dict[asyncio.Task[BatchResult], int] = {}
    counts: dict[str, int] = {}
    written = 0
    while todo or running:
        while todo and len(running) < in_flight:
            batch = todo.pop(0)
            running[asyncio.ensure_future(write_batch(batch))] = len(batch)
        done, _ = await asyncio.wait(running, timeout=every, return_when=FIRST_COMPLETED)
        for task in done:
            size = running.pop(task)
            for decision, n in task.result().counts().items():
                counts[decision] = counts.get(decision, 0) + n
            written += size
        if done:
            progress(written, f"{len(running)} batch(es) of {batch_size} running")
        elif await workers_polling():
            progress(written, f"waiting for {len(running)} WriteBatch run(s) to finish")
        else:
            progress(
                written,
                "waiting for a worker: none polls the task queue (start `memctl worker` or "
                "`memctl dev`)",
            )
    return counts
