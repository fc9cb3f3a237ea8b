"""Files that hold people's data: readable by the service's own user only (folder 0700, files
0600), and compacted after an erase so no copy of erased pages lingers (SQLite's WAL file holds
every page written since the last checkpoint; `secure_delete` does not reach it)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

#: Suffixes SQLite adds beside a database file.
SIDE_FILES = ("-wal", "-shm", "-journal")


def private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def private_database(path: Path) -> Path:
    """A SQLite file (created empty if new) and its side files, 0600 in a 0700 folder. SQLite
    gives a new WAL or shared-memory file the database file's mode."""
    private_dir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for p in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)):
        if p.exists():
            os.chmod(p, 0o600)
    return path


def checkpoint(conn: sqlite3.Connection, attempts: int = 50) -> tuple[bool, int]:
    """Write the WAL back into the database and truncate it to zero bytes. Readers holding an
    older snapshot make SQLite report busy: wait for them (bounded). Returns (done, frames
    left)."""
    left = 0
    for _ in range(attempts):
        busy, log, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        left = max(0, log - done) if log >= 0 else 0
        if not busy:
            return True, 0
        time.sleep(0.1)
    return False, left


def wal_size(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0
