"""The collector a started process of the service runs with (`shell.heap`), and the recall
bench that measures it beside CPython's default on a small store."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from governed_memory.memory.settings import Settings
from governed_memory.shell import heap


@pytest.fixture
def collector() -> Iterator[None]:
    """Whatever a test does to the collector, this process gets its own back."""
    threshold = gc.get_threshold()
    frozen = gc.get_freeze_count()
    yield
    if not frozen:
        gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settling_freezes_what_is_alive_and_makes_young_passes_rarer(collector: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    heap.settle()  # the modules this process imported, at least, are alive
    assert gc.get_threshold() == (heap.YOUNG, 10, 10)
    assert gc.get_freeze_count() > 10_000


def test_unsettled_is_cpythons_collector_and_settles_again_after(collector: None) -> None:
    heap.settle()
    settled = gc.get_threshold()
    with heap.unsettled():
        assert gc.get_threshold() == heap._DEFAULT
        assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == settled
    assert gc.get_freeze_count() > 10_000


def test_unsettled_leaves_an_unsettled_process_as_it_found_it(collector: None) -> None:
    gc.unfreeze()
    with heap.unsettled():
        pass
    assert gc.get_freeze_count() == 0


def test_the_recall_bench_measures_the_settled_collector_beside_cpythons(collector: None) -> None:
    from governed_memory.shell.bench.recall import bench_recall

    result = bench_recall([300], queries=8, tenants=2)["300"]
    for series in ("alone", "isolated", "isolated_default_gc", "alone_k200"):
        assert result[series]["recall"]["p95_ms"] > 0, series
    assert result["other_tenants"] == {
        "tenants": 2,
        "rows_each": 300,
        "load_seconds": result["other_tenants"]["load_seconds"],
    }


def test_a_worker_process_is_told_whether_to_settle() -> None:
    """Settled by default; `MEMORY_GC_SETTLE=false` reaches a worker process the bench or a
    fault test starts, and reads back as false there."""
    from governed_memory.shell.worker import worker_environment

    assert Settings().gc_settle is True
    for settle in (True, False):
        env = worker_environment(Settings(gc_settle=settle), "127.0.0.1:7233", "k", inherit=False)
        assert env["MEMORY_GC_SETTLE"] == str(settle).lower()
        assert Settings.model_validate({"gc_settle": env["MEMORY_GC_SETTLE"]}).gc_settle is settle


def test_a_started_process_settles_unless_told_not_to(collector: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    heap.started(Settings(gc_settle=False))
    assert (gc.get_threshold(), gc.get_freeze_count()) == ((700, 10, 10), 0)
    heap.started(Settings(gc_settle=True))
    assert gc.get_threshold() == (heap.YOUNG, 10, 10)
    assert gc.get_freeze_count() > 10_000
