"""A principal is proven, not asserted. Every workflow started raw through the Temporal client,
as another SDK (or an attacker on the network) would, with a missing, forged, expired,
wrong-audience or someone else's token, fails with a typed, audited `Unauthenticated` and
changes nothing; the same request with its principal's own token goes through."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select
from temporalio.client import WorkflowFailureError, WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError

from memory.errors import Unauthenticated
from memory.identity import Issuer, identity_for
from memory.settings import Settings
from memory.stores.schema import audit_events
from shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER, sms
from tests.tokens import bad_tokens

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"


async def _refused(client: MemoryClient, workflow: str, raw: dict[str, Any]) -> None:
    with pytest.raises(WorkflowFailureError) as info:
        await client.temporal.execute_workflow(
            workflow, raw, id=f"raw/{uuid.uuid4().hex}", task_queue=client.settings.task_queue
        )
    cause = info.value.cause
    assert isinstance(cause, ApplicationError), cause
    assert cause.type == "Unauthenticated", cause


def _refusals(client: MemoryClient) -> list[str | None]:
    with client.stores.canonical.engine.connect() as conn:
        return list(
            conn.execute(
                select(audit_events.c.principal).where(
                    audit_events.c.stage == "authenticate", audit_events.c.outcome == "refused"
                )
            ).scalars()
        )


async def test_a_write_must_prove_its_principal(client: MemoryClient) -> None:
    bad = bad_tokens(client, BOB)
    for token in bad.values():
        raw = {
            "principal": BOB,
            "namespace": BOB_NS,
            "idempotency_key": uuid.uuid4().hex,
            "candidate": sms(source_type="human_review"),
            "token": token,
        }
        await _refused(client, "WriteMemory", raw)
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []
    assert _refusals(client) == [BOB] * len(bad)
    # Bob's own token: the same request goes through
    ok = {
        "principal": BOB,
        "namespace": BOB_NS,
        "idempotency_key": uuid.uuid4().hex,
        "candidate": sms(),
        "token": client.token_for(BOB),
    }
    result = await client.temporal.execute_workflow(
        "WriteMemory", ok, id=f"raw/{uuid.uuid4().hex}", task_queue=client.settings.task_queue
    )
    assert result["outcomes"][0]["decision"] == "add"


async def test_a_deletion_must_prove_its_principal(client: MemoryClient) -> None:
    await client.write(BOB, BOB_NS, sms(), at=T0)
    for token in bad_tokens(client, BOB).values():
        raw = {"principal": BOB, "tenant": "shop-a", "scope": {"namespace": BOB_NS}, "token": token}
        await _refused(client, "DeleteSubject", raw)
    (kept,) = client.stores.canonical.records.namespace_heads(BOB_NS)
    assert kept.status == "active"


async def test_a_batch_refuses_each_unproven_write(client: MemoryClient) -> None:
    bad = bad_tokens(client, BOB)
    requests = [
        {
            "principal": BOB,
            "namespace": BOB_NS,
            "idempotency_key": f"{name}-{uuid.uuid4().hex[:6]}",
            "candidate": {"kind": "episodic", "content": f"Asked about order {i}"},
            "token": token,
        }
        for i, (name, token) in enumerate(bad.items())
    ]
    result = await client.temporal.execute_workflow(
        "WriteBatch",
        {"requests": requests},
        id=f"raw/{uuid.uuid4().hex}",
        task_queue=client.settings.task_queue,
    )
    reasons = [item["outcomes"][0]["reason"] for item in result["items"]]
    assert reasons == ["unauthenticated"] * len(bad)
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []


async def test_a_summary_must_prove_its_principal(client: MemoryClient) -> None:
    client.register_principal(BOT)
    await client.observe(BOB, BOB_NS, "Please deliver after 6pm", thread="t-id", at=T0)
    for token in bad_tokens(client, BOT.ref).values():
        raw = {"principal": BOT.ref, "tenant": "shop-a", "thread": "t-id", "token": token}
        await _refused(client, "SummarizeThread", raw)


async def test_a_review_answer_must_prove_its_reviewer(client: MemoryClient) -> None:
    from memory.models import Principal

    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
    client.register_principal(DRAFTER)
    client.register_principal(lead)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    assert deferred.outcome.review_id is not None
    review = client.stores.canonical.reviews.get(deferred.outcome.review_id)
    handle = client.temporal.get_workflow_handle(review.workflow_id)
    for token in bad_tokens(client, lead.ref).values():
        answer = {
            "reviewer": lead.ref,
            "decision": "approve",
            "approve": ["tenant/shop-a/**"],
            "token": token,
        }
        with pytest.raises(WorkflowUpdateFailedError):
            await handle.execute_update("review", answer)
    assert client.stores.canonical.reviews.get(review.review_id).status == "open"
    settled = await client.review(lead.ref, review.review_id, "approve", at=T0 + timedelta(hours=1))
    assert settled.status == "approved"


def test_tokens_verify_against_an_identity_providers_jwks(tmp_path: Path) -> None:
    """A deployment that trusts an identity provider: its JWKS file verifies, no signing key
    is made, and a token the provider did not sign is refused."""
    provider = Ed25519PrivateKey.generate()
    jwk = json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(provider.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [jwk]}))
    settings = Settings(data_dir=tmp_path / "data", token_jwks_file=jwks)
    identity = identity_for(settings)
    assert identity.issuer is None
    assert not settings.token_signing_key_path.exists()
    token = Issuer(provider, "governed-memory", "governed-memory", 60).issue(USER, "shop-a")
    assert identity.verifier.principal(token, USER).sub == USER
    with pytest.raises(Unauthenticated):
        identity.verifier.principal(token, BOB)
    own = Ed25519PrivateKey.generate()
    with pytest.raises(Unauthenticated, match="signature"):
        identity.verifier.verify(
            Issuer(own, "governed-memory", "governed-memory", 60).issue(USER, "shop-a")
        )


def test_the_embedded_signing_key_is_private(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    identity = identity_for(settings)
    assert identity.issuer is not None
    path = settings.token_signing_key_path
    assert path.stat().st_mode & 0o777 == 0o600
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    assert identity_for(settings).verifier.verify(identity.issuer.issue(USER, "shop-a")).sub == USER
