"""RuleExtractor on what held-out 34 (once read, then development data) showed, each as general
behaviour in other words than the corpus's: a space typed between Chinese words parts clauses
as a comma does; a request to remember in the middle of a sentence ("…  记住了哈  …") keeps
what was said before it, one at its start with a greeting before it keeps what follows; a
language said to be fine after an earlier wish recalled is chosen; a channel asked for the
shop's notifications is chosen; a clause with its subject left out goes on with the subject
before it, so a husband's size is never the user's; a family member's skin or joints are
family facts; a weight after a height goes on with it."""

from __future__ import annotations

import pytest

from tests.unit.extracting import PREF, contents, kept


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我是左利手 鼠标要买左手的 有吗", "左利手"),
        ("本人对芒果过敏😂 你们那个果干里有芒果吗", "对芒果过敏"),
        ("我有高血压 盐要买低钠的", "高血压"),
    ],
)
def test_a_space_between_chinese_words_parts_clauses(text: str, words: str) -> None:
    said = contents(text)
    assert len(said) == 1
    assert words in said[0]
    assert "有吗" not in said[0]


def test_a_space_chosen_channel_is_read_in_its_own_clause() -> None:
    assert (PREF, {"channel": "wechat"}) in kept("那个 以后有通知微信上跟我说就行 电话我不怎么接")


def test_a_space_beside_latin_words_parts_nothing() -> None:
    assert contents("我用的 iPhone 15 Pro，屏幕有点小") == ["我用的 iPhone 15 Pro"]


def test_a_request_to_remember_in_the_middle_keeps_what_was_said_before_it() -> None:
    assert contents("以后快递都放物业 记住了哈 我白天上班") == ["以后快递都放物业"]


@pytest.mark.parametrize("text", ["你好，帮我记一下，我穿38码", "在吗 帮我记一下 我穿38码"])
def test_a_request_to_remember_after_a_greeting_keeps_what_follows(text: str) -> None:
    assert contents(text) == ["我穿38码"]


def test_a_greeting_alone_is_never_remembered() -> None:
    assert not contents("你好，帮我记一下")
    assert not contents("Hi, please remember that")


def test_a_language_said_to_be_fine_after_an_earlier_wish_is_chosen() -> None:
    chosen = [
        v
        for k, v in kept("I asked for Italian replies before, but English is fine now")
        if k == "profile.language"
    ]
    assert chosen == [{"value": "en"}]


def test_a_channel_asked_for_notifications_is_chosen() -> None:
    assert (PREF, {"channel": "whatsapp"}) in kept("could you guys use whatsapp for updates?")


@pytest.mark.parametrize(
    "text",
    ["帮我儿子挑件外套 他一米五 平时穿160码", "给我爸买鞋 他脚宽 一般穿43码"],
)
def test_a_family_members_size_said_without_a_subject_is_not_the_users(text: str) -> None:
    assert not any("码" in c for c in contents(text))


def test_the_users_own_size_without_a_subject_is_still_theirs() -> None:
    assert contents("平时穿M码，偏宽松") == ["平时穿M码，偏宽松"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("my dad has eczema so we buy unscented soap", "dad has eczema"),
        ("my husband has arthritis so the lids must be easy to open", "arthritis"),
        ("我妈有关节炎 瓶盖要好拧的", "关节炎"),
    ],
)
def test_a_family_members_skin_or_joints_are_family_facts(text: str, words: str) -> None:
    assert any(words in c for c in contents(text))


def test_a_weight_after_a_height_goes_on_with_it() -> None:
    assert contents("我一米六五 一百斤 裤子穿S会短吗") == ["我一米六五，一百斤"]


@pytest.mark.parametrize(
    "text",
    ["我还没吃过你们家的牛肉干 先来一包", "我没试过这个牌子 好用吗"],
)
def test_something_not_yet_tried_is_no_lack(text: str) -> None:
    assert not contents(text)


def test_sticking_with_a_choice_is_a_preference() -> None:
    assert any("oat milk" in c for c in contents("gonna stick with oat milk from now on"))


def test_a_wish_made_standing_by_the_clause_after_it_is_kept() -> None:
    assert contents("麻烦转告骑手 放到北门快递柜就行 以后都这样哈") == ["放到北门快递柜就行"]
    assert not any("七点" in c for c in contents("跟送货的说下，今天晚上七点以后再送，我不在家"))
