"""Any token or key error is `unauthenticated` (401, a problem detail), never another error: a
foreign RSA or EC key, an HMAC made with the service's public key, `alg: none`, headers and
claims of the wrong shape, garbage; and a token is verified by the keys of its own algorithm."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import generate_private_key as rsa_key

from governed_memory.memory.errors import Unauthenticated
from governed_memory.memory.identity import TokenVerifier
from governed_memory.shell.client import MemoryClient
from tests.api.door import BOB, app_client, assert_problem
from tests.factories import USER
from tests.tokens import claims


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(client) as http:
        yield http


def _raw(header: dict[str, Any], payload: dict[str, Any], signature: bytes = b"sig") -> str:
    def part(data: bytes) -> str:
        return jwt.utils.base64url_encode(data).decode()

    return ".".join(
        [part(json.dumps(header).encode()), part(json.dumps(payload).encode()), part(signature)]
    )


def foreign_tokens(client: MemoryClient) -> dict[str, str]:
    own = client.identity.issuer
    assert own is not None
    public_pem = own.key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    now = int(time.time())
    return {
        "rs256_foreign_key": jwt.encode(claims(BOB), rsa_key(65537, 2048), algorithm="RS256"),
        "es256_foreign_key": jwt.encode(
            claims(BOB), generate_private_key(SECP256R1()), algorithm="ES256"
        ),
        "hs256_with_the_public_key": _raw(
            {"alg": "HS256", "typ": "JWT"}, claims(BOB), public_pem[:32]
        ),
        "none": jwt.encode(claims(BOB), "", algorithm="none"),
        "alg_list": _raw({"alg": ["EdDSA"]}, claims(BOB)),
        "alg_missing": _raw({"typ": "JWT"}, claims(BOB)),
        "header_not_an_object": _raw([1, 2], claims(BOB)),  # type: ignore[arg-type]
        "garbage": "garbage",
        "three_dots": "a.b.c",
        "empty_parts": "..",
        "non_ascii": "é.é.é",
        "long": "x" * 8000,
        "roles_not_a_list": jwt.encode(
            {**claims(BOB), "roles": "admin"}, own.key, algorithm="EdDSA"
        ),
        "tenant_an_object": jwt.encode(
            {**claims(BOB), "tenant": {"id": "shop-a"}}, own.key, algorithm="EdDSA"
        ),
        "sub_a_number": jwt.encode({**claims(BOB), "sub": 456}, own.key, algorithm="EdDSA"),
        "not_yet_valid": jwt.encode(
            {**claims(BOB), "iat": now + 3600, "nbf": now + 3600}, own.key, algorithm="EdDSA"
        ),
    }


async def test_any_token_or_key_error_is_unauthenticated(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    for kind, token in foreign_tokens(client).items():
        header = f"Bearer {token}".encode()  # as sent: any bytes
        response = await api.get("/v1/whoami", headers={b"Authorization": header})
        assert response.status_code == 401, f"{kind}: {response.status_code} {response.text}"
        assert_problem(response, 401, "unauthenticated")
        with pytest.raises(Unauthenticated):
            client.identity.verifier.verify(token)


def test_a_token_is_checked_against_the_keys_of_its_algorithm() -> None:
    """An identity provider's RSA key beside the embedded Ed25519 one: each token is verified by
    the keys of its own algorithm, whatever their order; a key of another type never fails it."""
    rsa = rsa_key(65537, 2048)
    ed = Ed25519PrivateKey.generate()
    verifier = TokenVerifier(
        [rsa.public_key(), ed.public_key()], "governed-memory", "governed-memory"
    )
    assert verifier.verify(jwt.encode(claims(BOB), ed, algorithm="EdDSA")).sub == BOB
    assert verifier.verify(jwt.encode(claims(USER), rsa, algorithm="RS256")).sub == USER
    only_rsa = TokenVerifier([rsa.public_key()], "governed-memory", "governed-memory")
    with pytest.raises(Unauthenticated, match="signature"):
        only_rsa.verify(jwt.encode(claims(BOB), ed, algorithm="EdDSA"))
    with pytest.raises(Unauthenticated, match="signature"):
        only_rsa.verify(jwt.encode(claims(BOB), rsa_key(65537, 2048), algorithm="RS256"))


def test_verified_tokens_are_kept_least_recently_used_first_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A token verified once is not verified again while it is kept: the cache drops the token
    used longest ago, not every token at once (a batch's writers, proven at the door, are
    admitted again without a second signature check)."""
    from governed_memory.memory import identity

    key = Ed25519PrivateKey.generate()
    verifier = TokenVerifier([key.public_key()], "governed-memory", "governed-memory")
    monkeypatch.setattr(identity, "_CACHE", 2)
    checked: list[str] = []
    real = jwt.decode

    def counting(token: str, *args: Any, **kwargs: Any) -> Any:
        checked.append(token)
        return real(token, *args, **kwargs)

    monkeypatch.setattr(jwt, "decode", counting)
    a, b, c = (jwt.encode(claims(f"user:shop-a/{n}"), key, algorithm="EdDSA") for n in "abc")
    verifier.verify(a)
    verifier.verify(b)
    verifier.verify(a)  # kept: no second check, and now the most recently used
    verifier.verify(c)  # drops b, the least recently used
    verifier.verify(a)
    assert checked == [a, b, c]
    verifier.verify(b)
    assert checked == [a, b, c, b]
