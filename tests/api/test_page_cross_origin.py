"""The memory page against a page of another origin, in a real browser (Debian's chromium,
driven by playwright): a person is signed in at `memctl serve` (http://127.0.0.1:PORT/page); a
page served from another port of the same host (same site: SameSite=Strict sends the cookie)
posts the page's "delete everything" form, the same form with the person's own CSRF token
leaked to it, a sign-in form with the attacker's token, and a body-only request to the API.
None of it changes anything: the person's five memories stay, and they stay signed in as
themselves."""

from __future__ import annotations

import contextlib
import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from governed_memory.memory.metrics import free_port
from governed_memory.shell.client import MemoryClient
from tests.api.test_memory_page import CHROMIUM, _browser_or_skip

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
MALLORY = "user:shop-a/666"


@contextlib.contextmanager
def _attacker(pages: dict[str, str]) -> Iterator[str]:
    """Serves `pages` (path → HTML) from another port of 127.0.0.1; yields its origin."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _form(action: str, fields: dict[str, str]) -> str:
    inputs = "".join(
        f'<input type=hidden name="{html.escape(k)}" value="{html.escape(v)}">'
        for k, v in fields.items()
    )
    return (
        f'<!doctype html><body><form method=post action="{html.escape(action)}">{inputs}'
        "<button>win a prize</button></form><script>document.forms[0].submit()</script></body>"
    )


def _active(client: MemoryClient) -> int:
    heads = client.stores.canonical.records.namespace_heads(BOB_NS)
    return sum(1 for h in heads if h.status == "active")


async def test_a_page_of_another_port_cannot_delete_everything(
    served: str, client: MemoryClient
) -> None:
    _browser_or_skip()
    from playwright.async_api import async_playwright

    for i in range(5):
        await client.write(
            BOB, BOB_NS, {"kind": "episodic", "content": f"Parcel {i} goes to the neighbour"}
        )
    assert _active(client) == 5
    token = client.token_for(BOB)
    pages: dict[str, str] = {}
    with _attacker(pages) as origin:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                context = await browser.new_context()
                # Bob is signed in: his session cookie, as his browser holds it
                await context.add_cookies(
                    [
                        {
                            "name": "memory_session",
                            "value": token,
                            "url": served,
                            "httpOnly": True,
                            "sameSite": "Strict",
                        }
                    ]
                )
                page = await context.new_page()
                await page.goto(f"{served}/page")
                assert await page.locator("#memories tr[data-memory]").count() == 5

                # the page's "delete everything" form, posted from another port
                pages["/plain.html"] = _form(f"{served}/page/delete-all", {})
                await page.goto(f"{origin}/plain.html")
                await page.wait_for_url(f"{served}/page/delete-all")
                shown = html.unescape(await page.content())
                print(f"plain: {_active(client)} memories left; the browser got {shown[:240]}")
                assert _active(client) == 5
                assert "cross_origin_request" in shown

                # the same with Bob's own CSRF token (as if it had leaked)
                await page.goto(f"{served}/page")
                csrf = await page.locator("input[name=csrf]").first.get_attribute("value")
                assert csrf
                pages["/leaked.html"] = _form(f"{served}/page/delete-all", {"csrf": csrf})
                await page.goto(f"{origin}/leaked.html")
                await page.wait_for_url(f"{served}/page/delete-all")
                shown = html.unescape(await page.content())
                print(f"leaked: {_active(client)} memories left; the browser got {shown[:240]}")
                assert _active(client) == 5
                assert "cross_origin_request" in shown

                # signing Bob's browser in as Mallory (login CSRF)
                pages["/login.html"] = _form(
                    f"{served}/page/login", {"token": client.token_for(MALLORY)}
                )
                await page.goto(f"{origin}/login.html")
                await page.wait_for_url(f"{served}/page/login")
                assert "cross_origin_request" in await page.content()

                # the API, with only the cookie and a body read as JSON
                pages["/api.html"] = (
                    "<!doctype html><body><script>"
                    f"fetch('{served}/v1/forget', {{method: 'POST', mode: 'no-cors', "
                    "credentials: 'include', body: new Blob(["
                    f'JSON.stringify({{scope: {{namespace: "{BOB_NS}"}}}})])}})'
                    ".then(() => document.title = 'sent', () => document.title = 'failed')"
                    "</script></body>"
                )
                await page.goto(f"{origin}/api.html")
                await page.wait_for_function("document.title !== ''")
                assert _active(client) == 5

                # still Bob, with his five memories; and the page's own form still works
                await page.goto(f"{served}/page")
                header = await page.locator("header").inner_text()
                assert BOB in header
                assert MALLORY not in header
                assert await page.locator("#memories tr[data-memory]").count() == 5
                await page.click("#delete-all")
                await page.click("#confirm-delete-all")
                assert await page.locator("h1").inner_text() == "Everything deleted"
            finally:
                await browser.close()
    assert _active(client) == 0
