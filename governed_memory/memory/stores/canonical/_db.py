"""The database under the canonical store: engines, transactions, and the helpers every part
shares. A part's method given a connection runs inside that transaction; without one it opens its
own, so a commit composes several parts in one transaction (graphiti's `driver/operations`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, Table, Text, cast, create_engine, event, or_
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from governed_memory.memory.errors import SchemaNotMigrated, VersionConflict
from governed_memory.memory.models import (
    ConversationMessage,
    ExtractorInfo,
    GraphHints,
    MemoryRecord,
    built,
)
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.files import checkpoint, private_database, wal_size
from governed_memory.memory.stores.schema import memory_heads

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

#: The Alembic scripts (the same folder `CanonicalStore.migrate` runs).
_MIGRATIONS = Path(__file__).parent.with_name("migrations")


@dataclass(frozen=True, slots=True)
class DatabaseOptions:
    """How a server database's engine connects (Postgres; SQLite keeps its own engines): the
    settings `db_pool_size`, `db_max_overflow`, `db_pool_timeout_seconds`,
    `db_statement_timeout_ms` (0: no limit)."""

    pool_size: int
    max_overflow: int
    pool_timeout_seconds: float
    statement_timeout_ms: int

    @classmethod
    def from_settings(cls, settings: Settings) -> DatabaseOptions:
        return cls(
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout_seconds=settings.db_pool_timeout_seconds,
            statement_timeout_ms=settings.db_statement_timeout_ms,
        )


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
    """One engine for writes and one for reads (the same on Postgres). Thread-safe.

    `options` shape a Postgres engine's pool and statement timeout; without them, this process's
    settings (`MEMORY_DB_*`) do."""

    def __init__(self, url: str, options: DatabaseOptions | None = None) -> None:
        #: The connection of the `reading()` block this context is in, if any.
        self._reading: ContextVar[Connection | None] = ContextVar(
            f"reading-{id(self)}", default=None
        )
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
            self.engine = _server_engine(url, options or DatabaseOptions.from_settings(Settings()))
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
            # Done is the checkpoint's word (`files.checkpoint`): a busy store's other writers
            # may append to the WAL again at once, with nothing an erase removed.
            size = wal_size(self.path)
            return Compaction(
                done=done,
                detail=f"WAL checkpointed and truncated ({size} bytes written since, {left} frames"
                " busy)",
            )
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            # A vacuum of a large table may outlast `db_statement_timeout_ms`: none for these.
            conn.exec_driver_sql("SET statement_timeout = 0")
            try:
                for table in tables:
                    conn.exec_driver_sql(f'VACUUM "{table}"')
            finally:
                conn.exec_driver_sql("RESET statement_timeout")  # the connection's own again
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
        if conn is None:
            conn = self._reading.get()
        if conn is not None:
            yield conn
            return
        with self.read_engine.connect() as own:
            yield own

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read in this block (in this thread or task) on one connection: a batch's
        decisions read the store a dozen times each. On SQLite they read one snapshot, so
        the block must not need to see what it writes meanwhile."""
        if self._reading.get() is not None:
            yield
            return
        with self.read_engine.connect() as conn:
            token = self._reading.set(conn)
            try:
                yield
            finally:
                self._reading.reset(token)


#: This release's schema revision, the newest migration's (a test holds it to Alembic's head):
#: a store already at it is opened with one query, without loading Alembic and every migration
#: script (0.6 s of each `memctl` command's start).
SCHEMA_HEAD = "0023"


def at_head(db: Database) -> bool:
    """Whether the canonical store's schema is this release's head (one query; False when the
    version table is missing or says otherwise)."""
    try:
        with db.read() as conn:
            current = [
                row[0] for row in conn.exec_driver_sql("SELECT version_num FROM alembic_version")
            ]
    except DBAPIError:
        return False
    return current == [SCHEMA_HEAD]


