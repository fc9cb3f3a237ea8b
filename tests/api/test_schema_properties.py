"""Property-based tests of the published OpenAPI document (schemathesis, bounded examples):
whatever a client sends that the schema admits, and much that it does not, the API answers
without a server error, and every answer, refusals included, matches the schema the document
publishes for its status (a refusal is a `Problem`, sent as `application/problem+json`)."""

from __future__ import annotations

import asyncio
from typing import Any

from governed_memory.shell.client import MemoryClient

BOB = "user:shop-a/456"


def _checker(
    operation: Any,
    url: str,
    headers: dict[str, str],
    examples: int,
    failures: list[str],
    calls: dict[str, int],
) -> Any:
    """A hypothesis test of one operation: each case is called and checked."""
    import hypothesis
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import response_schema_conformance

    @hypothesis.settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    @hypothesis.given(case=operation.as_strategy())
    def check(case: Any) -> None:
        response = case.call(base_url=url, headers=headers, timeout=60)
        calls[operation.label] = calls.get(operation.label, 0) + 1
        checks: list[Any] = [not_a_server_error, response_schema_conformance]
        try:
            case.validate_response(response, checks=checks)
        except Exception as exc:
            failures.append(f"{operation.label}: {type(exc).__name__}: {str(exc)[:300]}")
            raise

    return check


def _fuzz(url: str, token: str, examples: int) -> tuple[list[str], dict[str, int]]:
    import schemathesis

    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    failures: list[str] = []
    calls: dict[str, int] = {}
    headers = {"Authorization": f"Bearer {token}"}
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]

        check = _checker(operation, url, headers, examples, failures, calls)
        try:
            check()
        except Exception as exc:  # a failure is recorded; on with the other operations
            if not failures or not failures[-1].startswith(operation.label):
                failures.append(f"{operation.label}: {type(exc).__name__}: {str(exc)[:300]}")
    return failures, calls


async def test_the_api_holds_to_its_published_schema(served: str, client: MemoryClient) -> None:
    failures, calls = await asyncio.to_thread(_fuzz, served, client.token_for(BOB), 6)
    assert failures == []
    # every published operation was called, several times
    assert len(calls) >= 20, calls
    assert "POST /v1/recall" in calls
    assert all(n >= 1 for n in calls.values())
