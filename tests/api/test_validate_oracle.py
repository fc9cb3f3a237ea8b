"""`POST /v1/context/validate` is no oracle: a caller holding a package as its own may pin any
memory id and cite any message, and each it may not read (another tenant's, another user's) is
answered exactly as one that does not exist."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from governed_memory.memory.models.context import ContextPackage, PinnedVersion
from governed_memory.shell.client import MemoryClient
from tests.api.door import BOB, BOB_NS, STRANGER, app_client, remember
from tests.factories import BOT, USER, sms


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(client) as http:
        yield http


async def test_validating_a_package_tells_nothing_of_what_the_caller_may_not_read(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    client.register_principal(BOT)
    await client.observe(BOB, BOB_NS, "Please deliver my parcels after 6pm", thread="t-door")
    await client.write(BOB, BOB_NS, sms())
    (gone,) = await remember(client, 1)
    package = await client.build_context(
        BOT.ref, [BOB_NS], "how to reach the user", {"total_tokens": 4000}, thread="t-door"
    )
    # every memory of Bob's pinned (an agent's package pins what it was shown; here all of them)
    heads = client.stores.canonical.records.namespace_heads(BOB_NS)
    shown = {p.memory_id for p in package.pinned}
    extra = [PinnedVersion(memory_id=h.memory_id, version=h.version) for h in heads]
    package = package.model_copy(
        update={"pinned": [*package.pinned, *(p for p in extra if p.memory_id not in shown)]}
    )
    pinned = {p.memory_id for p in package.pinned}
    assert gone in pinned
    assert len(pinned) >= 2
    cited = [i for i in package.items if i.kind == "conversation_slice" and not i.omitted]
    assert cited, [i.kind for i in package.items]
    receipt = await client.forget(BOB, {"namespace": BOB_NS, "memory_id": gone})
    assert receipt.verification_status == "passed"

    async def validate(principal: str, pkg: ContextPackage) -> dict[str, Any]:
        response = await api.post(
            "/v1/context/validate",
            json={"package": pkg.model_dump(mode="json")},
            headers={"Authorization": f"Bearer {client.token_for(principal)}"},
        )
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    # the agent that may read the namespace is told the truth
    told = await validate(BOT.ref, package)
    assert [(c["memory_id"], c["reason"]) for c in told["changed"]] == [(gone, "deleted")]
    # anyone else, in the tenant or not, holding the package as their own: every pinned id and
    # every cited message is answered as one that does not exist
    nowhere = package.pinned[0].model_copy(update={"memory_id": "mem_does_not_exist"})
    slice_ = cited[0].model_copy(update={"source_refs": ["msg://t-door/999999"]})
    for stranger in (USER, STRANGER):
        forged = package.model_copy(
            update={
                "principal": stranger,
                "pinned": [*package.pinned, nowhere],
                "items": [*package.items, slice_],
            }
        )
        answer = await validate(stranger, forged)
        assert answer["valid"] is False
        by_pin = {c["memory_id"]: c for c in answer["changed"] if c["memory_id"]}
        assert set(by_pin) == pinned | {"mem_does_not_exist"}
        absent = {k: v for k, v in by_pin["mem_does_not_exist"].items() if k != "memory_id"}
        for memory_id, change in by_pin.items():
            told_them = {k: v for k, v in change.items() if k != "memory_id"}
            pin = next(p for p in forged.pinned if p.memory_id == memory_id)
            assert told_them == {**absent, "pinned_version": pin.version}, (stranger, change)
        by_ref = [c for c in answer["changed"] if c["message_ref"]]
        assert {c["reason"] for c in by_ref} == {"missing"}
        refs = {r for i in cited for r in i.source_refs} | {"msg://t-door/999999"}
        assert {c["message_ref"] for c in by_ref} == refs
