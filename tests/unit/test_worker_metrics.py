"""A worker whose metrics port is taken still runs (without an endpoint of its own)."""

from __future__ import annotations

import socket
from pathlib import Path

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.worker import serve_metrics


def test_a_taken_metrics_port_is_logged_not_fatal(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(data_dir=tmp_path, metrics_port=port)
        stores = open_stores(settings)
        try:
            assert serve_metrics(settings, stores) is None
        finally:
            stores.close()
