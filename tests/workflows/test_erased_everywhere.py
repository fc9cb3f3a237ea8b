"""After a passed deletion, the erased words are readable nowhere the service keeps data: every
byte of its data folder (SQLite database, WAL and shared-memory files, projection, journal) and,
on Postgres, every row of every table. Read as an auditor would: raw bytes, not the API."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.projection import SearchFilters
from governed_memory.shell.client import MemoryClient
from tests.factories import BOT, DRAFTER, NS, T0, USER

LATER = T0 + timedelta(days=5)


@pytest.fixture(params=["projection", "shared"])
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The graph in the embedded projection's file, and shared in the canonical database."""
    return settings.model_copy(update={"graph": request.param})


def stored_bytes(client: MemoryClient) -> dict[str, bytes]:
    """Where the service keeps data, by place: each file of the data folder, each table."""
    out = {
        str(p.relative_to(client.settings.data_dir)): p.read_bytes()
        for p in Path(client.settings.data_dir).rglob("*")
        if p.is_file()
    }
    engine = client.stores.canonical.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            for table in sa.inspect(conn).get_table_names():
                rows = conn.execute(sa.text(f'SELECT * FROM "{table}"'))
                out[table] = repr([tuple(r) for r in rows]).encode("utf-8", "backslashreplace")
    return out


def holding(places: dict[str, bytes], marker: str) -> list[str]:
    return sorted(name for name, data in places.items() if marker.encode() in data)


async def test_a_passed_deletion_leaves_no_byte_of_what_it_erased(client: MemoryClient) -> None:
    client.register_principal(BOT)
    thread = f"t-{uuid.uuid4().hex[:6]}"
    key = uuid.uuid4().hex
    markers = {
        "memory": "Zqmemorymarker",
        "value": "Zqvaluemarker",
        "message": "Zqmessagemarker",
        "summary": "Zqsummarymarker",
        "review": "Zqreviewmarker",
    }
    await client.write(
        USER,
        NS,
        {
            "kind": "profile",
            "key": "delivery.note",
            "content": f"Leave parcels with the concierge {markers['memory']}",
            "structured_value": {"note": markers["value"]},
        },
        idempotency_key=key,
        at=T0,
    )
    await client.observe(
        USER,
        NS,
        f"Remember that my dog is called {markers['message']}",
        thread=thread,
        at=T0 + timedelta(minutes=1),
    )
    await client.observe(
        USER,
        NS,
        f"以后物流更新请优先短信通知 {markers['summary']}",
        thread=thread,
        at=T0 + timedelta(minutes=2),
    )
    await client.summarize(BOT.ref, thread, namespace=NS, at=T0 + timedelta(minutes=5))
    # A deferred write waits for a reviewer: what settling needs is kept with the review row.
    client.register_principal(DRAFTER)
    deferred = await client.write(
        DRAFTER.ref,
        NS,
        {"kind": "episodic", "content": f"Asked for a callback about {markers['review']}"},
        at=T0 + timedelta(minutes=6),
    )
    assert deferred.outcome.decision == "defer"
    before = stored_bytes(client)
    assert all(holding(before, m) for m in markers.values())
    # the graph projection holds the names too (as written and as keys), and must lose them
    wide = SearchFilters(tenant_id="shop-a", namespaces=(NS,), statuses=None)
    named = client.stores.projection.entity(markers["memory"].lower(), wide, 10)  # type: ignore[attr-defined]
    assert named.names == {markers["memory"]: 1}

    receipt = await client.forget(USER, {"namespace": NS}, at=LATER)
    assert receipt.verification_status == "passed", receipt.probes

    after = stored_bytes(client)
    left = {name: holding(after, m) for name, m in markers.items() if holding(after, m)}
    assert left == {}, f"still readable: {left}"
    # Not even as keyword-index fragments: the trigram index stores "zqm", "qme", … of each
    # marker (lower-cased); a deleted row's terms must be merged out of its segments too.
    fragments = {name: holding(after, m[:3].lower()) for name, m in markers.items()}
    assert not any(fragments.values()), f"index fragments left: {fragments}"
    assert client.stores.projection.graph_leftovers() == 0  # type: ignore[attr-defined]
    # What the files cannot show is stated on the receipt instead.
    on_postgres = client.stores.canonical.engine.dialect.name == "postgresql"
    assert any("WAL" in limit for limit in receipt.storage_limits) == on_postgres


async def test_the_data_folder_is_private(client: MemoryClient) -> None:
    client.register_principal(BOT)
    await client.observe(USER, NS, "以后物流更新请优先短信通知", thread="t-perm", at=T0)
    folder = Path(client.settings.data_dir)
    databases = [p for p in folder.rglob("*.db*") if p.is_file()]
    assert databases
    for p in databases:
        assert p.stat().st_mode & 0o777 == 0o600, p
        assert p.parent.stat().st_mode & 0o777 == 0o700, p.parent
