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


async def _shot(page: object, name: str, tmp_path: Path, width_at_least: int = 1280) -> None:
    data: bytes = await page.screenshot(full_page=True)  # type: ignore[attr-defined]
    width, height, colours = _png_size_and_colours(data)
    assert width >= width_at_least
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
                viewport={"width": 1280, "height": 800}, accept_downloads=True
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
            await page.locator("#memories").wait_for()  # the signed-in page, once it has loaded
            assert page.url == f"{served}/page"
            assert token not in page.url
            rows = page.locator("#memories tr[data-memory]")
            assert await rows.count() == 2
            table = await page.locator("#memories").inner_text()
            # sentences a person reads: no code keys, no JSON
            assert "How to notify" in table
            assert "Notify you by text message (SMS)." in table
            assert "you said so" in table  # its source
            assert "written by you" in table
            for code in ("notification.preference", '"channel"', "user_assertion", BOB):
                assert code not in table, code
            assert await page.locator("#count").inner_text() == "2 things remembered about you."
            await _shot(page, "page-memories", tmp_path)

            # the history of the preference
            await page.click("#memories a:has-text('How to notify')")
            assert "History of" in await page.locator("h1").inner_text()
            assert await page.locator("#history tr").count() == 2  # header + version 1
            await _shot(page, "page-history", tmp_path)
            await page.go_back()

            # correct it: a user assertion through the write pipeline
            pref = page.locator("#memories tr", has_text="How to notify")
            await pref.locator("input[name=value]").fill("email")
            await pref.locator("button", has_text="Correct").click()
            assert await page.locator("h1").inner_text() == "Correction recorded"
            assert (await page.locator("#outcome").inner_text()).startswith(("update", "add"))
            await _shot(page, "page-corrected", tmp_path)
            await page.goto(f"{served}/page")
            table = await page.locator("#memories").inner_text()
            assert "Notify you by email." in table
            # the value it replaced is history: listed apart, not counted as a memory
            assert await page.locator("#count").inner_text() == "2 things remembered about you."
            earlier = await page.locator("#earlier").inner_text()
            assert "Notify you by text message (SMS)." in earlier
            assert "replaced by a newer value" in earlier

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

            # at phone width, the page fits the screen: no sideways scrolling
            phone = await browser.new_context(viewport={"width": 390, "height": 844})
            small = await phone.new_page()
            await small.goto(f"{served}/page")
            await small.fill("#token", token)
            await small.click("#sign-in button")
            await small.locator("#memories").wait_for()  # count() does not wait for the page
            assert await small.locator("#memories tr[data-memory]").count() == 1
            wide = await small.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, f"{wide} px wide at a 390 px screen"
            await _shot(small, "page-memories-phone", tmp_path, width_at_least=390)
            await phone.close()

            # everything: one click asks first, and erases nothing until confirmed
            await page.goto(f"{served}/page")
            await page.click("#delete-all")
            assert await page.locator("h1").inner_text() == "Delete everything about you?"
            await _shot(page, "page-confirm-delete-all", tmp_path)
            await page.click("text=No, keep it")
            assert await page.locator("#memories tr[data-memory]").count() == 1
            await page.click("#delete-all")
            await page.click("#confirm-delete-all")
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
