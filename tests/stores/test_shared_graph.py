"""The shared graph (the graph projection in the canonical database, for deployments whose
projection keeps none), on SQLite and Postgres: derived by version, never brought back by a late
write of a removed version, replaced by a newer version, stale to the repair once dropped, and
read only through the heads the reader may read."""

from __future__ import annotations

import pytest

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.memory.stores.projection.shared_graph import GraphedProjection
from governed_memory.shell.bench.data import load
from tests.factories import record, search_filters

OTHER_NS = "tenant/shop-a/user/456"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"graph": "shared"})


def _graph(stores: Stores) -> GraphedProjection:
    assert isinstance(stores.projection, GraphedProjection)
    assert "graph" in stores.projection.indexes
    assert stores.projection.base.indexes == ("vector", "search")  # no second graph
    return stores.projection


def _keys(graph: GraphedProjection, memory_id: str, **over: object) -> set[str]:
    named = graph.entities_of([memory_id], search_filters(**over)).get(memory_id, [])
    return {e.key for e in named}


def _said(content: str, **over: object) -> MemoryRecord:
    return record(kind="semantic", key=None, structured_value=None, content=content, **over)


def test_a_removed_version_never_comes_back_and_a_newer_one_replaces_it(stores: Stores) -> None:
    graph = _graph(stores)
    first = _said("Every December a parcel goes to my sister Anna in Leeds.")
    load(stores, [first])
    memory_id = first.memory_id
    assert {"anna", "leeds", "role:sister"} <= _keys(graph, memory_id)
    assert graph.state([memory_id])[memory_id].graph

    newer = first.model_copy(update={"version": 2, "content": "My sister Anna moved to Porto."})
    graph.upsert([newer])
    assert "porto" in _keys(graph, memory_id)
    assert "leeds" not in _keys(graph, memory_id)  # what the older version said is gone
    graph.upsert([first])  # a late, older write changes nothing
    assert "leeds" not in _keys(graph, memory_id)

    graph.remove([memory_id], [2])
    assert graph.graph_leftovers() == 0
    assert graph.shared.counts()["graph_mentions"] == 0
    graph.upsert([newer])  # a late write of the removed version brings nothing back
    assert graph.shared.counts()["graph_mentions"] == 0


def test_a_dropped_graph_is_stale_to_the_repair_until_derived_again(stores: Stores) -> None:
    graph = _graph(stores)
    memory = _said("Oskar studies at Lund University.")
    load(stores, [memory])
    memory_id = memory.memory_id
    epoch = graph.epoch
    graph.drop_graph()
    assert graph.epoch != epoch  # the next repair compares everything
    assert not graph.state([memory_id])[memory_id].graph
    assert _keys(graph, memory_id) == set()
    graph.upsert([memory])
    assert graph.state([memory_id])[memory_id].graph
    assert "lund university" in _keys(graph, memory_id)
    assert "oskar" not in _keys(graph, memory_id)  # opens a sentence, nowhere else a name


def test_reads_go_through_the_heads_the_reader_may_read(stores: Stores) -> None:
    graph = _graph(stores)
    mine = _said("My colleague Ben Novak lives in Leeds.")
    theirs = _said("Ben Novak lent me a ladder.", namespace=OTHER_NS, subject_ref="user:456")
    secret = _said("Ben Novak owes me money.", sensitivity="restricted")
    load(stores, [mine, theirs, secret])
    wide = search_filters(namespaces=(OTHER_NS, "tenant/shop-a/user/123"))
    own = search_filters(max_sensitivity="confidential")
    reached = graph.mentioning(["ben novak"], own, max_degree=10, limit=10)
    assert {r.memory_id for r in reached} == {mine.memory_id}
    both = graph.mentioning(["ben novak"], wide, max_degree=10, limit=10)
    assert len(both) == 3
    view = graph.entity("ben novak", own, 10)
    assert view.memory_ids == [mine.memory_id]
    assert graph.top_entities(own, 5)[:1] in (["ben novak"], ["leeds"])


def test_a_database_error_never_says_the_values_it_was_given(stores: Stores) -> None:
    """A failed statement's error (logged, and an activity's failure message in workflow
    history) names no bound value: the words stay in the database."""
    import sqlalchemy as sa

    marker = "Zqerrormarker who lives in Leeds"
    insert = sa.text("INSERT INTO graph_epoch (id, epoch) VALUES (7, :epoch)")
    with stores.canonical.engine.begin() as conn:
        conn.execute(insert, {"epoch": marker})
    with pytest.raises(sa.exc.IntegrityError) as failed, stores.canonical.engine.begin() as conn:
        conn.execute(insert, {"epoch": marker})
    assert "Zqerrormarker" not in str(failed.value)
    assert "Zqerrormarker" not in repr(failed.value)
