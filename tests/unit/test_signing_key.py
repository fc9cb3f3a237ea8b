"""The embedded signing key, made by whichever process starts first: processes starting together
all read the same whole key (a reader never finds the file empty or half written)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from governed_memory.memory.identity import _signing_key


def _public(path: str, out: multiprocessing.Queue[str]) -> None:
    out.put(_signing_key(Path(path)).public_key().public_bytes_raw().hex())


def test_processes_starting_together_share_one_whole_key(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "identity-signing-key.pem"
    ctx = multiprocessing.get_context("fork")
    out: multiprocessing.Queue[str] = ctx.Queue()
    procs = [ctx.Process(target=_public, args=(str(path), out)) for _ in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    keys = {out.get(timeout=10) for _ in procs}
    assert len(keys) == 1
    assert sorted(f.name for f in path.parent.iterdir()) == [path.name]  # no scratch file left
    assert path.stat().st_mode & 0o777 == 0o600
