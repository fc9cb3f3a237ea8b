"""The Alembic migrations build exactly the schema the code declares, and carry data forward."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text

from governed_memory.memory.sameness import gist_of
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.stores.schema import metadata


def test_migrations_match_the_declared_schema(database_url: str) -> None:
    """No table, column, index or type the code declares is missing from (or extra in) what the
    migrations create, on SQLite and Postgres."""
    engine = create_engine(database_url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, metadata)
    engine.dispose()
    # SQLite reflects JSON and timezone-aware datetimes loosely; a type difference there is the
    # dialect's, not the schema's.
    if database_url.startswith("sqlite"):
        diff = [d for d in diff if not (isinstance(d, list) and d and d[0][0] == "modify_type")]
    assert diff == []


def test_gists_are_computed_for_rows_written_before_0008(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = CanonicalStore(url)
    store.migrate("0007")
    row = {
        "memory_id": "mem_old",
        "version": 1,
        "tenant_id": "shop-a",
        "namespace": "tenant/shop-a/user/1",
        "subject_ref": "user:1",
        "kind": "episodic",
        "key": None,
        "content": "The parcel for order A-7781 hasn't arrived.",
        "structured_value": None,
        "source_refs": "[]",
        "source_type": "user_assertion",
        "confidence": 1.0,
        "sensitivity": "internal",
        "recorded_at": "2026-07-01 00:00:00",
        "status": "active",
        "content_hash": "sha256:x",
        "extractor": '{"name": "direct", "version": "1"}',
        "written_by": "user:shop-a/1",
    }
    with store.engine.begin() as conn:
        columns = ", ".join(row)
        values = ", ".join(f":{k}" for k in row)
        conn.execute(
            text(f"INSERT INTO memory_versions ({columns}, change) VALUES ({values}, 'add')"), row
        )
        conn.execute(text(f"INSERT INTO memory_heads ({columns}) VALUES ({values})"), row)
        erased = {**row, "memory_id": "mem_gone", "content": "", "content_hash": "erased"}
        conn.execute(text(f"INSERT INTO memory_heads ({columns}) VALUES ({values})"), erased)
    store.migrate()
    with store.engine.connect() as conn:
        gists: dict[str, str | None] = dict(
            conn.execute(sa.text("SELECT memory_id, gist FROM memory_heads")).all()
        )
        [version_gist] = conn.execute(sa.text("SELECT gist FROM memory_versions")).scalars()
    want = gist_of("the parcel for order a7781 has not arrived")
    assert gists == {"mem_old": want, "mem_gone": None}
    assert version_gist == want
    slot = store.records.slot_state("tenant/shop-a/user/1", f"gist:{want}")
    assert [r.memory_id for r in slot.records] == ["mem_old"]
    store.close()


def test_gists_of_an_older_rule_are_computed_again(tmp_path: Path) -> None:
    """0009 (gist g2) recomputes every stored gist of another version, and only those."""
    url = f"sqlite:///{tmp_path / 'g1.db'}"
    store = CanonicalStore(url)
    store.migrate("0008")
    row = {
        "memory_id": "mem_g1",
        "version": 1,
        "tenant_id": "shop-a",
        "namespace": "tenant/shop-a/user/1",
        "subject_ref": "user:1",
        "kind": "episodic",
        "content": "The customer purchased a kettle.",
        "source_refs": "[]",
        "source_type": "user_assertion",
        "confidence": 1.0,
        "sensitivity": "internal",
        "recorded_at": "2026-07-01 00:00:00",
        "status": "active",
        "content_hash": "sha256:x",
        "extractor": '{"name": "direct", "version": "1"}',
        "written_by": "user:shop-a/1",
    }
    current = {**row, "memory_id": "mem_g2", "content": "Something else entirely."}
    with store.engine.begin() as conn:
        for r, gist in ((row, "g1:0123"), (current, gist_of("Something else entirely."))):
            columns = ", ".join(r)
            values = ", ".join(f":{k}" for k in r)
            conn.execute(
                text(f"INSERT INTO memory_heads ({columns}, gist) VALUES ({values}, :gist)"),
                {**r, "gist": gist},
            )
    store.migrate()
    with store.engine.connect() as conn:
        gists: dict[str, str | None] = dict(
            conn.execute(sa.text("SELECT memory_id, gist FROM memory_heads")).all()
        )
    assert gists == {
        "mem_g1": gist_of("The customer bought a kettle"),
        "mem_g2": gist_of("Something else entirely."),
    }
    store.close()


def test_outcomes_written_before_0013_take_their_writer(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = CanonicalStore(url)
    store.migrate("0012")
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO write_outcomes (tenant_id, idempotency_key, workflow_id, outcomes, "
                "decided_at) VALUES ('shop-a', 'k1', 'write/shop-a/k1', '[]', '2026-07-01 00:00:00')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO audit_events (at, tenant_id, workflow_id, stage, outcome, principal, "
                "details) VALUES ('2026-07-01 00:00:00', 'shop-a', 'write/shop-a/k1', 'commit', "
                "'ok', 'user:shop-a/1', '{}')"
            )
        )
    store.migrate()
    found = store.outcomes.get("shop-a", "user:shop-a/1", "k1")
    assert found is not None
    assert found.workflow_id == "write/shop-a/k1"
    assert store.outcomes.get("shop-a", "user:shop-a/2", "k1") is None
    store.close()


def test_threads_become_a_namespaces_own_and_keep_their_messages(tmp_path: Path) -> None:
    """0018: a message's position is unique within its namespace's conversation, so thread `t`
    of another namespace starts at 1; the messages kept before stay where they were."""
    from datetime import UTC, datetime

    url = f"sqlite:///{tmp_path / 'threads.db'}"
    store = CanonicalStore(url)
    store.migrate("0017")
    row = {
        "message_id": "msg_old",
        "tenant_id": "shop-a",
        "namespace": "tenant/shop-a/user/1",
        "thread": "support",
        "conversation": "support",
        "position": 1,
        "speaker": "user:shop-a/1",
        "speaker_type": "user",
        "text": "我的耳机坏了",
        "at": "2026-07-01 00:00:00",
        "status": "active",
        "content_hash": "sha256:x",
    }
    with store.engine.begin() as conn:
        columns = ", ".join(row)
        values = ", ".join(f":{k}" for k in row)
        conn.execute(text(f"INSERT INTO conversation_messages ({columns}) VALUES ({values})"), row)
    store.migrate()
    at = datetime(2026, 7, 2, tzinfo=UTC)
    other = store.messages.append(
        message_id="msg_new",
        tenant_id="shop-a",
        namespace="tenant/shop-a/user/2",
        thread="support",
        speaker="user:shop-a/2",
        speaker_type="user",
        text="我要退款",
        at=at,
    )
    assert other.position == 1
    (kept,) = store.messages.in_thread("shop-a", "tenant/shop-a/user/1", "support")
    assert (kept.message_id, kept.position, kept.text) == ("msg_old", 1, "我的耳机坏了")
    same = store.messages.append(
        message_id="msg_next",
        tenant_id="shop-a",
        namespace="tenant/shop-a/user/1",
        thread="support",
        speaker="user:shop-a/1",
        speaker_type="user",
        text="还没修好",
        at=at,
    )
    assert same.position == 2
    store.close()
