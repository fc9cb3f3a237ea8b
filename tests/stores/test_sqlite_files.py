"""The SQLite files of the embedded default: private, and never opened behind SQLite's back.

SQLite's locks are POSIX locks: closing any descriptor of a database file drops every lock the
process holds on it. Opening the stores again in a process that has them open must leave its
locks whole, or another process closing its last connection takes itself for the only one and
deletes the live WAL (see tests/cli/test_acknowledged_writes.py for the crash this led to).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.memory.stores.files import private_database

#: Another process opening the database, reading it and closing it (`memctl repair --check`).
VISIT = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode=WAL")
print(conn.execute(sys.argv[2]).fetchone()[0])
conn.close()
"""


def visit(path: Path, query: str = "SELECT count(*) FROM sqlite_master") -> str:
    done = subprocess.run(
        [sys.executable, "-c", VISIT, str(path), query], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def unlinked_side_files() -> list[str]:
    """This process's open `-wal`/`-shm` files that were deleted while open."""
    found = []
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.endswith(("-wal (deleted)", "-shm (deleted)")):
            found.append(target)
    return found


def test_opening_the_stores_again_leaves_the_live_wal_in_place(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    first = open_stores(settings)
    second = open_stores(settings)  # as `memctl dev` did: the worker's and the API's
    canonical, projection = tmp_path / "canonical.db", settings.projection_file
    try:
        for path in (canonical, projection):
            visit(path)
            assert Path(f"{path}-wal").exists(), path
        assert unlinked_side_files() == []
        # what this process writes now is where every other process reads it
        with first.canonical.db.write() as conn:
            conn.exec_driver_sql("CREATE TABLE probe (x INTEGER)")
            conn.exec_driver_sql("INSERT INTO probe VALUES (1)")
        assert visit(canonical, "SELECT count(*) FROM probe") == "1"
    finally:
        second.close()
        first.close()


def test_a_database_file_is_made_private_without_being_opened(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    new = private_database(folder / "new.db")
    assert new.stat().st_size == 0  # an empty file is an empty database
    assert new.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    old = folder / "old.db"
    old.write_bytes(b"")
    wal = folder / "old.db-wal"
    wal.write_bytes(b"")
    for p in (old, wal):
        p.chmod(0o644)
    private_database(old)
    assert old.stat().st_mode & 0o777 == 0o600
    assert wal.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in folder.iterdir()) == ["new.db", "old.db", "old.db-wal"]
