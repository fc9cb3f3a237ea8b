"""A secret said in a message is never kept, and the conversation slice honours the sensitivity
ceiling: the stored bytes (SQLite files with their WAL, the projection; every Postgres row) are
read as an attacker with disk access would."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from governed_memory.memory.context import ContextBuilder
from governed_memory.memory.models import Principal, WriteRequest
from governed_memory.memory.models.context import ContextBudget, ContextPackage, ContextRequest
from governed_memory.memory.retrieval import Reader
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.write.decide import decide_request
from governed_memory.memory.write.extraction import RuleExtractor
from governed_memory.memory.write.screening import screen
from governed_memory.shell.importer import ImportMessage, as_history
from tests.factories import BOT, NS, T0

USER = Principal(type="user", tenant="shop-a", id="123")
TRUSTED = BOT.model_copy(update={"id": "nurse", "sensitivity_ceiling": "restricted"})


def _say(stores: Stores, text: str, thread: str = "t-1") -> None:
    request = WriteRequest(
        principal=USER.ref,
        namespace=NS,
        idempotency_key=uuid.uuid4().hex,
        utterance={"text": text, "thread": thread},
    )
    seed = uuid.uuid4().hex
    decision = decide_request(
        stores,
        request,
        RuleExtractor(),
        workflow_id=f"w-{seed}",
        seed=seed,
        now=T0,
        allow_override=True,
        message_id=f"msg_{seed}",
    )
    stores.canonical.commits.apply(decision.plan(seed))


def _context(stores: Stores, principal: Principal, task: str) -> ContextPackage:
    """What `principal` is given for `task` in thread t-1, a minute after the messages."""
    return ContextBuilder(Reader(stores)).build(
        ContextRequest(
            principal=principal.ref,
            namespaces=[NS],
            task=task,
            thread="t-1",
            budget=ContextBudget(total_tokens=4000, reserved_output_tokens=500),
            at=T0 + timedelta(minutes=1),
        )
    )


def _stored_bytes(stores: Stores, settings: Settings) -> bytes:
    """Everything the service keeps: every file of the data folder (SQLite database, WAL and
    journal, projection) and, on Postgres, every row of every table."""
    stores.canonical.engine.dispose()
    out = b"".join(p.read_bytes() for p in Path(settings.data_dir).rglob("*") if p.is_file())
    if stores.canonical.engine.dialect.name == "postgresql":
        with stores.canonical.engine.connect() as conn:
            for table in sa.inspect(conn).get_table_names():
                for row in conn.execute(sa.text(f'SELECT * FROM "{table}"')):
                    out += repr(tuple(row)).encode()
    return out


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("My password is ZZLEAKA-hunter2xyz, and please text me by SMS", b"ZZLEAKA-hunter2xyz"),
        ("我的支付密码是 ZZLEAKB884213，以后发短信通知我", b"ZZLEAKB884213"),
        ("here is my API key sk-ZZLEAKCabcdefghijklmnopqrstu123456", b"ZZLEAKCabcdefghijklmno"),
    ],
)
def test_a_secret_in_a_message_is_never_stored(
    stores: Stores, settings: Settings, text: str, secret: bytes
) -> None:
    stores.canonical.principals.put(BOT, T0)
    _say(stores, text)
    assert secret not in _stored_bytes(stores, settings)
    # The conversation still reads, with the secret replaced.
    [message] = stores.canonical.messages.in_thread("shop-a", NS, "t-1")
    assert "[REDACTED:" in message.text
    shown = _context(stores, BOT, "how to notify the user").text()
    assert "[REDACTED:" in shown
    assert secret.decode() not in shown


def test_an_imported_conversation_is_screened(stores: Stores, settings: Settings) -> None:
    messages = [
        ImportMessage.model_validate(
            {
                "namespace": NS,
                "thread": "imp-1",
                "position": 1,
                "speaker": "user",
                "text": "the door code is 4455 and my password is ZZLEAKD-imported9",
                "time": T0.isoformat(),
            }
        )
    ]
    stores.canonical.messages.import_many(as_history(messages))
    assert b"ZZLEAKD-imported9" not in _stored_bytes(stores, settings)


def test_the_conversation_slice_honours_the_sensitivity_ceiling(stores: Stores) -> None:
    for p in (BOT, TRUSTED):
        stores.canonical.principals.put(p, T0)
    _say(stores, "I was diagnosed with diabetes last year, so no sugar in the gift basket")
    _say(stores, "Please deliver the gift basket on Friday")
    assert screen("I was diagnosed with diabetes last year").sensitivity == "restricted"

    def slice_for(p: Principal) -> str:
        package = _context(stores, p, "gift basket delivery")
        return "\n".join(i.content for i in package.items if i.kind == "conversation_slice")

    assert "deliver the gift basket on Friday" in slice_for(BOT)
    assert "diabetes" not in slice_for(BOT)
    assert "diabetes" in slice_for(TRUSTED)
