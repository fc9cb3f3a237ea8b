"""Who is asking, proven: principal tokens.

A principal proves itself with a signed JWT (EdDSA over Ed25519, or RS256 from an identity
provider): `sub` names the principal (`user:shop-a/123`), `tenant` its tenant, `roles` what it
may do beyond its grants; `iss`, `aud`, `exp` and `iat` bound it. The service verifies the
signature against its configured public keys (PEM files, or a JWKS file an identity provider
publishes), and the expiry, issuer and audience, and takes the principal from the verified claims,
never from a payload field: a request that names another principal than its token is refused.

The embedded default makes its own Ed25519 signing key in the data folder (0600) and trusts its
public half; `memctl token issue` mints tokens with it, for development and tests. A deployment
with an identity provider sets `MEMORY_TOKEN_JWKS_FILE` (or `MEMORY_TOKEN_PUBLIC_KEYS`) and keeps
no signing key at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from pydantic import Field, ValidationError

from governed_memory.memory.errors import InvalidInput, Unauthenticated
from governed_memory.memory.models import Model
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.files import private_dir

ALGORITHMS = ["EdDSA", "RS256"]
#: Verified tokens kept (by their text) until they expire, the least recently used dropped
#: first: a batch's 500 writes of one principal verify one signature, and a request's token is
#: verified once, however many checks (the door's, the batch's admission) ask for it.
_CACHE = 8192


class Claims(Model):
    """What a verified token proves."""

    sub: str
    tenant: str
    roles: list[str] = Field(default_factory=list)
    iss: str
    aud: str | list[str]
    exp: int
    iat: int


class TokenRefusal(Exception):
    """Why a token was refused, in one word (`expired`, `bad_signature`, …): the cause of the
    `Unauthenticated` the verifier raises, so that the gate can count refusals by reason while
    the error that crosses Temporal and HTTP stays the one typed `Unauthenticated`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def refusal_reason(exc: BaseException) -> str:
    """The reason a token was refused (`unauthenticated` when the verifier did not say)."""
    cause = exc.__cause__
    return cause.reason if isinstance(cause, TokenRefusal) else "unauthenticated"


#: The key type each accepted algorithm verifies with: a token is checked only against the keys
#: of its header's algorithm, so a key of another type is never handed to the wrong algorithm.
_KEY_TYPES: dict[str, type[Any]] = {"EdDSA": Ed25519PublicKey, "RS256": RSAPublicKey}


@dataclass
class TokenVerifier:
    keys: Sequence[Any]
    issuer: str
    audience: str
    _seen: OrderedDict[str, Claims] = field(default_factory=OrderedDict)

    def verify(self, token: str | None) -> Claims:
        """The claims of a valid token, or `Unauthenticated` saying why not. Whatever is wrong
        with the token (missing, not a JWT, an algorithm or key it was not signed for, a
        signature no configured key verifies, expired, another issuer or audience, claims of the
        wrong shape), the answer is `Unauthenticated`, never another error."""
        if not token:
            raise Unauthenticated("a principal token is required", field="token") from TokenRefusal(
                "missing"
            )
        seen = self._seen.get(token)
        if seen is not None and seen.exp > time.time():
            with contextlib.suppress(KeyError):  # another thread may have just dropped it
                self._seen.move_to_end(token)
            return seen
        try:
            header = jwt.get_unverified_header(token)
        except Exception:
            raise Unauthenticated("the token is not a signed JWT", field="token") from TokenRefusal(
                "malformed"
            )
        alg = header.get("alg")
        if not isinstance(alg, str) or alg not in _KEY_TYPES:
            raise Unauthenticated(
                f"the token's algorithm is not accepted (accepted: {', '.join(ALGORITHMS)})",
                field="token",
            ) from TokenRefusal("unsupported_algorithm")
        for key in self.keys:
            if not isinstance(key, _KEY_TYPES[alg]):
                continue
            try:
                found = jwt.decode(
                    token,
                    key,
                    algorithms=[alg],
                    audience=self.audience,
                    issuer=self.issuer,
                    options={"require": ["sub", "exp", "iat", "iss", "aud"]},
                )
            except jwt.InvalidSignatureError:
                continue
            except jwt.ExpiredSignatureError:
                raise Unauthenticated("the token has expired", field="token") from TokenRefusal(
                    "expired"
                )
            except jwt.InvalidAudienceError:
                raise Unauthenticated(
                    "the token is for another audience", field="token"
                ) from TokenRefusal("wrong_audience")
            except jwt.InvalidIssuerError:
                raise Unauthenticated(
                    "the token is from another issuer", field="token"
                ) from TokenRefusal("wrong_issuer")
            except jwt.PyJWTError as exc:
                raise Unauthenticated(
                    f"the token is not valid: {exc}", field="token"
                ) from TokenRefusal("invalid")
            except Exception:  # a key or token the crypto library chokes on
                raise Unauthenticated(
                    "the token is not a signed JWT", field="token"
                ) from TokenRefusal("malformed")
            try:
                claims = Claims.model_validate(
                    {"tenant": "", **{k: found[k] for k in Claims.model_fields if k in found}}
                )
            except ValidationError:
                raise Unauthenticated(
                    "the token's claims are malformed", field="token"
                ) from TokenRefusal("invalid_claims")
            self._seen[token] = claims
            if len(self._seen) > _CACHE:
                self._seen.popitem(last=False)
            return claims
        raise Unauthenticated(
            "the token's signature does not verify", field="token"
        ) from TokenRefusal("bad_signature")

    def principal(self, token: str | None, claimed: str) -> Claims:
        """The verified claims of a request that names `claimed` as its principal."""
        claims = self.verify(token)
        if claims.sub != claimed:
            raise Unauthenticated(
                f"the token proves {claims.sub}, not {claimed}", field="principal"
            ) from TokenRefusal("wrong_principal")
        return claims


