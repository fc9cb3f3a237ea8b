"""Requests in words, and how verification finds erased text anywhere."""

from __future__ import annotations

import pytest

from memory.deletion import Needles, _spread, resolve_words
from memory.errors import InvalidInput

NS = "tenant/shop-a/user/123"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("忘掉我的通知偏好", "notification.preference"),
        ("Please forget how I like to be notified", "notification.preference"),
        ("删除你记得的关于我的一切", None),
        ("Forget everything you know about me", None),
    ],
)
def test_words_resolve_to_a_scope(text: str, key: str | None) -> None:
    scope = resolve_words(text, NS)
    assert scope.namespace == NS
    assert scope.key == key


@pytest.mark.parametrize(
    "text",
    [
        "今天天气不错",  # asks nothing
        "忘掉那个东西",  # asks, but not what
        "忘掉我的通知偏好和联系时间",  # two things: one request each, never half done
    ],
)
def test_unclear_words_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        resolve_words(text, NS)


def test_needles_match_ignoring_spacing_and_punctuation() -> None:
    needles = Needles(["以后物流更新请优先短信通知", "好的"])
    assert needles.found_in("摘要：用户说「以后物流更新，请优先短信通知」。")
    assert not needles.found_in("以后物流更新请优先邮件通知")
    assert not needles.found_in("好的，谢谢")  # too short to look for by text
    assert not Needles(["好的"])


def test_a_spread_is_bounded_and_starts_at_the_first() -> None:
    items = [str(i) for i in range(100)]
    picked = _spread(items, 10)
    assert len(picked) == 10
    assert picked[0] == "0"
    assert _spread(items[:3], 10) == items[:3]
