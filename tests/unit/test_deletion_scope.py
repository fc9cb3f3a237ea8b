"""Requests in words, and how verification finds erased text anywhere."""

from __future__ import annotations

import pytest

from governed_memory.memory.deletion import _spread, resolve_words
from governed_memory.memory.errors import InvalidInput, UnauthorizedNamespace
from governed_memory.memory.fingerprints import Fingerprints, fingerprint, new_salt
from governed_memory.memory.subjects import canonical_subject

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


def test_words_resolve_against_the_keys_held() -> None:
    held = {"reply.language", "notification.preference", "delivery.window"}
    # named outright, and held
    assert resolve_words("忘掉我的通知偏好", NS, held).key == "notification.preference"
    # the words name profile.language; the namespace holds reply.language
    text = "Please forget which language I want replies in"
    assert resolve_words(text, NS, held).key == "reply.language"
    # two held keys could be meant: refused, naming both
    with pytest.raises(InvalidInput, match=r"reply\.language.*ui\.language"):
        resolve_words(text, NS, {"reply.language", "ui.language"})
    # a known key the namespace does not hold: that key (the receipt says nothing matched)
    assert resolve_words("忘掉我的通知偏好", NS, {"delivery.window"}).key == (
        "notification.preference"
    )


@pytest.mark.parametrize(
    ("ref", "stored"),
    [
        ("user:456", "user:456"),
        ("user:shop-a/456", "user:456"),
        ("tenant/shop-a/user/456", "user:456"),
        ("tenant/shop-a", "tenant:shop-a"),
        (" order:A-7781 ", "order:A-7781"),
    ],
)
def test_every_subject_form_is_the_stored_one(ref: str, stored: str) -> None:
    assert canonical_subject(ref, "shop-a") == stored


@pytest.mark.parametrize("ref", ["bob", "user:", "user:a b", "USER:1"])
def test_an_unknown_subject_form_is_refused(ref: str) -> None:
    with pytest.raises(InvalidInput):
        canonical_subject(ref, "shop-a")


@pytest.mark.parametrize("ref", ["user:shop-b/456", "tenant/shop-b/user/456"])
def test_another_tenants_subject_is_out_of_reach(ref: str) -> None:
    with pytest.raises(UnauthorizedNamespace):
        canonical_subject(ref, "shop-a")


def _prints(*texts: str) -> Fingerprints:
    salt = new_salt()
    return Fingerprints(salt, [fingerprint(t, salt) for t in texts])


def test_fingerprints_match_ignoring_spacing_and_punctuation() -> None:
    needles = _prints("以后物流更新请优先短信通知", "好的", "Leave it at the side door")
    assert needles.found_in("摘要：用户说「以后物流更新，请优先短信通知」。")
    assert needles.found_in("Note: LEAVE it at the side-door, thanks")
    assert not needles.found_in("以后物流更新请优先邮件通知")
    assert not needles.found_in("Leave it at the front door")
    assert not needles.found_in("好的，谢谢")  # too short to look for by text
    assert not _prints("好的")


def test_fingerprints_keep_no_text_and_differ_by_salt() -> None:
    text = "my dog is called Zqmarker"
    a, b = fingerprint(text, new_salt()), fingerprint(text, new_salt())
    assert a != b
    assert "zqmarker" not in a.casefold()
    assert len(a.split()) == len("mydogiscalledzqmarker") - 3
    # a wrong salt recognises nothing
    assert not Fingerprints(new_salt(), [a]).found_in(text)


def test_a_spread_is_bounded_and_starts_at_the_first() -> None:
    items = [str(i) for i in range(100)]
    picked = _spread(items, 10)
    assert len(picked) == 10
    assert picked[0] == "0"
    assert _spread(items[:3], 10) == items[:3]
