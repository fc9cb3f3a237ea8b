"""After a day's worth of operations (writes, a batch, reviews of every kind, feedback of every
kind, a summary, deletions), every payload of every history on the task queue, decrypted with the
codec key as an operator holding it would read it, holds no bearer token and no secret the
service refused; nor does any row of the canonical store, nor any log line. Tokens stop at the
door; a secret is redacted there, before any workflow starts."""

from __future__ import annotations

import base64
import json
import logging
import re
import uuid
from datetime import timedelta

import pytest
from google.protobuf.message import Message
from temporalio.api.common.v1 import Payload
from temporalio.client import WorkflowHistory
from temporalio.service import RPCError, RPCStatusCode

from governed_memory.memory.models import Principal
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.codec import EncryptionCodec
from tests.codec_keys import KEYRING
from tests.factories import BOT, DRAFTER, NS, T0, USER, sms

_JWT = re.compile(rb"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")


def _payloads_in(message: Message) -> list[Payload]:
    if isinstance(message, Payload):
        return [message]
    found: list[Payload] = []
    for _, value in message.ListFields():
        if isinstance(value, Message):
            found += _payloads_in(value)
        elif not isinstance(value, str | bytes | int | float):
            items = value.values() if hasattr(value, "values") else list(value)
            found += [p for item in items if isinstance(item, Message) for p in _payloads_in(item)]
    return found


async def _every_history(client: MemoryClient) -> dict[str, bytes]:
    """Every run on this test's task queue (each run of each workflow id): its events and its
    payloads decrypted, as bytes."""
    codec = EncryptionCodec(KEYRING)
    out: dict[str, bytes] = {}
    query = f'TaskQueue = "{client.settings.task_queue}"'
    async for run in client.temporal.list_workflows(query):
        handle = client.temporal.get_workflow_handle(run.id, run_id=run.run_id)
        chunks: list[bytes] = []
        try:
            async for event in handle.fetch_history_events():
                chunks.append(event.SerializeToString())
                for payload in await codec.decode(_payloads_in(event)):
                    chunks.append(payload.data)
                    chunks.extend(payload.metadata.values())
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            continue  # deleted with what a deletion erased (visibility lists it a while longer)
        out[f"{run.id}@{run.run_id}"] = b"\n".join(chunks)
    return out


def _bearer_tokens(blob: bytes) -> list[bytes]:
    """JWTs in `blob` that are principal tokens (EdDSA or RS256), not grants (HS256)."""
    found = []
    for m in _JWT.finditer(blob):
        header = m.group(0).split(b".")[0]
        try:
            alg = json.loads(base64.urlsafe_b64decode(header + b"=" * (-len(header) % 4)))["alg"]
        except (ValueError, KeyError):
            continue
        if alg != "HS256":
            found.append(m.group(0))
    return found


def _holds(blob: bytes, needle: bytes) -> bytes | None:
    """Where `needle` stands in `blob` as a token of its own (60 bytes around it), or None: the
    six-digit PIN this test says, not the same digits inside a hash, an id or a float
    ("0.8842137") that a day of writes stores too."""
    found = re.search(rb"(?<![0-9A-Za-z])" + re.escape(needle) + rb"(?![0-9A-Za-z])", blob)
    return None if found is None else blob[max(0, found.start() - 60) : found.end() + 60]


