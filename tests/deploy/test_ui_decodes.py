"""The embedded stack's Temporal UI decodes once an operator signs in at the codec server, with
nothing set by hand in the UI: the UI runs behind shell/ui_proxy.py, which passes everything
through but its settings, where the codec is told to send the sign-in cookie. Proved in Debian's
chromium against a real dev server, a real codec server and a real encrypted history."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from temporalio.client import Client

from governed_memory.memory.metrics import free_port
from governed_memory.shell.codec import data_converter
from governed_memory.shell.codec_server import OperatorTokens
from governed_memory.shell.devserver import DevServer
from governed_memory.shell.ui_proxy import SETTINGS, proxied_ui, with_credentials
from tests.api.test_memory_page import CHROMIUM, _browser_or_skip
from tests.codec_keys import KEYRING, codec_server_running


def test_the_settings_say_to_include_credentials_only_with_an_endpoint() -> None:
    on = with_credentials({"Codec": {"Endpoint": "http://127.0.0.1:8888"}, "Version": "2"})
    assert on == {
        "Codec": {"Endpoint": "http://127.0.0.1:8888", "IncludeCredentials": True},
        "Version": "2",
    }
    off = {"Codec": {"Endpoint": "", "IncludeCredentials": False}}
    assert with_credentials(off) == {"Codec": {"Endpoint": "", "IncludeCredentials": False}}


@pytest.fixture
def codec_server(tmp_path: Path) -> Iterator[tuple[str, str, int]]:
    """A codec server (url, an operator's token) answering the UI origin of the port given."""
    ui_port = free_port()
    tokens = OperatorTokens(tmp_path / "codec-operators.json")
    token = tokens.issue("alice-ops")
    with codec_server_running(tokens, [f"http://127.0.0.1:{ui_port}"]) as url:
        yield url, token, ui_port


async def test_the_ui_decodes_after_the_codec_sign_in_alone(
    codec_server: tuple[str, str, int], tmp_path: Path
) -> None:
    _browser_or_skip()
    from playwright.async_api import async_playwright

    codec_url, token, ui_port = codec_server
    server = DevServer(
        tmp_path / "temporal.db",
        port=free_port(),
        ui_port=free_port(),
        ui_codec_endpoint=codec_url,
    )
    await asyncio.to_thread(server.start)
    try:
        async with proxied_ui(server.ui_port, ui_port):
            ui = f"http://127.0.0.1:{ui_port}"
            async with httpx.AsyncClient() as http:
                settings = (await http.get(f"{ui}{SETTINGS}")).json()
                assert settings["Codec"] == {
                    **settings["Codec"],
                    "Endpoint": codec_url,
                    "IncludeCredentials": True,
                }
                assert (await http.get(f"{ui}/")).status_code == 200
            # a run whose input is encrypted with the service's key (no worker: it waits)
            marker = f"Zqdecoded-{uuid.uuid4().hex[:8]}"
            temporal = await Client.connect(server.address, data_converter=data_converter(KEYRING))
            handle = await temporal.start_workflow(
                "WriteMemory",
                {"marker": marker},
                id=f"ui-{uuid.uuid4().hex[:8]}",
                task_queue="nobody-polls",
            )
            page_url = f"{ui}/namespaces/default/workflows/{handle.id}/{handle.result_run_id}"
            async with async_playwright() as p:
                browser = await p.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    page = await browser.new_page()
                    # not signed in: the UI shows the run, never what its input says
                    await page.goto(page_url)
                    await page.wait_for_selector(f"text={handle.id}", timeout=60_000)
                    await page.wait_for_timeout(2000)
                    assert marker not in await page.inner_text("body")
                    # the operator signs in at the codec server, and only there
                    await page.goto(f"{codec_url}/login")
                    await page.fill("input[name=token]", token)
                    await page.click("button")
                    assert "Signed in as operator" in await page.inner_text("body")
                    await page.goto(page_url)
                    decoded = page.get_by_text(marker).first
                    await decoded.wait_for(timeout=60_000)
                finally:
                    await browser.close()
    finally:
        server.stop()
