"""The memory page: a person sees, corrects, exports and deletes what is remembered about them.

Served by the HTTP API, as plain HTML forms: no JavaScript, no build step (the app mounts
`page_router`; this module imports who calls, shell/http/deps.py, and the bodies, never the app
or its routers). A person signs in by posting their token (from `memctl token issue
user:shop-a/123` or the identity provider) to the sign-in form: a token never travels in a URL,
so it is in no history, log or `Referer`. The token then lives in an HttpOnly, SameSite=Strict
cookie that only the page's paths read (the API takes bearer tokens only). Every action goes
through the same API operations, under the person's own token:

- `/page`: each memory kept about them, with its source, validity, who wrote it and when;
- `/page/memories/{id}`: its history, version by version;
- correcting a value writes a user assertion through the whole write pipeline;
- deleting one memory or everything runs DeleteSubject and shows the receipt;
- `/page/export`: everything, as a JSON download (written as it is read: shell/http/streams.py).

SameSite does not tell one port or subdomain of a site from another, so every request that
changes something (sign-in, sign-out, correct, delete) must come from the page itself:

- its `Origin` (lacking one, its `Referer`) is the service's own origin (`MEMORY_API_ORIGINS`,
  or the scheme and Host the request names), and its `Sec-Fetch-Site`, when the browser sends
  one, is `same-origin`;
- and, once signed in, it carries the session's CSRF token, which each form holds: an HMAC of
  the session token (keyed with the token itself, which no other page can read: nothing to
  configure or share between replicas).

Anything else is refused with a problem detail (`cross_origin_request`, `csrf_token_invalid`,
403) before it is read, and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import html
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse, StreamingResponse

from governed_memory.memory import wording
from governed_memory.memory.errors import (
    CrossOriginRequest,
    CsrfTokenInvalid,
    MemoryServiceError,
    RateLimited,
    Unauthenticated,
)
from governed_memory.memory.models import DeletionReceipt, EntityView, MemoryRecord
from governed_memory.shell.http import streams
from governed_memory.shell.http.bodies import CorrectionBody, correction
from governed_memory.shell.http.deps import SESSION_COOKIE, Session, authenticate, own_namespace

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
.said{color:#5a6372;font-size:13px}
.confirm{background:#fff;padding:16px 20px;border:2px solid #b23b3b}
@media (max-width:640px){
 header{flex-direction:column;gap:6px;padding:12px 16px}
 main{margin:12px auto;padding:0 12px}
 table,tbody,tr,td{display:block;width:auto}
 table{box-shadow:none;background:none}
 tr:first-child:has(th){display:none}
 tr{background:#fff;box-shadow:0 1px 3px #0002;margin:0 0 12px;padding:6px 0}
 td{border:none;padding:4px 12px}
 td[data-label]::before{content:attr(data-label);display:block;font-size:12px;color:#5a6372}
 input[type=text]{width:60%}
}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


#: What a page may load and where its forms may go: nothing but its own inline style and itself.
POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
#: The form field that carries the session's CSRF token.
CSRF_FIELD = "csrf"


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: an HMAC keyed with the session's own token, which only the
    page's requests carry (HttpOnly) — no other site can compute it."""
    return hmac.new(
        session_token.encode("utf-8"), b"memory-page/csrf/v1", hashlib.sha256
    ).hexdigest()


def _csrf_input(who: Session) -> str:
    return f'<input type=hidden name={CSRF_FIELD} value="{csrf_token(who.token)}">'


def _page(title: str, body: str, who: Session | None = None, *, status: int = 200) -> HTMLResponse:
    signed = (
        f'<span>{_e(who.ref)} · <a href="/page/export">export</a> · '
        '<form class=inline method=post action="/page/logout">'
        f"{_csrf_input(who)}<button id=sign-out>sign out</button></form></span>"
        if who
        else ""
    )
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        f'<header><strong><a href="/page" style="color:#fff;text-decoration:none">'
        f"What is remembered about you</a></strong>{signed}</header>"
        f"<main><h1>{_e(title)}</h1>{body}</main></body></html>",
        status_code=status,
        headers={
            "Cache-Control": "no-store",
            "X-Frame-Options": "DENY",
            "Content-Security-Policy": POLICY,
            "Referrer-Policy": "same-origin",
            "X-Content-Type-Options": "nosniff",
        },
    )


def _value(m: MemoryRecord) -> str:
    """What it says, as a sentence, and (small) the words it came from when they differ."""
    said = wording.sentence(m)
    quote = (
        f"<br><span class=said>from: “{_e(m.content)}”</span>"
        if m.content and m.content != said
        else ""
    )
    return _e(said) + quote


