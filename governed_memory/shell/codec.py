"""Payload encryption for everything that enters Temporal (workflow inputs and results, activity
inputs and results, queries, updates, failures' details): AES-256-GCM, keys with ids so they can
be rotated. The client, the worker, the replayer and `memctl` share one `data_converter`, so
Temporal's history, its UI and its database hold ciphertext only.

Keys come from the setting `MEMORY_CODEC_KEYS` (``id:base64key,id2:base64key``; the first one
encrypts, all of them decrypt), else from a key file (`MEMORY_CODEC_KEY_FILE`, default
`codec-keys.json` in the data folder, 0600), which the embedded default creates on first use.
Neither a worker nor a client reads a payload without encryption metadata: the codec reads it
as a marker (a worker's run then fails its admission, `workflows.parse_input`; a client refuses
the result), so what someone without the key wrote does nothing. The codec server shows any
payload as it is, and the replay tests read the plaintext histories they recorded.
"""

from __future__ import annotations

import base64
import dataclasses
import hmac
import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.converter import (
    DataConverter,
    DefaultFailureConverterWithEncodedAttributes,
    PayloadCodec,
)

from governed_memory.memory.contracts.admission import PLAINTEXT_REFUSED
from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.files import private_dir
from governed_memory.memory.subjects import canonical_subject

ENCODING = b"binary/encrypted"
KEY_ID = "encryption-key-id"
NONCE = 12


@dataclass(frozen=True)
class Keyring:
    current: str
    keys: dict[str, bytes]

    @classmethod
    def new(cls) -> Keyring:
        kid = "k" + secrets.token_hex(4)
        return cls(kid, {kid: AESGCM.generate_key(bit_length=256)})

    def spec(self) -> str:
        """As the `MEMORY_CODEC_KEYS` setting spells it (current key first)."""
        order = [self.current, *(k for k in self.keys if k != self.current)]
        return ",".join(f"{k}:{base64.b64encode(self.keys[k]).decode()}" for k in order)

    @classmethod
    def parse(cls, spec: str) -> Keyring:
        keys: dict[str, bytes] = {}
        for item in spec.split(","):
            kid, sep, raw = item.strip().partition(":")
            try:
                key = base64.b64decode(raw, validate=True)
            except ValueError:
                key = b""
            if not sep or not kid or len(key) != 32:
                raise InvalidInput(
                    "codec keys are id:base64 (32-byte keys), comma-separated", field="codec_keys"
                )
            keys[kid] = key
        return cls(next(iter(keys)), keys)

    @classmethod
    def load(cls, path: Path) -> Keyring:
        """The key file, created (0600, a new key) if there is none. Processes started together
        (a worker and an MCP server on a first run) may both find none: each writes its key to
        a file of its own and links it into place, which only the first does; the others read
        that one. The file is never seen half written."""
        if not path.exists():
            private_dir(path.parent)
            ring = cls.new()
            mine = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
            fd = os.open(mine, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with open(fd, "w", encoding="utf-8") as f:
                    json.dump({"keys": ring.spec()}, f)
                    f.flush()
                    os.fsync(f.fileno())
                os.link(mine, path)
                return ring
            except FileExistsError:
                pass  # another process's key came first: it is everyone's
            finally:
                mine.unlink(missing_ok=True)
        return cls.parse(json.loads(path.read_text(encoding="utf-8"))["keys"])

    def subject_key(self, tenant: str, subject: str) -> str:
        """A deletion subject as the `MemorySubject` search attribute holds it: keyed by the
        current codec key, so the visibility store can be searched by it but not read. Every
        accepted form of a subject (`user:456`, `user:shop-a/456`, `tenant/shop-a/user/456`)
        gives the same key: it is keyed in its stored form (`subjects.canonical_subject`)."""
        stored = canonical_subject(subject, tenant)
        mac = hmac.new(self.keys[self.current], f"subject|{tenant}|{stored}".encode(), "sha256")
        return mac.hexdigest()[:24]

    @classmethod
    def for_settings(cls, settings: Settings) -> Keyring:
        if settings.codec_keys is not None:
            return cls.parse(settings.codec_keys.get_secret_value())
        return cls.load(settings.codec_key_path)


#: What a worker reads in place of a plaintext payload.
_REFUSED = Payload(
    metadata={"encoding": b"json/plain"},
    data=json.dumps({PLAINTEXT_REFUSED: True}).encode(),
)


class EncryptionCodec(PayloadCodec):
    def __init__(self, keyring: Keyring, *, require_encryption: bool = False) -> None:
        self.keyring = keyring
        #: A worker's: a payload that is not encrypted is refused (read as a marker).
        self.require_encryption = require_encryption
        self._ciphers = {kid: AESGCM(key) for kid, key in keyring.keys.items()}

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        kid = self.keyring.current
        cipher = self._ciphers[kid]
        out = []
        for p in payloads:
            nonce = os.urandom(NONCE)
            sealed = cipher.encrypt(nonce, p.SerializeToString(), kid.encode())
            out.append(
                Payload(metadata={"encoding": ENCODING, KEY_ID: kid.encode()}, data=nonce + sealed)
            )
        return out

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        out = []
        for p in payloads:
            if p.metadata.get("encoding") != ENCODING:
                # A worker refuses what was written without the key; a client reads it as is.
                out.append(_REFUSED if self.require_encryption else p)
                continue
            kid = p.metadata.get(KEY_ID, b"").decode()
            cipher = self._ciphers.get(kid)
            if cipher is None:
                raise ValueError(f"payload encrypted with unknown key {kid!r}")
            try:
                plain = cipher.decrypt(p.data[:NONCE], p.data[NONCE:], kid.encode())
            except InvalidTag:
                raise ValueError(f"payload does not decrypt with key {kid!r}") from None
            out.append(Payload.FromString(plain))
        return out


def data_converter(keyring: Keyring, *, require_encryption: bool = True) -> DataConverter:
    """The service's converter: pydantic models, encrypted. A failure's message and stack trace
    are encrypted too (moved into an encoded attribute): an error can quote what was said. It
    reads no plaintext payload (a worker's input, a client's result: whoever wrote it did not
    hold the key); only a tool that must show any payload (the codec server) reads them as
    they are."""
    return dataclasses.replace(
        pydantic_data_converter,
        payload_codec=EncryptionCodec(keyring, require_encryption=require_encryption),
        failure_converter_class=DefaultFailureConverterWithEncodedAttributes,
    )


def requiring_encryption(converter: DataConverter) -> DataConverter:
    """A worker's converter: `converter` (the client's), refusing plaintext payloads once
    payload encryption is on. A converter without encryption is returned as it is."""
    codec = converter.payload_codec
    if not isinstance(codec, EncryptionCodec) or codec.require_encryption:
        return converter
    return dataclasses.replace(
        converter, payload_codec=EncryptionCodec(codec.keyring, require_encryption=True)
    )
