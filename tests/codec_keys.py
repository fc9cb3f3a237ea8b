"""One encryption key for the whole test session, as a deployment has one: the Temporal test
server's client, every worker (in-process or spawned) and every `memctl` run share it through
`MEMORY_CODEC_KEYS`."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from governed_memory.shell.codec import Keyring, data_converter
from governed_memory.shell.codec_server import OperatorTokens

os.environ.setdefault("MEMORY_CODEC_KEYS", Keyring.new().spec())
KEYRING = Keyring.parse(os.environ["MEMORY_CODEC_KEYS"])
CONVERTER = data_converter(KEYRING)


@contextmanager
def codec_server_running(tokens: OperatorTokens, origins: list[str]) -> Iterator[str]:
    """The codec server (this session's key, `tokens`, CORS for `origins`) on a free port of
    127.0.0.1, in a thread, while this lasts: its URL."""
    import httpx
    import uvicorn

    from governed_memory.memory.metrics import free_port
    from governed_memory.shell.codec_server import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(KEYRING, tokens, origins), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