def _validity(m: MemoryRecord) -> str:
    start = f"{m.valid_from:%Y-%m-%d}" if m.valid_from else "—"
    end = f"until {m.valid_to:%Y-%m-%d}" if m.valid_to else "until now"
    expiry = f"<br><small>forgotten on {m.expires_at:%Y-%m-%d}</small>" if m.expires_at else ""
    return f"since {start}, {end}{expiry}"


def _by(m: MemoryRecord, who: Session) -> str:
    return "you" if m.written_by == who.ref else _e(m.written_by)


def _row(m: MemoryRecord, who: Session) -> str:
    mid = _e(m.memory_id)
    csrf = _csrf_input(who)
    correct = (
        f'<form class=inline method=post action="/page/memories/{mid}/correct">{csrf}'
        f'<input type=text name=value aria-label="the right value" '
        f'placeholder="the right value"> <button>Correct</button></form> '
        if m.status == "active"
        else ""
    )
    held = (
        f'<br><span class="tag status-{_e(m.status)}">{_e(wording.status(m))}</span>'
        if m.status != "active"
        else ""
    )
    return (
        f'<tr data-memory="{mid}">'
        f'<td data-label="about"><a href="/page/memories/{mid}">{_e(wording.topic(m))}</a>'
        f"{held}</td>"
        f'<td data-label="remembered">{_value(m)}</td>'
        f'<td data-label="source">{_e(wording.source(m))}<br>'
        f"<small>written by {_by(m, who)}, {m.recorded_at:%Y-%m-%d}</small></td>"
        f'<td data-label="valid">{_validity(m)}</td>'
        f"<td>{correct}"
        f'<form class=inline method=post action="/page/memories/{mid}/delete">{csrf}'
        f'<button class=danger aria-label="delete {_e(wording.topic(m))}">Delete</button>'
        "</form></td></tr>"
    )


def _earlier_row(m: MemoryRecord) -> str:
    mid = _e(m.memory_id)
    return (
        f'<tr data-earlier="{mid}">'
        f'<td data-label="about"><a href="/page/memories/{mid}">{_e(wording.topic(m))}</a></td>'
        f'<td data-label="was">{_value(m)}</td>'
        f'<td data-label="now">{_e(wording.status(m))}</td>'
        f'<td data-label="valid">{_validity(m)}</td></tr>'
    )


def _known(views: list[EntityView]) -> str:
    """What is known about the people, places and things your memories name: each line cites
    the memory it comes from (its history page)."""
    if not views:
        return ""
    items = []
    for v in views:
        name = max(v.names, key=lambda n: v.names[n]) if v.names else v.key
        said = "".join(
            f'<li>{_e(m.content)} <a href="/page/memories/{_e(m.memory_id)}">source</a></li>'
            for m in v.memories[:5]
        )
        items.append(f"<li><strong>{_e(name)}</strong><ul>{said}</ul></li>")
    return f"<h2>What is known about</h2><ul id=known>{''.join(items)}</ul>"


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
        f"<li>backups keep it until: {_e(r.backup_retention_deadline)}</li>"
        + (
            f"<li>not erased: {r.withheld} item(s) in {r.withheld_namespaces} space(s) "
            "others keep, which you may not erase from (ask whoever runs them)</li>"
            if r.withheld
            else ""
        )
        + "</ul>"
        + (f"<table><tr><th>read path</th><th>result</th></tr>{probes}</table>" if probes else "")
        + '<p><a href="/page">back to your memories</a></p></div>'
    )


def own_origins(request: Request) -> set[str]:
    """The origins the page is served at: the configured ones, else the request's own."""
    configured = request.app.state.client.settings.api_origins
    if configured:
        return {o.rstrip("/").lower() for o in configured}
    host = request.headers.get("host")
    return {f"{request.url.scheme}://{host}".lower()} if host else set()


def same_origin(request: Request) -> None:
    """Refuses (`CrossOriginRequest`) a request that does not come from the page's own origin:
    its `Sec-Fetch-Site` (when sent) must be `same-origin`, and its `Origin` (lacking one, its
    `Referer`'s origin) must be one of `own_origins` — another port or subdomain is another
    origin, and a request that says nothing of where it comes from is refused too."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        raise CrossOriginRequest(f"a {site} request may not change anything here", field="origin")
    origin = request.headers.get("origin")
    if origin is None and (referer := request.headers.get("referer")):
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin is None:
        raise CrossOriginRequest("the request does not say where it comes from", field="origin")
    if origin.lower() not in own_origins(request):
        raise CrossOriginRequest(
            f"a request from {origin} may not change anything here", field="origin"
        )


def signed_in(request: Request) -> Session | None:
    """The signed-in person (their session cookie's token), or None (the page then asks to
    sign in). A client over its rate is refused (429), signed in or not."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    try:
        return authenticate(request, token)
    except RateLimited:
        raise
    except MemoryServiceError:
        return None


