"""The embedded projection: converges to canonical, filters, searches Chinese and English."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from governed_memory.memory.plans import CommitPlan, RecordChange, SlotCheck
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.sync.apply import project
from tests.factories import NS, T0, record
from tests.factories import search_filters as filters


def add(stores: Stores, *records, commit_id: str = "c", slot: str | None = None) -> None:
    for i, r in enumerate(records):
        stores.canonical.commits.apply(
            CommitPlan(
                commit_id=f"{commit_id}-{i}",
                tenant_id=r.tenant_id,
                namespace=r.namespace,
                slots=[SlotCheck(slot=slot or f"hash:{r.content_hash}", expected_version=0)],
                at=r.recorded_at,
                new_records=[r],
            )
        )


def test_projecting_twice_or_late_converges_to_canonical(stores: Stores) -> None:
    r = record()
    add(stores, r)
    project(stores.canonical, stores.projection, [r.memory_id])
    project(stores.canonical, stores.projection, [r.memory_id, r.memory_id])
    assert stores.projection.state([r.memory_id])[r.memory_id].version == 1

    stores.canonical.commits.apply(
        CommitPlan(
            commit_id="close",
            tenant_id="shop-a",
            namespace=NS,
            slots=[SlotCheck(slot=f"hash:{r.content_hash}", expected_version=1)],
            at=T0,
            changes=[
                RecordChange(
                    memory_id=r.memory_id,
                    expected_version=1,
                    status="invalidated",
                    valid_to=None,
                    conflict_group=None,
                    change="test",
                )
            ],
        )
    )
    project(stores.canonical, stores.projection, [r.memory_id])
    assert stores.projection.state([r.memory_id]) == {}
    # an old event delivered late projects the current (invalidated) state again: still absent
    project(stores.canonical, stores.projection, [r.memory_id])
    assert stores.projection.state([r.memory_id]) == {}


def test_hybrid_search_finds_chinese_and_english(stores: Stores) -> None:
    zh = record(
        content="商家 A 属于跨境业务，退款需走海关退运流程",
        key=None,
        structured_value=None,
        kind="semantic",
    )
    en = record(
        content="The customer prefers weekend delivery",
        key=None,
        structured_value=None,
        kind="semantic",
    )
    add(stores, zh, en)
    project(stores.canonical, stores.projection, [zh.memory_id, en.memory_id])
    hits = stores.projection.search("海关退运", filters(), 5)
    assert hits[0].memory_id == zh.memory_id
    assert hits[0].keyword_rank == 1
    hits = stores.projection.search("weekend deliveries", filters(), 5)
    assert hits[0].memory_id == en.memory_id


def test_filters_namespace_tenant_time_and_expiry(stores: Stores) -> None:
    mine = record(key=None, content="退款进度查询")
    neighbour = record(
        key=None, content="退款进度查询", namespace="tenant/shop-b/user/123", tenant_id="shop-b"
    )
    future = record(key=None, content="退款进度查询 未来", valid_from=T0 + timedelta(days=5))
    expired = record(key=None, content="退款进度查询 过期", expires_at=T0 + timedelta(minutes=5))
    add(stores, mine, neighbour, future, expired)
    project(
        stores.canonical,
        stores.projection,
        [r.memory_id for r in (mine, neighbour, future, expired)],
    )
    ids = {h.memory_id for h in stores.projection.search("退款进度", filters(), 10)}
    assert ids == {mine.memory_id}
    wide = filters(valid_at=None, not_expired_at=None)
    ids = {h.memory_id for h in stores.projection.search("退款进度", wide, 10)}
    assert ids == {mine.memory_id, future.memory_id, expired.memory_id}


def test_a_second_process_sees_new_rows(stores: Stores, settings) -> None:
    other = EmbeddedProjection(settings.projection_file, stores.embedder)
    r1 = record(key=None, content="第一条记录")
    add(stores, r1)
    project(stores.canonical, stores.projection, [r1.memory_id])
    assert [h.memory_id for h in other.search("第一条", filters(), 5)] == [r1.memory_id]
    r2 = record(key=None, content="第二条记录")
    add(stores, r2, commit_id="d")
    project(stores.canonical, stores.projection, [r2.memory_id])
    assert {h.memory_id for h in other.search("记录", filters(), 5)} == {r1.memory_id, r2.memory_id}
    other.close()


def test_keyword_scores_are_shares_of_the_query_and_rank_in_a_tiny_tenant(stores: Stores) -> None:
    """Two memories: FTS5's own BM25 gives a term in half the rows no weight at all, so in a
    tenant this small every score would be ~0. Scored here, a memory holding every word of
    the question scores more than one holding some, and both stay within [0, 1]."""
    both = record(
        key=None, structured_value=None, kind="episodic", content="Ann adopted a grey cat"
    )
    some = record(
        key=None, structured_value=None, kind="episodic", content="Ann's cat sleeps all day"
    )
    add(stores, both, some)
    project(stores.canonical, stores.projection, [both.memory_id, some.memory_id])
    hits = stores.projection.search("Who adopted the grey cat?", filters(), 5)
    assert [h.memory_id for h in hits] == [both.memory_id, some.memory_id]
    assert 0 < hits[1].score < hits[0].score <= 1
    assert hits[0].word_score > 0.5
    assert hits[0].trigram_score > 0.5
    # A question of other words finds nothing.
    assert stores.projection.search("quarterly tax filing", filters(), 5) == []


def test_inflections_meet_in_the_word_index(stores: Stores) -> None:
    r = record(
        key=None,
        structured_value=None,
        kind="episodic",
        content="She was researching adoption agencies",
    )
    add(stores, r)
    project(stores.canonical, stores.projection, [r.memory_id])
    (hit,) = stores.projection.search("Which agency did she research?", filters(), 5)
    assert hit.memory_id == r.memory_id
    assert hit.word_score > 0


def test_a_removed_row_leaves_the_word_index_and_its_totals(stores: Stores) -> None:
    r = record(
        key=None, structured_value=None, kind="episodic", content="Zqword marker stays private"
    )
    add(stores, r)
    project(stores.canonical, stores.projection, [r.memory_id])
    conn = stores.projection._conn()  # type: ignore[attr-defined]
    table = "fts_" + hashlib.sha1(b"shop-a").hexdigest()[:16] + "_w"  # the tenant's word index
    assert conn.execute(f"SELECT count(*) FROM {table}_vocab WHERE term = 'zqword'").fetchone()[0]
    stores.projection.remove([r.memory_id], [r.version])
    done, _ = stores.projection.compact()
    assert done
    assert not conn.execute(f"SELECT count(*) FROM {table}_vocab WHERE term = 'zqword'").fetchone()[
        0
    ]
    assert conn.execute("SELECT rows, words, trigrams FROM proj_tenants").fetchall() == [(0, 0, 0)]


def test_keyword_ranking_counts_only_rows_the_filters_pass(stores: Stores) -> None:
    """The keyword sides rank a term's rows over the asked namespaces' columns: rows of another
    namespace of the same tenant, or above the asker's sensitivity, never take a place, even
    when they hold the query better; what is returned is ranked by every query term."""
    other_ns = NS.replace("user", "team")
    strangers = [
        record(
            key=None,
            structured_value=None,
            kind="episodic",
            namespace=other_ns,
            content=f"walnut orchard harvest ledger walnut orchard {i}",
        )
        for i in range(8)
    ]
    secret = record(
        key=None,
        structured_value=None,
        kind="episodic",
        sensitivity="restricted",
        content="walnut orchard harvest ledger, the full one",
    )
    mine = [
        record(key=None, structured_value=None, kind="episodic", content=text)
        for text in (
            "the walnut orchard harvest ledger",
            "walnut orchard notes",
            "an orchard of apples",
            "walnut bread recipe",
            "a harvest festival",
        )
    ]
    add(stores, *strangers, secret, *mine)
    project(stores.canonical, stores.projection, [r.memory_id for r in (*strangers, secret, *mine)])
    asked = filters(max_sensitivity="confidential")
    hits = stores.projection.keyword_search("walnut orchard harvest ledger", asked, 3)
    assert [h.memory_id for h in hits] == [mine[0].memory_id, mine[1].memory_id, hits[2].memory_id]
    assert hits[2].memory_id in {mine[2].memory_id, mine[3].memory_id, mine[4].memory_id}
    assert all(h.namespace == NS for h in hits)
    assert hits[0].word_score > hits[1].word_score > hits[2].word_score > 0
    wide = stores.projection.keyword_search(
        "walnut orchard harvest ledger", filters(namespaces=(NS, other_ns)), 20
    )
    assert {h.memory_id for h in wide} == {r.memory_id for r in (*strangers, secret, *mine)}
