"""The service's own secret: what makes its grants and ids impossible to forge or guess.

Two uses, one keyring (`MEMORY_SERVICE_KEYS`, ``id:base64,id2:base64``, the first one current;
unset, a key file in the data folder, `service-keys.json`, 0600, created with a new key on first
use):

- **grants** (`memory.grants`): the door signs, for each workflow it lets a caller start, what the
  run may do; a worker verifies it. Every key of the ring verifies, so a key can be rotated in
  (first) while runs started under the old one are still open, and out once they have closed.
- **ids**: memory, review and deletion ids, and the workflow ids that carry a subject or a
  principal, are keyed hashes (`derive`): a run id, a scope or a principal does not give them
  away. They derive from the current key, so a rotation changes the ids of what is started after
  it, never of what exists.

Every process of one deployment (API replicas, workers, `memctl` on the service's hosts) holds the
same keyring; an agent holds none of it.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.files import private_dir

KEY_BYTES = 32


@dataclass(frozen=True)
class ServiceKeys:
    current: str
    keys: dict[str, bytes]

    @classmethod
    def new(cls) -> ServiceKeys:
        kid = "s" + secrets.token_hex(4)
        return cls(kid, {kid: secrets.token_bytes(KEY_BYTES)})

    def spec(self) -> str:
        """As `MEMORY_SERVICE_KEYS` spells it (the current key first)."""
        order = [self.current, *(k for k in self.keys if k != self.current)]
        return ",".join(f"{k}:{base64.b64encode(self.keys[k]).decode()}" for k in order)

    @classmethod
    def parse(cls, spec: str) -> ServiceKeys:
        keys: dict[str, bytes] = {}
        for item in spec.split(","):
            kid, sep, raw = item.strip().partition(":")
            try:
                key = base64.b64decode(raw, validate=True)
            except ValueError:
                key = b""
            if not sep or not kid or len(key) != KEY_BYTES:
                raise InvalidInput(
                    "service keys are id:base64 (32-byte keys), comma-separated",
                    field="service_keys",
                )
            keys[kid] = key
        if not keys:
            raise InvalidInput("no service key given", field="service_keys")
        return cls(next(iter(keys)), keys)

    @classmethod
    def load(cls, path: Path) -> ServiceKeys:
        """The key file, made whole (0600, a new key) if there is none: written to a scratch file
        and linked into place, so a process starting at the same moment reads the whole key or
        makes none."""
        if not path.exists():
            private_dir(path.parent)
            made = json.dumps({"keys": cls.new().spec()}).encode()
            tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with open(fd, "wb") as f:
                    f.write(made)
                    f.flush()
                    os.fsync(f.fileno())
                with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                    os.link(tmp, path)
            finally:
                tmp.unlink(missing_ok=True)
        return cls.parse(json.loads(path.read_text(encoding="utf-8"))["keys"])

    @classmethod
    def for_settings(cls, settings: Settings) -> ServiceKeys:
        if settings.service_keys is not None:
            return cls.parse(settings.service_keys.get_secret_value())
        return cls.load(settings.service_key_path)

    def key(self, kid: str) -> bytes | None:
        return self.keys.get(kid)

    def derive(self, purpose: str, *parts: str, length: int = 32) -> str:
        """A keyed hash of `parts` for `purpose` (hex, `length` characters): the same inputs give
        the same id on every process of the deployment; without the key nobody can compute it."""
        message = "\x1f".join((purpose, *parts)).encode()
        return hmac.new(self.keys[self.current], message, "sha256").hexdigest()[:length]
