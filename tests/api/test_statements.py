"""A write that keeps nothing says so: an observe answers, sentence by sentence, what was kept
and what was not and why (chit-chat, someone else's wish, a one-off, a secret, an injection),
through the client, the HTTP API, MCP and memctl alike — never a silent success."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.models import CandidateOutcome
from governed_memory.memory.settings import Settings
from governed_memory.memory.write.statements import statements_of
from governed_memory.shell.client import MemoryClient
from tests.api.door import app_client
from tests.cli.test_memctl import env_for, memctl

BOB = "user:shop-a/456"
BOB_NS = "tenant/shop-a/user/456"
SECRET = "Qz81kPw!7x"  # its "!" does not end a sentence: it is redacted first
MIXED = (
    "Hi there! I prefer SMS for notifications. My sister prefers email. "
    f"My password is {SECRET}. Just this time, send it by email."
)


@pytest.fixture
async def api(client: MemoryClient) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(client) as http:
        yield http


def _by_text(statements: list[dict[str, Any]]) -> dict[str | None, dict[str, Any]]:
    return {s["text"]: s for s in statements}


def _check_mixed(statements: list[dict[str, Any]]) -> None:
    said = _by_text(statements)
    assert "I prefer SMS for notifications" in said, statements
    assert said["I prefer SMS for notifications"]["kept"] is True
    assert said["I prefer SMS for notifications"]["reasons"] == []
    for text, reason in (
        ("Hi there", "not_memorable"),
        ("My sister prefers email", "third_party"),
        ("Just this time, send it by email", "temporary"),
    ):
        assert said[text]["kept"] is False, said[text]
        assert said[text]["reasons"] == [reason], said[text]
        assert said[text]["why"]
    # the secret's sentence is reported, but not repeated back
    (refused,) = [s for s in statements if s["text"] is None]
    assert (refused["kept"], refused["reasons"]) == (False, ["secret"])
    assert MIXED[refused["start"] : refused["end"]].endswith(SECRET)
    assert SECRET not in str(statements)
    assert len(statements) == 5


async def test_an_observe_says_what_each_sentence_became(client: MemoryClient) -> None:
    result = await client.observe(BOB, BOB_NS, MIXED)
    _check_mixed([s.model_dump() for s in result.statements])
    for s in result.statements:
        for i in s.outcomes:  # each names the outcomes about it, whose span lies in it
            span = result.outcomes[i].span
            assert span is None or (span[0] < s.end and s.start < span[1])
    # only the preference is stored
    heads = client.stores.canonical.records.namespace_heads(BOB_NS)
    assert [r.key for r in heads] == ["notification.preference"]
    # nothing at all worth keeping: every sentence says so
    idle = await client.observe(BOB, BOB_NS, "Thanks! Have a nice day.")
    assert [(s.text, s.kept, s.reasons) for s in idle.statements] == [
        ("Thanks", False, ["not_memorable"]),
        ("Have a nice day", False, ["not_memorable"]),
    ]


async def test_the_api_mcp_and_memctl_report_statements(
    api: httpx.AsyncClient,
    client: MemoryClient,
    settings: Settings,
    temporal_env: WorkflowEnvironment,
) -> None:
    token = client.token_for(BOB)
    response = await api.post(
        "/v1/observe",
        headers={"Authorization": f"Bearer {token}"},
        json={"namespace": BOB_NS, "text": MIXED},
    )
    assert response.status_code == 200, response.text
    _check_mixed(response.json()["statements"])

    rc, _, err = await memctl(
        env_for(settings, temporal_env),
        "observe",
        "--principal",
        BOB,
        "--namespace",
        BOB_NS,
        "--text",
        "My sister prefers email. I love hiking in the Alps.",
    )
    assert rc == 0, err
    assert "not kept: “My sister prefers email”: it is about someone else" in err
    assert "I love hiking" not in err  # kept: only what was not kept is listed


def test_statements_follow_the_outcomes_spans() -> None:
    """Pure: an outcome about the whole text speaks for every sentence no span names; an
    outcome straddling two sentences belongs to both; a sentence with no outcome at all is
    not memorable."""
    text = "One. Two three. Four"
    whole = CandidateOutcome(decision="no_op", reason="not_memorable")
    assert [s.reasons for s in statements_of(text, [whole])] == [["not_memorable"]] * 3
    both = CandidateOutcome(decision="add", key="k", span=(0, 9))
    found = statements_of(text, [both])
    assert [(s.text, s.kept, s.outcomes) for s in found] == [
        ("One", True, [0]),
        ("Two three", True, [0]),
        ("Four", False, []),
    ]
    assert found[2].reasons == ["not_memorable"]
    assert statements_of("", []) == []
