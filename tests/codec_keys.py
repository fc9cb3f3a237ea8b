"""One encryption key for the whole test session, as a deployment has one: the Temporal test
server's client, every worker (in-process or spawned) and every `memctl` run share it through
`MEMORY_CODEC_KEYS`."""

from __future__ import annotations

import os

from governed_memory.shell.codec import Keyring, data_converter

os.environ.setdefault("MEMORY_CODEC_KEYS", Keyring.new().spec())
KEYRING = Keyring.parse(os.environ["MEMORY_CODEC_KEYS"])
CONVERTER = data_converter(KEYRING)
