"""Conversation messages: raw utterances per conversation, in order. A conversation is a
namespace's: a thread of it, or its messages off-thread. Thread `t` of one namespace and thread
`t` of another are two conversations, so every lookup by thread (positions, `msg://t/n`
references) names the namespace."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update

from governed_memory.memory.errors import VersionConflict
from governed_memory.memory.models import (
    ConversationMessage,
    PrincipalType,
    Sensitivity,
    content_hash,
    thread_position,
)
from governed_memory.memory.stores.canonical._db import Part, chunks, dialect_insert, row_to_message
from governed_memory.memory.stores.schema import conversation_messages

_FIND = select(conversation_messages).where(
    conversation_messages.c.message_id == bindparam("message_id")
)
_LAST_POSITION = select(func.max(conversation_messages.c.position)).where(
    conversation_messages.c.tenant_id == bindparam("tenant_id"),
    conversation_messages.c.namespace == bindparam("namespace"),
    conversation_messages.c.conversation == bindparam("conversation"),
)
_INSERT = insert(conversation_messages)


@dataclass(frozen=True)
class NewMessage:
    """A message to keep (its text screened by the caller: `memory.write.screening`)."""

    message_id: str
    tenant_id: str
    namespace: str
    thread: str | None
    speaker: str
    speaker_type: PrincipalType
    text: str
    at: datetime
    sensitivity: Sensitivity = "internal"
    workflow_id: str | None = None


def _place_all(conn: Connection, entries: Sequence[NewMessage]) -> list[ConversationMessage]:
    """Each message already kept (by id) as it is; the others at the next positions of their
    conversations, inserted together."""
    last: dict[tuple[str, str, str], int] = {}
    out: list[ConversationMessage] = []
    rows: list[dict[str, Any]] = []
    placed: dict[str, ConversationMessage] = {}
    for e in entries:
        if e.message_id in placed:
            out.append(placed[e.message_id])
            continue
        found = conn.execute(_FIND, {"message_id": e.message_id}).first()
        if found is not None:
            out.append(placed.setdefault(e.message_id, row_to_message(found)))
            continue
        conversation = e.thread or e.namespace
        where = (e.tenant_id, e.namespace, conversation)
        if where not in last:
            params = dict(zip(("tenant_id", "namespace", "conversation"), where, strict=True))
            last[where] = conn.execute(_LAST_POSITION, params).scalar() or 0
        last[where] += 1
        values = {
            "message_id": e.message_id,
            "tenant_id": e.tenant_id,
            "namespace": e.namespace,
            "thread": e.thread,
            "conversation": conversation,
            "position": last[where],
            "speaker": e.speaker,
            "speaker_type": e.speaker_type,
            "text": e.text,
            "at": e.at,
            "status": "active",
            "content_hash": content_hash(e.text),
            "workflow_id": e.workflow_id,
            "sensitivity": e.sensitivity,
        }
        rows.append(values)
        message = ConversationMessage.model_validate(
            {k: v for k, v in values.items() if k in ConversationMessage.model_fields}
        )
        placed[e.message_id] = message
        out.append(message)
    if rows:
        conn.execute(_INSERT, rows)
    return out


_ERASE_MESSAGE = update(conversation_messages).where(
    conversation_messages.c.message_id == bindparam("b_message_id")
)


class Messages(Part):
    def append(
        self,
        *,
        message_id: str,
        tenant_id: str,
        namespace: str,
        thread: str | None,
        speaker: str,
        speaker_type: PrincipalType,
        text: str,
        at: datetime,
        sensitivity: Sensitivity = "internal",
        workflow_id: str | None = None,
    ) -> ConversationMessage:
        """Append a message at the next position of its conversation; idempotent by id. `text`
        is what may be kept: screened by the caller (`memory.write.screening`)."""
        entry = NewMessage(
            message_id=message_id,
            tenant_id=tenant_id,
            namespace=namespace,
            thread=thread,
            speaker=speaker,
            speaker_type=speaker_type,
            text=text,
            at=at,
            sensitivity=sensitivity,
            workflow_id=workflow_id,
        )
        return self.append_all([entry])[0]

    def append_all(self, entries: Sequence[NewMessage]) -> list[ConversationMessage]:
        """Append messages in order, each at the next position of its conversation, in one
        transaction (a batch's messages: one commit, not one each); idempotent by id."""
        if not entries:
            return []
        for _ in range(20):
            try:
                with self.db.write() as conn:
                    return _place_all(conn, entries)
            except VersionConflict:  # another writer took a position: place them again
                continue
        raise VersionConflict("could not place messages in their conversations")

    def import_many(self, messages: Sequence[ConversationMessage]) -> int:
        """Insert messages at the positions they give; one already there is left alone."""
        if not messages:
            return 0
        rows = [
            {
                **m.model_dump(mode="python"),
                "conversation": m.thread or m.namespace,
                "content_hash": content_hash(m.text),
                "workflow_id": None,
            }
            for m in messages
        ]
        with self.db.write() as conn:
            present = set(
                conn.execute(
                    select(conversation_messages.c.message_id).where(
                        conversation_messages.c.message_id.in_([r["message_id"] for r in rows])
                    )
                ).scalars()
            )
            new = [r for r in rows if r["message_id"] not in present]
            if new:
                conn.execute(
                    dialect_insert(conn, conversation_messages).on_conflict_do_nothing(), new
                )
            return len(new)

    def by_refs(
        self, tenant_id: str, namespace: str, refs: Iterable[str]
    ) -> dict[str, ConversationMessage]:
        """The messages of `namespace` cited as `msg://{thread}/{position}` or
        `msg://{message id}` (a citation means the namespace's own thread)."""
        wanted: dict[tuple[str, int], str] = {}
        ids: dict[str, str] = {}
        for ref in refs:
            if not ref.startswith("msg://"):
                continue
            cited = thread_position(ref)
            if cited is not None:
                wanted[cited] = ref
            else:
                ids[ref.removeprefix("msg://")] = ref
        found: dict[str, ConversationMessage] = {}
        mine = (
            conversation_messages.c.tenant_id == tenant_id,
            conversation_messages.c.namespace == namespace,
        )
        with self.db.read() as conn:
            if wanted:
                rows = conn.execute(
                    select(conversation_messages).where(
                        *mine, conversation_messages.c.thread.in_({t for t, _ in wanted})
                    )
                )
                for r in rows:
                    cited_ref = wanted.get((r.thread, r.position))
                    if cited_ref is not None:
                        found[cited_ref] = row_to_message(r)
            if ids:
                rows = conn.execute(
                    select(conversation_messages).where(
                        *mine, conversation_messages.c.message_id.in_(list(ids))
                    )
                )
                for r in rows:
                    found[ids[r.message_id]] = row_to_message(r)
        return found

    def in_namespace(self, namespace: str) -> list[ConversationMessage]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(conversation_messages)
                .where(conversation_messages.c.namespace == namespace)
                .order_by(conversation_messages.c.conversation, conversation_messages.c.position)
            )
            return [row_to_message(r) for r in rows]

    def workflows_of(self, message_ids: Sequence[str]) -> set[str]:
        """The workflow runs (by id) that kept these messages: their histories carried them."""
        found: set[str] = set()
        with self.db.read() as conn:
            for batch in chunks(list(message_ids)):
                found.update(
                    w
                    for w in conn.execute(
                        select(conversation_messages.c.workflow_id).where(
                            conversation_messages.c.message_id.in_(batch)
                        )
                    ).scalars()
                    if w
                )
        return found

    def in_thread(
        self,
        tenant_id: str,
        namespace: str,
        thread: str,
        *,
        first: int | None = None,
        last: int | None = None,
        include_erased: bool = False,
    ) -> list[ConversationMessage]:
        """The messages of `namespace`'s thread `thread`, in order."""
        query = (
            select(conversation_messages)
            .where(
                conversation_messages.c.tenant_id == tenant_id,
                conversation_messages.c.namespace == namespace,
                conversation_messages.c.thread == thread,
            )
            .order_by(conversation_messages.c.position)
        )
        if first is not None:
            query = query.where(conversation_messages.c.position >= first)
        if last is not None:
            query = query.where(conversation_messages.c.position <= last)
        if not include_erased:
            query = query.where(conversation_messages.c.status == "active")
        with self.db.read() as conn:
            return [row_to_message(r) for r in conn.execute(query)]

    def locked(self, conn: Connection, message_ids: Sequence[str]) -> list[Any]:
        """Message rows read inside a write transaction."""
        return [
            r
            for chunk in chunks(list(message_ids))
            for r in conn.execute(
                select(conversation_messages).where(conversation_messages.c.message_id.in_(chunk))
            )
        ]

    def rewrite(self, conn: Connection, updates: Sequence[dict[str, Any]]) -> None:
        """Blank or redact messages: `b_message_id`, `text`, `status`, `content_hash` each."""
        if updates:
            conn.execute(_ERASE_MESSAGE, list(updates))