async def test_a_days_histories_hold_no_token_and_no_refused_secret(
    client: MemoryClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
    crm = Principal(type="service", tenant="shop-a", id="crm", write=["tenant/shop-a/user/*"])
    for principal in (BOT, DRAFTER, lead, crm):
        client.register_principal(principal)
    tag = uuid.uuid4().hex[:6]
    password = f"Qz{tag}Pw!93"
    api_key = f"sk-{tag}abcdefghijklmnopqrstuvwx"
    pin = "884213"
    day = [T0 + timedelta(hours=h) for h in range(24)]

    # writes: kept, refused (secrets in a message, a candidate, a structured value), a batch
    await client.observe(USER, NS, "以后有通知请发我邮箱。", thread="t-day", at=day[0])
    refused = [
        await client.observe(USER, NS, f"my password is {password}", thread="t-day", at=day[1]),
        await client.observe(
            USER, NS, f"记一下我的支付密码是 {pin}，下次直接帮我付款。", at=day[1]
        ),
        await client.write(
            BOT.ref,
            NS,
            {"kind": "semantic", "content": f"The user's API key is {api_key}"},
            at=day[2],
        ),
        await client.write(
            BOT.ref,
            NS,
            {
                "kind": "profile",
                "key": "account.login",
                "structured_value": {"password": password},
                "content": f"login password {password}",
            },
            at=day[2],
        ),
    ]
    for result in refused:
        assert result.outcome.decision in ("reject", "no_op"), result.outcome
        assert any(o.reason == "secret" for o in result.outcomes), result.outcomes
    batch = await client.write_batch(
        [
            client.write_request(
                USER, NS, {"kind": "episodic", "content": f"问过订单 {i}"}, at=day[3]
            )
            for i in range(3)
        ]
        + [client.write_request(USER, NS, text=f"my password is {password}", at=day[3])]
    )
    assert batch.items[-1].outcomes[0].decision == "reject"

    # reviews: a deferred write approved, a conflict settled, a harmful report reviewed
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=day[4])
    assert deferred.outcome.review_id is not None
    await client.review(lead.ref, deferred.outcome.review_id, "approve", at=day[5])
    theirs = await client.write(
        crm.ref,
        NS,
        {
            "kind": "profile",
            "key": "notification.preference",
            "structured_value": {"channel": "phone"},
            "content": "CRM 记录用户偏好电话",
        },
        at=day[5],
    )
    if theirs.outcome.review_id is not None:
        side = theirs.outcome.matched_memory_ids[0] if theirs.outcome.matched_memory_ids else None
        await client.review(
            lead.ref, theirs.outcome.review_id, "approve", memory_id=side, at=day[6]
        )
    episode = batch.items[0].outcomes[0].memory_id or ""
    harmful = await client.feedback(USER, episode, "harmful", occurred_at=day[7])
    assert harmful.review is not None
    await client.review(lead.ref, harmful.review.review.review_id, "reject", at=day[8])

    # feedback of the other kinds, a summary, deletions
    other = batch.items[1].outcomes[0].memory_id or ""
    await client.feedback(USER, other, "confirmed", occurred_at=day[9])
    await client.feedback(
        USER, other, "corrected", correction={"text": "我问的是订单 42"}, occurred_at=day[10]
    )
    await client.summarize(BOT.ref, "t-day", namespace=NS, at=day[11])
    # (read before the deletions, which delete the runs that carried what they erase)
    histories = await _every_history(client)
    assert len(histories) >= 10, sorted(histories)
    third = batch.items[2].outcomes[0].memory_id or ""
    await client.feedback(USER, third, "deleted", occurred_at=day[12])
    await client.forget(USER, {"namespace": NS, "key": "notification.preference"}, at=day[13])
    histories.update(await _every_history(client))

    minted = [token.encode() for token, _ in client.tokens._minted.values()]
    assert minted  # the door did verify tokens (minted in process, as a caller's would be)
    secrets = [password.encode(), api_key.encode(), pin.encode()]
    for run, blob in histories.items():
        assert not _bearer_tokens(blob), run
        for token in minted:
            assert token not in blob, run
        for secret in secrets:
            assert _holds(blob, secret) is None, (run, secret)
    # ... nor in any row of the canonical store, nor in any log line
    canonical = client.stores.canonical
    with canonical.engine.connect() as conn:
        from sqlalchemy import select

        from governed_memory.memory.stores.schema import metadata

        rows = [
            json.dumps([str(v) for v in row], ensure_ascii=False).encode()
            for table in metadata.sorted_tables
            for row in conn.execute(select(table))
        ]
    everything = b"\n".join(rows)
    for needle in [*secrets, *minted]:
        assert _holds(everything, needle) is None, _holds(everything, needle)
    logged = caplog.text.encode()
    for needle in [*secrets, *minted]:
        assert _holds(logged, needle) is None, _holds(logged, needle)
    # the JSON `temporal workflow show` prints of a run that was refused a secret
    history: WorkflowHistory = await client.temporal.get_workflow_handle(
        refused[0].workflow_id
    ).fetch_history()
    assert password not in history.to_json()