Who = Annotated[Session | None, Depends(signed_in)]


def changing(request: Request, csrf: Annotated[str | None, Form()] = None) -> Session | None:
    """The signed-in person of a request that changes something: from the page's own origin
    (`same_origin`), and carrying the session's CSRF token; checked before the session is."""
    same_origin(request)
    who = signed_in(request)
    if who is not None and not (csrf and hmac.compare_digest(csrf, csrf_token(who.token))):
        raise CsrfTokenInvalid(
            "the form does not carry this session's CSRF token: reload the page", field="csrf"
        )
    return who


Changing = Annotated[Session | None, Depends(changing)]


def _session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/page",
        max_age=3600,
    )


def sign_in_page(message: str = "", status: int = 200) -> HTMLResponse:
    """The sign-in form, with what went wrong if anything did."""
    note = f"<p class=error>{_e(message)}</p>" if message else ""
    return _page(
        "Sign in",
        note + "<p>Paste the token you were given (<code>memctl token issue …</code> or "
        "your identity provider's) to sign in.</p>"
        '<form method=post action="/page/login" id=sign-in>'
        '<input type=password name=token id=token aria-label="your token" '
        "autocomplete=off required> <button>Sign in</button></form>",
        status=status,
    )


def page_router() -> APIRouter:
    router = APIRouter(prefix="/page", include_in_schema=False)

    @router.get("/login")
    async def login_page(request: Request) -> Response:
        if "token" in request.query_params:  # an old sign-in link: never used, never kept
            return sign_in_page(
                "Sign-in links are not accepted (a token in a link ends up in histories and "
                "logs): paste the token below.",
                status=400,
            )
        return sign_in_page()

    @router.post("/login")
    def login(request: Request, token: Annotated[str, Form()]) -> Response:
        same_origin(request)
        try:
            authenticate(request, token.strip())
        except Unauthenticated as exc:
            return sign_in_page(f"This token does not work: {exc.message}", status=401)
        response = RedirectResponse("/page", status_code=303)
        _session_cookie(response, request, token.strip())
        return response

    @router.post("/logout")
    async def logout(who: Changing) -> Response:
        response = RedirectResponse("/page", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/page")
        response.delete_cookie(SESSION_COOKIE, path="/")  # a session from before it moved
        return response

    @router.get("")
    def home(who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            own = who.caller.principal.own_namespace
            if own is None:
                return _page("Not a person", "<p>This page is for users.</p>", who)
            kept = [
                m
                for page in who.client.export_pages(who.ref, own, versions=False)
                for m in page.memories
                if m.status != "deleted"
            ]
        except MemoryServiceError as exc:
            return _page("Error", f"<p class=error>{_e(exc.message)}</p>", who)
        kept.sort(key=lambda m: m.recorded_at, reverse=True)
        # What is remembered now; the values a newer one replaced (or that were withdrawn)
        # are its history, listed apart and not counted as memories.
        current = [m for m in kept if m.status in ("active", "quarantined")]
        earlier = [m for m in kept if m.status not in ("active", "quarantined")]
        rows = "".join(_row(m, who) for m in current) or (
            "<tr><td colspan=5 id=empty>Nothing is remembered about you.</td></tr>"
        )
        try:
            known = who.client.reader.known_about(who.ref, [own])
        except MemoryServiceError:
            known = []
        count = f"{len(current)} thing{'s' if len(current) != 1 else ''}"
        body = (
            f"<p id=count>{count} remembered about you.</p>"
            "<table id=memories><tr><th>about</th><th>remembered</th><th>source</th>"
            f"<th>valid</th><th></th></tr>{rows}</table>"
            + (
                f"<h2>Earlier values ({len(earlier)})</h2><table id=earlier><tr><th>about</th>"
                "<th>was</th><th>now</th><th>valid</th></tr>"
                + "".join(_earlier_row(m) for m in earlier)
                + "</table>"
                if earlier
                else ""
            )
            + (
                '<p><a href="/page/delete-all" id=delete-all>Delete everything about me…</a></p>'
                if current or earlier
                else ""
            )
            + _known(known)
        )
        return _page("Your memories", body, who)

    @router.get("/memories/{memory_id}")
    def history(memory_id: str, who: Who) -> Response:
        if who is None:
            return sign_in_page()
        try:
            versions = who.client.history(who.ref, memory_id)
        except MemoryServiceError as exc:
            return _page("Not found", f"<p class=error>{_e(exc.message)}</p>", who)
        rows = "".join(
            f'<tr><td data-label="version">{v.version}</td>'
            f'<td data-label="remembered">{_value(v)}</td>'
            f'<td data-label="then">{_e(wording.status(v))}</td>'
            f'<td data-label="source">{_e(wording.source(v))}<br><small>written by '
            f"{_by(v, who)}, {v.recorded_at:%Y-%m-%d %H:%M}</small></td>"
            f'<td data-label="valid">{_validity(v)}</td></tr>'
            for v in versions
        )
        body = (
            "<table id=history><tr><th>version</th><th>remembered</th><th>then</th>"
            f"<th>source</th><th>valid</th></tr>{rows}</table>"
            '<p><a href="/page">back</a></p>'
        )
        topic = wording.topic(versions[-1]) if versions else memory_id
        return _page(f"History of “{topic}”", body, who)

    @router.post("/memories/{memory_id}/correct")
    async def correct(memory_id: str, value: Annotated[str, Form()], who: Changing) -> Response:
        if who is None:
            return sign_in_page()
        try:
            head = who.client.history(who.ref, memory_id)[-1]
            structured = _corrected(head, value)
            body = CorrectionBody(
                memory_id=memory_id,
                structured_value=structured,
                content=value if structured is None else f"{wording.topic(head)}: {value}",
            )
            result = await who.client.write(who.ref, own_namespace(who), correction(who, body))
        except MemoryServiceError as exc:
            return _page("Not corrected", f"<p class=error>{_e(exc.message)}</p>", who)
        o = result.outcome
        return _page(
            "Correction recorded",
            f"<p id=outcome>{_e(o.decision)} ({_e(o.relation or '')}"
            f"{', ' + _e(o.reason) if o.reason else ''})</p><p><a href=/page>back</a></p>",
            who,
        )

    @router.post("/memories/{memory_id}/delete")
    async def delete_one(memory_id: str, who: Changing) -> Response:
        if who is None:
            return sign_in_page()
        try:
            receipt = await who.client.forget(
                who.ref, {"namespace": own_namespace(who), "memory_id": memory_id}
            )
        except MemoryServiceError as exc:
            return _page("Not deleted", f"<p class=error>{_e(exc.message)}</p>", who)
        return _page("Deleted", _receipt(receipt), who)

    _deleting_everything(router)

    @router.get("/export")
    def export(request: Request, who: Who) -> Response:
        if who is None:
            return sign_in_page()
        own = own_namespace(who)
        turns = request.app.state.export_turns
        memories = who.client.export_pages(who.ref, own, limit=streams.STREAM_PAGE, versions=False)
        versions = who.client.export_pages(who.ref, own, limit=streams.STREAM_PAGE)
        first = streams.in_turn(turns, lambda: next(memories))
        return StreamingResponse(
            streams.taking_turns(streams.document(first, memories, versions), turns),
            media_type="application/json",
            headers={
                "Content-Disposition": 'attachment; filename="my-memories.json"',
                "Cache-Control": "no-store",
            },
        )

    return router


def _deleting_everything(router: APIRouter) -> None:
    """ "Delete everything about me": a confirmation page first (one click never erases
    everything), then the deletion and its receipt."""

    @router.get("/delete-all")
    def confirm_delete_all(who: Who) -> Response:
        """The confirmation step: what will go, and a form that says so explicitly."""
        if who is None:
            return sign_in_page()
        return _confirm_page(who)

    @router.post("/delete-all")
    async def delete_all(who: Changing, confirm: Annotated[str | None, Form()] = None) -> Response:
        if who is None:
            return sign_in_page()
        if confirm != "delete everything":  # only the confirmation form says it
            return _confirm_page(who)
        try:
            receipt = await who.client.forget(who.ref, {"namespace": own_namespace(who)})
        except MemoryServiceError as exc:
            return _page("Not deleted", f"<p class=error>{_e(exc.message)}</p>", who)
        return _page("Everything deleted", _receipt(receipt), who)


def _confirm_page(who: Session) -> HTMLResponse:
    return _page(
        "Delete everything about you?",
        "<div class=confirm id=confirm><p>This erases everything remembered about you here: "
        "every memory and its earlier values, the messages they came from and the summaries "
        "of them. It cannot be undone; backups keep it until their retention ends, which the "
        "receipt says.</p>"
        f'<form method=post action="/page/delete-all">{_csrf_input(who)}'
        '<input type=hidden name=confirm value="delete everything">'
        "<button class=danger id=confirm-delete-all>Yes, delete everything</button> "
        '<a href="/page">No, keep it</a></form></div>',
        who,
    )


def _corrected(head: MemoryRecord, value: str) -> dict[str, Any] | None:
    """The structured value a corrected text means for the memory's shape: the one field of a
    profile value (`{"channel": "sms"}` → `{"channel": value}`), else None (a text)."""
    if head.structured_value and len(head.structured_value) == 1:
        (field,) = head.structured_value
        return {field: value.strip()}
    if head.structured_value and "value" in head.structured_value:
        return {**head.structured_value, "value": value.strip()}
    return None