def require_schema(db: Database) -> None:
    """Refuse a canonical store whose schema is not this release's head (`SchemaNotMigrated`,
    saying what to do): what opening it does when it does not migrate on connect."""
    if at_head(db):
        return
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(_MIGRATIONS))
    head = scripts.get_current_head()
    with db.read() as conn:
        current = MigrationContext.configure(conn).get_current_heads()
    if current == (head,):
        return
    where = make_url(db.url).render_as_string(hide_password=True)
    if not current:
        problem = "has no schema"
    else:
        known = {script.revision for script in scripts.walk_revisions()}
        unknown = [rev for rev in current if rev not in known]
        if unknown:
            raise SchemaNotMigrated(
                f"the canonical store at {where} is at revision {', '.join(unknown)}, which this "
                f"release does not know (its newest is {head}): a newer release migrated it; run "
                "that release"
            )
        problem = f"is at revision {', '.join(current)}"
    raise SchemaNotMigrated(
        f"the canonical store at {where} {problem}, and this release needs revision {head}: run "
        "`memctl db upgrade` (the deployment's migration job) before starting the service, or "
        "set MEMORY_DB_MIGRATE_ON_CONNECT=true to let this process migrate it"
    )


def _server_engine(url: str, options: DatabaseOptions) -> Engine:
    """A Postgres engine: a pool of the given size, connections checked before use, and the
    statement timeout as a connection option (`-c statement_timeout=N`: it holds from the first
    statement of every connection, whatever the transaction)."""
    connect_args: dict[str, Any] = {}
    if options.statement_timeout_ms > 0:
        wanted = f"-c statement_timeout={options.statement_timeout_ms}"
        given = make_url(url).query.get("options")  # the URL's own libpq options, kept
        if isinstance(given, tuple):
            given = " ".join(given)
        connect_args["options"] = f"{given} {wanted}" if given else wanted
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=options.pool_size,
        max_overflow=options.max_overflow,
        pool_timeout=options.pool_timeout_seconds,
        connect_args=connect_args,
        # an error's text never carries the bound values (people's words): it is logged, and
        # an activity's failure message reaches workflow history
        hide_parameters=True,
        json_serializer=_json_dumps,
        json_deserializer=_json_loads,
    )


def _json_dumps(value: Any) -> str:
    """A JSON column's text: orjson, compact and UTF-8 as it is (a write stores about 25 small
    values: audit details, outcomes, record fields; json.dumps was about 4 % of a batch). Text
    kept as it was written, so what an erasure's search or a verification's scan looks for in
    a column's text (`mentioning`) is found whatever its script, not behind `\\u` escapes."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _json_loads(text: str | bytes) -> Any:
    """A JSON column read back: most of a record's are JSON null (no structured value, no graph
    hints), answered without the parser (a record is decoded on every read)."""
    return None if text == "null" else orjson.loads(text)


def _sqlite_engine(url: str, *, immediate: bool) -> Engine:
    engine = create_engine(
        url,
        connect_args={"timeout": 30, "check_same_thread": False},
        hide_parameters=True,
        json_serializer=_json_dumps,
        json_deserializer=_json_loads,
    )

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
    if conn.dialect.name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)
    from sqlalchemy.dialects.postgresql import insert as pg_insert  # its dialects load once used

    return pg_insert(table)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def row_to_record(row: Any) -> MemoryRecord:
    return _record(dict(row._mapping))


def records_of(result: Any) -> Iterator[MemoryRecord]:
    """The records of a result's rows, the column names read once (not per row)."""
    keys = list(result.keys())
    for row in result:
        yield _record(dict(zip(keys, row, strict=True)))


_RECORD_FIELDS = tuple(MemoryRecord.model_fields)
_EXTRACTOR_FIELDS = tuple(ExtractorInfo.model_fields)  # all but `model` are always stored
#: The record's fields no row holds (`schema_version`), each with its default.
_NOT_STORED = {
    name: f for name, f in MemoryRecord.model_fields.items() if name not in memory_heads.c
}


def _record(data: dict[str, Any]) -> MemoryRecord:
    # Rows come from our own writes through validated models, with types restored by the
    # column types: built without validating again (this is on every read's path), its fields
    # in the model's order (as a validated record dumps them).
    e = data["extractor"]
    data["extractor"] = built(ExtractorInfo, {n: e.get(n) for n in _EXTRACTOR_FIELDS})
    if data.get("graph") is not None:
        data["graph"] = GraphHints.model_validate(data["graph"])
    for name, f in _NOT_STORED.items():
        data[name] = f.get_default(call_default_factory=True)
    return built(MemoryRecord, {name: data[name] for name in _RECORD_FIELDS})


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
