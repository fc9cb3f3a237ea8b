"""The memory page in a real headless browser (Debian's chromium, driven by playwright): a
person signs in by posting their token, sees each memory with its source, validity and writer,
reads its history, corrects a value, deletes one memory and then everything, sees the receipts,
and downloads the export. Each page is screenshotted and the screenshot checked; with
`MEMORY_DOCS_SCREENSHOTS=1` they are also written to `docs/` for docs/api.md."""

from __future__ import annotations

import json
import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from governed_memory.shell.client import MemoryClient
from tests.conftest import IN_CI
from tests.factories import T0, sms

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DOCS = Path(__file__).parents[2] / "docs"


def _browser_or_skip() -> None:
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail("CI=true and Debian's chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")


def _png_size_and_colours(data: bytes) -> tuple[int, int, int]:
    """Width, height and (a lower bound of) the distinct colours of a PNG: a screenshot of a
    rendered page is wide and holds more than a blank page's one colour."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    chunks, at = [], 8
    while at < len(data):
        length = struct.unpack(">I", data[at : at + 4])[0]
        kind = data[at + 4 : at + 8]
        if kind == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    return width, height, len(set(raw[:200_000]))


async def _shot(page: object, name: str, tmp_path: Path) -> None:
    data: bytes = await page.screenshot(full_page=True)  # type: ignore[attr-defined]
    width, height, colours = _png_size_and_colours(data)
    assert width >= 800
    assert height >= 200
    assert colours > 8, f"{name} looks blank"
    (tmp_path / f"{name}.png").write_bytes(data)
    if os.environ.get("MEMORY_DOCS_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        (DOCS / f"{name}.png").write_bytes(data)


async def test_a_person_sees_corrects_exports_and_deletes_in_a_browser(
    served: str, client: MemoryClient, tmp_path: Path
) -> None:
    _browser_or_skip()
    from playwright.async_api import async_playwright

    await client.write(BOB, BOB_NS, sms(), at=T0)
    await client.write(
        BOB, BOB_NS, {"kind": "episodic", "content": "Asked to leave parcels with the concierge"}
    )
    token = client.token_for(BOB)
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            context = await browser.new_context(
                viewport={"width": 1100, "height": 700}, accept_downloads=True
            )
            page = await context.new_page()
            # without signing in: the sign-in page, nothing else
            await page.goto(f"{served}/page")
            assert await page.locator("h1").inner_text() == "Sign in"
            await page.fill("#token", "forged")
            await page.click("#sign-in button")
            assert "does not work" in await page.locator(".error").inner_text()
            await _shot(page, "page-sign-in", tmp_path)

            # signing in posts the token: it is in no URL, before or after
            await page.fill("#token", token)
            await page.click("#sign-in button")
            assert page.url == f"{served}/page"
            assert token not in page.url
            rows = page.locator("#memories tr[data-memory]")
            assert await rows.count() == 2
            table = await page.locator("#memories").inner_text()
            assert "notification.preference" in table
            assert '"channel": "sms"' in table
            assert BOB in table  # who wrote it
            assert "user_assertion" in table  # its source
            await _shot(page, "page-memories", tmp_path)

            # the history of the preference
            await page.click("text=notification.preference")
            assert "History of" in await page.locator("h1").inner_text()
            assert await page.locator("#history tr").count() == 2  # header + version 1
            await _shot(page, "page-history", tmp_path)
            await page.go_back()

            # correct it: a user assertion through the write pipeline
            pref = page.locator("#memories tr", has_text="notification.preference")
            await pref.locator("input[name=value]").fill("email")
            await pref.locator("button", has_text="Correct").click()
            assert await page.locator("h1").inner_text() == "Correction recorded"
            assert (await page.locator("#outcome").inner_text()).startswith(("update", "add"))
            await _shot(page, "page-corrected", tmp_path)
            await page.goto(f"{served}/page")
            table = await page.locator("#memories").inner_text()
            assert '"channel": "email"' in table

            # download the export
            async with page.expect_download() as download_info:
                await page.click("text=export")
            download = await download_info.value
            exported = json.loads(Path(await download.path()).read_text())
            assert exported["namespace"] == BOB_NS
            assert len(exported["memories"]) >= 3

            # delete the parcel memory: the receipt
            parcel = page.locator("#memories tr", has_text="concierge")
            await parcel.locator("button", has_text="Delete").click()
            assert await page.locator("#receipt [data-status]").get_attribute("data-status") == (
                "passed"
            )
            await _shot(page, "page-receipt", tmp_path)

            # and everything
            await page.goto(f"{served}/page")
            await page.click("#delete-all")
            assert await page.locator("h1").inner_text() == "Everything deleted"
            assert await page.locator("#receipt [data-status]").get_attribute("data-status") == (
                "passed"
            )
            await page.goto(f"{served}/page")
            assert await page.locator("#empty").count() == 1
            await _shot(page, "page-empty", tmp_path)
        finally:
            await browser.close()
    assert client.stores.canonical.records.namespace_heads(BOB_NS) == [] or all(
        r.status == "deleted" for r in client.stores.canonical.records.namespace_heads(BOB_NS)
    )
