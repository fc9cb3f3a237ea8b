"""Files that hold people's data: readable by the service's own user only (folder 0700, files
0600), and compacted after an erase so no copy of erased pages lingers (SQLite's WAL file holds
every page written since the last checkpoint; `secure_delete` does not reach it)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import uuid
from pathlib import Path

#: Suffixes SQLite adds beside a database file.
SIDE_FILES = ("-wal", "-shm", "-journal")


def private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def private_database(path: Path) -> Path:
    """A SQLite file (created empty if new) and its side files, 0600 in a 0700 folder. SQLite
    gives a new WAL or shared-memory file the database file's mode.

    It never opens a file that exists. SQLite's locks are POSIX locks, held per process and
    file, and closing *any* descriptor of the file drops every one of them: a connection this
    process has open would be left holding no lock, and the next process to close its last
    connection would take itself for the only one and delete the live `-wal` and `-shm`, so
    that every later write of this process went into a deleted file, lost in a crash. A new
    file is made whole under another name and linked into place once no descriptor of it is
    open; an existing one is only chmod-ed, which touches no lock."""
    private_dir(path.parent)
    if not path.exists():
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
        os.close(os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    for p in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):  # a side file comes and goes with SQLite
            os.chmod(p, 0o600)
    return path


def checkpoint(conn: sqlite3.Connection, attempts: int = 150) -> tuple[bool, int]:
    """Write the WAL back into the database and truncate it to zero bytes. Readers holding an
    older snapshot make SQLite report busy: try again a little later (bounded, about 15 s).

    Each attempt waits on others at most `_CHECKPOINT_WAIT_MS`: a TRUNCATE checkpoint holds the
    write lock while its busy handler waits for readers, and with the connection's own 30 s
    timeout a busy store's writers timed out behind it ("database is locked"). Done means every
    frame written before it is in the database and the WAL was reset: frames that other writers
    append afterwards hold only what they wrote then, never what an erase removed before.
    Returns (done, frames left)."""
    (before,) = conn.execute("PRAGMA busy_timeout").fetchone()
    conn.execute(f"PRAGMA busy_timeout = {_CHECKPOINT_WAIT_MS}")
    left = 0
    try:
        for _ in range(attempts):
            busy, log, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            left = max(0, log - done) if log >= 0 else 0
            if not busy:
                return True, 0
            time.sleep(0.1)
        return False, left
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(before)}")


#: How long one checkpoint attempt waits on other connections (milliseconds).
_CHECKPOINT_WAIT_MS = 200


def wal_size(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0
