"""What enters Temporal is encrypted: the history read raw through Temporal's API (what
`temporal workflow show` and the UI get without the codec) holds no word a user said, while the
service's own converter still reads every run."""

from __future__ import annotations

import uuid

import pytest
from google.protobuf.message import Message
from temporalio.api.common.v1 import Payload

from governed_memory.memory.models import WriteResult
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.codec import EncryptionCodec, Keyring
from tests.codec_keys import KEYRING
from tests.factories import BOT, NS, T0, USER


async def _raw_history(client: MemoryClient, workflow_id: str) -> bytes:
    handle = client.temporal.get_workflow_handle(workflow_id)
    return b"".join([e.SerializeToString() async for e in handle.fetch_history_events()])


async def test_history_holds_ciphertext_only(client: MemoryClient) -> None:
    client.register_principal(BOT)
    marker = f"Zqhist{uuid.uuid4().hex[:8]}"
    kept = await client.observe(
        USER, NS, f"Please always deliver to the side door, code word {marker}", at=T0
    )
    refused = await client.observe(USER, NS, f"my password is {marker}Pw9!", at=T0)
    assert refused.outcome.decision == "reject"
    for result in (kept, refused):
        raw = await _raw_history(client, result.workflow_id)
        assert raw, result.workflow_id
        assert marker.encode() not in raw
        assert b"binary/encrypted" in raw
    # The service itself reads the run: its result decodes through the shared converter.
    handle = client.temporal.get_workflow_handle(kept.workflow_id, result_type=WriteResult)
    assert (await handle.result()).outcomes == kept.outcomes


async def test_payloads_round_trip_and_refuse_a_wrong_key() -> None:
    from temporalio.api.common.v1 import Payload

    payload = Payload(metadata={"encoding": b"json/plain"}, data=b'{"text":"hello"}')
    codec = EncryptionCodec(KEYRING)
    [sealed] = await codec.encode([payload])
    assert b"hello" not in sealed.SerializeToString()
    assert await codec.decode([sealed]) == [payload]
    # An unencrypted payload is shown as it is by the codec server's codec; the service's
    # (a worker's, a client's) refuses it, reading a marker that fails the run's admission.
    assert await codec.decode([payload]) == [payload]
    [refused] = await EncryptionCodec(KEYRING, require_encryption=True).decode([payload])
    assert b"hello" not in refused.data
    assert b"__plaintext_refused__" in refused.data
    # Rotation: a new key encrypts, the old one still decrypts what it sealed.
    new = Keyring.new()
    rotated = EncryptionCodec(Keyring(new.current, {**new.keys, **KEYRING.keys}))
    assert await rotated.decode([sealed]) == [payload]
    with pytest.raises(ValueError, match="unknown key"):
        await EncryptionCodec(Keyring.new()).decode([sealed])


