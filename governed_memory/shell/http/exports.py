"""Exports: everything kept about a namespace, streamed as it is read, or one page of it.

Plain `def`: the caller is proven, the ACL checked and the first page read in the threadpool
before the response starts (a refusal is a problem detail, never a cut stream); the rest is
written from a sync generator that Starlette iterates in the threadpool (shell/http/streams.py).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse

from governed_memory.memory.services.access import EXPORT_PAGE, MAX_EXPORT_PAGE, MemoryExport
from governed_memory.shell.http import streams
from governed_memory.shell.http.deps import Caller_, own_namespace

router = APIRouter(prefix="/v1", tags=["reads"])


@router.get(
    "/export",
    response_model=MemoryExport,
    responses={200: {"content": {streams.NDJSON: {}}}},
)
def export(
    request: Request,
    s: Caller_,
    namespace: Annotated[str | None, Query()] = None,
    after: Annotated[str | None, Query(max_length=256)] = None,
    limit: Annotated[int | None, Query(ge=1, le=MAX_EXPORT_PAGE)] = None,
) -> Response:
    """Everything kept about a namespace as JSON (default: the caller's own): each memory's
    current state and its versions, in memory id order, streamed as it is read.

    - With `after` or `limit`: one page, at most `limit` (default 500, at most 1000) memories
      after the memory id `after`, with their versions; its `next` is the `after` of the next
      page (null on the last). Each memory is on exactly one page.
    - With `Accept: application/x-ndjson`: a line saying whose export it is, then one line per
      memory, `{"memory": …, "versions": […]}`."""
    ns = namespace or own_namespace(s)
    if after is not None or limit is not None:
        page = s.client.export_page(s.ref, ns, after, limit or EXPORT_PAGE)
        return Response(page.model_dump_json(), media_type="application/json")
    turns = request.app.state.export_turns
    if streams.NDJSON in request.headers.get("accept", ""):
        pages = s.client.export_pages(s.ref, ns, limit=streams.STREAM_PAGE)
        first = streams.in_turn(turns, lambda: next(pages))
        return StreamingResponse(
            streams.taking_turns(streams.ndjson(first, pages), turns), media_type=streams.NDJSON
        )
    memories = s.client.export_pages(s.ref, ns, limit=streams.STREAM_PAGE, versions=False)
    versions = s.client.export_pages(s.ref, ns, limit=streams.STREAM_PAGE)
    first = streams.in_turn(turns, lambda: next(memories))
    return StreamingResponse(
        streams.taking_turns(streams.document(first, memories, versions), turns),
        media_type="application/json",
    )
