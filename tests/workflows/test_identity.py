"""A principal is proven, not asserted, at the door: a client bound to a missing, forged,
expired, wrong-audience, unsigned or someone else's token is refused `Unauthenticated` for every
write, batch, deletion, summary and review answer, and nothing starts; the principal's own token
goes through. What reaches Temporal is a grant, never the token (tests/workflows/
test_forged_inputs.py starts every workflow raw)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.identity import Issuer, identity_for
from governed_memory.memory.models import Principal
from governed_memory.memory.settings import Settings
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER, sms
from tests.tokens import bad_tokens

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"


async def _runs(client: MemoryClient) -> int:
    query = f'TaskQueue = "{client.settings.task_queue}"'
    return len([r async for r in client.temporal.list_workflows(query)])


async def test_every_door_refuses_an_unproven_caller(client: MemoryClient) -> None:
    client.register_principal(BOT)
    lead = Principal(type="reviewer", tenant="shop-a", id="lead", approve=["tenant/shop-a/**"])
    client.register_principal(DRAFTER)
    client.register_principal(lead)
    await client.observe(BOB, BOB_NS, "Please deliver after 6pm", thread="t-id", at=T0)
    deferred = await client.write(DRAFTER.ref, NS, sms(), at=T0)
    assert deferred.outcome.review_id is not None
    started = await _runs(client)
    for name, token in bad_tokens(client, BOB).items():
        if token is None:
            continue
        door = client.bound(token)
        with pytest.raises(Unauthenticated):
            await door.write(BOB, BOB_NS, sms(), idempotency_key=uuid.uuid4().hex)
        with pytest.raises(Unauthenticated):
            await door.write_batch([door.write_request(BOB, BOB_NS, sms())])
        with pytest.raises(Unauthenticated):
            await door.forget(BOB, {"namespace": BOB_NS})
        with pytest.raises(Unauthenticated):
            await door.summarize(BOB, "t-id")
        with pytest.raises(Unauthenticated):
            await door.review(BOB, deferred.outcome.review_id, "approve")
        assert name
    assert await _runs(client) == started
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == []
    # the principal's own token: the same request goes through
    own = client.bound(client.token_for(BOB))
    result = await own.write(BOB, BOB_NS, sms())
    assert result.outcome.decision == "add"
    settled = await client.bound(client.token_for(lead.ref)).review(
        lead.ref, deferred.outcome.review_id, "approve", at=T0 + timedelta(hours=1)
    )
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
