"""The database under the canonical store: engines, transactions, and the helpers every part
shares. A part's method given a connection runs inside that transaction; without one it opens its
own, so a commit composes several parts in one transaction (graphiti's `driver/operations`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, Text, cast, create_engine, event, or_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from memory.errors import VersionConflict
from memory.models import ConversationMessage, ExtractorInfo, MemoryRecord
from memory.stores.files import checkpoint, private_database, wal_size
from memory.stores.schema import memory_heads

#: Tables whose uniqueness is how a lost race shows: a slot or a memory version taken by another
#: writer, a commit or an idempotency key applied by another attempt, a message position taken.
#: A violation anywhere else is a bug, not a race, and is not retried as one.
_RACE_TABLES = frozenset(
    {
        "key_slots",
        "memory_versions",
        "memory_heads",
        "applied_commits",
        "write_outcomes",
        "conversation_messages",
    }
)
_SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (\w+)\.")

RECORD_FIELDS = tuple(c.name for c in memory_heads.columns)


def lost_race(exc: IntegrityError) -> bool:
    """A unique violation on a table where it means another writer got there first."""
    orig = exc.orig
    diag = getattr(orig, "diag", None)
    if diag is not None:  # psycopg
        return getattr(orig, "sqlstate", None) == "23505" and diag.table_name in _RACE_TABLES
    found = _SQLITE_UNIQUE.match(str(orig))
    return found is not None and found.group(1) in _RACE_TABLES


@dataclass(frozen=True, slots=True)
class Compaction:
    done: bool
    detail: str


class Database:
    """One engine for writes and one for reads (the same on Postgres). Thread-safe."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.dialect = url.split(":", 1)[0].split("+", 1)[0]
        if self.dialect == "sqlite":
            path = url.removeprefix("sqlite:///")
            self.path = Path(path) if path and path != ":memory:" else None
            if self.path is not None:
                private_database(self.path)
            # Writers take the lock up front (BEGIN IMMEDIATE) so two writers queue on
            # busy_timeout instead of failing a read-then-write upgrade; readers use their
            # own engine with plain deferred transactions and never block each other.
            self.engine = _sqlite_engine(url, immediate=True)
            self.read_engine = _sqlite_engine(url, immediate=False)
        else:
            self.path = None
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
            self.read_engine = self.engine

    def compact(self, tables: Sequence[str]) -> Compaction:
        """After an erase: no copy of erased rows left where the database can remove it. SQLite:
        the WAL is checkpointed and truncated (freed pages are zeroed by `secure_delete`).
        Postgres: the touched tables are vacuumed, so dead tuples holding erased values are
        reclaimed; pages in Postgres' own WAL segments and in base backups stay until they are
        recycled, which the receipt's backup deadline covers."""
        if self.dialect == "sqlite":
            if self.path is None:
                return Compaction(done=True, detail="in-memory database")
            raw = self.engine.raw_connection()
            try:
                done, left = checkpoint(raw.driver_connection)  # type: ignore[arg-type]
            finally:
                raw.close()
            size = wal_size(self.path)
            return Compaction(
                done=done and size == 0,
                detail=f"WAL checkpointed and truncated ({size} bytes left, {left} frames busy)",
            )
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for table in tables:
                conn.exec_driver_sql(f'VACUUM "{table}"')
        return Compaction(
            done=True,
            detail=f"vacuumed {', '.join(tables)}; Postgres WAL segments and base backups keep "
            "old pages until recycled (see the backup deadline)",
        )

    def erasure_limits(self) -> list[str]:
        """What an erasure cannot reach in this database, as a receipt states it."""
        limits = [
            "copies of the database taken before the deletion (backups, snapshots) keep the "
            "erased rows until they expire: see backup_retention_deadline"
        ]
        if self.dialect != "sqlite":
            limits.append(
                "Postgres: WAL segments, WAL archives and replicas keep old row versions until "
                "they are recycled (the touched tables are vacuumed)"
            )
        return limits

    def close(self) -> None:
        self.engine.dispose()
        if self.read_engine is not self.engine:
            self.read_engine.dispose()

    @contextmanager
    def write(self, conn: Connection | None = None) -> Iterator[Connection]:
        """A write transaction, or the caller's. A lost race is a `VersionConflict`."""
        if conn is not None:
            yield conn
            return
        try:
            with self.engine.begin() as own:
                yield own
        except IntegrityError as exc:
            if lost_race(exc):
                raise VersionConflict(f"concurrent write: {exc.orig}") from exc
            raise

    @contextmanager
    def read(self, conn: Connection | None = None) -> Iterator[Connection]:
        if conn is not None:
            yield conn
            return
        with self.read_engine.connect() as own:
            yield own


