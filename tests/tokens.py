"""Tokens that must not prove a principal: missing, forged, expired, for another audience,
someone else's, unsigned."""

from __future__ import annotations

import time
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from governed_memory.shell.client import MemoryClient
from tests.factories import USER

#: A principal whose valid token proves nobody else.
OTHER = "user:shop-a/999"


def claims(sub: str, **over: Any) -> dict[str, Any]:
    now = int(time.time())
    return {
        "sub": sub,
        "tenant": "shop-a",
        "roles": [],
        "iss": "governed-memory",
        "aud": "governed-memory",
        "iat": now,
        "exp": now + 600,
        **over,
    }


def bad_tokens(client: MemoryClient, sub: str) -> dict[str, str | None]:
    """A token of every kind that must not prove `sub`."""
    own = client.identity.issuer
    assert own is not None
    stranger = Ed25519PrivateKey.generate()
    return {
        "missing": None,
        "forged": jwt.encode(claims(sub), stranger, algorithm="EdDSA"),
        "expired": jwt.encode(
            claims(sub, iat=int(time.time()) - 7200, exp=int(time.time()) - 3600),
            own.key,
            algorithm="EdDSA",
        ),
        "wrong_audience": jwt.encode(
            claims(sub, aud="another-service"), own.key, algorithm="EdDSA"
        ),
        "someone_else": own.issue(OTHER if sub != OTHER else USER, "shop-a"),
        "unsigned": jwt.encode(claims(sub), "", algorithm="none"),
    }
