from __future__ import annotations

import pytest

from governed_memory.memory.errors import InvalidNamespace
from governed_memory.memory.namespaces import matches_any, parse_namespace, parse_pattern


@pytest.mark.parametrize(
    "text",
    [
        "tenant/shop-a",
        "tenant/shop-a/user/123",
        "tenant/shop-a/team/ops",
        "tenant/shop-a/project/p-1",
        "tenant/shop-a/agent/support-bot",
        "tenant/shop-a/thread/t1",
    ],
)
def test_valid_namespaces_round_trip(text: str) -> None:
    assert str(parse_namespace(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tenant",
        "tenant/",
        "shop-a/user/123",
        "tenant/shop-a/user",
        "tenant/shop-a/users/123",
        "tenant/shop-a/user/123/extra",
        "tenant/shop a/user/123",
        "tenant/shop-a/user/",
        "tenant/-x/user/1",
        "tenant/shop-a/user/../1",
        "tenant/shop-a/user/*",
    ],
)
def test_invalid_namespaces_are_refused(text: str) -> None:
    with pytest.raises(InvalidNamespace):
        parse_namespace(text)


def test_patterns_match_one_or_many_segments() -> None:
    assert matches_any(["tenant/shop-a/user/*"], "tenant/shop-a/user/123")
    assert not matches_any(["tenant/shop-a/user/*"], "tenant/shop-a/team/123")
    assert not matches_any(["tenant/shop-a/user/*"], "tenant/shop-a")
    assert matches_any(["tenant/shop-a/**"], "tenant/shop-a")
    assert matches_any(["tenant/shop-a/**"], "tenant/shop-a/thread/t1")
    assert not matches_any(["tenant/shop-a/**"], "tenant/shop-b/user/123")
    assert not matches_any(["tenant/shop-a/user/*"], "tenant/shop-ab/user/123")


@pytest.mark.parametrize(
    "pattern",
    ["tenant/*/user/1", "tenant/**", "tenant/shop-a/**/user", "tenant/shop-a/bogus/*", "shop-a/**"],
)
def test_patterns_never_span_tenants_or_invent_scopes(pattern: str) -> None:
    with pytest.raises(InvalidNamespace):
        parse_pattern(pattern)
