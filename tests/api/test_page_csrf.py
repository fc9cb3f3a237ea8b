"""The memory page over plain HTTP: a request that changes something (sign-in, sign-out,
correct, delete) from another origin (another port, subdomain or scheme, a `null` origin, a
same-site `Sec-Fetch-Site`, or no word of where it comes from) or without its session's CSRF
token is refused with a problem detail and changes nothing; signing in is a POST, and no token
travels in a URL; the page's cookie does not authenticate the API. (In a real browser:
test_page_cross_origin.py.)"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from governed_memory.shell.client import MemoryClient
from tests.api.door import BOB, BOB_NS, SITE, active, app_client, assert_problem, remember, sign_in
from tests.factories import USER
from tests.tokens import claims


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(client) as http:
        yield http


async def test_the_page_changes_nothing_for_another_origin_or_without_its_csrf_token(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    ids = await remember(client, 2)
    csrf = await sign_in(api, client.token_for(BOB))
    someone_elses = await sign_in_elsewhere(client)
    posts: list[tuple[str, dict[str, str]]] = [
        ("/page/delete-all", {}),
        (f"/page/memories/{ids[0]}/delete", {}),
        (f"/page/memories/{ids[0]}/correct", {"value": "front door"}),
        ("/page/logout", {}),
    ]
    other_origins: list[tuple[dict[str, str], str]] = [
        ({"Origin": "http://api:8081"}, "cross_origin_request"),  # another port
        ({"Origin": "http://evil.api"}, "cross_origin_request"),  # another subdomain
        ({"Origin": "https://api"}, "cross_origin_request"),  # another scheme
        ({"Origin": "null"}, "cross_origin_request"),
        ({"Origin": SITE, "Sec-Fetch-Site": "same-site"}, "cross_origin_request"),
        ({"Referer": "http://api:8081/attack.html"}, "cross_origin_request"),
        ({}, "cross_origin_request"),  # says nothing of where it comes from
    ]
    for path, form in posts:
        for headers, code in other_origins:
            refused = await api.post(path, data={**form, "csrf": csrf}, headers=headers)
            assert_problem(refused, 403, code)
        # the page's own origin, without the session's CSRF token (or with another session's)
        for token in (None, "0" * 64, someone_elses):
            data = {**form, **({"csrf": token} if token else {})}
            refused = await api.post(path, data=data, headers={"Origin": SITE})
            assert_problem(refused, 403, "csrf_token_invalid")
    assert active(client) == 2
    assert (await api.get("/page")).text.count("data-memory=") == 2  # still signed in
    # from the page, with its token, but not through the confirmation: it only asks
    asked = await api.post("/page/delete-all", data={"csrf": csrf}, headers={"Origin": SITE})
    assert asked.status_code == 200, asked.text
    assert "Delete everything about you?" in asked.text
    assert active(client) == 2
    # from the page itself (Origin, or only a Referer of the page) with its token: it works
    deleted = await api.post(
        f"/page/memories/{ids[0]}/delete",
        data={"csrf": csrf},
        headers={"Referer": f"{SITE}/page", "Sec-Fetch-Site": "same-origin"},
    )
    assert deleted.status_code == 200, deleted.text
    assert 'data-status="passed"' in deleted.text
    assert active(client) == 1


async def sign_in_elsewhere(client: MemoryClient) -> str:
    """The CSRF token of another person's session."""
    async with app_client(client) as other:
        return await sign_in(other, client.token_for(USER))


async def test_signing_in_is_a_post_and_no_token_travels_in_a_url(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    token = client.token_for(BOB)
    # an old sign-in link signs nobody in, and sets no cookie
    link = await api.get(f"/page/login?token={token}", follow_redirects=False)
    assert link.status_code == 400
    assert "set-cookie" not in link.headers
    assert token not in link.text
    assert "id=sign-in" in link.text
    home = await api.get("/page")
    assert "<h1>Sign in</h1>" in home.text
    assert re.search(r'<form method=post action="/page/login"', home.text)
    assert re.search(r"<input type=password name=token", home.text)
    # a sign-in posted from another origin (login CSRF) is refused and signs nobody in
    crossed = await api.post(
        "/page/login", data={"token": token}, headers={"Origin": "http://api:81"}
    )
    assert_problem(crossed, 403, "cross_origin_request")
    assert "set-cookie" not in crossed.headers
    # a token that proves nobody
    forged = jwt.encode(claims(BOB), Ed25519PrivateKey.generate(), algorithm="EdDSA")
    bad = await api.post("/page/login", data={"token": forged}, headers={"Origin": SITE})
    assert bad.status_code == 401
    assert "does not work" in bad.text
    assert "set-cookie" not in bad.headers
    # the form: a redirect that carries no token, and an HttpOnly, SameSite=Strict cookie
    signed = await api.post("/page/login", data={"token": token}, headers={"Origin": SITE})
    assert signed.status_code == 303
    assert signed.headers["location"] == "/page"
    cookie = signed.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie
    assert "path=/page" in cookie
    page = await api.get("/page")
    assert BOB in page.text
    assert token not in page.text
    assert "form-action 'self'" in page.headers["content-security-policy"]
    # signing out is a POST of the page too
    csrf = re.search(r'name=csrf value="([0-9a-f]+)"', page.text)
    assert csrf
    assert (await api.get("/page/logout")).status_code == 405
    out = await api.post("/page/logout", data={"csrf": csrf.group(1)}, headers={"Origin": SITE})
    assert out.status_code == 303
    assert "<h1>Sign in</h1>" in (await api.get("/page")).text


async def test_the_page_cookie_does_not_authenticate_the_api(
    api: httpx.AsyncClient, client: MemoryClient
) -> None:
    await remember(client, 2)
    await sign_in(api, client.token_for(BOB))
    session = api.cookies.get("memory_session")
    assert session
    cookie = {"Cookie": f"memory_session={session}"}
    # what a page of another origin can send with the cookie: a body without a Content-Type
    # (read as JSON), and simple requests
    forget = await api.post(
        "/v1/forget", content=json.dumps({"scope": {"namespace": BOB_NS}}), headers=cookie
    )
    assert_problem(forget, 401, "unauthenticated")
    assert_problem(await api.delete("/v1/me/memories", headers=cookie), 401, "unauthenticated")
    assert_problem(await api.get("/v1/me/memories", headers=cookie), 401, "unauthenticated")
    assert active(client) == 2


def test_a_receipt_says_what_it_left_in_spaces_others_keep() -> None:
    """A partial deletion's receipt on the page counts what stayed, never where or what."""
    from datetime import UTC, datetime

    from governed_memory.memory.models import DeletionReceipt, DeletionScope
    from governed_memory.shell.http.page import _receipt

    base = DeletionReceipt(
        deletion_id="del_x",
        tenant_id="shop-a",
        subject_ref="user:123",
        scope=DeletionScope(subject_ref="user:shop-a/123"),
        requested_by="user:shop-a/123",
        requested_at=datetime(2026, 1, 1, tzinfo=UTC),
        verification_status="passed",
    )
    assert "not erased" not in _receipt(base)
    partial = _receipt(base.model_copy(update={"withheld": 3, "withheld_namespaces": 2}))
    assert "not erased: 3 item(s) in 2 space(s)" in partial
