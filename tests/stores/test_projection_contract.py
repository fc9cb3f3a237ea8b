"""One contract for every projection: the same behaviour tests, run against each backend.

Backends:
- `embedded`: the SQLite file (`EmbeddedProjection`), always.
- `embedded+shared-graph`: the same without its graph, and the graph in the canonical database
  (`GraphedProjection`, what a Weaviate deployment runs), always.
- `weaviate`: `WeaviateProjection` on a real Weaviate cluster, only when MEMORY_TEST_WEAVIATE_URL
  names one (its HTTP URL; MEMORY_TEST_WEAVIATE_GRPC_PORT, default 50051, and
  MEMORY_TEST_WEAVIATE_API_KEY when it needs one). Each test gets its own collections (a unique
  prefix), dropped afterwards. Without the variable it is skipped — under CI=true as well: no
  Weaviate runs in CI here, nor can one be started on the development machine.

`WeaviateProjection` has not been run against a Weaviate server here; its pure parts (filters,
tenant names, properties, hits, batch errors) are unit-tested with the client's own classes in
`test_weaviate_queries.py`.

What a projection must do: project a canonical state, and project it again without writing it
twice (applies stay 1); never write back an older version after a newer one or after a removal;
remove; search (hybrid and keyword) with each filter (namespace, kind, status, valid time, expiry,
sensitivity ceiling); keep tenants apart; scan; find rows by place; page its rows in id order and
in write order for repair's compares; report state; list expired rows; compact after a removal.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from governed_memory.memory.embedding import HashedNgramEmbedder
from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.plans import CommitPlan, SlotCheck
from governed_memory.memory.policy import load_policy
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.stores.projection import Projection
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.stores.projection.shared_graph import GraphedProjection, SharedGraph
from governed_memory.memory.stores.projection.weaviate import WeaviateProjection, connect_client
from governed_memory.memory.sync.apply import project
from governed_memory.memory.sync.repair import compare
from tests.factories import NS, T0, record
from tests.factories import search_filters as filters

WEAVIATE_URL = os.environ.get("MEMORY_TEST_WEAVIATE_URL")
OTHER_NS = "tenant/shop-a/user/456"
B_NS = "tenant/shop-b/user/123"


# ---------------------------------------------------------------------------- backends


class WeightedEmbedder(HashedNgramEmbedder):
    """The hashed n-grams with a weight in ranking, so the vector side joins hybrid search."""

    ranking_weight = 2.0
    similarity_floor = 0.0

    def __init__(self) -> None:
        super().__init__()
        self.name = "hashed-ngram-weighted-test"


Make = Callable[..., Projection]


@pytest.fixture(
    params=[
        "embedded",
        "embedded+shared-graph",
        pytest.param(
            "weaviate",
            marks=pytest.mark.skipif(
                not WEAVIATE_URL,
                reason="set MEMORY_TEST_WEAVIATE_URL to a Weaviate cluster's HTTP URL "
                "(skipped under CI=true too: no Weaviate runs there)",
            ),
        ),
    ]
)
def make(
    request: pytest.FixtureRequest, tmp_path: Path, canonical: CanonicalStore
) -> Iterator[Make]:
    """Projections of the backend under test (`make(embedder=...)`), closed afterwards."""
    made: list[Projection] = []
    prefix = f"GmTest{uuid.uuid4().hex[:10]}"

    def build(embedder: Any = None, **over: Any) -> Projection:
        embedder = embedder or HashedNgramEmbedder()
        projection: Projection
        if request.param == "embedded":
            projection = EmbeddedProjection(tmp_path / "projection.db", embedder)
        elif request.param == "embedded+shared-graph":
            # the projection a deployment on many hosts has: one without a graph, with the
            # graph in the canonical database beside it (here over the embedded one: no
            # Weaviate runs here)
            projection = GraphedProjection(
                EmbeddedProjection(tmp_path / "projection.db", embedder, keep_graph=False),
                SharedGraph(canonical.db),
            )
        else:
            assert WEAVIATE_URL is not None
            url = WEAVIATE_URL
            port = int(os.environ.get("MEMORY_TEST_WEAVIATE_GRPC_PORT", "50051"))
            key = os.environ.get("MEMORY_TEST_WEAVIATE_API_KEY")
            projection = WeaviateProjection(
                lambda: connect_client(url, key, port),
                embedder,
                prefix=prefix,
                settle_seconds=0,
                **over,
            )
        made.append(projection)
        return projection

    build.backend = request.param  # type: ignore[attr-defined]
    yield build
    for projection in made:
        if isinstance(projection, WeaviateProjection) and projection is made[0]:
            projection.drop()
        projection.close()


@pytest.fixture
def canonical(tmp_path: Path, sqlite_template: Path) -> Iterator[CanonicalStore]:
    target = tmp_path / "canonical.db"
    shutil.copy(sqlite_template, target)
    store = CanonicalStore(f"sqlite:///{target}")
    yield store
    store.close()


@pytest.fixture
def projection(make: Make) -> Projection:
    return make()


def add(canonical: CanonicalStore, *records: MemoryRecord) -> None:
    for r in records:
        canonical.commits.apply(
            CommitPlan(
                commit_id=f"c-{uuid.uuid4().hex}",
                tenant_id=r.tenant_id,
                namespace=r.namespace,
                slots=[SlotCheck(slot=f"hash:{r.content_hash}", expected_version=0)],
                at=r.recorded_at,
                new_records=[r],
            )
        )


def note(content: str, **over: Any) -> MemoryRecord:
    """A memory without key (an episodic note), in NS unless told."""
    base: dict[str, Any] = {"key": None, "structured_value": None, "kind": "episodic"}
    base.update(over)
    return record(content=content, **base)


def ids(hits: Sequence[Any]) -> set[str]:
    return {h.memory_id for h in hits}


# ---------------------------------------------------------------------------- writes


def test_project_then_again_writes_each_version_once(
    projection: Projection, canonical: CanonicalStore
) -> None:
    r = note("The customer prefers weekend delivery")
    add(canonical, r)
    done = project(canonical, projection, [r.memory_id])
    assert done.applied == 1
    state = projection.state([r.memory_id])[r.memory_id]
    assert (state.version, state.content_hash, state.namespace) == (1, r.content_hash, NS)
    again = project(canonical, projection, [r.memory_id, r.memory_id])
    assert (again.applied, again.skipped) == (0, 1)
    assert projection.applies([r.memory_id]) == {(r.memory_id, 1): 1}
    assert projection.state(["mem_unknown"]) == {}


def test_two_writers_that_both_found_a_version_missing_write_it_once(
    projection: Projection,
) -> None:
    """The relay and a write's own projection (or two workers) may both read the index before
    either writes: the projection itself holds the line, so the version is written once."""
    r = note("The customer prefers weekend delivery")
    projection.upsert([r])
    projection.upsert([r])  # the second writer, which looked before the first wrote
    assert projection.applies([r.memory_id]) == {(r.memory_id, 1): 1}
    changed = r.model_copy(update={"version": 2, "content": "The customer prefers evenings"})
    projection.upsert([changed])
    assert projection.state([r.memory_id])[r.memory_id].version == 2


def test_an_older_version_is_never_written_back(projection: Projection) -> None:
    r1 = note("地址是上海市")
    r2 = r1.model_copy(update={"version": 2, "content": "地址是北京市", "content_hash": "h2"})
    projection.upsert([r2])
    projection.upsert([r1])  # a relay that read version 1 before version 2 committed
    assert projection.state([r1.memory_id])[r1.memory_id].version == 2
    assert projection.applies([r1.memory_id]) == {(r1.memory_id, 2): 1}


def test_nothing_older_than_a_removal_comes_back(projection: Projection) -> None:
    r1 = note("The parcel code is 7781")
    projection.upsert([r1])
    projection.remove([r1.memory_id], [2])  # canonical version 2 (a tombstone) removed it
    assert projection.state([r1.memory_id]) == {}
    projection.upsert([r1])
    assert projection.state([r1.memory_id]) == {}
    assert projection.search("parcel 7781", filters(), 5) == []
    r3 = r1.model_copy(update={"version": 3, "content_hash": "h3"})
    projection.upsert([r3])
    assert projection.state([r1.memory_id])[r1.memory_id].version == 3


def test_a_removal_without_versions_lets_canonical_write_it_again(projection: Projection) -> None:
    """Repair removes a row ahead of canonical (`rolled_back`) without a mark: canonical's own
    older version is written just after."""
    r1 = note("Ann adopted a grey cat")
    r2 = r1.model_copy(update={"version": 2, "content_hash": "h2"})
    projection.upsert([r2])
    projection.remove([r1.memory_id])
    projection.upsert([r1])
    assert projection.state([r1.memory_id])[r1.memory_id].version == 1


def test_remove_takes_the_row_out_of_every_read(projection: Projection) -> None:
    r = note("Zqword marker stays private", source_refs=["msg://t9/4"])
    keep = note("Another harmless note")
    projection.upsert([r, keep])
    projection.remove([r.memory_id], [r.version])
    wide = filters(statuses=None, valid_at=None, not_expired_at=None)
    assert projection.state([r.memory_id]) == {}
    assert projection.keyword_search("Zqword marker", wide, 10) == []
    assert projection.search("Zqword marker", wide, 10) == []
    vector = HashedNgramEmbedder().embed(["Zqword marker stays private"])[0]
    assert r.memory_id not in ids(projection.vector_search(vector, wide, 10))
    assert [m for m, _ in projection.scan(wide)] == [keep.memory_id]
    assert projection.at_places([(NS, "t9", 4)], wide) == []
    done, detail = projection.compact()
    assert done, detail
    assert projection.state([r.memory_id]) == {}


# ---------------------------------------------------------------------------- search and filters


def test_hybrid_search_finds_chinese_and_english(projection: Projection) -> None:
    zh = note("商家 A 属于跨境业务，退款需走海关退运流程", kind="semantic")
    en = note("The customer prefers weekend delivery", kind="semantic")
    projection.upsert([zh, en])
    hits = projection.search("海关退运", filters(), 5)
    assert hits[0].memory_id == zh.memory_id
    assert hits[0].keyword_rank == 1
    hits = projection.search("weekend deliveries", filters(), 5)
    assert hits[0].memory_id == en.memory_id
    for hit in hits:
        assert 0 < hit.score <= 1
        assert hit.vector is not None
        assert hit.vector.shape == (256,)
    assert projection.search("quarterly tax filing", filters(), 5) == []


def test_keyword_search_ranks_the_fuller_match_first(projection: Projection) -> None:
    both = note("Ann adopted a grey cat")
    some = note("Ann's cat sleeps all day")
    projection.upsert([both, some])
    hits = projection.keyword_search("Who adopted the grey cat?", filters(), 5)
    assert [h.memory_id for h in hits] == [both.memory_id, some.memory_id]
    assert [h.keyword_rank for h in hits] == [1, 2]
    assert 0 < hits[1].score < hits[0].score <= 1


def test_each_filter_of_search_filters(projection: Projection) -> None:
    text = "退款进度查询"
    plain = note(text)
    other_ns = note(text, namespace=OTHER_NS)
    profile = note(text + " 偏好", kind="profile")
    superseded = note(text + " 旧的", status="superseded")
    invalidated = note(text + " 作废", status="invalidated")
    future = note(text + " 未来", valid_from=T0 + timedelta(days=5))
    closed = note(text + " 已结束", valid_to=T0 + timedelta(minutes=30))
    expired = note(text + " 过期", expires_at=T0 + timedelta(minutes=5))
    secret = note(text + " 机密", sensitivity="restricted")
    everything = [
        plain,
        other_ns,
        profile,
        superseded,
        invalidated,
        future,
        closed,
        expired,
        secret,
    ]
    projection.upsert(everything)

    def found(**over: Any) -> set[str]:
        f = filters(**over)
        by_search = ids(projection.search("退款进度", f, 20))
        by_keyword = ids(projection.keyword_search("退款进度", f, 20))
        assert by_search == by_keyword
        return by_search

    default = {plain.memory_id, profile.memory_id, superseded.memory_id, secret.memory_id}
    assert found() == default
    assert found(namespaces=(NS, OTHER_NS)) == default | {other_ns.memory_id}
    assert found(namespaces=(OTHER_NS,)) == {other_ns.memory_id}
    assert found(kinds=("profile",)) == {profile.memory_id}
    assert found(kinds=()) == set()
    assert found(statuses=("superseded",)) == {superseded.memory_id}
    assert found(statuses=None) == default | {invalidated.memory_id}
    assert found(valid_at=None) == default | {future.memory_id, closed.memory_id}
    assert future.memory_id in found(valid_at=T0 + timedelta(days=6))
    assert closed.memory_id in found(valid_at=T0 + timedelta(minutes=10))
    assert found(not_expired_at=None) == default | {expired.memory_id}
    assert expired.memory_id in found(not_expired_at=T0)
    assert found(max_sensitivity="internal") == default - {secret.memory_id}
    assert found(max_sensitivity="public") == set()
    wide = {
        "statuses": None,
        "valid_at": None,
        "not_expired_at": None,
        "namespaces": (NS, OTHER_NS),
    }
    assert found(**wide) == {r.memory_id for r in everything}
    vector = HashedNgramEmbedder().embed(["退款进度查询"])[0]
    assert ids(projection.vector_search(vector, filters(), 20)) == default


def test_tenants_never_see_each_other(projection: Projection) -> None:
    mine = note("退款进度查询", source_refs=["msg://t1/1"])
    theirs = note("退款进度查询", namespace=B_NS, tenant_id="shop-b", source_refs=["msg://t1/1"])
    projection.upsert([mine, theirs])
    # Even a filter naming the other tenant's namespace reads only the asked tenant.
    leaky = filters(namespaces=(NS, B_NS))
    assert ids(projection.search("退款进度", leaky, 10)) == {mine.memory_id}
    assert ids(projection.keyword_search("退款进度", leaky, 10)) == {mine.memory_id}
    vector = HashedNgramEmbedder().embed(["退款进度查询"])[0]
    assert ids(projection.vector_search(vector, leaky, 10)) == {mine.memory_id}
    assert {m for m, _ in projection.scan(leaky)} == {mine.memory_id}
    assert ids(projection.at_places([(NS, "t1", 1), (B_NS, "t1", 1)], filters())) == {
        mine.memory_id
    }
    theirs_only = filters(tenant_id="shop-b", namespaces=(B_NS,))
    assert ids(projection.search("退款进度", theirs_only, 10)) == {theirs.memory_id}
    assert ids(projection.search("退款进度", filters(tenant_id="shop-c"), 10)) == set()


def test_at_places_keeps_to_the_asked_tenant(
    projection: Projection, make: Make, request: pytest.FixtureRequest
) -> None:
    """A place in another tenant's namespace is not looked up, even when the filters name that
    namespace (recall never asks so: its namespaces are the reader's tenant's)."""
    mine = note("退款进度查询", source_refs=["msg://t1/1"])
    theirs = note("退款进度查询", namespace=B_NS, tenant_id="shop-b", source_refs=["msg://t1/1"])
    projection.upsert([mine, theirs])
    leaky = filters(namespaces=(NS, B_NS))
    assert ids(projection.at_places([(NS, "t1", 1), (B_NS, "t1", 1)], leaky)) == {mine.memory_id}


def test_vector_search_ranks_by_cosine(projection: Projection) -> None:
    near = note("The customer prefers weekend delivery")
    far = note("商家 A 属于跨境业务")
    projection.upsert([near, far])
    vector = HashedNgramEmbedder().embed(["customer prefers weekend delivery"])[0]
    hits = projection.vector_search(vector, filters(), 5)
    assert next(h.memory_id for h in hits) == near.memory_id
    assert [h.vector_rank for h in hits] == list(range(1, len(hits) + 1))
    assert hits[0].vector_score is not None
    assert hits[0].vector_score > 0.5
    assert all(h.vector is not None for h in hits)


def test_hybrid_search_with_a_ranking_embedder_fuses_the_vector_side(make: Make) -> None:
    projection = make(WeightedEmbedder())
    r = note("The customer prefers weekend delivery")
    other = note("Refunds go through customs")
    projection.upsert([r, other])
    hits = projection.search("weekend delivery", filters(), 5)
    assert hits[0].memory_id == r.memory_id
    assert hits[0].keyword_rank == 1
    assert hits[0].vector_rank == 1
    assert hits[0].vector_score is not None
    assert 0 < hits[0].score <= 1
    assert all(h.vector_score is not None for h in hits)


def test_scan_reads_every_row_of_the_namespaces(projection: Projection) -> None:
    a = note("first note")
    b = note("second note", namespace=OTHER_NS)
    projection.upsert([a, b])
    wide = filters(statuses=None, valid_at=None, not_expired_at=None)
    assert dict(projection.scan(wide)) == {a.memory_id: "first note"}
    both = filters(namespaces=(NS, OTHER_NS))
    assert dict(projection.scan(both)) == {a.memory_id: "first note", b.memory_id: "second note"}
    assert list(projection.scan(filters(namespaces=()))) == []


def test_at_places_finds_the_rows_said_there(projection: Projection) -> None:
    first = note("Did you travel last spring?", source_refs=["msg://t1/1"])
    second = note("Yes, last May!", source_refs=["msg://t1/2"])
    elsewhere = note("Yes, last May!", source_refs=["msg://t2/2"])
    unplaced = note("no place", source_refs=["tool://crm/1"])
    hidden = note("a restricted turn", source_refs=["msg://t1/3"], sensitivity="restricted")
    projection.upsert([first, second, elsewhere, unplaced, hidden])
    hits = projection.at_places([(NS, "t1", 2), (NS, "t1", 3), (NS, "t3", 1)], filters())
    assert ids(hits) == {second.memory_id, hidden.memory_id}
    assert all(h.vector is not None for h in hits)
    ceiling = filters(max_sensitivity="internal")
    assert ids(projection.at_places([(NS, "t1", 2), (NS, "t1", 3)], ceiling)) == {second.memory_id}
    assert projection.at_places([], filters()) == []


# ---------------------------------------------------------------------------- repair's reads


def test_rows_in_order_pages_by_memory_id(projection: Projection) -> None:
    records = [note(f"note number {i}", memory_id=f"mem_{i:03d}") for i in range(7)]
    projection.upsert(records)
    everything = projection.rows_in_order(None, None, 100)
    assert list(everything) == [f"mem_{i:03d}" for i in range(7)]
    assert everything["mem_002"].version == 1
    assert list(projection.rows_in_order("mem_001", "mem_004", 100)) == [
        "mem_002",
        "mem_003",
        "mem_004",
    ]
    assert list(projection.rows_in_order("mem_001", None, 2)) == ["mem_002", "mem_003"]
    projection.remove(["mem_003"], [2])
    assert list(projection.rows_in_order("mem_001", "mem_004", 100)) == ["mem_002", "mem_004"]


def test_rows_written_after_a_mark_in_write_order(projection: Projection) -> None:
    a, b = note("first"), note("second")
    projection.upsert([a])
    mark = projection.last_written()
    projection.upsert([b])
    a2 = a.model_copy(update={"version": 2, "content_hash": "h2"})
    projection.upsert([a2])
    after = projection.rows_written_after(mark, 100)
    assert [m for _, m in after] == [b.memory_id, a.memory_id]
    assert after[0][0] < after[1][0] <= projection.last_written()
    assert [m for _, m in projection.rows_written_after(mark, 1)] == [b.memory_id]
    assert projection.rows_written_after(projection.last_written(), 100) == []


def test_expired_rows_until_removed(projection: Projection) -> None:
    soon = note("expires soon", expires_at=T0 + timedelta(minutes=5))
    later = note("expires later", expires_at=T0 + timedelta(days=5))
    never = note("never expires")
    projection.upsert([soon, later, never])
    at = T0 + timedelta(hours=1)
    assert projection.expired_rows(at, 10) == [soon.memory_id]
    assert set(projection.expired_rows(T0 + timedelta(days=6), 10)) == {
        soon.memory_id,
        later.memory_id,
    }
    projection.remove([soon.memory_id], [soon.version])
    assert projection.expired_rows(at, 10) == []


def test_repair_compares_canonical_and_projection(
    projection: Projection, canonical: CanonicalStore
) -> None:
    records = [note(f"note {i}") for i in range(4)]
    add(canonical, *records)
    project(canonical, projection, [r.memory_id for r in records])
    stores = Stores(canonical, projection, HashedNgramEmbedder(), load_policy())
    at = T0 + timedelta(hours=1)
    assert compare(stores, at) == []
    lost, orphan = records[0], note("never committed")
    projection.remove([lost.memory_id])
    projection.upsert([orphan])
    found = dict(compare(stores, at))
    assert found == {lost.memory_id: "missing", orphan.memory_id: "orphan"}


def test_the_epoch_is_stable_while_the_index_lives(make: Make) -> None:
    first = make()
    epoch = first.epoch
    assert epoch
    assert first.epoch == epoch
    second = make()  # another process on the same index
    assert second.epoch == epoch