def test_the_embedded_default_makes_a_private_key_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "data" / "codec-keys.json"
    first = Keyring.load(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert Keyring.load(path) == first  # made once, then read


def test_processes_started_together_share_the_key_made_first(tmp_path: object) -> None:
    """A worker and an MCP server started together on a first run both find no key file: one
    key is made, and everyone reads it (none fails, none reads a half-written file)."""
    import threading
    from pathlib import Path

    for attempt in range(20):
        path = Path(str(tmp_path)) / str(attempt) / "codec-keys.json"
        start = threading.Barrier(12)
        rings: list[Keyring] = []
        failures: list[BaseException] = []

        def load(
            path: Path = path,
            start: threading.Barrier = start,
            rings: list[Keyring] = rings,
            failures: list[BaseException] = failures,
        ) -> None:
            start.wait()
            try:
                rings.append(Keyring.load(path))
            except BaseException as exc:  # what a loser of the race raised
                failures.append(exc)

        threads = [threading.Thread(target=load) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures, failures
        assert len({r.spec() for r in rings}) == 1
        assert Keyring.load(path) == rings[0]
        assert [p.name for p in path.parent.iterdir()] == ["codec-keys.json"]


async def test_a_failure_quoting_what_was_said_is_encrypted_too(client: MemoryClient) -> None:
    """An error message can quote the request ("could not tell what '…' asks to forget"): it
    travels encrypted, and the caller still reads it."""
    from temporalio.client import WorkflowFailureError

    from governed_memory.memory.models import DeleteRequest, DeletionScope

    client.register_principal(BOT)
    marker = f"Zqfail{uuid.uuid4().hex[:8]}"
    workflow_id = f"delete/raw/{uuid.uuid4().hex}"
    raw = DeleteRequest(
        principal=USER,
        tenant="shop-a",
        scope=DeletionScope(namespace=NS, text=f"please forget the {marker} thing"),
    )
    raw.grant = client.runs.grant("DeleteSubject", workflow_id, raw, USER, "shop-a")
    with pytest.raises(WorkflowFailureError) as failed:
        await client.temporal.execute_workflow(
            "DeleteSubject", raw, id=workflow_id, task_queue=client.settings.task_queue
        )
    assert marker in str(failed.value.cause)  # decoded for the caller
    history = await _raw_history(client, workflow_id)
    assert b"InvalidInput" in history or b"binary/encrypted" in history
    assert marker.encode() not in history


def _payloads_in(message: Message) -> list[Payload]:
    """Every Payload inside a protobuf message (fields, repeated fields and maps)."""
    if isinstance(message, Payload):
        return [message]
    found: list[Payload] = []
    for _, value in message.ListFields():
        if isinstance(value, Message):
            found += _payloads_in(value)
        elif not isinstance(value, str | bytes | int | float):  # repeated fields and maps
            items = value.values() if hasattr(value, "values") else list(value)
            found += [p for item in items if isinstance(item, Message) for p in _payloads_in(item)]
    return found


async def _decoded_payloads(client: MemoryClient, workflow_id: str) -> dict[str, bytes]:
    """Every payload of a run's history, decrypted with the service's key (what an operator
    holding the codec key reads), by the event that carries it."""
    codec = EncryptionCodec(KEYRING)
    handle = client.temporal.get_workflow_handle(workflow_id)
    out: dict[str, bytes] = {}
    async for event in handle.fetch_history_events():
        name = f"{event.event_id}:{event.WhichOneof('attributes')}"
        decoded = await codec.decode(_payloads_in(event))
        out[name] = b"".join(p.data for p in decoded)
    return out


async def test_between_activities_history_carries_ids_not_content(client: MemoryClient) -> None:
    """Decrypted, a write's history holds what was said only in the caller's own input: the
    decision, the commit, the projection and the result carry ids, decisions and reasons."""
    from tests.factories import DRAFTER

    client.register_principal(BOT)
    client.register_principal(DRAFTER)
    marker = f"Zqref{uuid.uuid4().hex[:8]}"
    kept = await client.observe(USER, NS, f"Please leave parcels at door {marker} from now on")
    deferred = await client.write(
        DRAFTER.ref,
        NS,
        {"kind": "episodic", "content": f"Asked about the {marker} voucher"},
    )
    assert deferred.outcome.review_id is not None
    review_run = client.stores.canonical.reviews.get(deferred.outcome.review_id).workflow_id
    for workflow_id in (kept.workflow_id, deferred.workflow_id):
        payloads = await _decoded_payloads(client, workflow_id)
        holding = sorted(k for k, data in payloads.items() if marker.encode() in data)
        assert holding, workflow_id  # the caller's input is there (encrypted at rest)
        assert all(k.endswith("workflow_execution_started_event_attributes") for k in holding), (
            holding
        )
    # The review starts from ids: neither its input nor its `task` query holds the write.
    review_payloads = await _decoded_payloads(client, review_run)
    assert not [k for k, data in review_payloads.items() if marker.encode() in data]
    task = await client.temporal.get_workflow_handle(review_run).query("task")
    assert marker not in str(task)
    # The caller still gets the values: read from the outcome kept by idempotency key.
    assert kept.outcomes
