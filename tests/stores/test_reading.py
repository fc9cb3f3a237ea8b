"""`Database.reading()`: every read of a block on one connection (a batch's decisions read the
store a dozen times each), in that thread only, and none after the block."""

from __future__ import annotations

import threading

from governed_memory.memory.stores import Stores


def test_a_block_reads_on_one_connection_and_only_its_own(stores: Stores) -> None:
    db = stores.canonical.db
    with db.read() as a, db.read() as b:
        assert a is not b  # outside a block: a connection each
    other: list[object] = []
    with db.reading(), db.read() as first, db.read() as second:
        assert first is second
        with db.reading(), db.read() as nested:  # a block inside a block: the same
            assert nested is first

        def elsewhere() -> None:
            with db.read() as c:
                other.append(c)

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        assert other
        assert other[0] is not first
        held = first
    with db.read() as after:
        assert after is not held
    # what was committed before the block is what the block reads
    assert stores.canonical.records.namespace_heads("tenant/none/user/x") == []
