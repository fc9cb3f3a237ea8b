"""The memory page: a person sees, corrects, exports and deletes what is remembered about them.

Served by the HTTP API, as plain HTML forms: no JavaScript, no build step. A person signs in
with a token link (`/page/login?token=…`, from `memctl token issue user:shop-a/123` or the
identity provider); the token then lives in an HttpOnly, SameSite=Strict cookie, so another site
can neither read it nor post the page's forms with it. Every action goes through the same API
operations, under the person's own token:

- `/page`: each memory kept about them, with its source, validity, who wrote it and when;
- `/page/memories/{id}`: its history, version by version;
- correcting a value writes a user assertion through the whole write pipeline;
- deleting one memory or everything runs DeleteSubject and shows the receipt;
- `/page/export`: everything, as a JSON download.
"""

from __future__ import annotations

import html
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse

from memory.errors import MemoryServiceError
from memory.models import DeletionReceipt, MemoryRecord
from shell.api import SESSION_COOKIE, CorrectionBody, Session, correction, session
from shell.api import _own as own_namespace

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:14px 28px;display:flex;justify-content:space-between}
header a{color:#cfe0ff}
main{max-width:980px;margin:24px auto;padding:0 20px}
table{width:100%;border-collapse:collapse;background:#fff;box-shadow:0 1px 3px #0002}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid #e3e6ea;vertical-align:top}
th{background:#eef1f5;font-weight:600}
.tag{display:inline-block;padding:1px 7px;border-radius:9px;background:#e4ecff;font-size:12px}
.status-active{background:#dff5e3}.status-invalidated,.status-expired{background:#f3e6d6}
.status-deleted{background:#f6d9d9}.status-quarantined{background:#fbeec1}
form.inline{display:inline}
input[type=text]{padding:4px 6px;width:14em}
button{padding:4px 10px;border:1px solid #8895a7;border-radius:4px;background:#fff;cursor:pointer}
button.danger{border-color:#b23b3b;color:#b23b3b}
.receipt{background:#fff;padding:16px 20px;box-shadow:0 1px 3px #0002}
.error{background:#fde8e8;border:1px solid #e0a0a0;padding:12px 16px}
code{background:#eef1f5;padding:1px 4px;border-radius:3px}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _page(title: str, body: str, who: str | None = None) -> HTMLResponse:
    signed = (
        f'<span>{_e(who)} · <a href="/page/export">export</a> · '
        f'<a href="/page/logout">sign out</a></span>'
        if who
        else ""
    )
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        f'<header><strong><a href="/page" style="color:#fff;text-decoration:none">'
        f"What is remembered about you</a></strong>{signed}</header>"
        f"<main><h1>{_e(title)}</h1>{body}</main></body></html>",
        headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY"},
    )


def _value(m: MemoryRecord) -> str:
    if m.structured_value:
        return _e(json.dumps(m.structured_value, ensure_ascii=False))
    return _e(m.content)


def _validity(m: MemoryRecord) -> str:
    start = f"{m.valid_from:%Y-%m-%d %H:%M}" if m.valid_from else "—"
    end = f"{m.valid_to:%Y-%m-%d %H:%M}" if m.valid_to else "now"
    expiry = f"<br><small>expires {m.expires_at:%Y-%m-%d}</small>" if m.expires_at else ""
    return f"{start} → {end}{expiry}"


def _row(m: MemoryRecord) -> str:
    mid = _e(m.memory_id)
    correct = (
        f'<form class=inline method=post action="/page/memories/{mid}/correct">'
        f'<input type=text name=value aria-label="corrected value for {mid}" '
        f'placeholder="corrected value"> <button>Correct</button></form>'
        if m.status == "active"
        else ""
    )
    return (
        f'<tr data-memory="{mid}"><td><a href="/page/memories/{mid}">{_e(m.key or m.kind)}</a>'
        f"<br><small>{_e(m.kind)}</small></td>"
        f"<td>{_value(m)}</td>"
        f'<td><span class="tag status-{_e(m.status)}">{_e(m.status)}</span></td>'
        f"<td>{_e(m.source_type)}<br><small>{_e(', '.join(m.source_refs))}</small></td>"
        f"<td>{_validity(m)}</td>"
        f"<td>{_e(m.written_by)}<br><small>{m.recorded_at:%Y-%m-%d %H:%M}</small></td>"
        f"<td>{correct}"
        f'<form class=inline method=post action="/page/memories/{mid}/delete">'
        f'<button class=danger aria-label="delete {mid}">Delete</button></form></td></tr>'
    )


def _receipt(r: DeletionReceipt) -> str:
    probes = "".join(
        f"<tr><td>{_e(p.probe)}</td><td>{'passed' if p.passed else 'FAILED'}</td></tr>"
        for p in r.probes
    )
    return (
        f"<div class=receipt id=receipt><p>Deletion <code>{_e(r.deletion_id)}</code>: "
        f'<strong data-status="{_e(r.verification_status)}">{_e(r.verification_status)}'
        f"</strong></p><ul><li>memories erased: {r.canonical_records}</li>"
        f"<li>versions erased: {r.versions_erased}</li>"
        f"<li>messages erased: {r.messages_erased}</li>"
        f"<li>summaries regenerated: {r.summaries_regenerated}</li>"
        f"<li>indexes cleaned: {_e(', '.join(r.indexes_removed) or '—')}</li>"
        f"<li>Temporal runs deleted: {r.temporal_runs_deleted}</li>"
        f"<li>backups keep it until: {_e(r.backup_retention_deadline)}</li></ul>"
        + (f"<table><tr><th>read path</th><th>result</th></tr>{probes}</table>" if probes else "")
        + '<p><a href="/page">back to your memories</a></p></div>'
    )


def signed_in(request: Request) -> Session | None:
    """The signed-in person, or None (the page then asks to sign in)."""
    try:
        return session(request)
    except MemoryServiceError:
        return None


Who = Annotated[Session | None, Depends(signed_in)]


def page_router() -> APIRouter:
    router = APIRouter(prefix="/page", include_in_schema=False)

    def sign_in_page(message: str = "") -> HTMLResponse:
        note = f"<p class=error>{_e(message)}</p>" if message else ""
        return _page(
            "Sign in",
            note + "<p>Open the sign-in link you were given (it ends in "
            "<code>/page/login?token=…</code>).</p>",
        )

    @router.get("/login")
    async def login(request: Request, token: Annotated[str, Query()]) -> Response:
        try:
            request.scope["headers"] = [
                *request.scope["headers"],
                (b"authorization", f"Bearer {token}".encode()),
            ]
            session(Request(request.scope))
        except MemoryServiceError as exc:
            return sign_in_page(f"This sign-in link does not work: {exc.message}")
        response = RedirectResponse("/page", status_code=303)
        response.set_cookie(
            SESSION_COOKIE, token, httponly=True, samesite="strict", path="/", max_age=3600
        )
        return response

    @router.get("/logout")
    async def logout() -> Response:
        response = RedirectResponse("/page", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @router.get("")
    async def home(who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            own = who.caller.principal.own_namespace
            if own is None:
                return _page("Not a person", "<p>This page is for users.</p>", who.ref)
            kept = [m for m in who.client.export(who.ref, own).memories if m.status != "deleted"]
        except MemoryServiceError as exc:
            return _page("Error", f"<p class=error>{_e(exc.message)}</p>", who.ref)
        kept.sort(key=lambda m: m.recorded_at, reverse=True)
        rows = "".join(_row(m) for m in kept) or (
            "<tr><td colspan=7 id=empty>Nothing is remembered about you.</td></tr>"
        )
        body = (
            f"<p>{len(kept)} memories about you in <code>{_e(own)}</code>.</p>"
            "<table id=memories><tr><th>what</th><th>value</th><th>status</th><th>source</th>"
            f"<th>valid</th><th>written by</th><th></th></tr>{rows}</table>"
            '<p><form method=post action="/page/delete-all">'
            "<button class=danger id=delete-all>Delete everything about me</button></form></p>"
        )
        return _page("Your memories", body, who.ref)

    @router.get("/memories/{memory_id}")
    async def history(memory_id: str, who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            versions = who.client.history(who.ref, memory_id)
        except MemoryServiceError as exc:
            return _page("Not found", f"<p class=error>{_e(exc.message)}</p>", who.ref)
        rows = "".join(
            f"<tr><td>{v.version}</td><td>{_value(v)}</td><td>{_e(v.status)}</td>"
            f"<td>{_e(v.source_type)}</td><td>{_validity(v)}</td><td>{_e(v.written_by)}</td>"
            f"<td>{v.recorded_at:%Y-%m-%d %H:%M}</td></tr>"
            for v in versions
        )
        body = (
            "<table id=history><tr><th>version</th><th>value</th><th>status</th><th>source</th>"
            f"<th>valid</th><th>written by</th><th>recorded</th></tr>{rows}</table>"
            '<p><a href="/page">back</a></p>'
        )
        return _page(f"History of {memory_id}", body, who.ref)

    @router.post("/memories/{memory_id}/correct")
    async def correct(memory_id: str, value: Annotated[str, Form()], who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            head = who.client.history(who.ref, memory_id)[-1]
            structured = _corrected(head, value)
            body = CorrectionBody(
                memory_id=memory_id,
                structured_value=structured,
                content=value if structured is None else f"{head.key}: {value}",
            )
            result = await who.client.write(who.ref, _own(who), correction(who, body))
        except MemoryServiceError as exc:
            return _page("Not corrected", f"<p class=error>{_e(exc.message)}</p>", who.ref)
        o = result.outcome
        return _page(
            "Correction recorded",
            f"<p id=outcome>{_e(o.decision)} ({_e(o.relation or '')}"
            f"{', ' + _e(o.reason) if o.reason else ''})</p><p><a href=/page>back</a></p>",
            who.ref,
        )

    @router.post("/memories/{memory_id}/delete")
    async def delete_one(memory_id: str, who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            receipt = await who.client.forget(
                who.ref, {"namespace": _own(who), "memory_id": memory_id}
            )
        except MemoryServiceError as exc:
            return _page("Not deleted", f"<p class=error>{_e(exc.message)}</p>", who.ref)
        return _page("Deleted", _receipt(receipt), who.ref)

    @router.post("/delete-all")
    async def delete_all(who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            receipt = await who.client.forget(who.ref, {"namespace": _own(who)})
        except MemoryServiceError as exc:
            return _page("Not deleted", f"<p class=error>{_e(exc.message)}</p>", who.ref)
        return _page("Everything deleted", _receipt(receipt), who.ref)

    @router.get("/export")
    async def export(who: Who) -> Response:
        if who is None:
            return sign_in_page()
        data = who.client.export(who.ref, _own(who))
        return Response(
            data.model_dump_json(indent=2),
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="my-memories.json"'},
        )

    return router


def _own(who: Session) -> str:
    return own_namespace(who)


def _corrected(head: MemoryRecord, value: str) -> dict[str, Any] | None:
    """The structured value a corrected text means for the memory's shape: the one field of a
    profile value (`{"channel": "sms"}` → `{"channel": value}`), else None (a text)."""
    if head.structured_value and len(head.structured_value) == 1:
        (field,) = head.structured_value
        return {field: value.strip()}
    if head.structured_value and "value" in head.structured_value:
        return {**head.structured_value, "value": value.strip()}
    return None