def _sqlite_engine(url: str, *, immediate: bool) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        # Large stores: a bigger page cache and memory-mapped reads keep lookups off syscalls.
        cur.execute("PRAGMA cache_size=-32000")
        cur.execute("PRAGMA mmap_size=268435456")
        # Erased content must not linger in free pages.
        cur.execute("PRAGMA secure_delete=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class Part:
    """One aspect of the canonical store."""

    def __init__(self, db: Database) -> None:
        self.db = db


def upsert(
    conn: Connection,
    table: Table,
    values: dict[str, Any],
    *,
    keys: list[str],
    update: dict[str, Any] | None = None,
) -> None:
    """INSERT ... ON CONFLICT DO UPDATE, on SQLite and Postgres alike."""
    stmt = dialect_insert(conn, table).values(**values)
    if update is None:
        update = {k: stmt.excluded[k] for k in values if k not in keys}
    conn.execute(stmt.on_conflict_do_update(index_elements=keys, set_=update))


def dialect_insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT (with ON CONFLICT clauses)."""
    return (sqlite_insert if conn.dialect.name == "sqlite" else pg_insert)(table)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def row_to_record(row: Any) -> MemoryRecord:
    # Rows come from our own writes through validated models, with types restored by the
    # column types: construct without validating again (this is on every read's path).
    data = dict(row._mapping)
    data.pop("change", None)
    data["extractor"] = ExtractorInfo.model_construct(**data["extractor"])
    return MemoryRecord.model_construct(**data)


def record_values(record: MemoryRecord) -> dict[str, Any]:
    data = record.model_dump(mode="python", exclude={"schema_version"})
    data["extractor"] = record.extractor.model_dump()
    return data


def row_to_message(row: Any) -> ConversationMessage:
    data = dict(row._mapping)
    return ConversationMessage.model_validate(
        {k: v for k, v in data.items() if k in ConversationMessage.model_fields}
    )


def mentioning(column: Any, values: Sequence[str], size: int = 50) -> Iterator[Any]:
    """Conditions, a batch of values each, that a JSON column's text names one of `values` as a
    string (`"value"`): what an erasure looks for in outcomes, staged plans and review tasks."""
    for batch in chunks(list(values), size):
        yield or_(*(cast(column, Text).like(f'%"{v}"%') for v in batch))


def change_mentioning(
    conn: Connection,
    statement: Any,
    where: Sequence[Any],
    column: Any,
    mentions: Sequence[str],
    *,
    whole: bool,
) -> int:
    """Run a DELETE or UPDATE on the rows `where` selects: all of them (`whole`), or those whose
    JSON `column` names one of `mentions`. Returns how many rows changed."""
    if whole:
        return conn.execute(statement.where(*where)).rowcount or 0
    return sum(
        conn.execute(statement.where(*where, said)).rowcount or 0
        for said in mentioning(column, mentions)
    )


def chunks(items: list[Any], size: int = 500) -> Iterator[list[Any]]:
    """IN-lists of a bounded size (SQLite's variable limit, Postgres' plan sizes)."""
    for i in range(0, len(items), size):
        yield items[i : i + size]
