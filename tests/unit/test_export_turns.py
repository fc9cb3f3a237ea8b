"""Exports take turns (shell/http/streams.py): however many stream at once, no more than the
turns produce a chunk at a time, each gets every chunk, and a turn is not held while a chunk
waits to be sent."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from governed_memory.shell.http.streams import in_turn, taking_turns


def test_no_more_exports_than_turns_work_at_once() -> None:
    turns = threading.BoundedSemaphore(2)
    lock = threading.Lock()
    working = 0
    most = 0

    def chunks(name: str) -> Iterator[bytes]:
        nonlocal working, most
        for i in range(20):
            with lock:
                working += 1
                most = max(most, working)
            time.sleep(0.001)  # reading a page
            with lock:
                working -= 1
            yield f"{name}{i},".encode()

    got: dict[str, bytes] = {}

    def consume(name: str) -> None:
        got[name] = b"".join(taking_turns(chunks(name), turns))

    threads = [threading.Thread(target=consume, args=(f"e{n}",)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 2
    for n in range(6):
        assert got[f"e{n}"] == b"".join(f"e{n}{i},".encode() for i in range(20))


def test_a_turn_is_given_back_between_chunks() -> None:
    turns = threading.BoundedSemaphore(1)
    stream = taking_turns(iter([b"a", b"b"]), turns)
    assert next(stream) == b"a"
    # the consumer holds a chunk: another export can take the turn meanwhile
    assert in_turn(turns, lambda: "other") == "other"
    assert list(stream) == [b"b"]
    assert turns.acquire(blocking=False)
