"""An export written as it is read, page by page: the API's `GET /v1/export` and the memory
page's download. Nothing here reads the store by itself: it writes the pages it is handed
(`Access.export_pages`, whose caller was proven and whose ACL was checked before the first
byte), from sync generators, so that Starlette iterates them in its threadpool and the event
loop never waits for a page.

- `document`: the same JSON document as `MemoryExport` (`namespace`, `exported_at`,
  `exported_by`, `next`, `memories`, `versions`), in two passes over the namespace's pages:
  the memories first, then their versions (only of the memories the first pass wrote; a memory
  written in between is in neither). It holds the memory ids of the namespace, never its
  records.
- `ndjson`: one pass, one line per memory (`{"memory": …, "versions": […]}`) after a first line
  that says whose export it is (`{"namespace", "exported_at", "exported_by"}`).

Exports take turns (`taking_turns`): at most `api_export_concurrency` of them (default 1) read
and write a page at a time in a process, so ten exports in flight leave the rest of the API
(another caller's recall) its share of the CPU and the GIL instead of queueing behind them.

Once the first byte is sent the status is 200: a failure later (the store gone away) cuts the
stream short, and the document does not parse. Page with `?after=&limit=` to resume.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

from pydantic import TypeAdapter

from governed_memory.memory.models import MemoryRecord
from governed_memory.memory.services.access import MemoryExport

NDJSON = "application/x-ndjson"
T = TypeVar("T")
#: Memories a streamed export reads and writes per turn: small enough that a turn holds the
#: GIL briefly (another caller waits less), large enough that its SQL stays cheap.
STREAM_PAGE = 100

# One serializer call a page (not one a record): the same JSON as the records' own.
_RECORDS = TypeAdapter(list[MemoryRecord])
_VERSIONS = TypeAdapter(dict[str, list[MemoryRecord]])
_LINE = TypeAdapter(dict[str, MemoryRecord | list[MemoryRecord]])


def _header(first: MemoryExport) -> dict[str, object]:
    """Whose export it is, as the document's first fields (the first page's time and reader)."""
    return first.model_dump(mode="json", include={"namespace", "exported_at", "exported_by"})


def document(
    first: MemoryExport, memories: Iterator[MemoryExport], versions: Iterator[MemoryExport]
) -> Iterator[bytes]:
    """The export as one JSON document: `first` (the first page of `memories`, read before the
    response started), the rest of `memories` (pages without versions), then `versions` (the
    same pages again, with their versions)."""
    head = json.dumps({**_header(first), "next": None})
    yield (head[:-1] + ', "memories": [').encode()
    seen: set[str] = set()
    separator = b""
    for page in _chain(first, memories):
        if page.memories:
            yield separator + _RECORDS.dump_json(page.memories)[1:-1]
            separator = b","
            seen.update(m.memory_id for m in page.memories)
    yield b'], "versions": {'
    separator = b""
    for page in versions:
        kept = {mid: vs for mid, vs in page.versions.items() if mid in seen}
        if kept:
            yield separator + _VERSIONS.dump_json(kept)[1:-1]
            separator = b","
    yield b"}}"


def ndjson(first: MemoryExport, pages: Iterator[MemoryExport]) -> Iterator[bytes]:
    """The export as NDJSON: whose it is, then each memory with its versions, a line each."""
    yield (json.dumps(_header(first)) + "\n").encode()
    for page in _chain(first, pages):
        if page.memories:
            yield b"".join(
                _LINE.dump_json({"memory": m, "versions": page.versions[m.memory_id]}) + b"\n"
                for m in page.memories
            )


def _chain(first: MemoryExport, rest: Iterator[MemoryExport]) -> Iterator[MemoryExport]:
    yield first
    yield from rest


def in_turn(turns: threading.Semaphore, work: Callable[[], T]) -> T:
    """`work` (a page read before the response starts) when it is this export's turn."""
    with turns:
        return work()


def taking_turns(chunks: Iterator[bytes], turns: threading.Semaphore) -> Iterator[bytes]:
    """`chunks`, each produced (its page read and serialized) only while holding a turn; the
    turn is given back before the chunk is sent, so a slow reader holds none."""
    while True:
        with turns:
            chunk = next(chunks, None)
        if chunk is None:
            return
        yield chunk
