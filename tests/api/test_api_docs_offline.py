"""The API's documentation page works with no network: Swagger UI (`/docs`) loads its scripts
and styles from the API itself, and renders every operation in a real browser (Debian's
chromium) that may reach nothing but the API."""

from __future__ import annotations

import httpx

from tests.api.test_memory_page import CHROMIUM, _browser_or_skip


async def test_the_docs_render_every_operation_offline(served: str) -> None:
    _browser_or_skip()
    from playwright.async_api import Route, async_playwright

    async with httpx.AsyncClient() as http:
        operations = sum(
            len(methods)
            for methods in (await http.get(f"{served}/openapi.json")).json()["paths"].values()
        )
    elsewhere: list[str] = []

    async def only_the_api(route: Route) -> None:
        if route.request.url.startswith(served):
            await route.continue_()
        else:
            elsewhere.append(route.request.url)
            await route.abort()

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = await browser.new_page()
            await page.route("**/*", only_the_api)
            await page.goto(f"{served}/docs")
            await page.wait_for_selector(".opblock", timeout=30_000)
            assert await page.locator(".opblock").count() == operations
            # the bearer scheme is declared: the page offers to authorize with a token
            assert await page.locator("button.authorize").count() == 1
        finally:
            await browser.close()
    assert elsewhere == []
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{served}/redoc")).status_code == 404  # no page that needs a CDN