@dataclass
class Issuer:
    key: Ed25519PrivateKey
    issuer: str
    audience: str
    ttl: int

    def issue(
        self, principal: str, tenant: str, roles: Sequence[str] = (), ttl: int | None = None
    ) -> str:
        now = int(time.time())
        claims = {
            "sub": principal,
            "tenant": tenant,
            "roles": list(roles),
            "iss": self.issuer,
            "aud": self.audience,
            "iat": now,
            "exp": now + (ttl or self.ttl),
        }
        return jwt.encode(claims, self.key, algorithm="EdDSA")


@dataclass
class Identity:
    verifier: TokenVerifier
    #: None where the service trusts an identity provider and holds no signing key.
    issuer: Issuer | None


def _signing_key(path: Path) -> Ed25519PrivateKey:
    """The embedded default's signing key, made (0600) on first use."""
    if not path.exists():
        private_dir(path.parent)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        # Written whole to a file of its own, then linked into place: a process starting at the
        # same moment finds either no key or the whole key, never an empty file; of two racing,
        # the first link wins and the other reads it.
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with open(fd, "wb") as f:
                f.write(pem)
                f.flush()
                os.fsync(f.fileno())
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise InvalidInput(f"{path} is not an Ed25519 private key", field="token_signing_key_file")
    return key


def _configured_keys(settings: Settings) -> list[Any]:
    keys: list[Any] = []
    for path in settings.token_public_keys:
        keys.append(serialization.load_pem_public_key(Path(path).read_bytes()))
    if settings.token_jwks_file is not None:
        published = json.loads(Path(settings.token_jwks_file).read_text(encoding="utf-8"))
        keys += [jwt.PyJWK(k).key for k in published.get("keys", [])]
    return keys


def identity_for(settings: Settings) -> Identity:
    """The verifier (and, on the embedded default, the issuer) these settings describe."""
    keys = _configured_keys(settings)
    issuer = None
    if not keys or settings.token_signing_key_file is not None:
        signing = _signing_key(settings.token_signing_key_path)
        issuer = Issuer(
            signing, settings.token_issuer, settings.token_audience, settings.token_ttl_seconds
        )
        keys.append(signing.public_key())
    return Identity(TokenVerifier(keys, settings.token_issuer, settings.token_audience), issuer)


class Tokens:
    """Tokens this process presents: its own (`MEMORY_TOKEN`, which proves one principal only),
    else ones minted with the embedded default's signing key (development, tests, the demo,
    `memctl` on the service's host), reused until a minute before they expire."""

    def __init__(self, settings: Settings, identity: Identity) -> None:
        self.settings = settings
        self.identity = identity
        self._minted: dict[tuple[str, tuple[str, ...]], tuple[str, float]] = {}

    def for_(self, principal: str, roles: Sequence[str] = ()) -> str:
        if self.settings.token is not None:
            return self.settings.token.get_secret_value()
        issuer = self.identity.issuer
        if issuer is None:
            raise Unauthenticated(
                "no token to prove the principal: set MEMORY_TOKEN (from your identity provider)",
                field="token",
            )
        wanted = (principal, tuple(roles))
        cached = self._minted.get(wanted)
        if cached is not None and cached[1] - time.time() > 60:
            return cached[0]
        tenant = principal.split(":", 1)[-1].split("/", 1)[0]
        token = issuer.issue(principal, tenant, roles)
        self._minted[wanted] = (token, time.time() + issuer.ttl)
        return token

    def admin(self, tenant: str) -> str:
        """The tenant administrator's (`service:{tenant}/admin`, role admin)."""
        return self.for_(f"service:{tenant}/admin", ("admin",))

    def operator(self, tenant: str) -> str:
        """The tenant operator's (`service:{tenant}/operator`, role operator): receipts,
        reviews, audit."""
        return self.for_(f"service:{tenant}/operator", ("operator",))


class BearerToken(Tokens):
    """One caller's token for everything: a service acting for whoever sent a request (the HTTP
    API) presents the caller's own token, so it can only do what that caller may."""

    def __init__(self, token: str) -> None:
        self.token = token

    def for_(self, principal: str, roles: Sequence[str] = ()) -> str:
        return self.token

    def admin(self, tenant: str) -> str:
        return self.token

    def operator(self, tenant: str) -> str:
        return self.token


class NoTokens(Tokens):
    """No token of its own, and none minted: a door that serves callers (the HTTP API, the MCP
    server) acts only with the token each request presents (`MemoryClient.bound`). Whatever
    would act without one is refused, whatever key the process holds."""

    def __init__(self) -> None:
        pass

    def for_(self, principal: str, roles: Sequence[str] = ()) -> str:
        raise Unauthenticated(
            "this door acts only for the caller a request's token proves: present one "
            "(Authorization: Bearer <token>)",
            field="token",
        )

    def admin(self, tenant: str) -> str:
        return self.for_(f"service:{tenant}/admin")

    def operator(self, tenant: str) -> str:
        return self.for_(f"service:{tenant}/operator")
